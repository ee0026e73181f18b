SELECT 'it''s', 42, -7, 4.5, -0.25, .5, 1e3, TRUE, false, NULL
