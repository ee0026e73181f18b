SELECT name FROM restaurants WHERE answer(reviews, 'how many tables?')::int > 10;
