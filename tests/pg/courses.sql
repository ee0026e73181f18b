-- courses.sql — differential cases over sample_db/courses.db (courses 300
-- rows, prerequisites NULL for 19; offerings 499 with quarter an enum
-- 'Autumn 2026' < 'Winter 2027' < 'Spring 2027' < 'Summer 2027', start_time
-- and end_time TIME; ratings 284, one per rated course; programs 7).
-- Format: tests/pg/run.py.

-- ==== basics ==============================================================

-- case: c-count-tables
SELECT (SELECT count(*) FROM courses) AS courses, (SELECT count(*) FROM offerings) AS offerings,
       (SELECT count(*) FROM ratings) AS ratings, (SELECT count(*) FROM programs) AS programs;

-- case: c-select-star-offerings
-- order: total
SELECT * FROM offerings ORDER BY _id LIMIT 3;

-- case: c-select-star-courses
-- order: total
SELECT * FROM courses ORDER BY course_id LIMIT 2;

-- case: c-project-courses
-- order: total
SELECT course_id, title, course_codes, units_min, units_max, grading_options, prerequisites
FROM courses ORDER BY course_id LIMIT 5;

-- case: c-programs-names
-- order: total
SELECT name, length(requirements) > 0 AS has_text FROM programs ORDER BY name;

-- case: c-hidden-table
-- expect: error: enrollments is not a table of the knowledge base
SELECT count(*) FROM enrollments;

-- case: c-hidden-genie-table
-- expect: error: genie_columns is not a table of the knowledge base
SELECT count(*) FROM genie_columns;

-- case: c-title-like
SELECT count(*) FROM courses WHERE title LIKE '%Learning%';

-- case: c-title-ilike
SELECT course_id, title FROM courses WHERE title ILIKE '%natural language%';

-- case: c-units-between
SELECT count(*) FROM courses WHERE units_max BETWEEN 4 AND 5;

-- case: c-units-compare-columns
SELECT count(*) FROM courses WHERE units_min = units_max;

-- case: c-units-in
SELECT units_min, count(*) FROM courses WHERE units_min IN (1, 4, 5) GROUP BY units_min;

-- ==== joins ===============================================================

-- case: c-join-on
SELECT c.title, o.quarter, o.days FROM courses c JOIN offerings o ON c.course_id = o.course_id WHERE c.course_id = 100019;

-- case: c-inner-join-keyword
SELECT count(*) FROM courses c INNER JOIN ratings r ON c.course_id = r.course_id;

-- case: c-join-using
SELECT course_id, title, average_rating FROM courses JOIN ratings USING (course_id) WHERE average_rating >= 4.9;

-- case: c-join-using-star
-- order: total
SELECT * FROM offerings JOIN courses USING (course_id) ORDER BY offerings._id LIMIT 2;

-- case: c-join-using-qualified
SELECT count(*) FROM courses JOIN ratings USING (course_id) WHERE courses.units_max > 3;

-- case: c-natural-join
SELECT count(*) FROM offerings NATURAL JOIN ratings;

-- case: c-natural-join-columns
-- order: total
SELECT * FROM (SELECT course_id, title FROM courses) c NATURAL JOIN (SELECT course_id, average_rating FROM ratings) r
ORDER BY course_id LIMIT 3;

-- case: c-implicit-join
SELECT count(*) FROM courses c, ratings r WHERE c.course_id = r.course_id AND r.average_rating > 4.5;

-- case: c-left-join-unmatched
SELECT c.course_id, c.title FROM courses c LEFT JOIN ratings r ON c.course_id = r.course_id WHERE r.course_id IS NULL;

-- case: c-left-outer-join-count
SELECT count(*), count(r._id), count(r.average_rating) FROM courses c LEFT OUTER JOIN ratings r ON r.course_id = c.course_id;

-- case: c-left-join-using
SELECT count(*) FROM courses LEFT JOIN ratings USING (course_id) WHERE average_rating IS NULL;

-- case: c-left-join-coalesce
-- order: total
SELECT c.course_id, COALESCE(r.average_rating, 0) AS rating FROM courses c LEFT JOIN ratings r ON c.course_id = r.course_id
ORDER BY rating, c.course_id LIMIT 5;

-- case: c-left-join-condition-in-on
SELECT count(*) FROM courses c LEFT JOIN ratings r ON c.course_id = r.course_id AND r.average_rating > 4.5;

-- case: c-right-join
SELECT count(*) FROM ratings r RIGHT JOIN courses c ON c.course_id = r.course_id WHERE r._id IS NULL;

-- case: c-full-join
SELECT count(*) FROM ratings r FULL OUTER JOIN courses c ON c.course_id = r.course_id;

-- case: c-join-three
SELECT c.title, o.quarter, r.average_rating
FROM courses c JOIN offerings o ON o.course_id = c.course_id JOIN ratings r ON r.course_id = c.course_id
WHERE c.course_id = 100019;

-- case: c-join-group-avg
-- order: total
SELECT o.quarter, count(*) AS n, round(avg(r.average_rating)::numeric, 3) AS avg_rating
FROM offerings o JOIN ratings r ON r.course_id = o.course_id GROUP BY o.quarter ORDER BY o.quarter;

-- case: c-join-subquery-agg
-- order: total
SELECT c.course_id, c.title, n.cnt FROM courses c
JOIN (SELECT course_id, count(*) AS cnt FROM offerings GROUP BY course_id) n ON n.course_id = c.course_id
ORDER BY n.cnt DESC, c.course_id LIMIT 5;

