SELECT location FROM restaurants GROUP BY ROLLUP (location)
