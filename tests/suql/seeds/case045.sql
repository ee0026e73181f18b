SELECT * FROM restaurants
WHERE rating >