-- case: c-join-ambiguous-column
-- expect: error: course_id is ambiguous
SELECT course_id FROM courses JOIN ratings ON courses.course_id = ratings.course_id;

-- case: c-join-lateral
-- order: total
-- expect: unsupported: LATERAL subqueries
SELECT c.course_id, x.n FROM courses c, LATERAL (SELECT count(*) AS n FROM offerings o WHERE o.course_id = c.course_id) x
ORDER BY c.course_id LIMIT 5;

-- case: c-cross-join
SELECT count(*) FROM programs CROSS JOIN (SELECT DISTINCT quarter FROM offerings) q;

-- case: c-self-join-prereq
-- order: total
SELECT a.title, b.title AS needs FROM courses a JOIN courses b ON a.prerequisites = b.course_codes[1]
ORDER BY a.course_id, b.course_id LIMIT 5;

-- case: c-join-order-by-rating
-- order: total
SELECT c.title, r.average_rating FROM courses c JOIN ratings r ON r.course_id = c.course_id
ORDER BY r.average_rating DESC, c.course_id LIMIT 5;

-- case: c-join-nulls-first-desc
-- order: total
SELECT c.course_id, r.average_rating FROM courses c LEFT JOIN ratings r ON r.course_id = c.course_id
ORDER BY r.average_rating DESC, c.course_id LIMIT 5;

-- case: c-join-instructor-any
SELECT DISTINCT c.title FROM courses c JOIN offerings o ON o.course_id = c.course_id
WHERE 'Mark Petrov' = ANY (o.instructors);

-- ==== time columns ========================================================

-- case: c-time-projection
-- order: total
SELECT _id, start_time, end_time FROM offerings ORDER BY _id LIMIT 3;

-- case: c-time-eq-hhmm
SELECT count(*) FROM offerings WHERE start_time = '10:30';

-- case: c-time-eq-with-seconds
SELECT count(*) FROM offerings WHERE start_time = '10:30:00';

-- case: c-time-literal-one-digit-hour
SELECT count(*) FROM offerings WHERE start_time < '9:30';

-- case: c-time-literal-one-digit-hour-eq
SELECT count(*) FROM offerings WHERE start_time = '9:00';

-- case: c-time-literal-pm
SELECT count(*) FROM offerings WHERE start_time >= '1:00 PM';

-- case: c-time-typed-literal
SELECT count(*) FROM offerings WHERE start_time > TIME '12:00';

-- case: c-time-cast-literal
SELECT count(*) FROM offerings WHERE start_time > '12:00'::time;

-- case: c-time-between
SELECT count(*) FROM offerings WHERE start_time BETWEEN '09:00' AND '12:00';

-- case: c-time-in-list
SELECT count(*) FROM offerings WHERE start_time IN ('09:00', '15:00:00');

-- case: c-time-order
-- order: total
SELECT _id, start_time FROM offerings ORDER BY start_time DESC, _id LIMIT 5;

-- case: c-time-min-max
SELECT min(start_time), max(end_time) FROM offerings;

-- case: c-time-group
-- order: total
SELECT start_time, count(*) FROM offerings GROUP BY start_time ORDER BY start_time;

-- case: c-time-to-text
-- order: total
SELECT _id, start_time::text FROM offerings ORDER BY _id LIMIT 3;

-- case: c-time-concat
-- order: total
SELECT _id, start_time || '-' || end_time AS slot FROM offerings ORDER BY _id LIMIT 3;

-- case: c-time-difference
-- order: total
SELECT _id, end_time - start_time AS length FROM offerings ORDER BY _id LIMIT 3;

-- case: c-time-difference-compare
SELECT count(*) FROM offerings WHERE end_time - start_time > INTERVAL '1 hour 30 minutes';

-- case: c-time-plus-interval
-- order: total
SELECT _id, start_time + INTERVAL '30 minutes' AS later FROM offerings ORDER BY _id LIMIT 3;

-- case: c-time-extract-hour
-- order: total
SELECT EXTRACT(HOUR FROM start_time) AS h, count(*) FROM offerings GROUP BY 1 ORDER BY 1;

-- case: c-time-date-part
SELECT count(*) FROM offerings WHERE date_part('minute', start_time) = 30;

-- case: c-time-vs-integer
-- expect: error: time does not compare with an integer
SELECT count(*) FROM offerings WHERE start_time > 9;

-- case: c-time-invalid-literal
-- expect: error: 25:00 is not a time
SELECT count(*) FROM offerings WHERE start_time < '25:00';

-- case: c-time-not-a-time
-- expect: error: 'morning' is not a time
SELECT count(*) FROM offerings WHERE start_time = 'morning';

-- case: c-time-like-refused
-- expect: error: LIKE is not defined on time
SELECT count(*) FROM offerings WHERE start_time LIKE '09%';

-- case: c-time-text-like
SELECT count(*) FROM offerings WHERE start_time::text LIKE '09%';

-- case: c-time-morning-afternoon
SELECT CASE WHEN start_time < '12:00' THEN 'morning' ELSE 'afternoon' END AS part, count(*) FROM offerings GROUP BY 1;

-- ==== enum: quarter, grading_options =======================================

-- case: c-quarter-eq
SELECT count(*) FROM offerings WHERE quarter = 'Spring 2027';

-- case: c-quarter-order
-- order: total
SELECT quarter, count(*) FROM offerings GROUP BY quarter ORDER BY quarter;

