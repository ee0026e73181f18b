-- restaurants.sql — differential cases over sample_db/restaurants.db
-- (table restaurants: 1800 rows; price an enum cheap < moderate <
-- expensive < luxury; cuisines TEXT[]; popular_dishes and reviews
-- FREE_TEXT[]; restaurant_hours: 15025 rows).  Format: tests/pg/run.py.
-- Queries with LIMIT order by a total key (ending in _id) and say
-- `order: total`.

-- ==== projections, aliases, DISTINCT ====================================

-- case: r-count-star
SELECT count(*) FROM restaurants;

-- case: r-project-columns
-- order: total
SELECT _id, name, price, rating, num_reviews, location FROM restaurants ORDER BY _id LIMIT 5;

-- case: r-select-star
-- order: total
SELECT * FROM restaurants ORDER BY _id LIMIT 2;

-- case: r-alias-as
SELECT name AS restaurant, rating AS stars FROM restaurants WHERE _id <= 5;

-- case: r-alias-without-as
SELECT name restaurant, rating stars FROM restaurants WHERE _id <= 5;

-- case: r-alias-quoted-mixed-case
SELECT name AS "Restaurant Name", rating AS "Stars" FROM restaurants WHERE _id <= 3;

-- case: r-alias-unquoted-upper-folds
-- why: PostgreSQL folds an unquoted alias to lower case
SELECT name AS Restaurant, rating AS STARS FROM restaurants WHERE _id <= 3;

-- case: r-qualified-star
-- order: total
SELECT r.* FROM restaurants r WHERE r._id = 7;

-- case: r-arith-projection
SELECT _id, rating * 2 AS doubled, num_reviews + 1, num_reviews - 1000 AS less FROM restaurants WHERE _id <= 4;

-- case: r-distinct-one-column
SELECT DISTINCT location FROM restaurants;

-- case: r-distinct-two-columns
SELECT DISTINCT location, price FROM restaurants;

-- case: r-distinct-ordered
-- order: total
SELECT DISTINCT rating FROM restaurants ORDER BY rating DESC LIMIT 5;

-- case: r-count-distinct
SELECT count(DISTINCT location) AS cities, count(DISTINCT name) AS names FROM restaurants;

-- case: r-table-alias-quoted-column
SELECT r."name", r."rating" FROM restaurants AS r WHERE r._id <= 3;

-- case: r-quoted-identifier-wrong-case
-- expect: divergence: quoted names match case-insensitively
SELECT "Name" FROM restaurants WHERE _id = 1;

-- case: r-unknown-column
-- expect: error: no such column
SELECT stars FROM restaurants;

-- case: r-unknown-table
-- expect: error: no such table
SELECT name FROM restaurant;

-- ==== WHERE: comparisons, AND / OR / NOT, IN, BETWEEN ====================

-- case: r-where-eq-text
SELECT _id, name FROM restaurants WHERE location = 'Cupertino' AND rating = 5.0;

-- case: r-where-gt-real
SELECT count(*) FROM restaurants WHERE rating > 4.5;

-- case: r-where-ge-le
SELECT count(*) FROM restaurants WHERE rating >= 4 AND rating <= 4.2;

-- case: r-where-ne-both-spellings
SELECT (SELECT count(*) FROM restaurants WHERE location <> 'San Francisco') AS a,
       (SELECT count(*) FROM restaurants WHERE location != 'San Francisco') AS b;

-- case: r-where-int-vs-real-literal
SELECT count(*) FROM restaurants WHERE num_reviews > 1000.5;

-- case: r-and-or-precedence
SELECT count(*) FROM restaurants WHERE location = 'Palo Alto' OR location = 'Cupertino' AND rating > 4.5;

-- case: r-and-or-parenthesized
SELECT count(*) FROM restaurants WHERE (location = 'Palo Alto' OR location = 'Cupertino') AND rating > 4.5;

-- case: r-not
SELECT count(*) FROM restaurants WHERE NOT (rating > 3 OR location = 'Sunnyvale');

-- case: r-in-list
SELECT location, count(*) FROM restaurants WHERE location IN ('Palo Alto', 'Sunnyvale') GROUP BY location;

-- case: r-not-in-list
SELECT count(*) FROM restaurants WHERE location NOT IN ('Palo Alto', 'Sunnyvale');

-- case: r-in-list-numbers
SELECT count(*) FROM restaurants WHERE rating IN (4, 4.5, 5);

-- case: r-between
SELECT count(*) FROM restaurants WHERE rating BETWEEN 4.0 AND 4.3;

-- case: r-not-between
SELECT count(*) FROM restaurants WHERE rating NOT BETWEEN 2 AND 4.5;

-- case: r-between-symmetric
SELECT count(*) FROM restaurants WHERE rating BETWEEN SYMMETRIC 4.3 AND 4.0;

-- case: r-between-reversed-is-empty
SELECT count(*) FROM restaurants WHERE rating BETWEEN 4.3 AND 4.0;

-- case: r-where-true-false
SELECT (SELECT count(*) FROM restaurants WHERE true) AS t, (SELECT count(*) FROM restaurants WHERE false) AS f;

-- case: r-where-empty-result
SELECT name FROM restaurants WHERE rating > 5;

-- case: r-where-text-vs-int
-- expect: error: text = integer has no operator
SELECT name FROM restaurants WHERE name = 5;

-- case: r-where-real-vs-bad-text
-- expect: error: 'abc' is not a number
SELECT name FROM restaurants WHERE rating = 'abc';

-- case: r-where-real-vs-numeric-text
SELECT count(*) FROM restaurants WHERE rating = '4.5';

-- case: r-where-int-vs-decimal-text
-- expect: error: '1000.5' is not an integer
SELECT count(*) FROM restaurants WHERE num_reviews > '1000.5';

-- case: r-where-non-boolean
-- expect: error: WHERE must be boolean
SELECT count(*) FROM restaurants WHERE num_reviews;

-- ==== LIKE / ILIKE ========================================================

-- case: r-like-prefix
SELECT count(*) FROM restaurants WHERE name LIKE 'The %';

-- case: r-like-is-case-sensitive
SELECT count(*) FROM restaurants WHERE name LIKE 'the %';

-- case: r-ilike
SELECT count(*) FROM restaurants WHERE name ILIKE 'the %';

-- case: r-not-ilike
SELECT count(*) FROM restaurants WHERE name NOT ILIKE '%cafe%';

-- case: r-like-underscore
SELECT count(*) FROM restaurants WHERE phone_number LIKE '(650) ___-____';

-- case: r-like-apostrophe
SELECT count(*) FROM restaurants WHERE name LIKE '%''%';

-- case: r-like-middle-case
SELECT count(*) FROM restaurants WHERE address LIKE '%Castro St%';

-- case: r-like-operator-spelling
SELECT count(*) FROM restaurants WHERE name ~~* 'the %';

-- case: r-like-any-array
SELECT count(*) FROM restaurants WHERE name LIKE ANY (ARRAY['A%', 'B%']);

-- case: r-regex-match
-- expect: unsupported: regular expressions (~, ~*, SIMILAR TO, regexp_*, substring FROM pattern)
SELECT count(*) FROM restaurants WHERE address ~ 'Ste [0-9]+';

