SELECT * FROM restaurants WHERE cuisines @> ARRAY['thai'] AND cuisines <@ ARRAY['thai', 'lao'] AND cuisines && ARRAY['vegan'] AND cuisines <> ARRAY['american']
