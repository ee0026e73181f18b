SELECT rank() OVER (ORDER BY rating) FROM restaurants