-- case: r-regex-match-insensitive
-- expect: unsupported: regular expressions (~, ~*, SIMILAR TO, regexp_*, substring FROM pattern)
SELECT count(*) FROM restaurants WHERE name ~* '^the ';

-- case: r-similar-to
-- expect: unsupported: regular expressions (~, ~*, SIMILAR TO, regexp_*, substring FROM pattern)
SELECT count(*) FROM restaurants WHERE name SIMILAR TO '(The|La) %';

-- ==== NULL ================================================================

-- case: r-is-null-none
SELECT count(*) FROM restaurants WHERE price IS NULL OR rating IS NULL;

-- case: r-is-not-null
SELECT count(*) FROM restaurants WHERE price IS NOT NULL;

-- case: r-nullif-makes-null
SELECT count(NULLIF(rating, 5.0)) AS rated_below_5, count(*) AS all_rows FROM restaurants;

-- case: r-avg-nullif
SELECT avg(NULLIF(rating, 5.0)) FROM restaurants;

-- case: r-coalesce-column
SELECT _id, COALESCE(NULLIF(location, 'San Francisco'), 'SF') AS city FROM restaurants WHERE _id <= 6;

-- case: r-eq-null-is-unknown
SELECT count(*) FROM restaurants WHERE price = NULL;

-- case: r-ne-null-is-unknown
SELECT count(*) FROM restaurants WHERE price <> NULL;

-- ==== enum: price =========================================================

-- case: r-enum-eq
SELECT count(*) FROM restaurants WHERE price = 'cheap';

-- case: r-enum-order-by
-- order: total
SELECT price, count(*) FROM restaurants GROUP BY price ORDER BY price;

-- case: r-enum-order-by-desc
-- order: total
SELECT _id, price FROM restaurants ORDER BY price DESC, _id LIMIT 5;

-- case: r-enum-gt
SELECT price, count(*) FROM restaurants WHERE price > 'moderate' GROUP BY price;

-- case: r-enum-le
SELECT price, count(*) FROM restaurants WHERE price <= 'moderate' GROUP BY price;

-- case: r-enum-between
SELECT price, count(*) FROM restaurants WHERE price BETWEEN 'moderate' AND 'expensive' GROUP BY price;

-- case: r-enum-in
SELECT price, count(*) FROM restaurants WHERE price IN ('cheap', 'luxury') GROUP BY price;

-- case: r-enum-min-max
SELECT min(price), max(price) FROM restaurants;

-- case: r-enum-text-order
-- order: total
SELECT price::text AS p FROM restaurants GROUP BY price ORDER BY price::text;

-- case: r-enum-text-like
SELECT count(*) FROM restaurants WHERE price::text LIKE '%e%';

-- case: r-enum-like-refused
-- expect: error: LIKE is not defined on an enum
SELECT count(*) FROM restaurants WHERE price LIKE 'c%';

-- case: r-enum-concat
SELECT DISTINCT price || '!' AS p FROM restaurants;

-- case: r-enum-case-label
SELECT CASE WHEN price >= 'expensive' THEN 'pricey' ELSE 'affordable' END AS band, count(*)
FROM restaurants GROUP BY 1;

-- case: r-enum-vocabulary-eq
-- expect: divergence: a value outside the enum stands for the vocabulary values it means (suql.7, Enumerated values); PostgreSQL refuses it as enum input
SELECT count(*) FROM restaurants WHERE price = 'inexpensive';

-- case: r-enum-vocabulary-in
-- expect: divergence: a value outside the enum stands for the vocabulary values it means (suql.7); PostgreSQL refuses it as enum input
SELECT count(*) FROM restaurants WHERE price IN ('cheap', 'budget');

-- case: r-enum-vocabulary-case
-- expect: divergence: a value outside the enum ('Cheap') stands for the vocabulary values it means (suql.7); PostgreSQL refuses it as enum input
SELECT count(*) FROM restaurants WHERE price = 'Cheap';

-- case: r-enum-vs-int
-- expect: error: an enum does not compare with an integer
SELECT count(*) FROM restaurants WHERE price > 2;

-- ==== arrays: cuisines ====================================================

-- case: r-any-array
SELECT count(*) FROM restaurants WHERE 'italian' = ANY (cuisines);

-- case: r-any-array-and-location
-- order: total
SELECT _id, name, rating FROM restaurants
WHERE location = 'Palo Alto' AND 'italian' = ANY (cuisines) ORDER BY rating DESC, _id LIMIT 5;

-- case: r-any-array-vocabulary
-- expect: divergence: cuisines has a fixed vocabulary: 'coffee' stands for 'coffee & tea' (suql.7, Enumerated values); PostgreSQL matches the exact element only
SELECT count(*) FROM restaurants WHERE 'coffee' = ANY (cuisines);

-- case: r-all-array-ne
SELECT count(*) FROM restaurants WHERE 'italian' <> ALL (cuisines);

-- case: r-not-any-array
SELECT count(*) FROM restaurants WHERE NOT ('pizza' = ANY (cuisines));

-- case: r-array-contains
SELECT count(*) FROM restaurants WHERE cuisines @> ARRAY['italian', 'pizza'];

-- case: r-array-contained-by
SELECT count(*) FROM restaurants WHERE cuisines <@ ARRAY['italian', 'pizza', 'wine bars'];

-- case: r-array-overlaps
SELECT count(*) FROM restaurants WHERE cuisines && ARRAY['thai', 'vietnamese'];

-- case: r-array-contains-text-literal
SELECT count(*) FROM restaurants WHERE cuisines @> '{sushi}';

-- case: r-array-eq-array
SELECT count(*) FROM restaurants WHERE cuisines = ARRAY['thai'];

-- case: r-array-length
-- order: total
SELECT array_length(cuisines, 1) AS n, count(*) FROM restaurants GROUP BY 1 ORDER BY 1;

-- case: r-cardinality
SELECT sum(cardinality(cuisines)) FROM restaurants;

-- case: r-array-subscript
-- order: total
SELECT cuisines[1] AS first, count(*) FROM restaurants GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5;

-- case: r-array-subscript-past-end
SELECT count(*) FROM restaurants WHERE cuisines[3] IS NULL;

-- case: r-array-slice
-- order: total
SELECT _id, popular_dishes[1:2] AS two FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-array-column-projection
-- order: total
SELECT _id, cuisines FROM restaurants ORDER BY _id LIMIT 5;

-- case: r-array-to-text
-- order: total
SELECT _id, cuisines::text FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-array-to-string
-- order: total
SELECT _id, array_to_string(cuisines, ', ') AS c FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-array-position
SELECT count(*) FROM restaurants WHERE array_position(cuisines, 'pizza') = 1;

-- case: r-array-text-like-refused
-- expect: error: LIKE is not defined on text[]
SELECT count(*) FROM restaurants WHERE cuisines LIKE '%pizza%';

-- case: r-array-ilike-any-via-unnest
SELECT count(*) FROM restaurants r WHERE EXISTS (SELECT 1 FROM unnest(r.cuisines) c WHERE c ILIKE '%BAR%');

