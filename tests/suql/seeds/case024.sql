SELECT * FROM restaurants WHERE 'barbecue' = ANY (cuisines) AND 'fast food' <> ALL (cuisines) AND name ILIKE ANY (ARRAY['%grill%', '%bbq%'])
