SELECT * FROM restaurants WHERE x = ANY (+(SELECT cuisines FROM restaurants))
