SELECT cuisines[1] FROM restaurants
