SELECT * FROM restaurants LIMIT ALL
