SELECT * FROM restaurants WHERE name LIKE ANY (ARRAY['a%', 'b%']) AND name NOT ILIKE ALL (ARRAY['%x%'])
