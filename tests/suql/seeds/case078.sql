SELECT * FROM restaurants WHERE name LIKE 'a!%' ESCAPE '!'
