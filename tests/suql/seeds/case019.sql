SELECT * FROM restaurants WHERE price IN ('cheap', 'moderate') AND location NOT IN ('Palo Alto')
