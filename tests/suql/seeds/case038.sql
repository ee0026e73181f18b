SELECT location, count(*) AS n FROM restaurants GROUP BY location HAVING count(*) > 2 ORDER BY n DESC, location ASC NULLS FIRST, 1 DESC NULLS LAST LIMIT 10 OFFSET 20
