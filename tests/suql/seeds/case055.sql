PRAGMA table_info(restaurants)
