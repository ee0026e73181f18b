SELECT * FROM restaurants WHERE name LIKE 'A%' OR name ILIKE '%pizza%' OR name NOT LIKE '%x' OR name NOT ILIKE 'y%' OR name ~~ 'z'