-- ==== unnest ==============================================================

-- case: r-unnest-from-group
-- order: total
SELECT c, count(*) FROM restaurants, unnest(cuisines) AS c GROUP BY c ORDER BY count(*) DESC, c LIMIT 10;

-- case: r-unnest-from-qualified
SELECT r.name, d FROM restaurants AS r, unnest(r.popular_dishes) AS d WHERE r._id = 1;

-- case: r-unnest-cross-join-lateral
SELECT r._id, c FROM restaurants r CROSS JOIN LATERAL unnest(r.cuisines) AS c WHERE r._id <= 3;

-- case: r-unnest-select-list
SELECT _id, unnest(cuisines) AS c FROM restaurants WHERE _id <= 3;

-- case: r-unnest-with-ordinality
-- expect: unsupported: set-returning functions other than unnest(array), WITH ORDINALITY, multi-array unnest
SELECT r._id, c, n FROM restaurants r, unnest(r.cuisines) WITH ORDINALITY AS u(c, n) WHERE r._id <= 2;

-- case: r-unnest-count-distinct
SELECT count(DISTINCT c) FROM restaurants, unnest(cuisines) AS c;

-- case: r-unnest-column-alias
SELECT count(*) FROM restaurants, unnest(cuisines) AS u(cuisine) WHERE u.cuisine = 'thai';

-- ==== aggregates, GROUP BY, HAVING ========================================

-- case: r-avg-real
SELECT avg(rating) FROM restaurants;

-- case: r-sum-int
SELECT sum(num_reviews) FROM restaurants;

-- case: r-min-max
SELECT min(rating), max(rating), min(num_reviews), max(num_reviews) FROM restaurants;

-- case: r-max-text
SELECT min(name), max(name) FROM restaurants;

-- case: r-avg-int
SELECT avg(num_reviews) FROM restaurants;

-- case: r-sum-real
SELECT sum(rating) FROM restaurants;

-- case: r-group-by-location
SELECT location, count(*), avg(rating), max(num_reviews) FROM restaurants GROUP BY location;

-- case: r-group-by-ordinal
-- order: total
SELECT location, count(*) FROM restaurants GROUP BY 1 ORDER BY 1;

-- case: r-group-by-alias
SELECT location AS city, count(*) AS n FROM restaurants GROUP BY city;

-- case: r-group-by-two
-- order: total
SELECT location, price, count(*) FROM restaurants GROUP BY location, price ORDER BY location, price;

-- case: r-group-by-expression
-- order: total
SELECT floor(rating) AS stars, count(*) FROM restaurants GROUP BY floor(rating) ORDER BY stars;

-- case: r-having-count
SELECT location, count(*) FROM restaurants GROUP BY location HAVING count(*) > 300;

-- case: r-having-avg
SELECT location FROM restaurants GROUP BY location HAVING avg(rating) > 3.85;

-- case: r-having-alias-refused
-- expect: error: HAVING cannot name an output alias
SELECT location, count(*) AS n FROM restaurants GROUP BY location HAVING n > 300;

-- case: r-having-without-group
SELECT count(*) FROM restaurants HAVING count(*) > 1;

-- case: r-sum-case
SELECT sum(CASE WHEN rating >= 4 THEN 1 ELSE 0 END) AS good, sum(CASE WHEN rating < 4 THEN 1 END) AS other FROM restaurants;

-- case: r-count-filter
SELECT count(*) FILTER (WHERE rating >= 4) AS good, avg(rating) FILTER (WHERE location = 'Palo Alto') AS pa FROM restaurants;

-- case: r-count-bool-expression
SELECT count(*) FILTER (WHERE price = 'cheap'), count(price = 'cheap' OR NULL) FROM restaurants;

-- case: r-non-grouped-column
-- expect: error: name must appear in GROUP BY or be in an aggregate
SELECT location, name, count(*) FROM restaurants GROUP BY location;

-- case: r-group-by-primary-key
SELECT _id, name, count(*) FROM restaurants WHERE _id <= 3 GROUP BY _id;

-- case: r-aggregate-in-where
-- expect: error: aggregates are not allowed in WHERE
SELECT location FROM restaurants WHERE count(*) > 1 GROUP BY location;

-- case: r-nested-aggregate
-- expect: error: aggregate calls cannot be nested
SELECT avg(count(*)) FROM restaurants GROUP BY location;

-- case: r-string-agg-ordered
SELECT location, string_agg(name, '; ' ORDER BY _id) AS names FROM restaurants WHERE rating = 5.0 AND location = 'Cupertino' GROUP BY location;

-- case: r-string-agg-one-row
SELECT string_agg(name, ', ') FROM restaurants WHERE _id = 1;

-- case: r-string-agg-distinct-ordered
SELECT string_agg(DISTINCT location, '|' ORDER BY location) FROM restaurants;

-- case: r-array-agg-ordered
SELECT location, array_agg(_id ORDER BY _id) FROM restaurants WHERE rating = 5.0 GROUP BY location;

-- case: r-array-agg-one-row
SELECT array_agg(name) FROM restaurants WHERE _id = 2;

-- case: r-array-agg-distinct-enum
-- why: DISTINCT sorts the values, an enum in its declared order
SELECT location, array_agg(DISTINCT price) FROM restaurants GROUP BY location;

-- case: r-string-agg-ordered-enum-desc
SELECT location, string_agg(name, ', ' ORDER BY price DESC, _id) FILTER (WHERE rating >= 4.5) FROM restaurants GROUP BY location;

-- case: r-array-agg-ordered-nulls-first
SELECT array_agg(num_reviews ORDER BY num_reviews NULLS FIRST, _id) FROM restaurants WHERE _id <= 12;

-- case: r-string-agg-distinct-error
-- expect: error: ORDER BY keys of a DISTINCT aggregate are its arguments
SELECT string_agg(DISTINCT location, ', ' ORDER BY _id) FROM restaurants;

-- case: r-agg-empty-set
SELECT count(*), count(rating), sum(rating), avg(rating), min(name), max(num_reviews) FROM restaurants WHERE rating > 5;

-- case: r-agg-empty-group
SELECT location, count(*) FROM restaurants WHERE rating > 5 GROUP BY location;

-- case: r-round-avg-numeric
SELECT location, round(avg(rating)::numeric, 2) AS avg_rating FROM restaurants GROUP BY location;

-- case: r-round-double-two-places
-- expect: error: round(double precision, integer) does not exist
SELECT round(avg(rating), 2) FROM restaurants;

-- case: r-stddev
SELECT round(stddev(rating)::numeric, 6) FROM restaurants;

-- case: r-bool-and-or
SELECT bool_or(rating = 5.0), bool_and(rating >= 1.5) FROM restaurants;

-- ==== ORDER BY, LIMIT, OFFSET ==============================================

-- case: r-order-desc-limit
-- order: total
SELECT _id, name, rating FROM restaurants ORDER BY rating DESC, _id LIMIT 5;

-- case: r-order-multi
-- order: total
SELECT location, rating, _id FROM restaurants ORDER BY location, rating DESC, _id LIMIT 10;

