SELECT COALESCE(phone_number, 'none'), NULLIF(price, 'cheap'), GREATEST(rating, 1), LEAST(rating, 5, num_reviews) FROM restaurants
