SELECT * FROM restaurants WHERE name = 'x''; DROP TABLE restaurants; --'
