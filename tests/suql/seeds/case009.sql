SELECT * FROM restaurants WHERE answer(reviews, 'is there a vegan option?') IN ('Yes', 'yes') AND summary(reviews) ILIKE '%cozy%'
