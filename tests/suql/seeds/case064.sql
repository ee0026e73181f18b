SELECT answer(reviews) FROM restaurants