-- case: c-quarter-order-desc
-- order: total
SELECT DISTINCT quarter FROM offerings ORDER BY quarter DESC;

-- case: c-quarter-gt
SELECT quarter, count(*) FROM offerings WHERE quarter > 'Winter 2027' GROUP BY quarter;

-- case: c-quarter-between
SELECT quarter, count(*) FROM offerings WHERE quarter BETWEEN 'Winter 2027' AND 'Spring 2027' GROUP BY quarter;

-- case: c-quarter-min-max
SELECT min(quarter), max(quarter) FROM offerings;

-- case: c-quarter-text-like
SELECT count(*) FROM offerings WHERE quarter::text LIKE 'Spring%';

-- case: c-quarter-like-refused
-- expect: error: LIKE is not defined on an enum
SELECT count(*) FROM offerings WHERE quarter LIKE 'Spring%';

-- case: c-quarter-vocabulary-fall
-- expect: divergence: a value outside the enum ('Fall 2026') stands for the vocabulary values it means (suql.7, Enumerated values); PostgreSQL refuses it as enum input
SELECT count(*) FROM offerings WHERE quarter = 'Fall 2026';

-- case: c-quarter-vocabulary-season
-- expect: divergence: a value outside the enum ('Spring') stands for the vocabulary values it means (suql.7); PostgreSQL refuses it as enum input
SELECT count(*) FROM offerings WHERE quarter = 'Spring';

-- case: c-quarter-vocabulary-in
-- expect: divergence: values outside the enum stand for the vocabulary values they mean (suql.7); PostgreSQL refuses them as enum input
SELECT count(*) FROM offerings WHERE quarter IN ('autumn', 'winter');

-- case: c-grading-any
SELECT count(*) FROM courses WHERE 'Letter' = ANY (grading_options);

-- case: c-grading-any-vocabulary
-- expect: divergence: a value outside the enum ('letter grade') stands for the vocabulary values it means (suql.7); PostgreSQL refuses it as enum input
SELECT count(*) FROM courses WHERE 'letter grade' = ANY (grading_options);

-- case: c-grading-contains-text-array
-- expect: divergence: an enum is text with an order: it compares with text values and text arrays
SELECT count(*) FROM courses WHERE grading_options @> ARRAY['Letter'];

-- case: c-grading-contains-literal
SELECT count(*) FROM courses WHERE grading_options @> '{Letter}';

-- case: c-grading-cardinality
SELECT cardinality(grading_options) AS n, count(*) FROM courses GROUP BY 1;

-- case: c-grading-unnest-order
-- order: total
SELECT g, count(*) FROM courses, unnest(grading_options) AS g GROUP BY g ORDER BY g;

-- case: c-grading-projection
-- order: total
SELECT course_id, grading_options FROM courses ORDER BY course_id LIMIT 3;

-- case: c-grading-to-text
-- order: total
SELECT course_id, grading_options::text FROM courses ORDER BY course_id LIMIT 3;

-- case: c-grading-array-eq
SELECT count(*) FROM courses WHERE grading_options = '{Letter}';

-- ==== arrays: course_codes, instructors ====================================

-- case: c-codes-any
SELECT course_id, title FROM courses WHERE 'CS 224N' = ANY (course_codes);

-- case: c-codes-subscript
-- order: total
SELECT course_id, course_codes[1] AS main FROM courses ORDER BY course_id LIMIT 5;

-- case: c-codes-subscript-second
SELECT count(*) FROM courses WHERE course_codes[2] IS NOT NULL;

-- case: c-codes-array-length
SELECT count(*) FROM courses WHERE array_length(course_codes, 1) > 1;

-- case: c-codes-unnest-like
SELECT count(DISTINCT c.course_id) FROM courses c, unnest(c.course_codes) AS code WHERE code LIKE 'STATS%';

-- case: c-codes-overlap
SELECT count(*) FROM courses WHERE course_codes && ARRAY['CS 229', 'CS 221'];

-- case: c-instructors-unnest-group
-- order: total
SELECT i, count(*) FROM offerings, unnest(instructors) AS i GROUP BY i ORDER BY count(*) DESC, i LIMIT 5;

-- case: c-instructors-array-length
-- order: total
SELECT array_length(instructors, 1) AS n, count(*) FROM offerings GROUP BY 1 ORDER BY 1;

-- case: c-instructors-projection
-- order: total
SELECT _id, instructors FROM offerings ORDER BY _id LIMIT 3;

-- case: c-array-agg-codes
SELECT array_agg(course_id ORDER BY course_id) FROM courses WHERE units_max = 6;

-- case: c-string-agg-instructors
SELECT string_agg(DISTINCT i, ', ' ORDER BY i) FROM offerings, unnest(instructors) AS i WHERE course_id = 100019;

-- ==== NULL semantics ======================================================

-- case: c-count-star-vs-column
SELECT count(*), count(prerequisites), count(DISTINCT prerequisites) FROM courses;

-- case: c-is-null
SELECT count(*) FROM courses WHERE prerequisites IS NULL;

-- case: c-eq-null
SELECT count(*) FROM courses WHERE prerequisites = NULL;

-- case: c-ne-excludes-null
SELECT count(*) FROM courses WHERE prerequisites <> 'CS 107';

-- case: c-not-in-with-null
SELECT count(*) FROM courses WHERE course_id NOT IN (SELECT CASE WHEN course_id = 100019 THEN NULL ELSE course_id END FROM ratings);