-- case: r-order-asc-explicit
-- order: total
SELECT _id, num_reviews FROM restaurants ORDER BY num_reviews ASC, _id ASC LIMIT 5;

-- case: r-offset
-- order: total
SELECT _id FROM restaurants ORDER BY _id LIMIT 3 OFFSET 10;

-- case: r-offset-only
-- order: total
SELECT _id FROM restaurants ORDER BY _id OFFSET 1795;

-- case: r-offset-before-limit
-- order: total
SELECT _id FROM restaurants ORDER BY _id OFFSET 5 LIMIT 2;

-- case: r-limit-zero
SELECT _id FROM restaurants LIMIT 0;

-- case: r-limit-all
SELECT count(*) FROM (SELECT _id FROM restaurants ORDER BY _id LIMIT ALL) s;

-- case: r-fetch-first
-- order: total
SELECT _id FROM restaurants ORDER BY _id FETCH FIRST 3 ROWS ONLY;

-- case: r-order-by-alias
-- order: total
SELECT _id, rating * 2 AS r2 FROM restaurants ORDER BY r2 DESC, _id LIMIT 3;

-- case: r-order-by-ordinal
-- order: total
SELECT _id, name FROM restaurants ORDER BY 2, 1 LIMIT 3;

-- case: r-order-by-expression
-- order: total
SELECT _id, name FROM restaurants ORDER BY length(name) DESC, _id LIMIT 3;

-- case: r-order-by-unselected
-- order: total
SELECT name FROM restaurants ORDER BY num_reviews DESC, _id LIMIT 3;

-- case: r-order-by-text-bytewise
-- order: total
SELECT name FROM restaurants WHERE _id <= 40 ORDER BY name, _id;

-- case: r-order-ties-values
-- order: total
SELECT rating FROM restaurants ORDER BY rating DESC LIMIT 3;

-- case: r-order-by-aggregate
-- order: total
SELECT location, count(*) FROM restaurants GROUP BY location ORDER BY count(*) DESC;

-- case: r-distinct-order-by-unselected
-- expect: error: for SELECT DISTINCT, ORDER BY expressions must appear in the select list
SELECT DISTINCT location FROM restaurants ORDER BY rating;

-- case: r-limit-negative
-- expect: error: LIMIT must not be negative
SELECT _id FROM restaurants LIMIT -1;

-- case: r-limit-expression
-- order: total
SELECT _id FROM restaurants ORDER BY _id LIMIT 1 + 1;

-- ==== text functions on columns ===========================================

-- case: r-length-lower-upper
-- order: total
SELECT _id, length(name), lower(name), upper(location) FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-substr-substring
-- order: total
SELECT _id, substr(phone_number, 2, 3) AS area, substring(name from 1 for 4) AS head, substring(name, 3) AS tail FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-replace
-- order: total
SELECT _id, replace(phone_number, ' ', '') FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-split-part-address
-- order: total
SELECT _id, trim(split_part(address, ',', 2)) AS city FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-position-strpos
-- order: total
SELECT _id, position(',' IN address), strpos(address, ',') FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-left-right
-- order: total
SELECT _id, left(phone_number, 5), right(address, 5) FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-initcap
-- order: total
SELECT _id, initcap(cuisines[1]) FROM restaurants ORDER BY _id LIMIT 5;

-- case: r-concat-operator
-- order: total
SELECT _id, name || ' (' || location || ')' AS label FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-concat-functions
-- order: total
SELECT _id, concat(name, ' - ', rating), concat_ws(', ', name, location, price) FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-concat-int
-- order: total
SELECT _id, num_reviews || ' reviews' FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-where-lower
SELECT count(*) FROM restaurants WHERE lower(location) = 'palo alto';

-- case: r-where-length
SELECT count(*) FROM restaurants WHERE length(name) > 20;

-- case: r-char-length
SELECT max(char_length(name)), max(octet_length(name)) FROM restaurants;

-- case: r-reviews-count
SELECT min(array_length(reviews, 1)), max(array_length(reviews, 1)) FROM restaurants;

-- ==== numbers and number -> text ===========================================

-- case: r-rating-to-text
-- order: total
SELECT _id, rating, rating::text FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-rating-whole-to-text
SELECT DISTINCT rating::text AS r FROM restaurants WHERE rating = 4.0;

-- case: r-rating-concat-empty
SELECT DISTINCT rating || '' AS r FROM restaurants WHERE rating IN (4.0, 4.5);

-- case: r-where-rating-text-eq
SELECT count(*) FROM restaurants WHERE rating::text = '5';

-- case: r-rating-cast-int
-- order: total
SELECT rating, rating::int AS i FROM restaurants WHERE rating IN (1.5, 2.5, 3.5, 4.5, 4.4, 4.6) GROUP BY rating ORDER BY rating;

-- case: r-rating-round
-- order: total
SELECT rating, round(rating) AS r FROM restaurants WHERE rating IN (1.5, 2.5, 3.5, 4.5) GROUP BY rating ORDER BY rating;

-- case: r-rating-round-numeric
-- order: total
SELECT rating, round(rating::numeric) AS r FROM restaurants WHERE rating IN (1.5, 2.5, 3.5, 4.5) GROUP BY rating ORDER BY rating;

-- case: r-rating-floor-ceil-trunc
-- order: total
SELECT rating, floor(rating), ceil(rating), trunc(rating) FROM restaurants WHERE rating IN (1.5, 4.9) GROUP BY rating ORDER BY rating;

-- case: r-rating-numeric-precision
-- order: total
SELECT _id, rating::numeric(3,1) FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-int-div
-- order: total
SELECT _id, num_reviews / 100, num_reviews % 100, num_reviews / 100.0 FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-int-to-float-div
-- order: total
SELECT _id, num_reviews::float / 7 FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-cast-function-syntax
-- order: total
SELECT _id, CAST(rating AS integer), CAST(num_reviews AS varchar), CAST(rating AS text) FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-num-reviews-sum-bigint
SELECT sum(num_reviews::bigint * 1000000) FROM restaurants;

-- ==== CASE, COALESCE ======================================================

-- case: r-case-searched
SELECT CASE WHEN rating >= 4.5 THEN 'great' WHEN rating >= 3.5 THEN 'good' ELSE 'meh' END AS band, count(*) FROM restaurants GROUP BY 1;

-- case: r-case-simple
SELECT CASE location WHEN 'Palo Alto' THEN 'PA' WHEN 'San Francisco' THEN 'SF' ELSE 'other' END AS c, count(*) FROM restaurants GROUP BY 1;

-- case: r-case-no-else
SELECT count(CASE WHEN rating = 5.0 THEN 1 END) FROM restaurants;

-- case: r-case-mixed-types
-- expect: error: CASE types text and integer cannot be matched
SELECT CASE WHEN rating > 4 THEN 'high' ELSE 0 END FROM restaurants;

-- case: r-coalesce-types
-- expect: error: COALESCE types double precision and text cannot be matched
SELECT COALESCE(rating, 'none') FROM restaurants;

-- ==== subqueries, CTEs ====================================================

-- case: r-scalar-subquery-where
SELECT count(*) FROM restaurants WHERE rating = (SELECT max(rating) FROM restaurants);

