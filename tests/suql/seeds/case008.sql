SELECT Answer(reviews, 'q'), "summary"(reviews), "Answer"(reviews, 'q') FROM restaurants
