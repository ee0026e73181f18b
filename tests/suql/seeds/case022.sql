SELECT * FROM restaurants WHERE phone_number IS NULL OR opening_hours IS NOT NULL
