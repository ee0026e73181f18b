SELECT name COLLATE "C" FROM restaurants
