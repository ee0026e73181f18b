-- types.sql — differential cases of enum order through expressions,
-- Unicode case mapping (upper, lower, initcap, ILIKE), rare forms (unary
-- minus of intervals, char(n), text arrays cast to int[] / numeric[] /
-- boolean[], array_to_string, sum / avg of intervals), queries PostgreSQL
-- refuses (wrong aggregate and function argument types, math domain
-- errors, overflows, invalid casts) and accepted forms easy to get wrong
-- (one-digit time parts, long OR / AND chains), over both sample
-- databases.  Each case names its db.  Format: tests/pg/run.py.

-- ==== 1. enum values through expressions keep the enum's order ===========

-- case: ty-enum-nullif-group-order
-- db: restaurants
-- order: total
SELECT NULLIF(price, 'cheap') AS p, count(*) AS n FROM restaurants GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- case: ty-enum-nullif-gt-literal
-- db: restaurants
SELECT count(*) FROM restaurants WHERE NULLIF(price, 'luxury') > 'moderate';

-- case: ty-enum-nullif-desc-nulls-first
-- db: restaurants
-- order: total
SELECT _id, NULLIF(price, 'moderate') AS p FROM restaurants WHERE _id <= 20
ORDER BY NULLIF(price, 'moderate') DESC NULLS FIRST, _id;

-- case: ty-enum-coalesce-distinct-desc
-- db: restaurants
-- order: total
SELECT DISTINCT COALESCE(NULLIF(price, 'moderate'), 'luxury') AS p FROM restaurants ORDER BY p DESC;

-- case: ty-enum-coalesce-between
-- db: restaurants
SELECT count(*) FROM restaurants
WHERE COALESCE(NULLIF(price, 'cheap'), 'luxury') BETWEEN 'moderate' AND 'expensive';

-- case: ty-enum-case-then-col-group
-- db: restaurants
-- order: total
SELECT CASE WHEN rating >= 4.5 THEN price END AS p, count(*) AS n
FROM restaurants GROUP BY 1 ORDER BY 1 DESC NULLS LAST;

-- case: ty-enum-case-then-literal-else-col
-- db: restaurants
-- order: total
SELECT CASE WHEN location = 'Cupertino' THEN 'luxury' ELSE price END AS p, count(*) AS n
FROM restaurants GROUP BY 1 ORDER BY 1;

-- case: ty-enum-case-lt-literal
-- db: restaurants
SELECT count(*) FROM restaurants
WHERE CASE WHEN rating > 4 THEN price ELSE 'luxury' END < 'expensive';

-- case: ty-enum-case-order-desc-limit
-- db: restaurants
-- order: total
SELECT _id, price, location FROM restaurants
ORDER BY CASE WHEN location = 'Palo Alto' THEN price ELSE 'cheap' END DESC, _id LIMIT 15;

-- case: ty-enum-case-simple-form
-- db: restaurants
-- order: total
SELECT CASE location WHEN 'Sunnyvale' THEN price WHEN 'Cupertino' THEN 'moderate' END AS p, count(*) AS n
FROM restaurants GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- case: ty-enum-greatest-literal-group
-- db: restaurants
-- order: total
SELECT greatest(price, 'moderate') AS g, count(*) AS n FROM restaurants GROUP BY 1 ORDER BY 1;

-- case: ty-enum-least-literal-group
-- db: restaurants
-- order: total
SELECT least(price, 'expensive') AS l, count(*) AS n FROM restaurants GROUP BY 1 ORDER BY 1 DESC;

-- case: ty-enum-greatest-two-literals
-- db: restaurants
-- order: total
SELECT _id, price, greatest(price, 'cheap', 'moderate') AS g, least(price, 'luxury', 'expensive') AS l
FROM restaurants WHERE _id <= 12 ORDER BY _id;

-- case: ty-enum-greatest-ge-literal
-- db: restaurants
SELECT count(*) FROM restaurants WHERE greatest(price, 'moderate') >= 'expensive';

-- case: ty-enum-greatest-nullif-null-ignored
-- db: restaurants
-- order: total
SELECT _id, greatest(NULLIF(price, 'cheap'), NULL) AS g, least(NULLIF(price, 'cheap'), 'moderate') AS l
FROM restaurants WHERE _id <= 10 ORDER BY _id;

-- case: ty-enum-min-max-case-by-location
-- db: restaurants
-- order: total
SELECT location, min(CASE WHEN rating > 4 THEN price END) AS lo,
       max(CASE WHEN rating < 3 THEN price END) AS hi
FROM restaurants GROUP BY location ORDER BY location;

-- case: ty-enum-max-nullif
-- db: restaurants
SELECT max(NULLIF(price, 'luxury')) AS hi, min(NULLIF(price, 'cheap')) AS lo FROM restaurants;

-- case: ty-enum-max-coalesce-having
-- db: restaurants
-- order: total
SELECT location, max(COALESCE(NULLIF(price, 'luxury'), 'cheap')) AS m
FROM restaurants GROUP BY location HAVING max(price) > 'expensive' ORDER BY location;

