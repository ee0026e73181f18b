SELECT *, r.* FROM restaurants AS r
