UPDATE restaurants SET rating = 5
