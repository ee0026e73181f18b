SELECT DISTINCT ON (location) name FROM restaurants
