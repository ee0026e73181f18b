SELECT CASE WHEN rating >= 4.5 THEN 'great' WHEN rating >= 4 THEN 'good' ELSE 'ok' END, CASE price WHEN 'cheap' THEN 1 END FROM restaurants