-- case: c-not-in-subquery-nullable-column
SELECT count(*) FROM courses WHERE 'CS 999' NOT IN (SELECT prerequisites FROM courses);

-- case: c-in-subquery-nullable-column
SELECT count(*) FROM courses WHERE title IN (SELECT prerequisites FROM courses);

-- case: c-group-by-null
-- order: total
SELECT prerequisites, count(*) FROM courses GROUP BY prerequisites ORDER BY count(*) DESC, prerequisites LIMIT 4;

-- case: c-order-nulls-default-asc
-- order: total
SELECT course_id, prerequisites FROM courses ORDER BY prerequisites, course_id OFFSET 278;

-- case: c-order-nulls-default-desc
-- order: total
SELECT course_id, prerequisites FROM courses ORDER BY prerequisites DESC, course_id LIMIT 3;

-- case: c-order-nulls-first
-- order: total
SELECT course_id, prerequisites FROM courses ORDER BY prerequisites NULLS FIRST, course_id LIMIT 3;

-- case: c-order-nulls-last-desc
-- order: total
SELECT course_id, prerequisites FROM courses ORDER BY prerequisites DESC NULLS LAST, course_id LIMIT 3;

-- case: c-null-concat
-- order: total
SELECT course_id, prerequisites || ' required' AS p, concat(prerequisites, ' required') AS q FROM courses
WHERE course_id IN (100019, 100020) ORDER BY course_id;

-- case: c-coalesce-null
SELECT COALESCE(prerequisites, 'none') AS p, count(*) FROM courses WHERE prerequisites IS NULL OR prerequisites = 'CS 107' GROUP BY 1;

-- case: c-is-distinct-from
SELECT count(*) FROM courses WHERE prerequisites IS DISTINCT FROM 'CS 107';

-- case: c-distinct-includes-null
SELECT count(*) FROM (SELECT DISTINCT prerequisites FROM courses) s;

-- case: c-sum-empty
SELECT sum(units_min), count(units_min), avg(units_min), max(title) FROM courses WHERE units_min > 100;

-- case: c-coalesce-sum-empty
SELECT COALESCE(sum(units_min), 0) FROM courses WHERE units_min > 100;

-- case: c-case-null-when
SELECT CASE WHEN prerequisites IS NULL THEN 'none' ELSE 'some' END AS p, count(*) FROM courses GROUP BY 1;

-- case: c-nullif-division
SELECT course_id, units_max / NULLIF(units_min - 1, 0) AS ratio FROM courses WHERE course_id IN (100019, 100020);

-- ==== numbers in the data =================================================

-- case: c-avg-real
SELECT avg(average_rating), avg(average_hours_per_week) FROM ratings;

-- case: c-round-avg-numeric
SELECT round(avg(average_rating)::numeric, 2) FROM ratings;

-- case: c-avg-int-column
SELECT avg(units_min), avg(units_max) FROM courses;

-- case: c-sum-int-column
SELECT sum(units_min), sum(units_max), sum(units_max - units_min) FROM courses;

-- case: c-int-div-columns
SELECT units_max / units_min AS q, count(*) FROM courses GROUP BY 1;

-- case: c-int-div-float
SELECT units_max::float / units_min AS q, count(*) FROM courses GROUP BY 1;

-- case: c-int-mod-column
SELECT units_max % 2 AS odd, count(*) FROM courses GROUP BY 1;

-- case: c-rating-whole-to-text
SELECT average_rating::text FROM ratings WHERE average_rating IN (4.0, 5.0) GROUP BY average_rating;

-- case: c-rating-where-text
SELECT count(*) FROM ratings WHERE average_rating::text = '5';

-- case: c-rating-round-2
-- order: total
SELECT _id, round(average_hours_per_week::numeric, 1) FROM ratings ORDER BY _id LIMIT 3;

-- case: c-rating-cast-int
SELECT average_rating::int AS r, count(*) FROM ratings GROUP BY 1;

-- case: c-rating-order-desc
-- order: total
SELECT course_id, average_rating FROM ratings ORDER BY average_rating DESC, course_id LIMIT 5;

-- case: c-rating-percent
-- order: total
SELECT course_id, average_rating / 5 * 100 AS pct FROM ratings ORDER BY course_id LIMIT 3;

-- case: c-hours-per-unit
-- order: total
SELECT r.course_id, r.average_hours_per_week / c.units_max AS per_unit FROM ratings r JOIN courses c USING (course_id)
ORDER BY per_unit DESC, r.course_id LIMIT 3;

-- case: c-course-id-text
SELECT count(*) FROM courses WHERE course_id::text LIKE '1000%';

-- case: c-course-id-vs-text
SELECT count(*) FROM courses WHERE course_id = '100019';

-- case: c-course-id-vs-bad-text
-- expect: error: 'CS 106A' is not an integer
SELECT count(*) FROM courses WHERE course_id = 'CS 106A';

-- ==== GROUP BY, HAVING ====================================================

-- case: c-group-having-count
-- order: total
SELECT course_id, count(*) FROM offerings GROUP BY course_id HAVING count(*) >= 3 ORDER BY count(*) DESC, course_id LIMIT 5;

-- case: c-group-by-days
SELECT days, count(*) FROM offerings GROUP BY days;

-- case: c-group-join-having
SELECT c.units_max, count(*) FROM courses c JOIN ratings r USING (course_id) GROUP BY c.units_max HAVING avg(r.average_rating) > 3.5;

