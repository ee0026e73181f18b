SELECT name FROM restaurants UNION SELECT name FROM cafes
