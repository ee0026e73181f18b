VALUES (1), (2)