-- case: r-scalar-subquery-select
SELECT (SELECT count(*) FROM restaurants WHERE price = 'luxury') AS lux, (SELECT avg(rating) FROM restaurants) AS avg;

-- case: r-in-subquery
SELECT count(*) FROM restaurants WHERE location IN (SELECT location FROM restaurants WHERE price = 'luxury' GROUP BY location HAVING count(*) > 10);

-- case: r-exists-correlated
SELECT count(*) FROM restaurants r WHERE EXISTS (SELECT 1 FROM restaurants r2 WHERE r2.name = r.name AND r2._id <> r._id);

-- case: r-not-exists-correlated
SELECT count(*) FROM restaurants r WHERE NOT EXISTS (SELECT 1 FROM restaurants r2 WHERE r2.location = r.location AND r2.rating > r.rating);

-- case: r-correlated-scalar-select
SELECT _id, (SELECT count(*) FROM restaurants r2 WHERE r2.location = r.location) AS same_city FROM restaurants r WHERE _id <= 3;

-- case: r-subquery-in-from
SELECT location, avg_r FROM (SELECT location, avg(rating) AS avg_r FROM restaurants GROUP BY location) AS s WHERE avg_r > 3.85;

-- case: r-subquery-in-from-without-alias
-- expect: error: PostgreSQL 15 requires an alias for a subquery in FROM
SELECT count(*) FROM (SELECT location FROM restaurants);

-- case: r-scalar-subquery-many-rows
-- expect: error: more than one row returned by a subquery used as an expression
SELECT (SELECT name FROM restaurants WHERE location = 'Cupertino') AS n;

-- case: r-scalar-subquery-many-columns
-- expect: error: subquery must return only one column
SELECT count(*) FROM restaurants WHERE rating = (SELECT max(rating), min(rating) FROM restaurants);

-- case: r-any-subquery
SELECT count(*) FROM restaurants WHERE rating = ANY (SELECT max(rating) FROM restaurants GROUP BY location);

-- case: r-gt-all-subquery
SELECT count(*) FROM restaurants WHERE num_reviews > ALL (SELECT num_reviews FROM restaurants WHERE location = 'Cupertino');

-- case: r-cte
WITH top AS (SELECT _id, name, rating FROM restaurants WHERE rating >= 4.8)
SELECT count(*), min(rating) FROM top;

-- case: r-cte-two
WITH pa AS (SELECT * FROM restaurants WHERE location = 'Palo Alto'),
     good AS (SELECT * FROM pa WHERE rating >= 4.5)
SELECT price, count(*) FROM good GROUP BY price;

-- case: r-cte-column-list
WITH c(city, n) AS (SELECT location, count(*) FROM restaurants GROUP BY location)
SELECT city FROM c WHERE n > 300;

-- case: r-cte-unnest
WITH cu AS (SELECT unnest(cuisines) AS c FROM restaurants)
SELECT count(*) FROM cu WHERE c = 'thai';

-- case: r-cte-join
-- order: total
WITH best AS (SELECT location, max(rating) AS top FROM restaurants GROUP BY location)
SELECT r.location, count(*) FROM restaurants r JOIN best b ON r.location = b.location AND r.rating = b.top
GROUP BY r.location ORDER BY r.location;

-- case: r-cte-materialized
-- expect: unsupported: WITH RECURSIVE and MATERIALIZED hints
WITH x AS MATERIALIZED (SELECT rating FROM restaurants) SELECT count(*) FROM x WHERE rating > 4;

-- case: r-cte-recursive
-- expect: unsupported: WITH RECURSIVE and MATERIALIZED hints
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5)
SELECT sum(i) FROM n;

-- ==== self join ===========================================================

-- case: r-self-join-same-name
-- order: total
SELECT a._id, b._id FROM restaurants a JOIN restaurants b ON a.name = b.name AND a._id < b._id ORDER BY a._id, b._id LIMIT 5;

-- case: r-cross-join-count
SELECT count(*) FROM restaurants r CROSS JOIN (SELECT DISTINCT location FROM restaurants) l WHERE r._id <= 10;

-- case: r-join-using-self
SELECT count(*) FROM restaurants a JOIN restaurants b USING (_id);

-- ==== set operations ======================================================

-- case: r-union
SELECT location FROM restaurants WHERE rating = 5.0 UNION SELECT location FROM restaurants WHERE price = 'luxury';

-- case: r-union-all
SELECT count(*) FROM (SELECT _id FROM restaurants WHERE rating = 5.0 UNION ALL SELECT _id FROM restaurants WHERE rating = 5.0) u;

-- case: r-intersect
SELECT location FROM restaurants WHERE rating = 5.0 INTERSECT SELECT location FROM restaurants WHERE price = 'luxury';

-- case: r-except
SELECT DISTINCT location FROM restaurants EXCEPT SELECT location FROM restaurants WHERE rating = 5.0 AND price = 'cheap';

-- case: r-union-order-limit
-- order: total
SELECT _id FROM restaurants WHERE rating = 5.0 UNION SELECT _id FROM restaurants WHERE num_reviews > 3000 ORDER BY 1 LIMIT 5;

-- case: r-union-column-count
-- expect: error: each UNION query must have the same number of columns
SELECT name, location FROM restaurants UNION SELECT name FROM restaurants;

-- ==== window functions, DISTINCT ON =======================================

-- case: r-row-number
-- order: total
SELECT _id, row_number() OVER (ORDER BY rating DESC, _id) AS rn FROM restaurants ORDER BY rn LIMIT 5;

-- case: r-rank-partition
-- order: total
SELECT location, _id, rating FROM (
  SELECT location, _id, rating, rank() OVER (PARTITION BY location ORDER BY rating DESC, num_reviews DESC, _id) AS rk
  FROM restaurants) s
WHERE rk = 1 ORDER BY location;

-- case: r-avg-over-partition
-- order: total
SELECT _id, location, avg(rating) OVER (PARTITION BY location) AS city_avg FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-count-over-empty
-- order: total
SELECT _id, count(*) OVER () FROM restaurants ORDER BY _id LIMIT 2;

-- case: r-distinct-on
-- order: total
SELECT DISTINCT ON (location) location, _id, rating FROM restaurants ORDER BY location, rating DESC, _id;

-- case: r-window-in-where
-- expect: error: window functions are not allowed in WHERE
SELECT _id FROM restaurants WHERE row_number() OVER (ORDER BY _id) < 3;

-- ==== IS DISTINCT FROM, IS TRUE ===========================================

-- case: r-is-distinct-from
SELECT count(*) FROM restaurants WHERE NULLIF(location, 'Cupertino') IS DISTINCT FROM 'Palo Alto';

-- case: r-is-not-distinct-from
SELECT count(*) FROM restaurants WHERE NULLIF(location, 'Cupertino') IS NOT DISTINCT FROM NULL;

-- case: r-is-true
SELECT count(*) FROM restaurants WHERE (rating > 4) IS TRUE;

-- case: r-is-not-false
SELECT count(*) FROM restaurants WHERE (NULLIF(rating, 5.0) > 4) IS NOT FALSE;