-- case: ty-enum-window-min-frame
-- db: restaurants
-- order: total
-- expect: unsupported: window frame clauses (ROWS, RANGE, GROUPS)
SELECT _id, price, min(price) OVER (ORDER BY _id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS m
FROM restaurants WHERE _id <= 25 ORDER BY _id;

-- case: ty-enum-window-max-partition
-- db: restaurants
-- order: total
SELECT DISTINCT location, max(price) OVER (PARTITION BY location) AS hi,
       min(price) OVER (PARTITION BY location) AS lo
FROM restaurants ORDER BY location;

-- case: ty-enum-window-max-case
-- db: restaurants
-- order: total
SELECT DISTINCT location, max(CASE WHEN rating >= 4.8 THEN price END) OVER (PARTITION BY location) AS m
FROM restaurants ORDER BY location;

-- case: ty-enum-window-running-max
-- db: restaurants
-- order: total
SELECT _id, price, max(price) OVER (ORDER BY _id) AS running FROM restaurants WHERE _id <= 40 ORDER BY _id;

-- case: ty-enum-window-max-compared
-- db: restaurants
SELECT count(*) FROM (SELECT _id, max(price) OVER (PARTITION BY location, rating) AS m FROM restaurants) s
WHERE m >= 'expensive';

-- case: ty-enum-subquery-col-gt
-- db: restaurants
SELECT count(*) FROM (SELECT price AS p FROM restaurants) s WHERE p > 'moderate';

-- case: ty-enum-cte-distinct-desc
-- db: restaurants
-- order: total
WITH t AS (SELECT DISTINCT price AS p FROM restaurants) SELECT p FROM t ORDER BY p DESC;

-- case: ty-enum-cte-nullif-between
-- db: restaurants
WITH t AS (SELECT _id, NULLIF(price, 'expensive') AS p FROM restaurants)
SELECT count(*), count(p) FROM t WHERE p BETWEEN 'cheap' AND 'luxury';

-- case: ty-enum-cte-case-max
-- db: restaurants
-- order: total
WITH t AS (SELECT location, CASE WHEN num_reviews > 500 THEN price END AS p FROM restaurants)
SELECT location, max(p) AS m, min(p) AS n FROM t GROUP BY location ORDER BY m DESC, location;

-- case: ty-enum-scalar-subquery-max-eq
-- db: restaurants
SELECT count(*) FROM restaurants WHERE price = (SELECT max(price) FROM restaurants WHERE location = 'Cupertino');

-- case: ty-enum-scalar-subquery-lt-literal
-- db: restaurants
SELECT (SELECT min(price) FROM restaurants WHERE rating = 5) < 'moderate' AS a,
       (SELECT max(price) FROM restaurants WHERE rating < 2) > 'cheap' AS b;

-- case: ty-enum-derived-greatest-order
-- db: restaurants
-- order: total
SELECT g, count(*) AS n FROM (SELECT greatest(price, 'moderate') AS g FROM restaurants) s
GROUP BY g ORDER BY g DESC;

-- case: ty-enum-distinct-nullif-nulls-last
-- db: restaurants
-- order: total
SELECT DISTINCT NULLIF(price, 'expensive') AS p FROM restaurants ORDER BY 1 NULLS LAST;

-- case: ty-enum-array-agg-distinct
-- db: restaurants
-- order: total
SELECT location, array_agg(DISTINCT price ORDER BY price DESC) AS prices FROM restaurants GROUP BY location ORDER BY location;

-- case: ty-enum-day-least-group
-- db: restaurants
-- order: total
SELECT least(day, 'Wed') AS d, count(*) AS n FROM restaurant_hours GROUP BY 1 ORDER BY 1;

-- case: ty-enum-day-window-min-max
-- db: restaurants
-- order: total
SELECT DISTINCT restaurant_id, min(day) OVER (PARTITION BY restaurant_id) AS first_day,
       max(day) OVER (PARTITION BY restaurant_id) AS last_day
FROM restaurant_hours WHERE restaurant_id <= 8 ORDER BY restaurant_id;

-- case: ty-enum-day-case-order-nulls-first
-- db: restaurants
-- order: total
SELECT _id, day, opens FROM restaurant_hours WHERE restaurant_id IN (3, 4)
ORDER BY CASE WHEN opens < '12:00' THEN day END NULLS FIRST, _id;

-- case: ty-enum-day-min-having
-- db: restaurants
-- order: total
SELECT restaurant_id, min(day) AS d1, max(day) AS d2 FROM restaurant_hours
GROUP BY restaurant_id HAVING min(day) > 'Mon' ORDER BY restaurant_id LIMIT 10;

-- case: ty-enum-day-coalesce-left-join
-- db: restaurants
-- order: total
SELECT r._id, COALESCE(max(h.day), 'Mon') AS d FROM restaurants r LEFT JOIN restaurant_hours h
ON h.restaurant_id = r._id AND h.opens >= '17:00'
WHERE r._id <= 30 GROUP BY r._id ORDER BY d DESC, r._id;

-- case: ty-enum-quarter-left-join-max-nulls-first
-- db: courses
-- order: total
SELECT q, count(*) AS n FROM
  (SELECT c.course_id, max(o.quarter) AS q FROM courses c
   LEFT JOIN offerings o ON o.course_id = c.course_id AND o.quarter < 'Spring 2027' GROUP BY c.course_id) s
GROUP BY q ORDER BY q DESC NULLS FIRST;

-- case: ty-enum-quarter-greatest
-- db: courses
-- order: total
SELECT greatest(quarter, 'Winter 2027') AS q, count(*) AS n FROM offerings GROUP BY 1 ORDER BY 1 DESC;

-- case: ty-enum-quarter-nullif-between
-- db: courses
SELECT count(*) FROM offerings WHERE NULLIF(quarter, 'Spring 2027') BETWEEN 'Winter 2027' AND 'Summer 2027';

-- case: ty-enum-quarter-window-compared
-- db: courses
SELECT count(DISTINCT course_id) FROM
  (SELECT course_id, max(quarter) OVER (PARTITION BY course_id) AS mq FROM offerings) s
WHERE mq >= 'Spring 2027';

-- case: ty-enum-unnest-grading-group-desc
-- db: courses
-- order: total
SELECT g, count(*) AS n FROM courses, unnest(grading_options) AS g GROUP BY g ORDER BY g DESC;

-- case: ty-enum-unnest-grading-min-max
-- db: courses
SELECT min(g) AS lo, max(g) AS hi FROM courses, unnest(grading_options) AS g;

-- case: ty-enum-unnest-grading-gt
-- db: courses
SELECT count(*) FROM courses c, unnest(c.grading_options) AS g WHERE g > 'Letter';

-- case: ty-enum-array-element-lt
-- db: courses
SELECT count(*) FROM courses WHERE grading_options[1] < 'Credit/No Credit';

-- case: ty-enum-unnest-subquery-max-order
-- db: courses
-- order: total
SELECT course_id, (SELECT max(g) FROM unnest(grading_options) AS g) AS m FROM courses
ORDER BY m, course_id LIMIT 10;

-- case: ty-enum-union-literal-sorted
-- db: restaurants
-- order: total
SELECT price FROM restaurants WHERE price > 'moderate' UNION SELECT 'cheap' ORDER BY 1;

-- case: ty-enum-union-literal-first-branch
-- db: restaurants
-- order: total
SELECT 'moderate' AS p UNION SELECT price FROM restaurants ORDER BY 1 DESC;

-- case: ty-enum-union-all-literal-desc
-- db: restaurants
-- order: total
SELECT DISTINCT price AS p FROM restaurants WHERE price >= 'expensive' UNION ALL SELECT 'cheap' ORDER BY p DESC;

-- case: ty-enum-union-day-sorted
-- db: restaurants
-- order: total
SELECT day FROM restaurant_hours WHERE restaurant_id = 1 UNION SELECT 'Sun' ORDER BY 1 DESC;

-- case: ty-enum-union-quarter-limit
-- db: courses
-- order: total
SELECT quarter FROM offerings WHERE course_id = 100019 UNION SELECT 'Summer 2027' ORDER BY 1 LIMIT 3;
-- ==== 2. Unicode case mapping (ctype C.UTF-8, collation C) ===============

-- case: ty-uni-upper-names
-- db: restaurants
-- order: total
SELECT _id, upper(name) AS u FROM restaurants WHERE _id IN (2, 76, 96, 152, 263, 288, 726, 781) ORDER BY _id;

-- case: ty-uni-lower-names
-- db: restaurants
-- order: total
SELECT _id, lower(name) AS l FROM restaurants WHERE _id IN (2, 154, 263, 523, 588, 613, 726) ORDER BY _id;

-- case: ty-uni-initcap-lower-names
-- db: restaurants
-- order: total
SELECT _id, initcap(lower(name)) AS i, initcap(upper(name)) AS j FROM restaurants
WHERE _id IN (2, 263, 288, 726, 781, 1378) ORDER BY _id;

-- case: ty-uni-upper-literals
-- db: courses
SELECT upper('école élève') AS fr, upper('straße') AS de, upper('ñandú') AS es,
       upper('αβγ δέλτα') AS el, upper('привет мир') AS ru, upper('čšž łódź') AS pl;

-- case: ty-uni-lower-literals
-- db: courses
SELECT lower('ÀÉÎÕÜ ÇÑ') AS a, lower('ΣΊΣΥΦΟΣ') AS el, lower('ПРИВЕТ МИР') AS ru,
       lower('ÆØÅ') AS no, lower('ŁÓDŹ') AS pl;

-- case: ty-uni-initcap-literals
-- db: courses
SELECT initcap('élan vital') AS a, initcap('ÉTÉ À PARIS') AS b, initcap('привет мир') AS c,
       initcap('αθήνα και σπάρτη') AS d, initcap('café-crème o''neil') AS e;

-- case: ty-uni-initcap-mixed-words
-- db: courses
SELECT initcap('über-größe ÖL') AS a, initcap('łódź ŻUBR') AS b, initcap('3école 2été') AS c;

-- case: ty-uni-sharp-s-length
-- db: courses
SELECT upper('straße') = 'STRASSE' AS folded, length(upper('straße')) AS n, lower('STRASSE') AS l;

-- case: ty-uni-ilike-upper-pattern
-- db: restaurants
SELECT count(*) FROM restaurants WHERE name ILIKE '%CAFÉ%';

-- case: ty-uni-ilike-lower-pattern-upper-data
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE name ILIKE '%étoile%' ORDER BY _id;

-- case: ty-uni-ilike-mixed-case
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE name ILIKE 'pÂTISSERIE%' ORDER BY _id;

-- case: ty-uni-like-case-sensitive
-- db: restaurants
SELECT count(*) FILTER (WHERE name LIKE '%CAFÉ%') AS like_upper,
       count(*) FILTER (WHERE name LIKE '%Café%') AS like_exact,
       count(*) FILTER (WHERE name ILIKE '%cafÉ%') AS ilike FROM restaurants;

-- case: ty-uni-not-ilike
-- db: restaurants
SELECT count(*) FROM restaurants WHERE name NOT ILIKE '%CAFÉ%' AND name ILIKE 'caf%';

-- case: ty-uni-not-ilike-grouped
-- db: restaurants
-- order: total
SELECT location, count(*) AS n FROM restaurants WHERE name NOT ILIKE '%É%' AND name ILIKE 'caf%'
GROUP BY location ORDER BY location;

-- case: ty-uni-ilike-underscore-accented
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE name ILIKE 'CAF_ L%' ORDER BY _id;

-- case: ty-uni-ilike-underscore-count
-- db: restaurants
SELECT count(*) FILTER (WHERE name ILIKE 'p_tisserie %') AS one,
       count(*) FILTER (WHERE name ILIKE 'p__tisserie %') AS two,
       count(*) FILTER (WHERE name ILIKE '%br_l_e%') AS brulee FROM restaurants;

-- case: ty-uni-ilike-underscore-literal
-- db: courses
SELECT 'Ñandú' ILIKE '_ANDÚ' AS a, 'Ñandú' ILIKE '__ANDÚ' AS b, 'ÉTÉ' ILIKE 'é_é' AS c,
       'Ωμέγα' ILIKE 'ωΜ_ΓΑ' AS d, 'Москва' ILIKE 'МОСКВ_' AS e;

-- case: ty-uni-ilike-greek-cyrillic
-- db: courses
SELECT 'ΣΟΦΊΑ' ILIKE 'σοφία' AS el, 'Москва' ILIKE 'МОСКВА' AS ru, 'ÆSIR' ILIKE 'æsir' AS da,
       'straße' ILIKE 'STRASSE' AS de, 'ǅ' ILIKE 'ǆ' AS dz;

-- case: ty-uni-lower-like
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE lower(name) LIKE '%crème%' OR lower(name) LIKE 'brûlée%' ORDER BY _id;

-- case: ty-uni-lower-like-upper-data
-- db: restaurants
SELECT count(*) FROM restaurants WHERE lower(name) LIKE '%étoile%';

-- case: ty-uni-upper-eq-literal
-- db: restaurants
-- order: total
SELECT _id, location FROM restaurants WHERE upper(name) = 'CAFÉ LUMIÈRE' OR upper(name) = 'MAISON BENOÎT' ORDER BY _id;

-- case: ty-uni-upper-like-prefix
-- db: restaurants
SELECT count(*) FROM restaurants WHERE upper(name) LIKE 'PÂTISSERIE %';

-- case: ty-uni-upper-in-list
-- db: restaurants
SELECT count(*) FROM restaurants WHERE upper(name) IN ('CAFÉ ROSA', 'CAFFÈ VERDE', 'PÂTISSERIE ÉTOILE');

-- case: ty-uni-ilike-column-pattern
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE 'CAFÉ LILA' ILIKE name ORDER BY _id;

-- case: ty-uni-ilike-column-prefix-pattern
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE 'la rôtisserie de paris' ILIKE name || '%' ORDER BY _id;

-- case: ty-uni-ilike-self-lower
-- db: restaurants
SELECT count(*) FROM restaurants WHERE upper(name) ILIKE lower(name) AND lower(name) ILIKE name;

-- case: ty-uni-ilike-any-array
-- db: restaurants
SELECT count(*) FROM restaurants WHERE name ILIKE ANY (ARRAY['%CAFÉ%', '%PÂTISSERIE%', '%ÉTOILE%']);

-- case: ty-uni-not-ilike-any
-- db: restaurants
SELECT count(*) FROM restaurants WHERE name ILIKE 'ca%' AND NOT (name ILIKE ANY (ARRAY['CAFÉ %', 'CAFFÈ %']));

-- case: ty-uni-ilike-all-array
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE name ILIKE ALL (ARRAY['%É%', '%TOILE', 'p%']) ORDER BY _id;

-- case: ty-uni-order-upper-byte
-- db: restaurants
-- order: total
SELECT _id, upper(name) AS u FROM restaurants WHERE _id IN (2, 76, 263, 288, 523, 588, 726, 1378)
ORDER BY upper(name), _id;

-- case: ty-uni-order-lower-desc
-- db: restaurants
-- order: total
SELECT DISTINCT lower(name) AS l FROM restaurants WHERE name ILIKE '%é%' OR name ILIKE '%è%' ORDER BY l DESC LIMIT 12;

-- case: ty-uni-compare-byte-order
-- db: courses
SELECT 'é' > 'z' AS a, upper('é') < 'Z' AS b, 'Émile' < 'Zoe' AS c, lower('Émile') > 'zoe' AS d,
       'Ä' < 'B' AS e;

-- case: ty-uni-group-lower
-- db: restaurants
-- order: total
SELECT lower(name) AS l, count(*) AS n FROM restaurants WHERE name ILIKE 'CAFÉ DE%' GROUP BY 1 ORDER BY 1;

-- case: ty-uni-max-upper
-- db: restaurants
SELECT max(upper(name)) AS hi, min(lower(name)) FILTER (WHERE name ILIKE '%É%') AS lo FROM restaurants;

-- case: ty-uni-turkish-dotted
-- db: courses
SELECT upper('ı') AS a, lower('İ') AS b, upper('i') AS c, length(lower('İ')) AS n;

-- case: ty-uni-greek-sigma
-- db: courses
SELECT lower('ΟΔΥΣΣΕΥΣ') AS a, upper('ὀδυσσεύς') AS b, upper('ς') = upper('σ') AS c;

-- case: ty-uni-length-after-case
-- db: restaurants
-- order: total
SELECT _id, length(name) AS n, length(upper(name)) AS nu, octet_length(upper(name)) AS bytes
FROM restaurants WHERE _id IN (2, 96, 726) ORDER BY _id;

-- case: ty-uni-ilike-escape
-- db: courses
SELECT 'CAFÉ_1' ILIKE 'café\_1' AS a, 'CAFÉX1' ILIKE 'café\_1' AS b, 'Ü%' ILIKE 'ü\%' AS c;
-- ==== 3. rare forms: unary minus of intervals, char(n), text arrays cast,
-- ==== array_to_string of non-text arrays, sum / avg of intervals ========

-- case: ty-rare-neg-interval-literal
-- db: courses
SELECT -interval '1 hour' AS a, -(interval '2 hours 30 minutes') AS b, - interval '1 day 2 hours' AS c,
       -(-interval '15 minutes') AS d;

-- case: ty-rare-neg-interval-timestamp
-- db: courses
SELECT timestamp '2026-11-26 10:00' + -interval '3 days' AS a,
       timestamp '2026-11-26 10:00' - -interval '90 minutes' AS b,
       date '2026-03-31' + -interval '1 month' AS c;

-- case: ty-rare-neg-interval-time
-- db: courses
SELECT time '10:00' + -interval '90 minutes' AS a, time '00:30' + -interval '1 hour' AS b,
       time '23:00' - -interval '2 hours' AS c;

-- case: ty-rare-neg-interval-times-two
-- db: courses
SELECT -interval '1 day 2 hours' * 2 AS a, 2 * -interval '45 minutes' AS b, -interval '3 hours' / 4 AS c;

-- case: ty-rare-neg-interval-compare
-- db: courses
SELECT -interval '1 hour' < interval '0' AS a, -interval '30 minutes' > -interval '1 hour' AS b,
       -(interval '1 hour') = interval '-1 hour' AS c;

-- case: ty-rare-neg-duration-column
-- db: courses
-- order: total
SELECT _id, -(end_time - start_time) AS neg, start_time + -(end_time - start_time) AS before
FROM offerings ORDER BY _id LIMIT 6;

-- case: ty-rare-neg-duration-where
-- db: courses
SELECT count(*) FROM offerings WHERE -(end_time - start_time) < -interval '1 hour 30 minutes';

-- case: ty-rare-neg-duration-order
-- db: courses
-- order: total
SELECT _id, end_time - start_time AS d FROM offerings ORDER BY -(end_time - start_time), _id LIMIT 8;

-- case: ty-rare-neg-interval-hours-column
-- db: restaurants
-- order: total
SELECT _id, closes + -interval '30 minutes' AS last_call, opens - -interval '15 minutes' AS seated
FROM restaurant_hours WHERE restaurant_id = 2 ORDER BY _id;

-- case: ty-rare-char-concat-length
-- db: courses
SELECT 'ab'::char(5) || 'c' AS cat, length('ab'::char(5)) AS n, octet_length('ab'::char(5)) AS bytes,
       'a'::char(3) || 'b'::char(3) AS two;

-- case: ty-rare-char-equality-padding
-- db: courses
SELECT 'ab'::char(5) = 'ab   '::char(5) AS a, 'ab'::char(3) = 'ab' AS b, 'ab '::character(3) = 'ab'::character(2) AS c,
       'ab'::char(4) < 'ab '::char(4) AS d, 'ab'::char(4) > 'a'::char(4) AS e;

-- case: ty-rare-char-text-cast
-- db: courses
SELECT CAST('ab'::char(5) AS text) || '|' AS a, 'abcdef'::character(3) AS b, 'hello'::char AS c,
       CAST('xyz' AS char(6)) AS d, length(CAST('xyz' AS char(6))::text) AS e;

-- case: ty-rare-char-case
-- db: courses
-- expect: divergence: a char(n) value passed through CASE, COALESCE or a subquery is shown without its padding
SELECT CASE WHEN units_min = 1 THEN 'one'::char(5) ELSE 'many'::char(5) END AS c, count(*) AS n
FROM courses GROUP BY 1;

-- case: ty-rare-char-column
-- db: restaurants
-- order: total
SELECT _id, location::char(12) AS loc, length(location::char(12)) AS n, location::char(5) AS short
FROM restaurants WHERE _id <= 5 ORDER BY _id;

-- case: ty-rare-char-concat-function
-- db: courses
SELECT concat('a'::char(3), 'b') AS c, 'x'::char(3) || 'y'::char(3) || 'z' AS d, upper('ab'::char(4)) AS u;

-- case: ty-rare-char-group-eq
-- db: restaurants
-- order: total
SELECT location::char(20) AS l, count(*) AS n FROM restaurants
WHERE location::char(20) = 'Cupertino' OR location::char(3) = 'Pal' GROUP BY 1 ORDER BY 1;

-- case: ty-rare-char-like
-- db: courses
SELECT 'ab'::char(4) LIKE 'ab' AS a, 'ab'::char(4) LIKE 'ab%' AS b, 'ab'::char(4) LIKE 'ab  ' AS c;

-- case: ty-rare-text-array-to-int
-- db: courses
SELECT ARRAY['3','10']::int[] AS a, '{3,10}'::int[] AS b, (ARRAY['3','10','2']::int[])[2] AS c,
       array_length('{3,10,2}'::int[], 1) AS n;

-- case: ty-rare-int-array-unnest-order
-- db: courses
-- order: total
SELECT x FROM unnest(ARRAY['3','10','2','25']::int[]) AS x ORDER BY x DESC;

-- case: ty-rare-int-array-max-sum
-- db: courses
SELECT max(x) AS hi, min(x) AS lo, sum(x) AS total FROM unnest('{3,10,2,25}'::int[]) AS x;

-- case: ty-rare-int-array-vs-text-array
-- db: courses
SELECT '{3,10}'::int[] < '{3,9}'::int[] AS ints, '{3,10}'::text[] < '{3,9}'::text[] AS texts,
       ARRAY['10']::int[] = ARRAY[10] AS eq;

-- case: ty-rare-int-array-any
-- db: courses
SELECT 10 = ANY('{3,10}'::int[]) AS a, 4 = ANY(ARRAY['3','10']::int[]) AS b, 2 < ALL('{3,10}'::int[]) AS c;

-- case: ty-rare-int-array-any-column
-- db: courses
SELECT count(*) FROM courses WHERE units_max = ANY('{3,5}'::int[]);

-- case: ty-rare-numeric-array-sum
-- db: courses
SELECT sum(x) AS s, avg(x) AS a, max(x) AS m FROM unnest(ARRAY['1.5','2.25','-0.75']::numeric[]) AS x;

-- case: ty-rare-numeric-array-index
-- db: courses
SELECT ('{1.50,2.0,10}'::numeric[])[3] * 2 AS a, ('{1.50,2.0}'::numeric[])[1] AS b, cardinality('{1.5,2}'::numeric[]) AS n;

-- case: ty-rare-boolean-array
-- db: courses
SELECT '{t,f,true,no}'::boolean[] AS a, (ARRAY['yes','off']::boolean[])[1] AS b,
       array_length(ARRAY['t','f','t']::boolean[], 1) AS n;

-- case: ty-rare-boolean-array-unnest
-- db: courses
SELECT count(*) FILTER (WHERE b) AS yes, count(*) FILTER (WHERE NOT b) AS no
FROM unnest('{t,f,true,false,on,1}'::boolean[]) AS b;

-- case: ty-rare-array-to-string-boolean
-- db: courses
SELECT array_to_string(ARRAY[true, false, NULL], ',') AS a, array_to_string('{t,f}'::boolean[], ' ') AS b;

-- case: ty-rare-array-to-string-numeric
-- db: courses
-- expect: divergence: numeric keeps no scale (1.50 prints as 1.5)
SELECT array_to_string(ARRAY[1.50, 2.0, 10]::numeric[], ';') AS a,
       array_to_string(ARRAY[1.5::float8, 2, 0.1], '|') AS b,
       array_to_string(ARRAY[3, 10, -2], '+') AS c;

-- case: ty-rare-array-to-string-date
-- db: courses
SELECT array_to_string(ARRAY[date '2026-01-02', date '2026-11-26'], ' / ') AS a,
       array_to_string(ARRAY[time '09:05', time '17:30:15'], ',') AS b;

-- case: ty-rare-array-to-string-column-agg
-- db: courses
-- order: total
SELECT course_id, array_to_string(array_agg(start_time ORDER BY start_time), ', ') AS starts
FROM offerings WHERE course_id <= 100100 GROUP BY course_id ORDER BY course_id;

-- case: ty-rare-sum-interval-duration
-- db: courses
-- order: total
SELECT quarter, sum(end_time - start_time) AS total, avg(end_time - start_time) AS mean
FROM offerings GROUP BY quarter ORDER BY quarter;

-- case: ty-rare-avg-interval-all
-- db: courses
SELECT avg(end_time - start_time) AS mean, max(end_time - start_time) AS longest, sum(-(end_time - start_time)) AS neg
FROM offerings;

-- case: ty-rare-sum-interval-hours
-- db: restaurants
-- order: total
SELECT restaurant_id, sum(closes - opens) AS weekly FROM restaurant_hours WHERE restaurant_id <= 6
GROUP BY restaurant_id ORDER BY restaurant_id;

-- case: ty-rare-avg-interval-literals
-- db: courses
SELECT sum(x) AS s, avg(x) AS a FROM (SELECT interval '1 hour' AS x UNION ALL SELECT interval '30 minutes'
  UNION ALL SELECT -interval '15 minutes') AS v;

-- case: ty-rare-time-plus-avg-interval
-- db: courses
SELECT time '08:00' + avg(end_time - start_time) AS t FROM offerings WHERE days = 'Mon, Wed';

-- case: ty-rare-sum-time-column
-- db: courses
-- why: time casts implicitly to interval, so sum(time) is sum(interval)
-- order: total
SELECT quarter, sum(start_time) AS s, sum(end_time) - sum(start_time) AS d FROM offerings GROUP BY quarter ORDER BY quarter;

-- case: ty-rare-avg-time-column
-- db: restaurants
-- why: avg(time) is avg(interval) through the implicit cast
-- order: total
SELECT restaurant_id, avg(opens) AS a, avg(closes) AS b FROM restaurant_hours WHERE restaurant_id <= 6
GROUP BY restaurant_id ORDER BY restaurant_id;

-- case: ty-rare-avg-time-compare
-- db: courses
SELECT avg(start_time) > interval '11 hours' AS late, avg(start_time) AS a, sum(end_time) AS s FROM offerings;
-- ==== 4. queries PostgreSQL refuses ======================================

-- case: ty-err-avg-enum
-- db: restaurants
-- expect: error: function avg(restaurants_price) does not exist
SELECT avg(price) FROM restaurants;

-- case: ty-err-sum-enum
-- db: restaurants
-- expect: error: function sum(restaurants_price) does not exist
SELECT location, sum(price) FROM restaurants GROUP BY location;

-- case: ty-err-avg-enum-quarter
-- db: courses
-- expect: error: function avg(offerings_quarter) does not exist
SELECT course_id, avg(quarter) FROM offerings GROUP BY course_id;

-- case: ty-err-sum-text
-- db: restaurants
-- expect: error: function sum(text) does not exist
SELECT sum(name) FROM restaurants;

-- case: ty-err-avg-text
-- db: courses
-- expect: error: function avg(text) does not exist
SELECT avg(title) FROM courses;

-- case: ty-err-sum-boolean
-- db: restaurants
-- expect: error: function sum(boolean) does not exist
SELECT sum(rating > 4) FROM restaurants;

-- case: ty-err-string-agg-double
-- db: restaurants
-- expect: error: function string_agg(double precision, unknown) does not exist
SELECT string_agg(rating, ',') FROM restaurants;

-- case: ty-err-string-agg-int
-- db: courses
-- expect: error: function string_agg(integer, unknown) does not exist
SELECT string_agg(units_min, '/') FROM courses;

-- case: ty-err-string-agg-enum
-- db: restaurants
-- expect: divergence: an enum is text with an order; text functions and string_agg take it as its text
SELECT string_agg(DISTINCT price, ', ') FROM restaurants;

-- case: ty-err-star-group-by-nonkey
-- db: restaurants
-- expect: error: column "restaurants._id" must appear in the GROUP BY clause or be used in an aggregate function
SELECT * FROM restaurants GROUP BY location;

-- case: ty-err-qualified-star-group-by-nonkey
-- db: courses
-- expect: error: column "o._id" must appear in the GROUP BY clause or be used in an aggregate function
SELECT o.*, count(*) FROM offerings o GROUP BY o.quarter;

-- case: ty-err-star-join-group-by
-- db: courses
-- expect: error: column "r._id" must appear in the GROUP BY clause or be used in an aggregate function
SELECT c.course_id, r.* FROM courses c JOIN ratings r ON r.course_id = c.course_id GROUP BY c.course_id;

-- case: ty-err-length-text-array
-- db: restaurants
-- expect: error: function length(text[]) does not exist
SELECT length(cuisines) FROM restaurants;

-- case: ty-err-upper-text-array
-- db: restaurants
-- expect: error: function upper(text[]) does not exist
SELECT upper(cuisines) FROM restaurants WHERE _id = 1;

-- case: ty-err-lower-text-array
-- db: courses
-- expect: error: function lower(text[]) does not exist
SELECT lower(course_codes) FROM courses;

-- case: ty-err-trim-text-array
-- db: courses
-- expect: error: function pg_catalog.btrim(text[]) does not exist
SELECT trim(instructors) FROM offerings;

-- case: ty-err-substr-text-array
-- db: restaurants
-- expect: error: function substr(text[], integer, integer) does not exist
SELECT substr(cuisines, 1, 3) FROM restaurants;

-- case: ty-err-concat-text-array-number
-- db: restaurants
-- expect: error: operator does not exist: text[] || integer
SELECT cuisines || 1 FROM restaurants;

-- case: ty-err-concat-text-array-literal
-- db: restaurants
-- expect: error: malformed array literal
SELECT cuisines || 'x' FROM restaurants WHERE _id = 1;

-- case: ty-err-like-text-array
-- db: courses
-- expect: error: operator does not exist: text[] ~~ unknown
SELECT count(*) FROM courses WHERE course_codes LIKE '%CS%';

-- case: ty-err-trunc-double-int
-- db: restaurants
-- expect: error: function trunc(double precision, integer) does not exist
SELECT trunc(rating, 1) FROM restaurants;

-- case: ty-err-round-double-column
-- db: courses
-- expect: error: function round(double precision, integer) does not exist
SELECT course_id, round(average_hours_per_week, 1) FROM ratings;

-- case: ty-err-extract-hour-date
-- db: courses
-- expect: error: unit "hour" not supported for type date
SELECT extract(hour FROM date '2026-11-26');

-- case: ty-err-extract-minute-date
-- db: courses
-- expect: error: unit "minute" not supported for type date
SELECT extract(minute FROM DATE '2026-01-05') AS m;

-- case: ty-err-ln-zero
-- db: courses
-- expect: error: cannot take logarithm of zero
SELECT ln(0);

-- case: ty-err-ln-negative
-- db: courses
-- expect: error: cannot take logarithm of a negative number
SELECT ln(-1);

-- case: ty-err-log-zero
-- db: courses
-- expect: error: cannot take logarithm of zero
SELECT log(0);

-- case: ty-err-sqrt-negative
-- db: courses
-- expect: error: cannot take square root of a negative number
SELECT sqrt(-4);

-- case: ty-err-sqrt-negative-column
-- db: restaurants
-- expect: error: cannot take square root of a negative number
SELECT sqrt(1 - rating) FROM restaurants;

-- case: ty-err-negative-cube-root-power
-- db: courses
-- expect: error: a negative number raised to a non-integer power yields a complex result
SELECT (-27) ^ (1.0/3);

-- case: ty-err-exp-overflow
-- db: courses
-- expect: error: value out of range: overflow
SELECT exp(800);

-- case: ty-err-power-zero-negative
-- db: courses
-- expect: error: zero raised to a negative power is undefined
SELECT power(0, -2);

-- case: ty-err-float-overflow
-- db: courses
-- expect: error: value out of range: overflow
SELECT 1e300::float8 * 1e10;

-- case: ty-err-power-overflow
-- db: courses
-- expect: error: value out of range: overflow
SELECT 10 ^ 400;

-- case: ty-err-int-overflow
-- db: courses
-- expect: divergence: integers are 64-bit
SELECT 2147483647 + 1;

-- case: ty-err-int-overflow-column
-- db: restaurants
-- expect: divergence: integers are 64-bit
SELECT num_reviews * 2147483647 FROM restaurants;

-- case: ty-err-bigint-overflow
-- db: courses
-- expect: divergence: past 2^63 an integer becomes a double
SELECT 9223372036854775807 + 1;

-- case: ty-err-div-zero-int
-- db: courses
-- expect: error: division by zero
SELECT 1 / 0;

-- case: ty-err-div-zero-numeric
-- db: courses
-- expect: error: division by zero
SELECT 1.0 / 0;

-- case: ty-err-div-zero-float
-- db: courses
-- expect: error: division by zero
SELECT 1::float8 / 0;

-- case: ty-err-mod-zero
-- db: courses
-- expect: error: division by zero
SELECT 7 % 0;

-- case: ty-err-div-zero-column
-- db: restaurants
-- expect: error: division by zero
SELECT rating / (num_reviews - num_reviews) FROM restaurants;

-- case: ty-err-cast-text-int
-- db: courses
-- expect: error: invalid input syntax for type integer: "abc"
SELECT 'abc'::int;

-- case: ty-err-cast-bad-date
-- db: courses
-- expect: error: date/time field value out of range: "2026-02-30"
SELECT '2026-02-30'::date;

-- case: ty-err-cast-bad-time
-- db: courses
-- expect: error: date/time field value out of range: "25:00"
SELECT '25:00'::time;

-- case: ty-err-cast-bad-boolean
-- db: courses
-- expect: error: invalid input syntax for type boolean: "yes please"
SELECT 'yes please'::boolean;

-- case: ty-err-cast-column-int
-- db: restaurants
-- expect: error: invalid input syntax for type integer
SELECT name::int FROM restaurants;

-- case: ty-err-cast-enum-int
-- db: restaurants
-- expect: error: cannot cast type restaurants_price to integer
SELECT price::int FROM restaurants;

-- case: ty-err-enum-bad-literal
-- db: restaurants
-- expect: divergence: a value outside an enum's vocabulary is mapped, not an error
SELECT count(*) FROM restaurants WHERE price < 'superluxury';

-- case: ty-err-cast-float-range
-- db: courses
-- expect: error: "1e400" is out of range for type double precision
SELECT '1e400'::float8;

-- case: ty-err-cast-text-array-int
-- db: courses
-- expect: error: invalid input syntax for type integer: "CS 106A"
SELECT course_codes::int[] FROM courses;

-- case: ty-err-cast-array-literal-int
-- db: courses
-- expect: error: invalid input syntax for type integer: "a"
SELECT ARRAY['1', 'a']::int[];

-- case: ty-err-cast-interval-int
-- db: courses
-- expect: error: cannot cast type interval to integer
SELECT (end_time - start_time)::int FROM offerings;
-- ==== 5. accepted forms easy to get wrong ===============================

-- case: ty-ok-time-one-digit-parts
-- db: courses
SELECT '9:5'::time AS a, '7:05:3'::time AS b, time '9:05' AS c, '0:0:0'::time AS d, '23:5:59'::time AS e;

-- case: ty-ok-time-one-digit-compare
-- db: courses
SELECT count(*) FROM offerings WHERE start_time >= '9:5' AND start_time < '13:0:0';

-- case: ty-ok-time-one-digit-between
-- db: restaurants
SELECT count(*) FROM restaurant_hours WHERE day = 'Sat' AND '9:5'::time BETWEEN opens AND closes;

-- case: ty-ok-time-one-digit-arith
-- db: courses
SELECT '9:5'::time + interval '1 hour' AS a, '7:05:3'::time - '6:5'::time AS b, '9:5'::time < '10:00' AS c;

-- case: ty-ok-time-one-digit-in
-- db: courses
-- order: total
SELECT _id, start_time FROM offerings WHERE start_time IN ('9:0', '9:30', '8:30:0') ORDER BY _id LIMIT 10;

-- case: ty-ok-time-one-digit-extract
-- db: courses
SELECT extract(hour FROM '9:5'::time) AS h, extract(minute FROM '9:5'::time) AS m,
       extract(second FROM '7:05:3'::time) AS s;

-- case: ty-ok-time-one-digit-case
-- db: restaurants
-- order: total
SELECT CASE WHEN opens < '9:0' THEN 'early' WHEN opens < '12:0' THEN 'morning' ELSE 'late' END AS k, count(*) AS n
FROM restaurant_hours GROUP BY 1 ORDER BY 1;

-- case: ty-ok-array-to-string-null-string
-- db: courses
SELECT array_to_string(ARRAY['a', NULL, 'c'], ',', '*') AS a, array_to_string(ARRAY['a', NULL, 'c'], ',') AS b,
       array_to_string(ARRAY[NULL, NULL]::text[], '-', '') AS c, array_to_string(ARRAY['a', NULL], ',', NULL) AS d;

-- case: ty-ok-array-to-string-null-int
-- db: courses
SELECT array_to_string(ARRAY[1, NULL, 3], '; ', 'n/a') AS a, array_to_string(ARRAY[NULL::int], ',', '?') AS b,
       array_to_string(ARRAY[1.5, NULL], '|', 'NULL') AS c;

-- case: ty-ok-array-to-string-null-column
-- db: courses
-- order: total
SELECT _id, array_to_string(ARRAY[days, NULL, instructors[2]], ' / ', '-') AS s FROM offerings ORDER BY _id LIMIT 6;

-- case: ty-ok-array-to-string-null-agg
-- db: courses
-- order: total
SELECT units_min, array_to_string(array_agg(prerequisites ORDER BY course_id), ' | ', '(none)') AS p
FROM courses WHERE course_id <= 100400 GROUP BY units_min ORDER BY units_min;

-- case: ty-ok-array-to-string-null-enum
-- db: restaurants
-- order: total
SELECT location, array_to_string(array_agg(NULLIF(price, 'cheap') ORDER BY _id), ',', '$') AS p
FROM restaurants WHERE _id <= 20 GROUP BY location ORDER BY location;

-- case: ty-ok-date-trunc-time-literal
-- db: courses
SELECT date_trunc('hour', time '10:35:20') AS a, date_trunc('minute', time '10:35:20') AS b,
       date_trunc('hour', '9:5'::time) AS c;

-- case: ty-ok-date-trunc-time-column
-- db: courses
-- order: total
SELECT _id, date_trunc('hour', start_time) AS h, date_trunc('hour', end_time - start_time) AS d
FROM offerings ORDER BY _id LIMIT 6;

-- case: ty-ok-date-trunc-time-group
-- db: courses
-- order: total
SELECT date_trunc('hour', start_time) AS h, count(*) AS n FROM offerings GROUP BY 1 ORDER BY 1;

-- case: ty-ok-date-trunc-time-compare
-- db: restaurants
SELECT count(*) FROM restaurant_hours WHERE date_trunc('hour', opens) = interval '11 hours';

-- case: ty-ok-date-trunc-interval
-- db: courses
SELECT date_trunc('hour', interval '2 hours 45 minutes') AS a, date_trunc('day', interval '3 days 20 hours') AS b,
       date_trunc('minute', -interval '1 hour 30 minutes 40 seconds') AS c;

-- case: ty-ok-star-group-by-primary-key
-- db: restaurants
-- why: _id is the primary key, so every column depends on it
-- order: total
SELECT *, count(*) AS n FROM restaurants WHERE _id <= 3 GROUP BY _id ORDER BY _id;

-- case: ty-ok-qualified-star-group-by-key-join
-- db: courses
-- order: total
SELECT o.*, count(*) AS n FROM offerings o JOIN courses c ON c.course_id = o.course_id
WHERE o._id <= 4 GROUP BY o._id ORDER BY o._id;

-- case: ty-ok-or-chain-250
-- db: restaurants
-- order: total
SELECT _id, name FROM restaurants WHERE
  _id = 488 OR _id = 1214 OR _id = 1115 OR _id = 268 OR _id = 758 OR _id = 1237 OR _id = 971 OR _id = 1282 OR
  _id = 1190 OR _id = 135 OR _id = 1241 OR _id = 27 OR _id = 1716 OR _id = 961 OR _id = 532 OR _id = 1129 OR
  _id = 480 OR _id = 393 OR _id = 1469 OR _id = 964 OR _id = 1108 OR _id = 1714 OR _id = 1126 OR _id = 976 OR
  _id = 814 OR _id = 1309 OR _id = 1764 OR _id = 309 OR _id = 475 OR _id = 1301 OR _id = 311 OR _id = 1778 OR
  _id = 1072 OR _id = 799 OR _id = 1519 OR _id = 32 OR _id = 1376 OR _id = 1592 OR _id = 132 OR _id = 327 OR
  _id = 1553 OR _id = 1211 OR _id = 88 OR _id = 617 OR _id = 1598 OR _id = 64 OR _id = 1687 OR _id = 1773 OR
  _id = 552 OR _id = 969 OR _id = 1219 OR _id = 1473 OR _id = 1800 OR _id = 794 OR _id = 1463 OR _id = 1615 OR
  _id = 875 OR _id = 809 OR _id = 1492 OR _id = 1641 OR _id = 1182 OR _id = 911 OR _id = 275 OR _id = 749 OR
  _id = 200 OR _id = 74 OR _id = 279 OR _id = 1014 OR _id = 445 OR _id = 529 OR _id = 1377 OR _id = 894 OR
  _id = 1596 OR _id = 1284 OR _id = 1752 OR _id = 863 OR _id = 1039 OR _id = 1707 OR _id = 791 OR _id = 1176 OR
  _id = 719 OR _id = 1094 OR _id = 1199 OR _id = 835 OR _id = 1197 OR _id = 476 OR _id = 690 OR _id = 1397 OR
  _id = 59 OR _id = 1754 OR _id = 573 OR _id = 1375 OR _id = 1425 OR _id = 335 OR _id = 1431 OR _id = 1763 OR
  _id = 669 OR _id = 1110 OR _id = 1172 OR _id = 1166 OR _id = 214 OR _id = 1462 OR _id = 1343 OR _id = 433 OR
  _id = 1297 OR _id = 1704 OR _id = 1175 OR _id = 547 OR _id = 584 OR _id = 255 OR _id = 130 OR _id = 988 OR
  _id = 1749 OR _id = 991 OR _id = 182 OR _id = 705 OR _id = 1640 OR _id = 137 OR _id = 841 OR _id = 42 OR
  _id = 602 OR _id = 1575 OR _id = 851 OR _id = 1788 OR _id = 244 OR _id = 91 OR _id = 1240 OR _id = 1259 OR
  _id = 1560 OR _id = 93 OR _id = 774 OR _id = 1472 OR _id = 1201 OR _id = 678 OR _id = 572 OR _id = 1036 OR
  _id = 484 OR _id = 635 OR _id = 15 OR _id = 158 OR _id = 222 OR _id = 1229 OR _id = 1097 OR _id = 65 OR
  _id = 405 OR _id = 836 OR _id = 598 OR _id = 1251 OR _id = 540 OR _id = 320 OR _id = 1413 OR _id = 87 OR
  _id = 696 OR _id = 643 OR _id = 738 OR _id = 284 OR _id = 1765 OR _id = 772 OR _id = 943 OR _id = 1782 OR
  _id = 1066 OR _id = 1319 OR _id = 1776 OR _id = 1220 OR _id = 1395 OR _id = 1146 OR _id = 211 OR _id = 1271 OR
  _id = 1662 OR _id = 556 OR _id = 884 OR _id = 1300 OR _id = 1476 OR _id = 1466 OR _id = 487 OR _id = 896 OR
  _id = 1068 OR _id = 621 OR _id = 1124 OR _id = 695 OR _id = 24 OR _id = 1188 OR _id = 645 OR _id = 1262 OR
  _id = 1207 OR _id = 1295 OR _id = 273 OR _id = 124 OR _id = 1298 OR _id = 1285 OR _id = 681 OR _id = 955 OR
  _id = 723 OR _id = 1392 OR _id = 1247 OR _id = 1448 OR _id = 1512 OR _id = 1003 OR _id = 46 OR _id = 1208 OR
  _id = 125 OR _id = 1385 OR _id = 44 OR _id = 757 OR _id = 515 OR _id = 1287 OR _id = 935 OR _id = 612 OR
  _id = 1232 OR _id = 656 OR _id = 364 OR _id = 746 OR _id = 380 OR _id = 641 OR _id = 1729 OR _id = 541 OR
  _id = 616 OR _id = 1613 OR _id = 773 OR _id = 215 OR _id = 1582 OR _id = 1666 OR _id = 56 OR _id = 1401 OR
  _id = 1506 OR _id = 270 OR _id = 1025 OR _id = 456 OR _id = 1339 OR _id = 1647 OR _id = 489 OR _id = 672 OR
  _id = 384 OR _id = 1389 OR _id = 892 OR _id = 1331 OR _id = 1430 OR _id = 199 OR _id = 209 OR _id = 1231 OR
  _id = 660 OR _id = 684 OR _id = 1383 OR _id = 1708 OR _id = 460 OR _id = 898 OR _id = 1659 OR _id = 1753 OR
  _id = 347 OR _id = 164
ORDER BY _id;

-- case: ty-ok-and-chain-250
-- db: restaurants
SELECT count(*), sum(_id) FROM restaurants WHERE
  _id <> 690 AND _id <> 1520 AND _id <> 1332 AND _id <> 447 AND _id <> 1165 AND _id <> 924 AND _id <> 555 AND _id <> 461 AND
  _id <> 1612 AND _id <> 248 AND _id <> 70 AND _id <> 1085 AND _id <> 391 AND _id <> 646 AND _id <> 1653 AND _id <> 1713 AND
  _id <> 1718 AND _id <> 1178 AND _id <> 376 AND _id <> 1769 AND _id <> 571 AND _id <> 697 AND _id <> 1654 AND _id <> 1696 AND
  _id <> 1315 AND _id <> 176 AND _id <> 1652 AND _id <> 1269 AND _id <> 708 AND _id <> 1208 AND _id <> 266 AND _id <> 863 AND
  _id <> 598 AND _id <> 1062 AND _id <> 1626 AND _id <> 1741 AND _id <> 556 AND _id <> 952 AND _id <> 710 AND _id <> 1299 AND
  _id <> 854 AND _id <> 595 AND _id <> 860 AND _id <> 1164 AND _id <> 839 AND _id <> 73 AND _id <> 847 AND _id <> 320 AND
  _id <> 409 AND _id <> 10 AND _id <> 978 AND _id <> 1706 AND _id <> 1276 AND _id <> 1045 AND _id <> 890 AND _id <> 1145 AND
  _id <> 1469 AND _id <> 455 AND _id <> 67 AND _id <> 1527 AND _id <> 936 AND _id <> 1714 AND _id <> 1543 AND _id <> 1358 AND
  _id <> 1532 AND _id <> 1063 AND _id <> 592 AND _id <> 1114 AND _id <> 699 AND _id <> 466 AND _id <> 1765 AND _id <> 140 AND
  _id <> 1758 AND _id <> 1206 AND _id <> 588 AND _id <> 246 AND _id <> 1660 AND _id <> 501 AND _id <> 93 AND _id <> 72 AND
  _id <> 1645 AND _id <> 1421 AND _id <> 1050 AND _id <> 407 AND _id <> 881 AND _id <> 1182 AND _id <> 102 AND _id <> 27 AND
  _id <> 986 AND _id <> 352 AND _id <> 1031 AND _id <> 615 AND _id <> 490 AND _id <> 41 AND _id <> 1076 AND _id <> 1100 AND
  _id <> 848 AND _id <> 110 AND _id <> 1254 AND _id <> 233 AND _id <> 700 AND _id <> 257 AND _id <> 518 AND _id <> 1108 AND
  _id <> 1663 AND _id <> 1603 AND _id <> 126 AND _id <> 721 AND _id <> 453 AND _id <> 405 AND _id <> 251 AND _id <> 1095 AND
  _id <> 1673 AND _id <> 245 AND _id <> 351 AND _id <> 491 AND _id <> 1622 AND _id <> 561 AND _id <> 1651 AND _id <> 264 AND
  _id <> 1687 AND _id <> 16 AND _id <> 999 AND _id <> 1288 AND _id <> 1170 AND _id <> 1767 AND _id <> 820 AND _id <> 103 AND
  _id <> 1550 AND _id <> 509 AND _id <> 551 AND _id <> 1266 AND _id <> 1080 AND _id <> 1065 AND _id <> 867 AND _id <> 105 AND
  _id <> 969 AND _id <> 662 AND _id <> 1591 AND _id <> 1679 AND _id <> 4 AND _id <> 1756 AND _id <> 113 AND _id <> 1588 AND
  _id <> 260 AND _id <> 95 AND _id <> 256 AND _id <> 141 AND _id <> 989 AND _id <> 68 AND _id <> 1750 AND _id <> 1460 AND
  _id <> 177 AND _id <> 1056 AND _id <> 1029 AND _id <> 1004 AND _id <> 647 AND _id <> 322 AND _id <> 645 AND _id <> 147 AND
  _id <> 720 AND _id <> 791 AND _id <> 1325 AND _id <> 798 AND _id <> 1202 AND _id <> 623 AND _id <> 739 AND _id <> 543 AND
  _id <> 392 AND _id <> 674 AND _id <> 878 AND _id <> 254 AND _id <> 262 AND _id <> 1138 AND _id <> 8 AND _id <> 1467 AND
  _id <> 1481 AND _id <> 779 AND _id <> 1629 AND _id <> 164 AND _id <> 1161 AND _id <> 366 AND _id <> 88 AND _id <> 765 AND
  _id <> 944 AND _id <> 1238 AND _id <> 1109 AND _id <> 1304 AND _id <> 1641 AND _id <> 89 AND _id <> 884 AND _id <> 109 AND
  _id <> 763 AND _id <> 1286 AND _id <> 1017 AND _id <> 1557 AND _id <> 1440 AND _id <> 862 AND _id <> 1422 AND _id <> 857 AND
  _id <> 37 AND _id <> 502 AND _id <> 448 AND _id <> 1098 AND _id <> 554 AND _id <> 1424 AND _id <> 1209 AND _id <> 871 AND
  _id <> 460 AND _id <> 873 AND _id <> 267 AND _id <> 58 AND _id <> 667 AND _id <> 767 AND _id <> 1620 AND _id <> 1783 AND
  _id <> 537 AND _id <> 249 AND _id <> 951 AND _id <> 1415 AND _id <> 253 AND _id <> 1666 AND _id <> 1499 AND _id <> 1357 AND
  _id <> 1086 AND _id <> 1623 AND _id <> 771 AND _id <> 1368 AND _id <> 223 AND _id <> 1503 AND _id <> 653 AND _id <> 1155 AND
  _id <> 1090 AND _id <> 212 AND _id <> 1204 AND _id <> 1468 AND _id <> 11 AND _id <> 970 AND _id <> 294 AND _id <> 484 AND
  _id <> 1586 AND _id <> 797 AND _id <> 91 AND _id <> 189 AND _id <> 1156 AND _id <> 204 AND _id <> 1351 AND _id <> 770 AND
  _id <> 367 AND _id <> 49;

-- case: ty-ok-or-chain-250-courses
-- db: courses
SELECT count(*), min(course_id), max(course_id) FROM offerings WHERE
  course_id = 106987 OR course_id = 102513 OR course_id = 100539 OR course_id = 102320 OR course_id = 109872 OR course_id = 105827 OR course_id = 106146 OR course_id = 101810 OR
  course_id = 100747 OR course_id = 111541 OR course_id = 110463 OR course_id = 110829 OR course_id = 104906 OR course_id = 102197 OR course_id = 111358 OR course_id = 102079 OR
  course_id = 111405 OR course_id = 101261 OR course_id = 111272 OR course_id = 106655 OR course_id = 103699 OR course_id = 101586 OR course_id = 104947 OR course_id = 111197 OR
  course_id = 105109 OR course_id = 109302 OR course_id = 108053 OR course_id = 105178 OR course_id = 107549 OR course_id = 108142 OR course_id = 107173 OR course_id = 108580 OR
  course_id = 101714 OR course_id = 107688 OR course_id = 110268 OR course_id = 104833 OR course_id = 108441 OR course_id = 103301 OR course_id = 108505 OR course_id = 109896 OR
  course_id = 103164 OR course_id = 108238 OR course_id = 103041 OR course_id = 103340 OR course_id = 101967 OR course_id = 111034 OR course_id = 107641 OR course_id = 111094 OR
  course_id = 109397 OR course_id = 107159 OR course_id = 105287 OR course_id = 109734 OR course_id = 104538 OR course_id = 106033 OR course_id = 107363 OR course_id = 108796 OR
  course_id = 101916 OR course_id = 101360 OR course_id = 102758 OR course_id = 110654 OR course_id = 102002 OR course_id = 101488 OR course_id = 105999 OR course_id = 105250 OR
  course_id = 103205 OR course_id = 102368 OR course_id = 108701 OR course_id = 107053 OR course_id = 105509 OR course_id = 107963 OR course_id = 103003 OR course_id = 106861 OR
  course_id = 107230 OR course_id = 108720 OR course_id = 104236 OR course_id = 106100 OR course_id = 109077 OR course_id = 109488 OR course_id = 108883 OR course_id = 109649 OR
  course_id = 102213 OR course_id = 103138 OR course_id = 100236 OR course_id = 108804 OR course_id = 111483 OR course_id = 110341 OR course_id = 103896 OR course_id = 111362 OR
  course_id = 101769 OR course_id = 111782 OR course_id = 111042 OR course_id = 102444 OR course_id = 110502 OR course_id = 110110 OR course_id = 107951 OR course_id = 101460 OR
  course_id = 104298 OR course_id = 110019 OR course_id = 108627 OR course_id = 110765 OR course_id = 111734 OR course_id = 102102 OR course_id = 104766 OR course_id = 105955 OR
  course_id = 106697 OR course_id = 105704 OR course_id = 100301 OR course_id = 108270 OR course_id = 109804 OR course_id = 111661 OR course_id = 104087 OR course_id = 107482 OR
  course_id = 100454 OR course_id = 107888 OR course_id = 111872 OR course_id = 102409 OR course_id = 106628 OR course_id = 106913 OR course_id = 100714 OR course_id = 109786 OR
  course_id = 102611 OR course_id = 108356 OR course_id = 101957 OR course_id = 102653 OR course_id = 101406 OR course_id = 109931 OR course_id = 106378 OR course_id = 107303 OR
  course_id = 100389 OR course_id = 108022 OR course_id = 101752 OR course_id = 110871 OR course_id = 109411 OR course_id = 101876 OR course_id = 104350 OR course_id = 100929 OR
  course_id = 100840 OR course_id = 101224 OR course_id = 106571 OR course_id = 102716 OR course_id = 102993 OR course_id = 109150 OR course_id = 103671 OR course_id = 104611 OR
  course_id = 107859 OR course_id = 103449 OR course_id = 100074 OR course_id = 107747 OR course_id = 103431 OR course_id = 103360 OR course_id = 104444 OR course_id = 108552 OR
  course_id = 104992 OR course_id = 100776 OR course_id = 102141 OR course_id = 105032 OR course_id = 104001 OR course_id = 101306 OR course_id = 105592 OR course_id = 103273 OR
  course_id = 106481 OR course_id = 102810 OR course_id = 105861 OR course_id = 104403 OR course_id = 101158 OR course_id = 104504 OR course_id = 102584 OR course_id = 100989 OR
  course_id = 103800 OR course_id = 103787 OR course_id = 106251 OR course_id = 109167 OR course_id = 106423 OR course_id = 111900 OR course_id = 103879 OR course_id = 110593 OR
  course_id = 109609 OR course_id = 106796 OR course_id = 106170 OR course_id = 102893 OR course_id = 108664 OR course_id = 110184 OR course_id = 100585 OR course_id = 106049 OR
  course_id = 102527 OR course_id = 106819 OR course_id = 111719 OR course_id = 108978 OR course_id = 106283 OR course_id = 109549 OR course_id = 104852 OR course_id = 103733 OR
  course_id = 105910 OR course_id = 109458 OR course_id = 106464 OR course_id = 108296 OR course_id = 104173 OR course_id = 107339 OR course_id = 107806 OR course_id = 109277 OR
  course_id = 100895 OR course_id = 111963 OR course_id = 110622 OR course_id = 107406 OR course_id = 100638 OR course_id = 105042 OR course_id = 102872 OR course_id = 107605 OR
  course_id = 110688 OR course_id = 104144 OR course_id = 106230 OR course_id = 110314 OR course_id = 108438 OR course_id = 107576 OR course_id = 101529 OR course_id = 103629 OR
  course_id = 109023 OR course_id = 105772 OR course_id = 108084 OR course_id = 111152 OR course_id = 103977 OR course_id = 100346 OR course_id = 105238 OR course_id = 103560 OR
  course_id = 105555 OR course_id = 102784 OR course_id = 102952 OR course_id = 109595 OR course_id = 110422 OR course_id = 100515 OR course_id = 109699 OR course_id = 106920 OR
  course_id = 110229 OR course_id = 100278 OR course_id = 107265 OR course_id = 109330 OR course_id = 105633 OR course_id = 107773 OR course_id = 104583 OR course_id = 104248 OR
  course_id = 110551 OR course_id = 104740 OR course_id = 111940 OR course_id = 110378 OR course_id = 106527 OR course_id = 101018 OR course_id = 105429 OR course_id = 107455 OR
  course_id = 111589 OR course_id = 111808;

-- case: ty-ok-and-chain-250-mixed-columns
-- db: courses
SELECT count(*) FROM courses WHERE
  _id <> 1035 AND _id <> 1180 AND units_max >= 1 AND _id <> 1057 AND units_max >= 1 AND _id <> 1138 AND
  title <> 'T51' AND _id <> 1296 AND course_id <> 110656 AND units_max >= 0 AND _id <> 1094 AND course_id <> 103552 AND
  units_max >= 1 AND course_id <> 107400 AND _id <> 1065 AND title <> 'T74' AND course_id <> 107511 AND _id <> 1099 AND
  title <> 'T278' AND course_id <> 109990 AND course_id <> 103219 AND units_max >= 0 AND units_max >= 0 AND course_id <> 104736 AND
  units_max >= 0 AND units_max >= 1 AND _id <> 1015 AND units_max >= 1 AND units_max >= 1 AND course_id <> 107252 AND
  course_id <> 105957 AND units_max >= 0 AND course_id <> 110989 AND _id <> 1153 AND units_max >= 1 AND _id <> 1273 AND
  _id <> 1097 AND course_id <> 100037 AND _id <> 1055 AND units_max >= 1 AND course_id <> 109287 AND title <> 'T88' AND
  title <> 'T235' AND units_max >= 1 AND course_id <> 110434 AND _id <> 1286 AND units_max >= 0 AND title <> 'T54' AND
  title <> 'T9' AND _id <> 1271 AND course_id <> 110212 AND units_max >= 1 AND units_max >= 1 AND units_max >= 0 AND
  _id <> 1113 AND units_max >= 1 AND _id <> 1144 AND _id <> 1072 AND title <> 'T168' AND units_max >= 0 AND
  course_id <> 101443 AND title <> 'T34' AND _id <> 1260 AND units_max >= 0 AND title <> 'T22' AND _id <> 1159 AND
  title <> 'T12' AND units_max >= 1 AND units_max >= 1 AND _id <> 1268 AND _id <> 1059 AND course_id <> 104773 AND
  units_max >= 0 AND title <> 'T127' AND title <> 'T137' AND _id <> 1004 AND _id <> 1086 AND units_max >= 1 AND
  title <> 'T84' AND course_id <> 109546 AND title <> 'T177' AND title <> 'T219' AND course_id <> 108806 AND units_max >= 0 AND
  course_id <> 107918 AND course_id <> 109842 AND units_max >= 0 AND title <> 'T8' AND course_id <> 106771 AND units_max >= 1 AND
  course_id <> 110175 AND _id <> 1279 AND course_id <> 107622 AND _id <> 1052 AND title <> 'T16' AND _id <> 1293 AND
  title <> 'T111' AND course_id <> 106586 AND _id <> 1193 AND units_max >= 0 AND units_max >= 0 AND title <> 'T80' AND
  title <> 'T27' AND units_max >= 0 AND course_id <> 103848 AND course_id <> 110064 AND _id <> 1204 AND title <> 'T298' AND
  title <> 'T41' AND course_id <> 103700 AND course_id <> 108362 AND title <> 'T121' AND _id <> 1179 AND title <> 'T17' AND
  title <> 'T225' AND title <> 'T108' AND course_id <> 101961 AND _id <> 1166 AND _id <> 1125 AND course_id <> 110915 AND
  course_id <> 100185 AND units_max >= 1 AND title <> 'T117' AND _id <> 1176 AND title <> 'T102' AND _id <> 1112 AND
  units_max >= 1 AND title <> 'T116' AND _id <> 1259 AND title <> 'T285' AND title <> 'T93' AND course_id <> 110693 AND
  title <> 'T114' AND title <> 'T253' AND units_max >= 0 AND title <> 'T152' AND course_id <> 106475 AND units_max >= 1 AND
  course_id <> 100000 AND course_id <> 107807 AND title <> 'T66' AND _id <> 1241 AND _id <> 1036 AND title <> 'T218' AND
  course_id <> 105032 AND units_max >= 0 AND units_max >= 1 AND units_max >= 0 AND _id <> 1187 AND course_id <> 101591 AND
  _id <> 1149 AND units_max >= 0 AND title <> 'T249' AND units_max >= 0 AND course_id <> 100259 AND units_max >= 0 AND
  course_id <> 109028 AND _id <> 1146 AND course_id <> 109065 AND course_id <> 106697 AND course_id <> 101739 AND title <> 'T264' AND
  _id <> 1151 AND course_id <> 105476 AND course_id <> 106179 AND units_max >= 1 AND units_max >= 1 AND title <> 'T212' AND
  course_id <> 100481 AND _id <> 1061 AND title <> 'T155' AND _id <> 1280 AND title <> 'T256' AND units_max >= 1 AND
  _id <> 1003 AND title <> 'T172' AND title <> 'T123' AND title <> 'T141' AND units_max >= 1 AND course_id <> 101110 AND
  _id <> 1233 AND course_id <> 105698 AND units_max >= 0 AND _id <> 1024 AND title <> 'T21' AND _id <> 1042 AND
  title <> 'T79' AND units_max >= 0 AND _id <> 1044 AND title <> 'T294' AND title <> 'T76' AND title <> 'T232' AND
  title <> 'T240' AND course_id <> 106253 AND title <> 'T37' AND title <> 'T243' AND title <> 'T190' AND units_max >= 1 AND
  title <> 'T209' AND _id <> 1038 AND course_id <> 102294 AND _id <> 1031 AND course_id <> 102627 AND _id <> 1217 AND
  units_max >= 1 AND title <> 'T142' AND course_id <> 110619 AND course_id <> 110471 AND _id <> 1215 AND course_id <> 100407 AND
  title <> 'T145' AND _id <> 1250 AND title <> 'T261' AND _id <> 1090 AND title <> 'T75' AND course_id <> 104514 AND
  course_id <> 109953 AND units_max >= 0 AND units_max >= 0 AND _id <> 1223 AND units_max >= 1 AND course_id <> 104255 AND
  _id <> 1064 AND units_max >= 1 AND title <> 'T130' AND _id <> 1184 AND _id <> 1199 AND title <> 'T170' AND
  units_max >= 1 AND units_max >= 0 AND _id <> 1085 AND title <> 'T230' AND course_id <> 102553 AND units_max >= 1 AND
  title <> 'T109' AND _id <> 1048 AND _id <> 1239 AND _id <> 1192 AND course_id <> 103959 AND course_id <> 110397 AND
  title <> 'T70' AND course_id <> 106845 AND _id <> 1018 AND course_id <> 103922 AND _id <> 1252 AND title <> 'T26' AND
  _id <> 1089 AND course_id <> 101184 AND units_max >= 0 AND units_max >= 0;

-- case: ty-ok-mixed-and-or-chain
-- db: restaurants
SELECT count(*), min(_id), max(_id) FROM restaurants WHERE
  (_id <> 476 OR rating > 4.5 OR num_reviews = 34 OR price = 'luxury')
  AND (_id <> 583 OR rating > 4.5 OR num_reviews = 29 OR price = 'moderate')
  AND (_id <> 415 OR rating > 4.8 OR num_reviews = 19 OR price = 'expensive')
  AND (_id <> 1205 OR rating > 4.0 OR num_reviews = 37 OR price = 'expensive')
  AND (_id <> 1270 OR rating > 4.8 OR num_reviews = 22 OR price = 'expensive')
  AND (_id <> 1575 OR rating > 4.8 OR num_reviews = 46 OR price = 'moderate')
  AND (_id <> 916 OR rating > 4.0 OR num_reviews = 46 OR price = 'luxury')
  AND (_id <> 1757 OR rating > 4.5 OR num_reviews = 40 OR price = 'moderate')
  AND (_id <> 1011 OR rating > 4.0 OR num_reviews = 11 OR price = 'cheap')
  AND (_id <> 936 OR rating > 4.0 OR num_reviews = 32 OR price = 'luxury')
  AND (_id <> 1725 OR rating > 4.0 OR num_reviews = 20 OR price = 'moderate')
  AND (_id <> 1546 OR rating > 4.0 OR num_reviews = 20 OR price = 'luxury')
  AND (_id <> 506 OR rating > 4.5 OR num_reviews = 43 OR price = 'cheap')
  AND (_id <> 485 OR rating > 4.5 OR num_reviews = 23 OR price = 'luxury')
  AND (_id <> 458 OR rating > 4.0 OR num_reviews = 18 OR price = 'expensive')
  AND (_id <> 708 OR rating > 4.5 OR num_reviews = 3 OR price = 'expensive')
  AND (_id <> 1500 OR rating > 4.0 OR num_reviews = 13 OR price = 'moderate')
  AND (_id <> 623 OR rating > 4.5 OR num_reviews = 11 OR price = 'moderate')
  AND (_id <> 503 OR rating > 4.5 OR num_reviews = 44 OR price = 'moderate')
  AND (_id <> 442 OR rating > 4.8 OR num_reviews = 23 OR price = 'moderate')
  AND (_id <> 360 OR rating > 4.8 OR num_reviews = 48 OR price = 'luxury')
  AND (_id <> 1226 OR rating > 4.8 OR num_reviews = 27 OR price = 'moderate')
  AND (_id <> 1287 OR rating > 4.5 OR num_reviews = 28 OR price = 'expensive')
  AND (_id <> 115 OR rating > 4.0 OR num_reviews = 50 OR price = 'luxury')
  AND (_id <> 1004 OR rating > 4.0 OR num_reviews = 37 OR price = 'moderate')
  AND (_id <> 550 OR rating > 4.8 OR num_reviews = 26 OR price = 'luxury')
  AND (_id <> 455 OR rating > 4.5 OR num_reviews = 32 OR price = 'luxury')
  AND (_id <> 709 OR rating > 4.5 OR num_reviews = 39 OR price = 'luxury')
  AND (_id <> 1553 OR rating > 4.0 OR num_reviews = 7 OR price = 'luxury')
  AND (_id <> 695 OR rating > 4.8 OR num_reviews = 9 OR price = 'expensive')
  AND (_id <> 221 OR rating > 4.5 OR num_reviews = 33 OR price = 'moderate')
  AND (_id <> 1743 OR rating > 4.5 OR num_reviews = 30 OR price = 'moderate')
  AND (_id <> 1768 OR rating > 4.5 OR num_reviews = 23 OR price = 'luxury')
  AND (_id <> 86 OR rating > 4.8 OR num_reviews = 22 OR price = 'moderate')
  AND (_id <> 1277 OR rating > 4.0 OR num_reviews = 44 OR price = 'expensive')
  AND (_id <> 1197 OR rating > 4.8 OR num_reviews = 18 OR price = 'expensive')
  AND (_id <> 841 OR rating > 4.8 OR num_reviews = 41 OR price = 'expensive')
  AND (_id <> 23 OR rating > 4.5 OR num_reviews = 43 OR price = 'expensive')
  AND (_id <> 866 OR rating > 4.5 OR num_reviews = 23 OR price = 'moderate')
  AND (_id <> 512 OR rating > 4.5 OR num_reviews = 44 OR price = 'moderate')
  AND (_id <> 1153 OR rating > 4.5 OR num_reviews = 45 OR price = 'cheap')
  AND (_id <> 664 OR rating > 4.8 OR num_reviews = 10 OR price = 'expensive')
  AND (_id <> 1485 OR rating > 4.5 OR num_reviews = 11 OR price = 'luxury')
  AND (_id <> 954 OR rating > 4.0 OR num_reviews = 26 OR price = 'expensive')
  AND (_id <> 219 OR rating > 4.8 OR num_reviews = 3 OR price = 'luxury')
  AND (_id <> 1438 OR rating > 4.0 OR num_reviews = 10 OR price = 'moderate')
  AND (_id <> 245 OR rating > 4.0 OR num_reviews = 35 OR price = 'cheap')
  AND (_id <> 793 OR rating > 4.8 OR num_reviews = 32 OR price = 'expensive')
  AND (_id <> 814 OR rating > 4.5 OR num_reviews = 4 OR price = 'luxury')
  AND (_id <> 566 OR rating > 4.8 OR num_reviews = 20 OR price = 'moderate')
  AND (_id <> 535 OR rating > 4.0 OR num_reviews = 13 OR price = 'cheap')
  AND (_id <> 977 OR rating > 4.5 OR num_reviews = 27 OR price = 'moderate')
  AND (_id <> 538 OR rating > 4.5 OR num_reviews = 43 OR price = 'moderate')
  AND (_id <> 543 OR rating > 4.8 OR num_reviews = 49 OR price = 'moderate')
  AND (_id <> 1366 OR rating > 4.0 OR num_reviews = 15 OR price = 'expensive')
  AND (_id <> 1620 OR rating > 4.5 OR num_reviews = 46 OR price = 'expensive')
  AND (_id <> 220 OR rating > 4.0 OR num_reviews = 45 OR price = 'moderate')
  AND (_id <> 1538 OR rating > 4.0 OR num_reviews = 14 OR price = 'luxury')
  AND (_id <> 684 OR rating > 4.0 OR num_reviews = 20 OR price = 'moderate')
  AND (_id <> 339 OR rating > 4.0 OR num_reviews = 42 OR price = 'luxury')
  AND (_id <> 552 OR rating > 4.8 OR num_reviews = 8 OR price = 'expensive')
  AND (_id <> 1783 OR rating > 4.5 OR num_reviews = 47 OR price = 'luxury');

-- case: ty-ok-mixed-or-of-and-chain
-- db: courses
-- order: total
SELECT _id, course_id, quarter FROM offerings WHERE
  (_id = 259 AND quarter >= 'Summer 2027' AND start_time < '15:00')
  OR (_id = 132 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 140 AND quarter >= 'Summer 2027' AND start_time < '10:00')
  OR (_id = 24 AND quarter >= 'Autumn 2026' AND start_time < '10:00')
  OR (_id = 221 AND quarter >= 'Autumn 2026' AND start_time < '10:00')
  OR (_id = 405 AND quarter >= 'Winter 2027' AND start_time < '18:00')
  OR (_id = 374 AND quarter >= 'Winter 2027' AND start_time < '12:00')
  OR (_id = 132 AND quarter >= 'Autumn 2026' AND start_time < '18:00')
  OR (_id = 289 AND quarter >= 'Spring 2027' AND start_time < '10:00')
  OR (_id = 61 AND quarter >= 'Winter 2027' AND start_time < '10:00')
  OR (_id = 490 AND quarter >= 'Autumn 2026' AND start_time < '15:00')
  OR (_id = 220 AND quarter >= 'Spring 2027' AND start_time < '10:00')
  OR (_id = 60 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 375 AND quarter >= 'Winter 2027' AND start_time < '12:00')
  OR (_id = 71 AND quarter >= 'Autumn 2026' AND start_time < '18:00')
  OR (_id = 41 AND quarter >= 'Winter 2027' AND start_time < '9:00')
  OR (_id = 4 AND quarter >= 'Autumn 2026' AND start_time < '18:00')
  OR (_id = 201 AND quarter >= 'Summer 2027' AND start_time < '18:00')
  OR (_id = 340 AND quarter >= 'Summer 2027' AND start_time < '12:00')
  OR (_id = 91 AND quarter >= 'Autumn 2026' AND start_time < '9:00')
  OR (_id = 145 AND quarter >= 'Summer 2027' AND start_time < '10:00')
  OR (_id = 4 AND quarter >= 'Autumn 2026' AND start_time < '12:00')
  OR (_id = 266 AND quarter >= 'Spring 2027' AND start_time < '12:00')
  OR (_id = 53 AND quarter >= 'Autumn 2026' AND start_time < '10:00')
  OR (_id = 199 AND quarter >= 'Autumn 2026' AND start_time < '18:00')
  OR (_id = 228 AND quarter >= 'Spring 2027' AND start_time < '10:00')
  OR (_id = 226 AND quarter >= 'Summer 2027' AND start_time < '10:00')
  OR (_id = 410 AND quarter >= 'Autumn 2026' AND start_time < '12:00')
  OR (_id = 111 AND quarter >= 'Winter 2027' AND start_time < '10:00')
  OR (_id = 213 AND quarter >= 'Summer 2027' AND start_time < '9:00')
  OR (_id = 203 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 59 AND quarter >= 'Winter 2027' AND start_time < '12:00')
  OR (_id = 50 AND quarter >= 'Autumn 2026' AND start_time < '15:00')
  OR (_id = 14 AND quarter >= 'Spring 2027' AND start_time < '10:00')
  OR (_id = 101 AND quarter >= 'Summer 2027' AND start_time < '18:00')
  OR (_id = 262 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 196 AND quarter >= 'Winter 2027' AND start_time < '18:00')
  OR (_id = 301 AND quarter >= 'Summer 2027' AND start_time < '12:00')
  OR (_id = 410 AND quarter >= 'Autumn 2026' AND start_time < '10:00')
  OR (_id = 407 AND quarter >= 'Summer 2027' AND start_time < '18:00')
  OR (_id = 272 AND quarter >= 'Autumn 2026' AND start_time < '12:00')
  OR (_id = 475 AND quarter >= 'Winter 2027' AND start_time < '15:00')
  OR (_id = 266 AND quarter >= 'Winter 2027' AND start_time < '12:00')
  OR (_id = 268 AND quarter >= 'Winter 2027' AND start_time < '10:00')
  OR (_id = 188 AND quarter >= 'Spring 2027' AND start_time < '9:00')
  OR (_id = 38 AND quarter >= 'Summer 2027' AND start_time < '9:00')
  OR (_id = 246 AND quarter >= 'Winter 2027' AND start_time < '15:00')
  OR (_id = 11 AND quarter >= 'Autumn 2026' AND start_time < '9:00')
  OR (_id = 243 AND quarter >= 'Autumn 2026' AND start_time < '9:00')
  OR (_id = 363 AND quarter >= 'Summer 2027' AND start_time < '9:00')
  OR (_id = 25 AND quarter >= 'Spring 2027' AND start_time < '12:00')
  OR (_id = 157 AND quarter >= 'Summer 2027' AND start_time < '15:00')
  OR (_id = 154 AND quarter >= 'Spring 2027' AND start_time < '10:00')
  OR (_id = 159 AND quarter >= 'Autumn 2026' AND start_time < '15:00')
  OR (_id = 494 AND quarter >= 'Autumn 2026' AND start_time < '9:00')
  OR (_id = 494 AND quarter >= 'Winter 2027' AND start_time < '10:00')
  OR (_id = 43 AND quarter >= 'Winter 2027' AND start_time < '15:00')
  OR (_id = 272 AND quarter >= 'Winter 2027' AND start_time < '10:00')
  OR (_id = 43 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 438 AND quarter >= 'Autumn 2026' AND start_time < '15:00')
  OR (_id = 35 AND quarter >= 'Spring 2027' AND start_time < '15:00')
  OR (_id = 475 AND quarter >= 'Autumn 2026' AND start_time < '15:00')
  OR (_id = 342 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 401 AND quarter >= 'Summer 2027' AND start_time < '15:00')
  OR (_id = 239 AND quarter >= 'Spring 2027' AND start_time < '18:00')
  OR (_id = 481 AND quarter >= 'Autumn 2026' AND start_time < '12:00')
  OR (_id = 157 AND quarter >= 'Summer 2027' AND start_time < '12:00')
  OR (_id = 403 AND quarter >= 'Summer 2027' AND start_time < '12:00')
  OR (_id = 106 AND quarter >= 'Spring 2027' AND start_time < '9:00')
  OR (_id = 334 AND quarter >= 'Spring 2027' AND start_time < '15:00')
  OR (_id = 490 AND quarter >= 'Summer 2027' AND start_time < '15:00')
  OR (_id = 386 AND quarter >= 'Winter 2027' AND start_time < '12:00')
  OR (_id = 308 AND quarter >= 'Autumn 2026' AND start_time < '10:00')
  OR (_id = 300 AND quarter >= 'Autumn 2026' AND start_time < '18:00')
  OR (_id = 206 AND quarter >= 'Winter 2027' AND start_time < '15:00')
  OR (_id = 93 AND quarter >= 'Spring 2027' AND start_time < '9:00')
  OR (_id = 335 AND quarter >= 'Winter 2027' AND start_time < '18:00')
  OR (_id = 232 AND quarter >= 'Spring 2027' AND start_time < '15:00')
  OR (_id = 453 AND quarter >= 'Summer 2027' AND start_time < '18:00')
  OR (_id = 296 AND quarter >= 'Spring 2027' AND start_time < '15:00')
  OR (_id = 221 AND quarter >= 'Autumn 2026' AND start_time < '12:00')
  OR (_id = 376 AND quarter >= 'Summer 2027' AND start_time < '12:00')
  OR (_id = 463 AND quarter >= 'Summer 2027' AND start_time < '12:00')
  OR (_id = 270 AND quarter >= 'Winter 2027' AND start_time < '10:00')
ORDER BY _id;

-- case: ty-ok-or-chain-250-text
-- db: restaurants
SELECT count(*), count(DISTINCT name) FROM restaurants WHERE
  name = 'Golden Pot' OR name = 'Fig Kitchen' OR name = 'Zippy Burger' OR name = 'Speakeasy Bar' OR name = 'Bangkok Street Food' OR
  name = 'Sweet Cream Gelato' OR name = 'Matsu Japanese Grill' OR name = 'Twisted Noodle Bar' OR name = 'Café de Rosa' OR name = 'Sorrel' OR
  name = 'Mandarin Express' OR name = 'Paper Plane Roastery' OR name = 'Lucky Tea Bar' OR name = 'Pie Hole Pizzeria' OR name = 'Pie Society Pizza Bar' OR
  name = 'Ruthie''s Subs' OR name = 'Mission Pizza Bar' OR name = 'Squeeze Station' OR name = 'Flour & Salt Bakeshop' OR name = 'Panini Shop' OR
  name = 'Mama Dee''s Kitchen' OR name = 'Blue Seafood' OR name = 'Szechuan Impression' OR name = 'Rye & Mustard Sandwich Shop' OR name = 'Tiny Cafe & Market' OR
  name = 'Darbar Mahal' OR name = 'Auntie Cafe' OR name = 'Field Salad Co.' OR name = 'Sahara Bistro' OR name = 'The Commons Press' OR
  name = 'Tide Fish House' OR name = 'Café Flore' OR name = 'Cocina Azteca' OR name = 'Mama Rosa''s Italian Kitchen' OR name = 'Plant Kitchen' OR
  name = 'Casa Rioja' OR name = 'Cedar Coffee & Tea' OR name = 'Café de Soleil' OR name = 'Sierra Table' OR name = 'Garden House' OR
  name = 'Jasmine Grill' OR name = 'Rosie''s Diner' OR name = 'Cherry Patisserie' OR name = 'Meson Flamenco' OR name = 'Momo Japanese Cuisine' OR
  name = 'Common Ground Espresso Bar' OR name = 'Curry Cafe' OR name = 'Garden Salads' OR name = 'The Fox & Barrel' OR name = 'Sunrise Boulangerie' OR
  name = 'Pho Vy' OR name = 'Kaze Japanese Cuisine' OR name = 'Sunny Station' OR name = 'Mustard House' OR name = 'Pomegranate Mediterranean Grill' OR
  name = 'Bamboo Sandwiches' OR name = 'Harbor Oyster Bar' OR name = 'Route 66 Diner & Grill' OR name = 'Aunt Dee''s Breakfast Nook' OR name = 'Shanghai Restaurant' OR
  name = 'Lava Plate Lunch' OR name = 'Kerala Corner' OR name = 'Royal Palace' OR name = 'Maharaja Bistro' OR name = 'Garden Cafe & Market' OR
  name = 'Cedar Bistro' OR name = 'Ironwood Steak & Seafood' OR name = 'Fire Kitchen' OR name = 'Cafe Aroma' OR name = 'Franklin Chophouse' OR
  name = 'Maison Colette' OR name = 'Habibi Shawarma' OR name = 'Golden Compass Saloon' OR name = 'La Cocina de Nacho' OR name = 'Golden State Farmhouse' OR
  name = 'Upper Crust Pizza' OR name = 'Caffe Nero' OR name = 'La Cocina de Memo' OR name = 'Jukebox Grill' OR name = 'Garden Social' OR
  name = 'Rise & Shine Bake House' OR name = 'Franklin Eatery' OR name = 'Rye & Vine' OR name = 'Two Hands Burger Bar' OR name = 'Mama Sue''s Kitchen' OR
  name = 'Al-Madina Kabob' OR name = 'Pizza Roma' OR name = 'Sweet Wheat Bake House' OR name = 'Jerusalem Kabob House' OR name = 'Griddle Burger Shack' OR
  name = 'Wild Greens Table' OR name = 'Imperial Bowl' OR name = 'Seaside Seafood Grill' OR name = 'Bradford''s Steakhouse' OR name = 'Harar Ethiopian Kitchen' OR
  name = 'Le Marmite' OR name = 'Fortune Cuisine' OR name = 'Jade Tavern' OR name = 'Crooked Whistle Bar & Grill' OR name = 'Le Papillon' OR
  name = 'Sunny Side Kitchen' OR name = 'Ruthie''s Sandwich Shop' OR name = 'Casa San Miguel' OR name = 'Nonna Carla''s Cucina' OR name = 'Midori Sushi' OR
  name = 'Harbor Bistro' OR name = 'Blue Fog Coffee Roasters' OR name = 'Red Dynasty' OR name = 'Mama Paolo''s Cucina' OR name = 'Hilo Poke' OR
  name = 'Sam''s Sandwiches' OR name = 'Jade Cafe' OR name = 'Ramen House Genki' OR name = 'Fog City Coffee & Tea' OR name = 'Namsan Korean BBQ' OR
  name = 'Kanpai Sushi' OR name = 'Levain Boulangerie' OR name = 'Taqueria Garibaldi' OR name = 'Cafe Sol' OR name = 'Cantina Los Amigos' OR
  name = 'Meson Catalana' OR name = 'Mama''s Oven Bake House' OR name = 'Tiny Eatery' OR name = 'Le Petite Crème' OR name = 'Tacos La Fiesta' OR
  name = 'Siam Street Food' OR name = 'Greenhouse Cafe & Market' OR name = 'Harbor Bar & Grill' OR name = 'Vintage Wine Room' OR name = 'Chaat Palace' OR
  name = 'Speedy Shack' OR name = 'Salty Horseshoe Bar' OR name = 'Cedar Coffee Roasters' OR name = 'Baan Bistro' OR name = 'Driftwood Coffee Co.' OR
  name = 'Killarney Ale House' OR name = 'Snack Burger Stand' OR name = 'Dragon Pot' OR name = 'Golden Drive-In' OR name = 'Kowloon Restaurant' OR
  name = 'Bistro Bordeaux' OR name = 'Casa Granada' OR name = 'Kerala Cafe' OR name = 'Speedy Chicken' OR name = 'Ristorante Toscana' OR
  name = 'Bone Daddy''s Rib Shack' OR name = 'Marigold Kitchen' OR name = 'La Cocina de Pancho' OR name = 'Rusty Rooster Taproom' OR name = 'Aunt Mae''s Pancake House' OR
  name = 'Pearl Wok' OR name = 'Musashi Ramen Shop' OR name = 'The Steady Roast' OR name = 'Morning Glory Breakfast Club' OR name = 'Dragon Express' OR
  name = 'Pearl Bistro' OR name = 'Acropolis Souvlaki' OR name = 'Cast Iron Soul Food' OR name = 'Dragon Star' OR name = 'Lotus Garden' OR
  name = 'Parked Cantina' OR name = 'Lutong Grill' OR name = 'Poppy Farmhouse' OR name = 'Fire & Dough Pizza' OR name = 'Ohana Plate Lunch' OR
  name = 'Lucky Barrel Bar & Grill' OR name = 'Panda Village' OR name = 'Little Pot' OR name = 'The Humble Mug' OR name = 'Lone Star Bar-B-Q' OR
  name = 'Umami Social' OR name = 'Amber Social Club' OR name = 'Rocco''s Brick Oven Pizza' OR name = 'Krung Kitchen' OR name = 'Saffron Kitchen' OR
  name = 'Pho Saigon' OR name = 'Red Hotpot' OR name = 'Nazca Cevicheria' OR name = 'Amber Den' OR name = 'Panda Express' OR
  name = 'Brasserie Paris' OR name = 'Jumbo Grill' OR name = 'Enoteca Da Marco' OR name = 'Grape Wine Bar' OR name = 'Ray''s Hamburgers' OR
  name = 'Casa Michoacan' OR name = 'Taiwan Cafe' OR name = 'Dubliner Irish Pub' OR name = 'Dusty Lantern Bar & Grill' OR name = 'Uncorked & Cheese' OR
  name = 'Hearth' OR name = 'Kaohsiung Noodle House' OR name = 'Broken Nail Tavern' OR name = 'Locanda Bellavista' OR name = 'Restaurante San Miguel' OR
  name = 'Alder House' OR name = 'Arequipa Restaurant' OR name = 'Sprout House' OR name = 'Blind Tiger Den' OR name = 'Lucky Time' OR
  name = 'Dolce Parlor' OR name = 'Sushi Zen' OR name = 'Xi''an Noodle Co.' OR name = 'Pie Hole Pizza Co.' OR name = 'Lenny''s Sandwich Shop' OR
  name = 'Verdant Cafe' OR name = 'Pearl Kitchen' OR name = 'Aloha Shack' OR name = 'Ocean Wok' OR name = 'Tea Planet' OR
  name = 'Mochi Parlor' OR name = 'Tacos Chapala' OR name = 'Rosie''s Coffee Shop' OR name = 'Veggie Bowl' OR name = 'Bubbling Hot Pot & BBQ' OR
  name = 'Canton Village' OR name = 'Zio Gina''s Trattoria' OR name = 'Caffe Dolce' OR name = 'Taqueria La Bamba' OR name = 'Fog City Roastery' OR
  name = 'Insadong Garden' OR name = 'Busan Kitchen' OR name = 'Taqueria Cancun' OR name = 'La Cocina de Lupe' OR name = 'Bamboo Noodle Co.' OR
  name = 'Galbi Korean BBQ' OR name = 'Bistro Lyon' OR name = 'Morning Loaf Boulangerie' OR name = 'Bella Borgo' OR name = 'Cedar House' OR
  name = 'Pizzeria Napoli' OR name = 'Toro Omakase' OR name = 'Kouzina Mykonos' OR name = 'The Perch Press' OR name = 'Myeongdong Korean BBQ' OR
  name = 'Sumac Bistro' OR name = 'Jumbo Bites' OR name = 'Kintaro Japanese Cuisine' OR name = 'The Hungry Spoon' OR name = 'Arequipa Bistro' OR
  name = 'Farm House' OR name = 'The Mission Kitchen' OR name = 'Red Lantern Eatery' OR name = 'Szechuan Home' OR name = 'Arirang Jib' OR
  name = 'Gaucho Churrascaria' OR name = 'Wood Fire Pizza Bar' OR name = 'Senor Nacho Food Truck' OR name = 'Mojito Cocina' OR name = 'Cherry Ice Cream';

-- ==== 6. values printed by their type's output, aggregates of nothing ====

-- case: ty-out-concat-boolean
-- db: courses
SELECT concat('graded: ', units_min > 3, '/', units_max >= 5) AS c, concat_ws(' | ', true, NULL, false, 'x') AS w
FROM courses ORDER BY _id LIMIT 3;

-- case: ty-out-boolean-array-text
-- db: courses
SELECT ARRAY[units_min > 2, NULL, false]::text AS t FROM courses ORDER BY _id LIMIT 2;

-- case: ty-out-array-agg-none
-- db: restaurants
SELECT array_agg(name) AS a, count(*) AS n FROM restaurants WHERE rating > 10
UNION ALL
SELECT array_agg(name) FILTER (WHERE rating > 10), count(*) FROM restaurants WHERE _id = 3;

-- case: ty-out-array-agg-filter-per-group
-- db: restaurants
-- order: total
SELECT location, array_agg(_id) FILTER (WHERE _id = 7) AS one FROM restaurants GROUP BY location ORDER BY location;

-- case: ty-out-array-agg-none-window
-- db: courses
-- order: total
SELECT _id, array_agg(units_min) FILTER (WHERE units_min > 99) OVER () AS a FROM courses ORDER BY _id LIMIT 2;

-- case: ty-err-bool-and-number
-- db: courses
-- expect: error: function bool_and(integer) does not exist
SELECT bool_and(units_max) FROM courses;

-- case: ty-err-every-text
-- db: restaurants
-- expect: error: function every(text) does not exist
SELECT location, every(phone) FROM restaurants GROUP BY location;

-- case: ty-err-bool-or-real
-- db: restaurants
-- expect: error: function bool_or(double precision) does not exist
SELECT bool_or(rating) FROM restaurants;

-- case: ty-err-sum-array
-- db: restaurants
-- expect: error: function sum(text[]) does not exist
SELECT sum(popular_dishes) FROM restaurants;

-- case: ty-err-greatest-word
-- db: courses
-- expect: error: invalid input syntax for type integer: "few"
SELECT greatest(units_min, 'few') FROM courses;

-- case: ty-err-nullif-word
-- db: restaurants
-- expect: error: invalid input syntax for type double precision: "n/a"
SELECT NULLIF(rating, 'n/a') FROM restaurants;

-- case: ty-least-literal-number
-- db: restaurants
-- order: total
SELECT least(rating, '4.2') AS l, greatest(num_reviews, '100') AS g, NULLIF(rating, '4.5') AS n
FROM restaurants ORDER BY _id LIMIT 4;

-- case: ty-case-literal-typed-by-column
-- db: courses
-- order: total
SELECT _id, CASE WHEN units_min > 3 THEN '7' ELSE units_min END + 1 AS c,
       COALESCE(NULLIF(units_max, 5), '50') * 2 AS d
FROM courses ORDER BY _id LIMIT 5;

-- ==== 7. found in review ====================================================

-- case: ty-review-concat-text-array
-- db: restaurants
-- order: total
SELECT _id, concat(cuisines, '|') AS c, concat_ws(';', popular_dishes[1], cuisines) AS w
FROM restaurants ORDER BY _id LIMIT 3;

-- case: ty-review-window-order-by-constant
-- db: restaurants
SELECT max(price) AS m, count(*) OVER (ORDER BY 1) AS n FROM restaurants;

-- case: ty-review-lag-with-constant-order
-- db: restaurants
-- order: total
SELECT _id, lag(price) OVER (ORDER BY _id) AS p, count(*) OVER (ORDER BY 1) AS n
FROM restaurants ORDER BY _id LIMIT 3;

-- case: ty-review-char-literal-spaces
-- db: courses
SELECT 'ab'::char(4) = 'ab  ' AS a, 'ab'::char(4) = 'ab ' AS b, 'ab '::char(4) <> 'ab' AS c,
       'ab'::char(4) < 'ab  x' AS d;

-- case: ty-review-int-array-fraction
-- db: courses
-- expect: error: invalid input syntax for type integer: "2.6"
SELECT '{1,2.6}'::int[];

-- case: ty-review-int-array-exponent
-- db: courses
-- expect: error: invalid input syntax for type integer: "1e3"
SELECT '{1e3}'::int[];

-- case: ty-review-overflow-cancels
-- db: courses
-- expect: error: value out of range: overflow
SELECT (1e308::float8 * 10) - (1e308::float8 * 10);

-- case: ty-review-overflow-times-zero
-- db: courses
-- expect: error: value out of range: overflow
SELECT (1e308::float8 * 10) * 0;

-- case: ty-review-overflow-divided
-- db: courses
-- expect: error: value out of range: overflow
SELECT 1.0::float8 / (1e308::float8 * 10);

-- case: ty-review-log-negative-base
-- db: courses
-- expect: error: cannot take logarithm of a negative number
SELECT log(-2, 0);
