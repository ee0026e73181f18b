SELECT * FROM restaurants WHERE open_now IS TRUE
