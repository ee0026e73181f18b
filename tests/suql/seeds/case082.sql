SELECT * FROM restaurants AS r(a, b)
