SELECT * FROM restaurants ORDER BY rating USING <