-- case: c-group-by-expression-case
SELECT CASE WHEN units_max >= 4 THEN 'heavy' ELSE 'light' END AS load, count(*) FROM courses GROUP BY 1;

-- case: c-non-grouped-column
-- expect: error: title must appear in GROUP BY or be in an aggregate
SELECT units_max, title FROM courses GROUP BY units_max;

-- case: c-count-distinct-join
SELECT count(DISTINCT o.course_id) FROM offerings o WHERE o.quarter = 'Summer 2027';

-- case: c-max-per-group-correlated
SELECT count(*) FROM ratings r WHERE r.average_rating = (SELECT max(r2.average_rating) FROM ratings r2);

-- ==== subqueries ==========================================================

-- case: c-in-subquery
SELECT count(*) FROM courses WHERE course_id IN (SELECT course_id FROM offerings WHERE quarter = 'Summer 2027');

-- case: c-not-in-subquery
SELECT count(*) FROM courses WHERE course_id NOT IN (SELECT course_id FROM ratings);

-- case: c-exists
SELECT count(*) FROM courses c WHERE EXISTS (SELECT 1 FROM offerings o WHERE o.course_id = c.course_id AND o.quarter = 'Spring 2027');

-- case: c-not-exists
SELECT count(*) FROM courses c WHERE NOT EXISTS (SELECT 1 FROM ratings r WHERE r.course_id = c.course_id);

-- case: c-correlated-scalar
-- order: total
SELECT c.course_id, (SELECT count(*) FROM offerings o WHERE o.course_id = c.course_id) AS n FROM courses c ORDER BY c.course_id LIMIT 5;

-- case: c-scalar-subquery-compare
SELECT count(*) FROM ratings WHERE average_rating > (SELECT avg(average_rating) FROM ratings);

-- case: c-any-subquery
SELECT count(*) FROM courses WHERE course_id = ANY (SELECT course_id FROM ratings WHERE average_rating > 4.5);

-- case: c-all-subquery
SELECT count(*) FROM ratings WHERE average_rating >= ALL (SELECT average_rating FROM ratings);

-- case: c-subquery-from
SELECT avg(n) FROM (SELECT course_id, count(*) AS n FROM offerings GROUP BY course_id) AS per_course;

-- case: c-subquery-in-select-with-join
-- order: total
SELECT c.title, (SELECT r.average_rating FROM ratings r WHERE r.course_id = c.course_id) AS rating FROM courses c
ORDER BY c.course_id LIMIT 3;

-- case: c-exists-uncorrelated
SELECT count(*) FROM courses WHERE EXISTS (SELECT 1 FROM programs WHERE name = 'CS Minor');

-- case: c-scalar-subquery-empty
SELECT (SELECT title FROM courses WHERE course_id = -1) AS t;

-- ==== CTEs ================================================================

-- case: c-cte-rated
WITH rated AS (SELECT course_id, average_rating FROM ratings WHERE average_rating >= 4.5)
SELECT count(*) FROM courses c JOIN rated USING (course_id);

-- case: c-cte-chain
WITH o AS (SELECT course_id, count(*) AS n FROM offerings GROUP BY course_id),
     busy AS (SELECT course_id FROM o WHERE n >= 3)
SELECT count(*) FROM busy;

-- case: c-cte-used-twice
WITH r AS (SELECT * FROM ratings)
SELECT (SELECT count(*) FROM r) AS n, (SELECT max(average_rating) FROM r) AS top;

-- case: c-cte-shadows-table
WITH courses AS (SELECT 1 AS course_id)
SELECT count(*) FROM courses;

-- ==== date literals against the data =======================================

-- case: c-current-date
-- pg: SELECT count(*) FROM offerings WHERE quarter = 'Autumn 2026' AND DATE '2026-11-26' < DATE '2026-12-15'
SELECT count(*) FROM offerings WHERE quarter = 'Autumn 2026' AND CURRENT_DATE < DATE '2026-12-15';

-- case: c-current-date-projection
-- pg: SELECT DATE '2026-11-26' AS today, DATE '2026-11-26' + 7 AS next_week
SELECT CURRENT_DATE AS today, CURRENT_DATE + 7 AS next_week;

-- ==== window functions =====================================================

-- case: c-row-number-partition
-- order: total
SELECT course_id, quarter, row_number() OVER (PARTITION BY course_id ORDER BY quarter) AS k FROM offerings
WHERE course_id = 100019 ORDER BY k;

-- case: c-rank-ratings
-- order: total
SELECT course_id, rank() OVER (ORDER BY average_rating DESC) AS rk FROM ratings ORDER BY rk, course_id LIMIT 5;

-- case: c-lag
-- order: total
SELECT _id, start_time, lag(start_time) OVER (ORDER BY _id) AS prev FROM offerings ORDER BY _id LIMIT 3;

-- case: c-sum-over-running
-- order: total
SELECT course_id, sum(units_max) OVER (ORDER BY course_id) AS running FROM courses ORDER BY course_id LIMIT 4;

-- ==== functions on the data ================================================

-- case: c-split-part-prereq
SELECT split_part(prerequisites, ' and ', 1) AS first, count(*) FROM courses WHERE prerequisites LIKE '% and %' GROUP BY 1;

-- case: c-strpos-prereq
SELECT count(*) FROM courses WHERE strpos(prerequisites, 'CS 109') > 0;

-- case: c-position-title
SELECT count(*) FROM courses WHERE position(':' IN title) > 0;

-- case: c-substring-title
SELECT substring(title from 1 for 8) AS head, count(*) FROM courses WHERE title LIKE 'Advanced%' GROUP BY 1;

