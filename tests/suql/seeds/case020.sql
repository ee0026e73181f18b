SELECT * FROM restaurants WHERE rating BETWEEN 3.5 AND 5 AND num_reviews NOT BETWEEN 0 AND 10
