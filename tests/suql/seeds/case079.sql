SELECT EXTRACT(year FROM opened) FROM restaurants
