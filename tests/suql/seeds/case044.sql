SELECT * FROM restaurants WHERE name = 'abc
