SELECT DISTINCT location AS city, name n FROM restaurants
