SELECT * FROM restaurants WHERE 'vegetarian' = ANY (cuisines) OR 'vegan' = ANY (cuisines) AND location = 'Cupertino'
