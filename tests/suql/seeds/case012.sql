SELECT count(*), count(DISTINCT location), lower(name), avg(rating), summary(reviews), answer(reviews, 'is it quiet?') FROM restaurants
