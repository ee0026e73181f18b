SELECT * FROM restaurants WHERE (a = 1 AND (b = 2 AND c = 3)) OR (d = 4 OR e = 5) OR NOT (f = 6 OR g = 7)