-- case: c-left-codes
SELECT left(course_codes[1], 2) AS dept, count(*) FROM courses GROUP BY 1;

-- case: c-upper-lower-title
-- order: total
SELECT course_id, upper(title), lower(title) FROM courses ORDER BY course_id LIMIT 2;

-- case: c-length-description
SELECT max(length(description)) > 100 AS long_enough FROM courses;

-- case: c-replace-days
SELECT replace(days, ', ', '/') AS d, count(*) FROM offerings GROUP BY 1;

-- case: c-concat-ws-codes
-- order: total
SELECT course_id, concat_ws(' / ', title, units_min, units_max) FROM courses ORDER BY course_id LIMIT 2;

-- case: c-units-text
-- order: total
SELECT course_id, units_min || '-' || units_max || ' units' AS u FROM courses ORDER BY course_id LIMIT 3;

-- case: c-units-greatest-least
-- order: total
SELECT course_id, greatest(units_min, 4) AS g, least(units_max, 4) AS l FROM courses ORDER BY course_id LIMIT 3;

-- case: c-days-array
SELECT count(*) FROM offerings WHERE 'Wed' = ANY (string_to_array(days, ', '));

-- case: c-count-days
SELECT days, array_length(string_to_array(days, ', '), 1) AS n FROM offerings GROUP BY days;

-- ==== joins: scoping and ambiguity =========================================

-- case: c-using-ambiguous-other-column
-- expect: error: _id is in both tables
SELECT _id FROM courses JOIN ratings USING (course_id) LIMIT 1;

-- case: c-from-subquery-outer-reference
-- expect: error: a subquery in FROM sees the other FROM items only with LATERAL
SELECT c.course_id, x.n FROM courses c, (SELECT count(*) AS n FROM offerings o WHERE o.course_id = c.course_id) x;

-- case: c-subquery-column-aliases
SELECT count(*) FROM (SELECT course_id, units_max FROM courses) AS s(id, u) WHERE s.u > 4;

-- case: c-join-on-true
SELECT count(*) FROM programs p JOIN (SELECT DISTINCT quarter FROM offerings) q ON true;

-- case: c-join-inequality
SELECT count(*) FROM offerings a JOIN offerings b ON a.course_id = b.course_id AND a.start_time < b.start_time;

-- case: c-left-join-where-right-filter
SELECT count(*) FROM courses c LEFT JOIN ratings r ON r.course_id = c.course_id WHERE r.average_rating < 4;

-- case: c-left-join-avg
SELECT round(avg(r.average_rating)::numeric, 4), count(*) FROM courses c LEFT JOIN ratings r ON r.course_id = c.course_id;

-- case: c-left-join-order-asc-nulls-last
-- order: total
SELECT c.course_id, r.average_rating FROM courses c LEFT JOIN ratings r ON r.course_id = c.course_id
ORDER BY r.average_rating, c.course_id OFFSET 295;

-- case: c-full-join-using
SELECT count(*), count(course_id) FROM ratings FULL JOIN courses USING (course_id);

-- case: c-join-any-instructors
SELECT count(*) FROM courses c JOIN offerings o ON o.course_id = c.course_id AND 'Mark Petrov' = ANY (o.instructors);

-- case: c-join-star-and-column
-- order: total
SELECT c.*, r.average_rating FROM courses c JOIN ratings r USING (course_id) ORDER BY c.course_id LIMIT 1;

-- ==== time: more ===========================================================

-- case: c-time-literal-am
SELECT count(*) FROM offerings WHERE start_time > '10:30am';

-- case: c-time-between-am-pm
SELECT count(*) FROM offerings WHERE start_time BETWEEN '9am' AND '12pm';

-- case: c-time-literal-seconds-fraction
SELECT count(*) FROM offerings WHERE start_time = '10:30:00.000';

-- case: c-time-literal-seconds
SELECT count(*) FROM offerings WHERE start_time < '09:30:30';

-- case: c-time-to-varchar
-- order: total
SELECT _id, start_time::varchar FROM offerings ORDER BY _id LIMIT 2;

-- case: c-time-to-char
-- order: total
-- expect: unsupported: to_char(), format(), quote_literal() and age() are not on the function list
SELECT _id, to_char(start_time, 'HH12:MI AM') FROM offerings ORDER BY _id LIMIT 2;

-- case: c-time-epoch
-- order: total
SELECT _id, EXTRACT(EPOCH FROM start_time) AS s FROM offerings ORDER BY _id LIMIT 2;

-- case: c-time-minutes-between
-- order: total
SELECT _id, EXTRACT(EPOCH FROM end_time - start_time) / 60 AS minutes FROM offerings ORDER BY _id LIMIT 3;

-- case: c-time-minus-interval
-- order: total
SELECT _id, start_time - INTERVAL '1 hour' FROM offerings ORDER BY _id LIMIT 2;

-- case: c-time-interval-compare-literal
SELECT count(*) FROM offerings WHERE (end_time - start_time) > '01:00';

-- case: c-time-max-interval
SELECT max(end_time - start_time), min(end_time - start_time) FROM offerings;

-- case: c-time-avg-interval
SELECT avg(end_time - start_time) FROM offerings;

-- case: c-time-sum-interval
SELECT sum(end_time - start_time) FROM offerings;

