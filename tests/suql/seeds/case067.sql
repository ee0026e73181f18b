SELECT count(*) FILTER (WHERE rating > 4) FROM restaurants
