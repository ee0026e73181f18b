WITH top(n, r) AS (SELECT name, rating FROM restaurants ORDER BY rating DESC LIMIT 10), cheap AS (SELECT * FROM restaurants WHERE price = 'cheap') SELECT n FROM top WHERE r > 4