-- case: r-is-unknown
SELECT count(*) FROM restaurants WHERE (NULLIF(rating, 5.0) > 4) IS UNKNOWN;

-- ==== statements that are not one SELECT ==================================

-- case: r-two-statements
-- expect: error: one statement only
SELECT 1; SELECT 2;

-- case: r-delete-refused
-- expect: error: only SELECT
DELETE FROM restaurants;

-- case: r-update-refused
-- expect: error: only SELECT
UPDATE restaurants SET rating = 5;

-- case: r-syntax-error
-- expect: error: syntax
SELECT name FROM restaurants WHERE;

-- case: r-comments-in-query
SELECT count(*) /* all */ FROM restaurants -- the table
WHERE rating > 4;

-- ==== numbers through functions, types of results =========================

-- case: r-min-max-to-text
SELECT min(rating)::text, max(rating)::text, max(num_reviews)::text FROM restaurants;

-- case: r-round-avg-to-text
SELECT round(avg(rating)::numeric, 3)::text FROM restaurants;

-- case: r-length-of-rating-text
-- order: total
SELECT rating, length(rating::text) FROM restaurants WHERE rating IN (3.5, 4.0) GROUP BY rating ORDER BY rating;

-- case: r-concat-rating
SELECT DISTINCT concat(rating, '') AS c FROM restaurants WHERE rating IN (4.0, 4.5);

-- case: r-string-agg-rating-text
SELECT string_agg(rating::text, ',' ORDER BY _id) FROM restaurants WHERE _id <= 5;

-- case: r-rating-varchar
SELECT DISTINCT rating::varchar AS r FROM restaurants WHERE rating = 5.0;

-- case: r-rating-numeric-cast
-- order: total
SELECT rating, CAST(rating AS numeric) AS n, rating::decimal AS d FROM restaurants WHERE rating IN (4.0, 4.5) GROUP BY rating ORDER BY rating;

-- case: r-rating-times-decimal
-- order: total
SELECT rating, rating * 1.1 AS r FROM restaurants WHERE rating IN (4.4, 4.0) GROUP BY rating ORDER BY rating;

-- case: r-rating-real-float4
-- order: total
-- expect: divergence: real is double precision (no float4)
SELECT rating, rating::real * 3 AS r FROM restaurants WHERE rating = 4.4 GROUP BY rating ORDER BY rating;

-- case: r-rating-times-ten-int
-- order: total
SELECT rating, (rating * 10)::int AS r FROM restaurants WHERE rating IN (4.4, 2.5) GROUP BY rating ORDER BY rating;

-- case: r-int-column-overflow
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT max(num_reviews * num_reviews * 1000) FROM restaurants;

-- case: r-int-column-overflow-in-sum
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT sum(num_reviews * 1000000) FROM restaurants;

-- case: r-count-times-decimal
SELECT count(*) * 1.0 / 7 AS per_day FROM restaurants;

-- case: r-sum-int-div-count
SELECT sum(num_reviews) / count(*) AS q, sum(num_reviews) % count(*) AS r FROM restaurants;

-- case: r-avg-distinct
SELECT avg(DISTINCT rating), count(DISTINCT rating), sum(DISTINCT num_reviews) FROM restaurants WHERE location = 'Cupertino';

-- ==== booleans from columns ================================================

-- case: r-boolean-projection
-- order: total
SELECT _id, rating > 4 AS good, price = 'cheap' AS cheap FROM restaurants ORDER BY _id LIMIT 4;

-- case: r-boolean-group
-- order: total
SELECT rating >= 4 AS good, count(*) FROM restaurants GROUP BY 1 ORDER BY 1;

-- case: r-boolean-eq-true
SELECT count(*) FROM restaurants WHERE (rating > 4) = true;

-- case: r-sum-boolean
-- expect: error: sum(boolean) does not exist
SELECT sum(rating > 4) FROM restaurants;

-- case: r-max-boolean
-- expect: error: max(boolean) does not exist
SELECT max(rating > 4) FROM restaurants;

-- case: r-avg-boolean-int
SELECT avg((rating > 4)::int) FROM restaurants;

-- case: r-count-boolean
SELECT count(rating > 4) FROM restaurants;

-- case: r-every
SELECT every(rating >= 1.5), every(rating > 2) FROM restaurants;

-- case: r-comparison-chain
-- expect: error: comparison operators do not associate
SELECT count(*) FROM restaurants WHERE rating > 4 = true;

-- ==== arrays: order, grouping, functions ===================================

-- case: r-min-max-array
-- expect: unsupported: min() and max() of arrays
SELECT min(cuisines), max(cuisines) FROM restaurants;

-- case: r-order-by-array
-- order: total
SELECT _id, cuisines FROM restaurants ORDER BY cuisines, _id LIMIT 5;

-- case: r-group-by-array
-- order: total
SELECT cuisines, count(*) FROM restaurants GROUP BY cuisines ORDER BY count(*) DESC, cuisines LIMIT 4;

-- case: r-distinct-array
SELECT count(*) FROM (SELECT DISTINCT cuisines FROM restaurants) s;

-- case: r-array-subscript-zero-negative
SELECT count(*) FROM restaurants WHERE cuisines[0] IS NULL AND cuisines[-1] IS NULL;

-- case: r-array-length-dim-2
SELECT count(*) FROM restaurants WHERE array_length(cuisines, 2) IS NULL;

-- case: r-array-contains-empty
SELECT count(*) FROM restaurants WHERE cuisines @> '{}';

-- case: r-array-reversed-contained
SELECT count(*) FROM restaurants WHERE ARRAY['italian'] <@ cuisines;

-- case: r-array-overlap-literal
SELECT count(*) FROM restaurants WHERE cuisines && '{thai,vietnamese}';

-- case: r-array-eq-literal
SELECT count(*) FROM restaurants WHERE cuisines = '{thai}';

-- case: r-array-ne-any
SELECT count(*) FROM restaurants WHERE 'italian' != ANY (cuisines);

-- case: r-like-any-cuisines
SELECT count(*) FROM restaurants WHERE 'pizza' LIKE ANY (cuisines);

-- case: r-array-append
-- order: total
SELECT _id, array_append(cuisines, 'x') FROM restaurants ORDER BY _id LIMIT 2;

-- case: r-array-remove
-- order: total
SELECT _id, array_remove(cuisines, 'american') FROM restaurants WHERE 'american' = ANY (cuisines) ORDER BY _id LIMIT 2;

-- case: r-array-cat
-- order: total
SELECT _id, array_cat(cuisines, ARRAY['y']) FROM restaurants ORDER BY _id LIMIT 2;

-- case: r-array-constructor-subquery
SELECT ARRAY(SELECT DISTINCT location FROM restaurants ORDER BY location);

-- case: r-array-to-string-free-text
SELECT count(*) FROM restaurants WHERE array_to_string(popular_dishes, ', ') ILIKE '%taco%';

-- case: r-unnest-in-where
-- expect: error: set-returning functions are not allowed in WHERE
SELECT count(*) FROM restaurants WHERE unnest(cuisines) = 'thai';

