SELECT name FROM restaurants EXCEPT ALL SELECT name FROM cafes
