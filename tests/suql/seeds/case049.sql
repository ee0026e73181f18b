INSERT INTO restaurants (name) VALUES ('x')
