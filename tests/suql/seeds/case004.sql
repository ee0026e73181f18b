SELECT name, r.name, "Name", "select", "a""b", "über", location, year FROM restaurants r
