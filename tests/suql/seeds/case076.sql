SELECT * FROM restaurants WHERE name SIMILAR TO 'a%'
