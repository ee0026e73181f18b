SELECT string_agg(name, ', ' ORDER BY name) FROM restaurants
