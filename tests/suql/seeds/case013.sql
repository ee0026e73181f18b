SELECT -rating, NOT open_now, - -rating, -(-rating), - 5, -(5) FROM restaurants
