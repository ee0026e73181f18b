SELECT rating::numeric(3, 1) FROM restaurants
