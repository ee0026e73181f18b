SELECT summary(reviews, 'too many') FROM restaurants
