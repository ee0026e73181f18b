SELECT pg_catalog.lower(name) FROM restaurants
