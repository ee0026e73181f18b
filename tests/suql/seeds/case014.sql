SELECT rating * 2 + 1, (rating + 1) * 2, rating - (1 - 2), (rating - 1) - 2, rating / 2 % 3, name || ' (' || location || ')' FROM restaurants
