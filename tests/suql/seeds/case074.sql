SELECT * FROM restaurants WHERE opened > CURRENT_DATE