-- case: c-interval-aggs-by-course
-- order: total
-- why: sum keeps 36 hours as 36:00:00; avg divides as interval_div; min and max compare lengths
SELECT course_id, sum(end_time - start_time), avg(end_time - start_time), min(end_time - start_time), max(end_time - start_time) FROM offerings GROUP BY course_id HAVING count(*) > 2 ORDER BY course_id LIMIT 20;

-- case: c-interval-aggs-filter-window
-- order: total
SELECT _id, sum(end_time - start_time) FILTER (WHERE _id % 2 = 0) OVER (PARTITION BY course_id ORDER BY _id) AS s, avg(end_time - start_time) OVER (PARTITION BY course_id ORDER BY _id) AS a, max(end_time - start_time) OVER (PARTITION BY course_id) AS mx FROM offerings ORDER BY _id LIMIT 30;

-- case: c-interval-aggs-mixed-units
-- why: months, days and microseconds add apart; a month's fraction spills into days of 30
SELECT sum(x), avg(x), min(x), max(x) FROM (SELECT CASE WHEN _id % 3 = 0 THEN INTERVAL '1 mon 1 day' WHEN _id % 3 = 1 THEN INTERVAL '-5 days 03:00:00.5' END AS x FROM offerings WHERE _id < 9) AS t;

-- case: c-interval-aggs-empty
SELECT sum(end_time - start_time), avg(end_time - start_time), max(end_time - start_time) FROM offerings WHERE _id < 0;

-- case: c-array-constructor-correlated
-- order: total
SELECT c._id, ARRAY(SELECT o._id FROM offerings o WHERE o.course_id = c.course_id ORDER BY o._id DESC) AS ids FROM courses c ORDER BY c._id LIMIT 10;

-- case: c-array-constructor-any
SELECT count(*) FROM offerings WHERE course_id = ANY (ARRAY(SELECT course_id FROM courses ORDER BY _id LIMIT 5));

-- case: c-array-constructor-two-columns
-- expect: error: subquery must return only one column
SELECT ARRAY(SELECT _id, course_id FROM offerings);

-- case: c-time-order-by-interval
-- order: total
SELECT _id, end_time - start_time AS d FROM offerings ORDER BY d DESC, _id LIMIT 3;

-- case: c-time-hour-of-interval
SELECT date_part('hour', end_time - start_time) AS h, count(*) FROM offerings GROUP BY 1;

-- case: c-time-plus-unknown
SELECT count(*) FROM offerings WHERE start_time + '30 minutes' > '10:00';

-- case: c-time-group-hour-text
-- order: total
SELECT left(start_time::text, 2) AS h, count(*) FROM offerings GROUP BY 1 ORDER BY 1;

-- case: c-date-plus-time
SELECT DATE '2026-12-25' + start_time AS ts FROM offerings WHERE _id = 1;

-- ==== enum arrays: more ======================================================

-- case: c-grading-subscript
SELECT grading_options[1] AS g, count(*) FROM courses GROUP BY 1;

-- case: c-grading-subscript-compare
SELECT count(*) FROM courses WHERE grading_options[1] = 'Letter';

-- case: c-grading-order-by-array
-- order: total
SELECT grading_options, count(*) FROM courses GROUP BY grading_options ORDER BY grading_options;

-- case: c-quarter-in-subquery
SELECT count(*) FROM offerings WHERE quarter IN (SELECT quarter FROM offerings WHERE course_id = 100019);

-- case: c-quarter-order-with-time
-- order: total
SELECT quarter, start_time, _id FROM offerings WHERE course_id = 100019 ORDER BY quarter DESC, start_time, _id;

-- case: c-quarter-array-agg
SELECT course_id, array_agg(quarter ORDER BY quarter) FROM offerings WHERE course_id = 100019 GROUP BY course_id;

-- case: c-quarter-string-agg
SELECT string_agg(quarter::text, ', ' ORDER BY quarter) FROM (SELECT DISTINCT quarter FROM offerings) q;

-- ==== NULL: more ===========================================================

-- case: c-array-agg-with-nulls
SELECT array_agg(prerequisites ORDER BY course_id) FROM courses WHERE course_id IN (100019, 100074, 100089);

-- case: c-string-agg-skips-nulls
SELECT string_agg(prerequisites, '; ' ORDER BY course_id) FROM courses WHERE course_id IN (100019, 100074, 100089);

-- case: c-in-null-list
SELECT count(*) FROM courses WHERE prerequisites IN (NULL);

-- case: c-nullif-empty
SELECT count(NULLIF(prerequisites, '')) FROM courses;

-- case: c-min-max-ignore-null
SELECT min(prerequisites), max(prerequisites) FROM courses;

-- case: c-isnull-postfix
SELECT count(*) FROM courses WHERE prerequisites ISNULL;

-- case: c-coalesce-numeric-int
SELECT COALESCE(r.average_rating, 0) AS a, count(*) FROM courses c LEFT JOIN ratings r USING (course_id) WHERE r._id IS NULL GROUP BY 1;

-- ==== numbers in the data: more ============================================

-- case: c-sum-decimal-exact
-- expect: divergence: numeric is a double rounded to 15 significant digits
SELECT sum(0.1) = 2.4 AS exact, sum(0.1) FROM courses WHERE units_min = 1;

-- case: c-decimal-arithmetic-exact
SELECT 0.1 * 3 = 0.3, 1.1 + 2.2 = 3.3, 1.1 + 2.2;

-- case: c-avg-then-divide
SELECT avg(units_min) / 2 AS a, sum(units_min) / 2 AS b, count(*) / 7 AS c FROM courses;

