WITH added AS (INSERT INTO restaurants (name) VALUES ('x') RETURNING name) SELECT * FROM added
