SELECT FROM restaurants