-- case: r-unnest-grouped-select-list
-- expect: unsupported: unnest() in the select list of a grouped query
SELECT unnest(cuisines) AS c, count(*) FROM restaurants WHERE location = 'Cupertino' GROUP BY c;

-- case: r-dish-any
SELECT count(*) FROM restaurants WHERE 'ramen' = ANY (popular_dishes);

-- case: r-any-array-capitalized
-- expect: divergence: cuisines has a fixed vocabulary: 'Italian' is its value 'italian' (suql.7, Enumerated values); PostgreSQL matches the exact element only
SELECT count(*) FROM restaurants WHERE 'Italian' = ANY (cuisines);

-- case: r-array-contains-capitalized
-- expect: divergence: cuisines has a fixed vocabulary: 'Italian' is its value 'italian' (suql.7, Enumerated values); PostgreSQL matches the exact element only
SELECT count(*) FROM restaurants WHERE cuisines @> ARRAY['Italian'];

-- ==== enum: more =========================================================

-- case: r-enum-any-text-array
-- expect: divergence: an enum is text with an order: it compares with text values and text arrays
SELECT count(*) FROM restaurants WHERE price = ANY (ARRAY['cheap', 'moderate']);

-- case: r-enum-any-literal-array
SELECT count(*) FROM restaurants WHERE price = ANY ('{cheap,moderate}');

-- case: r-enum-eq-text-cast
-- expect: divergence: an enum is text with an order: it compares with text values and text arrays
SELECT count(*) FROM restaurants WHERE price = 'cheap'::text;

-- case: r-enum-union-text
-- expect: divergence: an enum is text with an order: it compares with text values and text arrays
SELECT price FROM restaurants UNION SELECT 'free';

-- case: r-enum-coalesce-text
-- expect: divergence: an enum is text with an order: it compares with text values and text arrays
SELECT COALESCE(price, 'unknown') FROM restaurants WHERE _id = 1;

-- case: r-enum-case-simple
SELECT CASE price WHEN 'cheap' THEN 1 WHEN 'moderate' THEN 2 ELSE 3 END AS p, count(*) FROM restaurants GROUP BY 1;

-- case: r-enum-order-nulls-last
-- order: total
SELECT price, count(*) FROM restaurants GROUP BY price ORDER BY price DESC NULLS LAST;

-- case: r-enum-group-order-count
-- order: total
SELECT price, avg(rating) FROM restaurants GROUP BY price ORDER BY avg(rating) DESC;

-- ==== ORDER BY, LIMIT: more ==============================================

-- case: r-order-by-alias-in-expression
-- expect: error: an output alias cannot be used inside an ORDER BY expression
SELECT _id, rating * 2 AS r2 FROM restaurants ORDER BY r2 + 1 LIMIT 3;

-- case: r-order-by-position-out-of-range
-- expect: error: ORDER BY position 3 is not in select list
SELECT _id, name FROM restaurants ORDER BY 3;

-- case: r-order-by-text-of-number
-- order: total
SELECT num_reviews FROM restaurants WHERE _id <= 20 ORDER BY num_reviews::text, _id;

-- case: r-order-by-boolean
-- order: total
SELECT _id, rating > 4 AS good FROM restaurants WHERE _id <= 6 ORDER BY good, _id;

-- case: r-limit-null
SELECT count(*) FROM (SELECT _id FROM restaurants LIMIT NULL) s;

-- case: r-limit-decimal
SELECT count(*) FROM (SELECT _id FROM restaurants ORDER BY _id LIMIT 2.7) s;

-- case: r-limit-mysql-comma
-- expect: error: LIMIT #,# syntax is not supported
SELECT _id FROM restaurants ORDER BY _id LIMIT 5, 10;

-- case: r-offset-fetch-next
-- order: total
SELECT _id FROM restaurants ORDER BY _id OFFSET 5 ROWS FETCH NEXT 3 ROWS ONLY;

-- case: r-fetch-first-row-only
-- order: total
SELECT _id FROM restaurants ORDER BY _id DESC FETCH FIRST ROW ONLY;

-- case: r-limit-without-order-count
SELECT count(*) FROM (SELECT * FROM restaurants LIMIT 10) s;

-- case: r-order-desc-nulls-first-ordinal
-- order: total
SELECT _id, NULLIF(price, 'cheap') AS p FROM restaurants WHERE _id <= 8 ORDER BY 2 DESC NULLS FIRST, 1;

-- ==== SQLite and MySQL habits PostgreSQL refuses ===========================

-- case: r-double-quoted-string
-- expect: error: "Palo Alto" is an identifier, not a string
SELECT count(*) FROM restaurants WHERE location = "Palo Alto";

-- case: r-backtick-identifier
-- expect: error: backticks are not PostgreSQL
SELECT `name` FROM restaurants WHERE _id = 1;

-- case: r-double-equals
-- expect: error: there is no == operator
SELECT count(*) FROM restaurants WHERE location == 'Palo Alto';

-- case: r-ifnull
-- expect: error: ifnull() is SQLite's
SELECT ifnull(price, 'none') FROM restaurants WHERE _id = 1;

-- case: r-iif
-- expect: error: iif() is SQLite's
SELECT iif(rating > 4, 'good', 'bad') FROM restaurants WHERE _id = 1;

-- case: r-instr
-- expect: error: instr() is SQLite's
SELECT instr(name, 'a') FROM restaurants WHERE _id = 1;

-- case: r-group-concat
-- expect: error: group_concat() is SQLite's
SELECT group_concat(name) FROM restaurants WHERE _id <= 2;

-- case: r-typeof
-- expect: error: typeof() is SQLite's
SELECT typeof(rating) FROM restaurants WHERE _id = 1;

-- case: r-strftime
-- expect: error: strftime() is SQLite's
SELECT strftime('%Y', '2026-12-25') FROM restaurants WHERE _id = 1;

-- case: r-json-extract
-- expect: error: json_extract() is SQLite's
SELECT json_extract(cuisines, '$[0]') FROM restaurants WHERE _id = 1;

-- case: r-rowid
-- expect: error: there is no rowid column
SELECT rowid FROM restaurants WHERE _id = 1;

-- case: r-total
-- expect: error: total() is SQLite's
SELECT total(rating) FROM restaurants;

-- case: r-glob
-- expect: error: GLOB is SQLite's
SELECT count(*) FROM restaurants WHERE name GLOB 'The*';

-- case: r-cast-as-string
-- expect: error: there is no type string
SELECT CAST(rating AS string) FROM restaurants WHERE _id = 1;

-- case: r-top
-- expect: error: TOP is not PostgreSQL
SELECT TOP 5 name FROM restaurants;

-- case: r-quoted-table-wrong-case
-- expect: divergence: quoted names match case-insensitively
SELECT count(*) FROM "Restaurants";

-- case: r-alias-hides-table-name
-- expect: error: once aliased, the table is reached through its alias only
SELECT restaurants.name FROM restaurants r WHERE r._id = 1;

-- case: r-same-alias-twice
-- expect: error: table name r specified more than once
SELECT count(*) FROM restaurants r, restaurants r;

-- case: r-trailing-comma
-- expect: error: syntax error
SELECT name, FROM restaurants;

