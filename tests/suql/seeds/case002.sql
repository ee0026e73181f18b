SELECT single_review FROM restaurants AS r, unnest(reviews) AS single_review WHERE answer(single_review, 'does this review mention pulled pork?') = 'Yes' LIMIT 5;
