SELECT * FROM restaurants WHERE name ~ 'a'