-- case: c-case-int-and-decimal
SELECT CASE WHEN units_max > 4 THEN 1 ELSE 2.5 END AS x, count(*) FROM courses GROUP BY 1;

-- case: c-units-product-overflow
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT max(units_max * 1000000000) FROM courses;

-- case: c-round-half-numeric-column
-- order: total
SELECT _id, average_hours_per_week, round(average_hours_per_week::numeric, 1) FROM ratings WHERE average_hours_per_week IN (1.95, 2.25, 2.35) ORDER BY _id;

-- case: c-double-to-numeric-text
-- order: total
SELECT _id, average_rating::numeric::text FROM ratings ORDER BY _id LIMIT 3;

-- case: c-rating-cast-smallint
SELECT DISTINCT average_rating::smallint AS s FROM ratings WHERE average_rating > 4.9;

-- ==== subqueries: more =====================================================

-- case: c-correlated-in-having
SELECT units_max, count(*) FROM courses c GROUP BY units_max HAVING count(*) > (SELECT count(*) FROM programs);

-- case: c-in-subquery-limit
SELECT count(*) FROM courses WHERE course_id IN (SELECT course_id FROM ratings ORDER BY average_rating DESC, course_id LIMIT 3);

-- case: c-exists-select-star
SELECT count(*) FROM courses c WHERE EXISTS (SELECT * FROM ratings r WHERE r.course_id = c.course_id AND r.average_rating = 5);

-- case: c-eq-subquery-null
SELECT count(*) FROM courses WHERE prerequisites = (SELECT prerequisites FROM courses WHERE course_id = 100019);

-- case: c-derived-order-limit-aggregate
SELECT avg(average_rating) FROM (SELECT average_rating FROM ratings ORDER BY average_rating DESC, course_id LIMIT 10) t;

-- case: c-any-subquery-unnest
SELECT count(*) FROM offerings WHERE 'Mark Petrov' = ANY (SELECT unnest(instructors));

-- case: c-nested-with
SELECT count(*) FROM (WITH r AS (SELECT course_id FROM ratings WHERE average_rating > 4) SELECT * FROM r) s;

-- case: c-cte-union
WITH ids AS (SELECT course_id FROM ratings WHERE average_rating = 5 UNION SELECT course_id FROM offerings WHERE quarter = 'Summer 2027')
SELECT count(*) FROM ids;

-- ==== free text as plain SQL ================================================

-- case: c-description-like
SELECT count(*) FROM courses WHERE description LIKE '%neural network%';

-- case: c-description-ilike-any
SELECT count(*) FROM courses WHERE description ILIKE ANY (ARRAY['%robot%', '%vision%']);

-- case: c-reviews-first
SELECT count(*) FROM ratings WHERE reviews[1] ILIKE '%great%';

-- case: c-requirements-strpos
SELECT name, strpos(requirements, 'CS 161') > 0 AS mentions FROM programs;

-- ==== window functions: more ===============================================

-- case: c-lead-default
-- order: total
SELECT _id, lead(start_time, 1, '00:00') OVER (ORDER BY _id) AS nxt FROM offerings ORDER BY _id DESC LIMIT 2;

-- case: c-window-in-order-by
-- order: total
SELECT course_id FROM ratings ORDER BY rank() OVER (ORDER BY average_rating DESC), course_id LIMIT 3;

-- case: c-avg-over-int
-- order: total
SELECT course_id, avg(units_max) OVER (PARTITION BY units_min) AS a FROM courses ORDER BY course_id LIMIT 3;

-- case: c-count-over-partition-enum
-- order: total
SELECT DISTINCT quarter, count(*) OVER (PARTITION BY quarter) FROM offerings ORDER BY quarter;

-- case: c-group-subquery-ungrouped
-- expect: error: a subquery reads a column the grouping does not keep
SELECT c.units_min, (SELECT count(*) FROM offerings o WHERE o.course_id = c.course_id) FROM courses c GROUP BY c.units_min;

-- case: c-group-subquery-grouped
SELECT c.course_id, (SELECT count(*) FROM offerings o WHERE o.course_id = c.course_id) AS n FROM courses c GROUP BY c.course_id;

-- case: c-group-qualified-expression
SELECT lower(title), count(*) FROM courses c GROUP BY lower(c.title);

-- case: c-distinct-qualified-order
-- order: total
SELECT DISTINCT lower(title) FROM courses c ORDER BY lower(c.title) LIMIT 5;

-- case: c-date-part-plural
SELECT date_part('years', DATE '2026-11-26'), date_part('mon', DATE '2026-11-26'), extract(hours FROM TIME '09:30');

-- case: c-time-fraction-rounding
SELECT TIME '12:00:00.1234567', TIME '12:00:00.1234565', TIME '12:00:00.9999996';

-- case: c-untyped-minus-date
SELECT '2024-01-01' - DATE '2023-12-25', '12:00' - TIME '10:00';

-- case: c-interval-cast-name
SELECT '1 day'::interval, (SELECT '2 hours'::interval);

-- case: c-interval-extract-fields
SELECT extract(quarter FROM INTERVAL '1 year 7 months'), extract(decade FROM INTERVAL '25 years'), extract(century FROM INTERVAL '250 years'), extract(millennium FROM INTERVAL '2500 years'), extract(milliseconds FROM INTERVAL '1 minute 2.5 seconds'), extract(microseconds FROM INTERVAL '2.5 seconds'), extract(quarter FROM INTERVAL '-7 months');
