SELECT * FROM restaurants WHERE name = $1
