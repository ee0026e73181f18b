SELECT '1 day'::interval
