DELETE FROM restaurants
