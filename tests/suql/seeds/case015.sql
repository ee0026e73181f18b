SELECT * FROM restaurants WHERE rating = 4 AND rating <> 3 AND rating != 2 AND rating < 5 AND rating <= 5 AND rating > 1 AND rating >= 1
