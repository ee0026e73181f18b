SELECT s.n, c.cuisine FROM (SELECT name FROM restaurants) AS s(n), restaurants AS r, unnest(r.cuisines) AS c(cuisine), LATERAL unnest(r.reviews) rev