-- case: r-in-empty-list
-- expect: error: syntax error
SELECT count(*) FROM restaurants WHERE location IN ();

-- ==== PostgreSQL spellings =================================================

-- case: r-upper-case-keywords-and-names
SELECT COUNT(*) FROM RESTAURANTS WHERE LOCATION = 'Palo Alto';

-- case: r-schema-qualified
SELECT count(*) FROM public.restaurants;

-- case: r-isnull-postfix
SELECT count(*) FROM restaurants WHERE NULLIF(location, 'Cupertino') ISNULL;

-- case: r-notnull-postfix
SELECT count(*) FROM restaurants WHERE price NOTNULL;

-- case: r-row-comparison
-- expect: unsupported: row constructors
SELECT count(*) FROM restaurants WHERE (location, price) = ('Palo Alto', 'cheap');

-- case: r-row-in-list
-- expect: unsupported: row constructors
SELECT count(*) FROM restaurants WHERE (location, price) IN (('Palo Alto', 'cheap'), ('Cupertino', 'luxury'));

-- case: r-distinct-parenthesized
SELECT DISTINCT(location) FROM restaurants;

-- case: r-count-one
SELECT count(1), count('x') FROM restaurants;

-- case: r-wrong-case-value
SELECT count(*) FROM restaurants WHERE location = 'palo alto';

-- case: r-string-literal-is-text-not-column
SELECT 'name' AS n FROM restaurants WHERE _id = 1;

-- case: r-reserved-alias
SELECT name AS "order", rating AS "desc" FROM restaurants WHERE _id = 1;

-- case: r-keyword-alias-with-as
SELECT count(*) AS desc FROM restaurants;

-- case: r-group-by-lower
SELECT lower(location) AS l, count(*) FROM restaurants GROUP BY lower(location);

-- case: r-having-two-aggregates
SELECT location FROM restaurants GROUP BY location HAVING count(*) > 300 AND max(rating) = 5;

-- case: r-having-plain-column
SELECT location, count(*) FROM restaurants GROUP BY location HAVING location = 'Palo Alto';

-- case: r-percentile-median
-- expect: unsupported: WITHIN GROUP (ordered-set aggregates)
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY rating) FROM restaurants;

-- case: r-mode
-- expect: unsupported: WITHIN GROUP (ordered-set aggregates)
SELECT mode() WITHIN GROUP (ORDER BY location) FROM restaurants;

-- case: r-variance
SELECT round(variance(rating)::numeric, 6), round(stddev_pop(rating)::numeric, 6) FROM restaurants;

-- case: r-window-dense-rank
-- order: total
SELECT rating, dense_rank() OVER (ORDER BY rating DESC) AS dr FROM restaurants GROUP BY rating ORDER BY rating DESC LIMIT 5;

-- case: r-window-rank-ties
-- order: total
SELECT _id, rank() OVER (ORDER BY rating DESC) AS rk FROM restaurants ORDER BY rk, _id LIMIT 5 OFFSET 44;

-- case: r-window-running-sum-ties
-- order: total
SELECT _id, sum(num_reviews) OVER (ORDER BY rating, _id) AS s FROM restaurants ORDER BY rating, _id LIMIT 3;

-- case: r-window-range-default-ties
-- order: total
SELECT rating, count(*) OVER (ORDER BY rating) AS upto FROM restaurants WHERE rating < 2 ORDER BY rating;

-- case: r-window-rows-frame
-- order: total
-- expect: unsupported: window frame clauses
SELECT _id, avg(rating) OVER (ORDER BY _id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-window-named
-- order: total
SELECT _id, rank() OVER w, row_number() OVER w FROM restaurants WINDOW w AS (ORDER BY num_reviews DESC, _id) ORDER BY _id LIMIT 3;

-- case: r-window-ntile
-- order: total
SELECT ntile(4) OVER (ORDER BY _id) AS q, count(*) OVER () FROM restaurants ORDER BY _id LIMIT 2;

-- case: r-window-first-value
-- order: total
SELECT DISTINCT location, first_value(_id) OVER (PARTITION BY location ORDER BY rating DESC, _id) AS best FROM restaurants ORDER BY location;

-- case: r-window-percent-rank
-- order: total
SELECT _id, percent_rank() OVER (ORDER BY _id) FROM restaurants ORDER BY _id LIMIT 3;

-- case: r-union-types
-- order: total
SELECT rating FROM restaurants WHERE _id = 1 UNION SELECT 2 ORDER BY 1;

-- case: r-union-type-mismatch
-- expect: error: UNION types double precision and text cannot be matched
SELECT rating FROM restaurants WHERE _id = 1 UNION SELECT name FROM restaurants WHERE _id = 1;

-- case: r-intersect-all
SELECT count(*) FROM (SELECT location FROM restaurants INTERSECT ALL SELECT location FROM restaurants WHERE rating = 5.0) s;

-- case: r-except-all
SELECT count(*) FROM (SELECT location FROM restaurants EXCEPT ALL SELECT location FROM restaurants WHERE rating < 4.9) s;

-- case: r-union-parenthesized-limits
SELECT _id FROM ((SELECT _id FROM restaurants ORDER BY _id LIMIT 2) UNION ALL (SELECT _id FROM restaurants ORDER BY _id DESC LIMIT 2)) s;

-- case: r-union-null-dedup
SELECT count(*) FROM (SELECT NULLIF(1, 1) AS x FROM restaurants UNION SELECT NULL) s;

-- case: r-table-command
SELECT count(*) FROM (TABLE restaurants) t;

-- ==== opening hours (restaurant_hours: day an enum Mon < ... < Sun, opens
-- and closes TIME, a night past midnight ending at 24:00) =================

-- case: r-hours-count
SELECT count(*) AS n, count(DISTINCT restaurant_id) AS places, min(opens) AS first, max(closes) AS last
FROM restaurant_hours;

-- case: r-hours-day-order
-- order: total
SELECT day, count(*) FROM restaurant_hours GROUP BY day ORDER BY day;

-- case: r-hours-open-late-friday
-- order: total
SELECT r._id, r.name, h.closes FROM restaurants r JOIN restaurant_hours h ON h.restaurant_id = r._id
WHERE r.location = 'San Francisco' AND h.day = 'Fri' AND h.opens <= '23:00' AND h.closes > '23:00'
ORDER BY h.closes DESC, r._id LIMIT 5;

-- case: r-hours-open-at-midnight-exists
SELECT count(*) FROM restaurants r
WHERE EXISTS (SELECT 1 FROM restaurant_hours h WHERE h.restaurant_id = r._id AND h.day = 'Sat'
              AND h.opens <= '00:30' AND h.closes > '00:30');

-- case: r-hours-closes-24
SELECT count(*) FROM restaurant_hours WHERE closes = '24:00' AND closes > TIME '23:59:59';

-- case: r-hours-weekend-range
SELECT count(DISTINCT restaurant_id) FROM restaurant_hours WHERE day BETWEEN 'Sat' AND 'Sun' AND opens < '09:00';

-- case: r-hours-length
-- order: total
SELECT restaurant_id, day, closes - opens AS span FROM restaurant_hours ORDER BY span DESC, _id LIMIT 3;
