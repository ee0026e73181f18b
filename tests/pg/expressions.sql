-- expressions.sql — differential cases of expressions on literals: numbers
-- at their edges, casts, text functions, dates, booleans and NULL, run
-- against the courses database.  Format: tests/pg/run.py.
-- db: courses

-- ==== numbers =============================================================

-- case: x-round-half-up
SELECT round(2.5), round(3.5), round(0.5);

-- case: x-round-half-negative
SELECT round(-2.5), round(-0.5);

-- case: x-round-digits
SELECT round(2.345, 2), round(-2.345, 2), round(1234.5, -2);

-- case: x-round-double-half-even
SELECT round(2.5::float), round(3.5::float), round(-2.5::float8);

-- case: x-round-double-two-places
-- expect: error: round(double precision, integer) does not exist
SELECT round(2.345::float, 2);

-- case: x-numeric-to-int-rounds
SELECT 2.5::int, 3.5::int, (-2.5)::int, 2.4::int, 2.6::integer;

-- case: x-double-to-int-half-even
SELECT 2.5::float::int, 3.5::float8::int, (-2.5)::float::int;

-- case: x-text-to-int
SELECT '3'::int, ' 42 '::int, '-7'::integer;

-- case: x-text-decimal-to-int
-- expect: error: '3.7' is not an integer
SELECT '3.7'::int;

-- case: x-text-to-int-garbage
-- expect: error: 'abc' is not an integer
SELECT 'abc'::int;

-- case: x-cast-function
SELECT CAST(3.7 AS integer), CAST('12' AS int), CAST(12 AS text), CAST(12 AS varchar), CAST(1.5 AS float);

-- case: x-cast-numeric-typmod
SELECT 3.14159::numeric(5,2), CAST(2.5 AS numeric(3,0));

-- case: x-cast-numeric-typmod-overflow
-- expect: error: numeric field overflow
SELECT 1234.5::numeric(5,2);

-- case: x-cast-varchar-length
SELECT 'abcdef'::varchar(3), CAST('abcdef' AS char(2));

-- case: x-float-sum-equality
SELECT 0.1 + 0.2 = 0.3 AS numeric_eq, 0.1::float + 0.2::float = 0.3::float AS float_eq;

-- case: x-float-sum-value
SELECT 0.1 + 0.2 AS n, 0.1::float + 0.2::float AS f;

-- case: x-division-by-zero
-- expect: error: division by zero
SELECT 1 / 0;

-- case: x-division-by-zero-float
-- expect: error: division by zero
SELECT 1.0 / 0;

-- case: x-modulo-by-zero
-- expect: error: division by zero
SELECT 5 % 0;

-- case: x-division-by-zero-in-where
-- expect: error: division by zero
SELECT count(*) FROM courses WHERE units_min / 0 > 1;

-- case: x-int-division
SELECT 7 / 2, -7 / 2, 7 / -2, 1 / 3;

-- case: x-numeric-division
SELECT 7.0 / 2, 7 / 2.0, 1.0 / 3, 10 / 4.0;

-- case: x-int-float-division
SELECT 7::float / 2, 7 / 2::float, 1 / 3::float;

-- case: x-modulo
SELECT 7 % 3, -7 % 3, 7 % -3, -7 % -3, mod(7, 3), mod(-7, 3);

-- case: x-modulo-numeric
SELECT 7.5 % 2, mod(7.5, 2);

-- case: x-power
SELECT 2 ^ 10, 2 ^ 0.5, power(2, 10), 2.0 ^ 3;

-- case: x-sqrt-abs-sign
SELECT sqrt(16), abs(-3), abs(-2.5), sign(-3), sign(0.0);

-- case: x-floor-ceil-trunc
SELECT floor(-2.1), ceil(-2.1), ceiling(2.1), trunc(2.7), trunc(-2.7), trunc(2.789, 2);

-- case: x-big-integer-literal
SELECT 9007199254740993 AS big, 9007199254740993 + 0 AS big_plus;

-- case: x-big-integer-compare
SELECT 9007199254740993 = 9007199254740992 AS eq;

-- case: x-bigint-max
SELECT 9223372036854775807 AS m;

-- case: x-int4-overflow
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT 2147483647 + 1;

-- case: x-int4-overflow-multiply
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT 100000 * 100000;

-- case: x-bigint-no-overflow
SELECT 2147483647::bigint + 1, 100000::bigint * 100000;

-- case: x-bigint-overflow
-- expect: divergence: past 2^63 an integer result becomes a double, not an error
SELECT 9223372036854775807 + 1;

-- case: x-numeric-big
-- expect: divergence: numeric is a double rounded to 15 significant digits
SELECT 9223372036854775808 AS n, 12345678901234567890 + 1 AS m;

-- case: x-scientific-literal
SELECT 1e3, 1.5e-3, 2E2 + 1;

-- case: x-unary-minus-precedence
SELECT -2 ^ 2, (-2) ^ 2, - 3 * 2;

-- case: x-operator-precedence
SELECT 2 + 3 * 4, (2 + 3) * 4, 10 - 2 - 3, 2 * 3 % 4;

-- case: x-greatest-least
SELECT greatest(1, 5, 3), least(1, 5, 3), greatest(1, NULL, 3), least(NULL, 2);

-- case: x-greatest-mixed
SELECT greatest(1, 2.5), least('b', 'a');

-- case: x-pi-trig
SELECT round(pi()::numeric, 5), round(cos(0)::numeric, 5);

-- case: x-log-exp
SELECT round(ln(10)::numeric, 6), log(100), round(exp(1)::numeric, 6), log(2, 8);

-- case: x-numeric-scale
SELECT 1.50, 1.50 + 1, 2.0 * 3;

-- case: x-int-compare-text-number
SELECT 1 = '1', 2 > '10', '2' > '10';

-- case: x-text-plus-int
SELECT '5' + 3;

-- case: x-text-decimal-plus-int
-- expect: error: '1.5' is not an integer
SELECT '1.5' + 1;

-- case: x-bad-text-plus-int
-- expect: error: 'abc' is not an integer
SELECT 'abc' + 1;

-- case: x-int-concat-int
-- expect: error: integer || integer has no operator
SELECT 1 || 2;

-- case: x-number-to-text
SELECT 4.0::text, 4.0::float::text, 4::float::text, 0.5::float::text, 1e20::float::text;

-- case: x-float-text-precision
-- expect: divergence: numeric is a double rounded to 15 significant digits
SELECT (0.1::float + 0.2::float)::text, (1.0 / 3)::text;

-- case: x-number-concat-text
SELECT 4.0 || '', 4.0::float || '', 2.50 || 'x';

-- case: x-numeric-comparison-with-float
SELECT 4.0 = 4, 4.0::float = 4, 0.1::float = 0.1;

-- ==== text functions ======================================================

-- case: x-length
SELECT length('hello'), length(''), length('héllo'), char_length('abc'), character_length('ab');

-- case: x-length-null
SELECT length(NULL), upper(NULL), NULL || 'x';

-- case: x-octet-length
SELECT octet_length('héllo');

-- case: x-lower-upper
SELECT lower('Hello World'), upper('Hello World');

-- case: x-substr-basic
SELECT substr('hello', 2, 3), substr('hello', 2), substring('hello', 2, 3), substring('hello' FROM 2 FOR 3), substring('hello' FROM 3);

-- case: x-substr-zero-start
SELECT substr('hello', 0, 3), substr('hello', 0);

-- case: x-substr-negative-start
SELECT substr('hello', -1, 3), substr('hello', -3);

-- case: x-substr-negative-length
-- expect: error: negative substring length not allowed
SELECT substr('hello', 2, -1);

-- case: x-substr-past-end
SELECT substr('hello', 10), substr('hello', 4, 10);

-- case: x-left-right
SELECT left('hello', 2), right('hello', 2), left('hello', 10), right('hello', 0);

-- case: x-left-right-negative
SELECT left('hello', -2), right('hello', -2);

-- case: x-replace
SELECT replace('a-b-c', '-', '+'), replace('aaa', 'a', ''), replace('abc', '', 'x');

-- case: x-trim
SELECT trim('  x  '), ltrim('  x  '), rtrim('  x  '), btrim('xxaxx', 'x');

-- case: x-trim-sql-syntax
SELECT trim(both 'x' from 'xxaxx'), trim(leading 'x' from 'xxaxx'), trim(trailing from '  a  ');

-- case: x-position
SELECT position('l' IN 'hello'), position('z' IN 'hello'), position('' IN 'hello');

-- case: x-strpos
SELECT strpos('hello', 'l'), strpos('hello', 'z'), strpos('hello', 'lo');

-- case: x-split-part
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5), split_part('a,,c', ',', 2);

-- case: x-split-part-negative
SELECT split_part('a,b,c', ',', -1);

-- case: x-split-part-zero
-- expect: error: field position must not be zero
SELECT split_part('a,b,c', ',', 0);

-- case: x-initcap
SELECT initcap('hello world'), initcap('hELLO wORLD'), initcap('o''neil mc-donald 2nd');

-- case: x-concat
SELECT concat('a', NULL, 'b'), concat('a', 1, 2.5), concat(NULL);

-- case: x-concat-ws
SELECT concat_ws('-', 'a', NULL, 'b'), concat_ws(', ', 1, 2), concat_ws(NULL, 'a', 'b');

-- case: x-concat-operator-null
SELECT 'a' || NULL, NULL || NULL, 'a' || 'b' || 'c';

-- case: x-concat-operator-number
SELECT 'a' || 1, 1 || 'a', 'v' || 2.50, 'x' || true;

-- case: x-repeat-reverse
SELECT repeat('ab', 3), reverse('abc'), repeat('x', 0);

-- case: x-lpad-rpad
SELECT lpad('5', 3, '0'), rpad('ab', 5, '*'), lpad('hello', 3), lpad('x', 4);

-- case: x-format
-- expect: unsupported: to_char(), format(), quote_literal() and age() are not on the function list
SELECT format('%s-%s', 'a', 'b'), format('%s', NULL);

-- case: x-regexp-replace
-- expect: unsupported: regular expressions (~, ~*, SIMILAR TO, regexp_*, substring FROM pattern)
SELECT regexp_replace('a1b22c', '[0-9]+', '', 'g'), regexp_replace('a1b22c', '[0-9]+', '#');

-- case: x-ascii-chr
SELECT ascii('A'), chr(66);

-- case: x-md5
SELECT md5('abc');

-- case: x-string-compare-bytewise
SELECT 'B' < 'a', 'abc' < 'abd', 'a' < 'ab', '' < 'a';

-- case: x-quote-escapes
SELECT 'O''Brien', length('it''s'), 'a"b';

-- case: x-escape-string
SELECT E'a\tb', length(E'line\nbreak');

-- case: x-string-continuation
SELECT 'foo'
       'bar' AS joined;

-- case: x-dollar-quoted
SELECT $$it's$$ AS s;

-- case: x-like-default-escape
SELECT 'a_b' LIKE 'a\_b', 'axb' LIKE 'a\_b', '50%' LIKE '50\%';

-- case: x-like-escape-clause
SELECT '50%' LIKE '50!%' ESCAPE '!', '50x' LIKE '50!%' ESCAPE '!', 'a_b' LIKE 'a#_b' ESCAPE '#';

-- case: x-like-wildcards
SELECT 'hello' LIKE 'h%', 'hello' LIKE 'h_llo', 'hello' LIKE 'H%', 'hello' ILIKE 'H%', 'hello' NOT LIKE '%z%';

-- case: x-like-null
SELECT NULL LIKE 'a', 'a' LIKE NULL;

-- case: x-like-newline
SELECT E'a\nb' LIKE 'a%b', E'a\nb' LIKE 'a_b';

-- case: x-ilike-non-ascii
SELECT 'ÉCOLE' ILIKE 'école', lower('ÉCOLE');

-- case: x-regex-operators
-- expect: unsupported: regular expressions (~, ~*, SIMILAR TO, regexp_*, substring FROM pattern)
SELECT 'abc' ~ '^a', 'abc' ~* '^A', 'abc' !~ 'z';

-- case: x-starts-with
SELECT starts_with('hello', 'he'), 'hello' ^@ 'x';

-- case: x-string-to-array
SELECT string_to_array('a,b,c', ','), array_length(string_to_array('a,b,c', ','), 1);

-- case: x-to-char-number
-- expect: unsupported: to_char(), format(), quote_literal() and age() are not on the function list
SELECT to_char(1234.5, 'FM9999.00');

-- case: x-text-function-on-number
-- expect: error: length(integer) does not exist
SELECT length(12345);

-- case: x-upper-on-number
-- expect: error: upper(integer) does not exist
SELECT upper(5);

-- ==== dates and times =====================================================

-- case: x-date-literal
SELECT DATE '2026-12-25', '2026-12-25'::date, CAST('2026-12-25' AS date);

-- case: x-date-plus-int
SELECT DATE '2026-12-25' + 7, DATE '2026-12-25' - 1, 7 + DATE '2026-12-25';

-- case: x-date-minus-date
SELECT DATE '2026-12-25' - DATE '2026-11-26', '2027-01-01'::date - '2026-01-01'::date;

-- case: x-date-plus-interval
SELECT DATE '2026-12-25' + INTERVAL '1 day';

-- case: x-date-plus-interval-month
SELECT DATE '2026-01-31' + INTERVAL '1 month', DATE '2024-02-29' + INTERVAL '1 year';

-- case: x-date-minus-interval
SELECT DATE '2026-03-01' - INTERVAL '1 day';

-- case: x-date-compare
SELECT DATE '2026-12-25' > DATE '2026-11-26', DATE '2026-12-25' = '2026-12-25', '2026-12-25'::date < '2027-01-01';

-- case: x-date-compare-one-digit
SELECT DATE '2026-12-05' = '2026-12-5';

-- case: x-date-invalid
-- expect: error: February has no 30th
SELECT DATE '2026-02-30';

-- case: x-date-invalid-cast
-- expect: error: not a date
SELECT 'next tuesday'::date;

-- case: x-date-leap-day
SELECT DATE '2028-02-29' + 1, DATE '2027-03-01' - DATE '2027-02-28';

-- case: x-date-to-text
SELECT DATE '2026-12-25'::text, DATE '2026-12-25' || '';

-- case: x-extract
SELECT EXTRACT(YEAR FROM DATE '2026-12-25'), EXTRACT(MONTH FROM DATE '2026-12-25'), EXTRACT(DOW FROM DATE '2026-12-25');

-- case: x-date-part
SELECT date_part('day', DATE '2026-12-25'), date_part('year', '2026-12-25'::date);

-- case: x-extract-time
SELECT EXTRACT(MINUTE FROM TIME '10:45'), EXTRACT(HOUR FROM '13:30'::time);

-- case: x-date-trunc
SELECT date_trunc('month', DATE '2026-12-25');

-- case: x-to-char-date
-- expect: unsupported: to_char(), format(), quote_literal() and age() are not on the function list
SELECT to_char(DATE '2026-12-25', 'YYYY-MM-DD'), to_char(DATE '2026-12-25', 'Mon DD');

-- case: x-make-date
SELECT make_date(2026, 12, 25);

-- case: x-current-date
-- pg: SELECT DATE '2026-11-26'
SELECT CURRENT_DATE;

-- case: x-current-date-arith
-- pg: SELECT DATE '2026-11-26' + 30 AS d, DATE '2026-12-25' - DATE '2026-11-26' AS until_xmas
SELECT CURRENT_DATE + 30 AS d, DATE '2026-12-25' - CURRENT_DATE AS until_xmas;

-- case: x-current-date-interval
-- pg: SELECT DATE '2026-11-26' - INTERVAL '7 days'
SELECT CURRENT_DATE - INTERVAL '7 days';

-- case: x-time-literal
SELECT TIME '9:30', '09:30'::time, TIME '21:05:30';

-- case: x-time-compare
SELECT TIME '9:30' < TIME '10:00', '9:30'::time = '09:30:00'::time, TIME '10:00' > '9:59';

-- case: x-time-minus-time
SELECT TIME '11:50' - TIME '10:30';

-- case: x-time-plus-interval
SELECT TIME '23:30' + INTERVAL '1 hour', TIME '10:00' - INTERVAL '15 minutes';

-- case: x-interval-literal
SELECT INTERVAL '1 day', INTERVAL '90 minutes';

-- case: x-timestamp-literal
SELECT TIMESTAMP '2026-12-25 10:30:00', '2026-12-25 10:30'::timestamp + INTERVAL '1 hour';

-- case: x-date-is-not-a-number
-- expect: error: date + date has no operator
SELECT DATE '2026-12-25' + DATE '2026-12-24';

-- ==== booleans ============================================================

-- case: x-boolean-literals
SELECT true, false, NULL::boolean;

-- case: x-boolean-comparison-result
SELECT 1 = 1, 1 < 0, 'a' = 'a';

-- case: x-boolean-three-valued
SELECT true AND NULL, false AND NULL, true OR NULL, false OR NULL, NOT NULL::boolean;

-- case: x-boolean-casts
SELECT 'yes'::boolean, 'true'::boolean, 't'::boolean, 'off'::boolean, 1::boolean, 0::boolean;

-- case: x-boolean-cast-bad
-- expect: error: '2' is not a boolean
SELECT '2'::boolean;

-- case: x-boolean-to-int-text
SELECT true::int, false::int, true::text, (1 > 0)::int;

-- case: x-boolean-order
-- order: total
SELECT b FROM (SELECT true AS b UNION ALL SELECT false UNION ALL SELECT NULL) s ORDER BY b;

-- case: x-int-as-boolean-refused
-- expect: error: an integer is not a boolean
SELECT 1 AND true;

-- case: x-not-on-int-refused
-- expect: error: NOT of an integer
SELECT NOT 5;

-- case: x-is-true
SELECT (1 > 0) IS TRUE, NULL::boolean IS TRUE, NULL::boolean IS NOT TRUE, (1 > 0) IS FALSE, NULL::boolean IS UNKNOWN;

-- case: x-is-distinct-from
SELECT NULL IS DISTINCT FROM NULL, 1 IS DISTINCT FROM NULL, 1 IS NOT DISTINCT FROM 1, 'a' IS DISTINCT FROM 'b';

-- ==== NULL ================================================================

-- case: x-null-eq-null
SELECT NULL = NULL, NULL <> NULL, NULL IS NULL, NULL IS NOT NULL;

-- case: x-null-arithmetic
SELECT 1 + NULL, NULL * 2, NULL / 0;

-- case: x-in-with-null
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), 1 NOT IN (2, 3);

-- case: x-nullif-coalesce
SELECT NULLIF(1, 1), NULLIF(1, 2), COALESCE(NULL, 2, 3), COALESCE(NULL, NULL);

-- case: x-case-null-condition
SELECT CASE WHEN NULL THEN 1 ELSE 2 END, CASE NULL WHEN NULL THEN 'eq' ELSE 'ne' END;

-- case: x-case-no-match
SELECT CASE 5 WHEN 1 THEN 'one' END;

-- case: x-null-select
SELECT NULL AS nothing, NULL::int AS int_nothing;

-- case: x-sum-empty-values
SELECT sum(x), count(x), count(*), avg(x), max(x) FROM (SELECT 1 AS x WHERE false) s;

-- ==== BETWEEN, IN on literals =============================================

-- case: x-between
SELECT 5 BETWEEN 1 AND 10, 5 BETWEEN 10 AND 1, 5 NOT BETWEEN 1 AND 4;

-- case: x-between-symmetric
SELECT 5 BETWEEN SYMMETRIC 10 AND 1, 'b' BETWEEN SYMMETRIC 'c' AND 'a';

-- case: x-in-mixed
SELECT 2 IN (1, 2.0, 3), 'b' IN ('a', 'b');

-- ==== arrays on literals ==================================================

-- case: x-array-literal
SELECT ARRAY[1, 2, 3], ARRAY['a', 'b'];

-- case: x-array-text-literal
SELECT '{1,2,3}'::int[], '{a,b}'::text[];

-- case: x-array-subscript
SELECT (ARRAY[10, 20, 30])[2], (ARRAY[10, 20, 30])[5], (ARRAY['a', 'b'])[0];

-- case: x-array-slice
SELECT (ARRAY[10, 20, 30, 40])[2:3];

-- case: x-array-length
SELECT array_length(ARRAY[1, 2, 3], 1), cardinality(ARRAY['a']), array_length(ARRAY[]::int[], 1);

-- case: x-array-any
SELECT 'a' = ANY (ARRAY['a', 'b']), 3 = ANY (ARRAY[1, 2]), 2 < ALL (ARRAY[3, 4]);

-- case: x-array-any-null
SELECT 3 = ANY (ARRAY[1, NULL]), 1 = ANY (ARRAY[1, NULL]);

-- case: x-array-contains
SELECT ARRAY[1, 2, 3] @> ARRAY[2], ARRAY[1] <@ ARRAY[1, 2], ARRAY[1, 2] && ARRAY[3];

-- case: x-array-concat
-- expect: unsupported: array concatenation with ||
SELECT ARRAY['a', 'b'] || 'c'::text, ARRAY[1] || ARRAY[2, 3];

-- case: x-array-to-string
SELECT array_to_string(ARRAY['a', 'b', NULL], ','), array_to_string(ARRAY[1, 2], '-');

-- case: x-unnest-select-list
SELECT unnest(ARRAY[3, 1, 2]) AS v;

-- case: x-unnest-from
SELECT sum(v) FROM unnest(ARRAY[3, 1, 2]) AS v;

-- case: x-array-cast-text
SELECT ARRAY['a', 'b c']::text, ARRAY[1, 2]::text;

-- case: x-array-equality
SELECT ARRAY[1, 2] = ARRAY[1, 2], ARRAY['a'] = ARRAY['b'];

-- ==== row sources without tables ==========================================

-- case: x-values
-- expect: unsupported: VALUES lists
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(n, s);

-- case: x-values-join
-- expect: unsupported: VALUES lists
SELECT c.course_id, v.label FROM courses c JOIN (VALUES (100019, 'first'), (100020, 'second')) AS v(id, label) ON v.id = c.course_id;

-- case: x-generate-series
-- expect: unsupported: set-returning functions other than unnest(array), WITH ORDINALITY, multi-array unnest
SELECT sum(i), count(*) FROM generate_series(1, 10) AS i;

-- case: x-select-without-from-where
SELECT 1 AS one WHERE 1 > 2;

-- case: x-column-names
SELECT 1 + 1, count(*), lower('A'), max(1), 'x', CAST(1 AS text) FROM courses WHERE course_id = 100019;

-- case: x-aggregate-without-from
SELECT count(*), sum(2);

-- case: x-string-agg-order-literal
SELECT string_agg(s, ',' ORDER BY s DESC) FROM (SELECT 'a' AS s UNION ALL SELECT 'c' UNION ALL SELECT 'b') AS v;

-- case: x-array-agg-literal
SELECT array_agg(n ORDER BY n) FROM (SELECT 3 AS n UNION ALL SELECT 1 UNION ALL SELECT 2) AS v;

-- case: x-array-agg-null-element
SELECT array_agg(n ORDER BY n NULLS FIRST) FROM (SELECT 2 AS n UNION ALL SELECT NULL UNION ALL SELECT 1) AS v;

-- case: x-string-agg-nulls
SELECT string_agg(s, '-') FROM (SELECT 'a' AS s UNION ALL SELECT NULL) AS v;

-- case: x-count-distinct-null
SELECT count(DISTINCT n), count(n) FROM (SELECT 1 AS n UNION ALL SELECT 1 UNION ALL SELECT NULL) AS v;

-- case: x-order-values-nulls
-- order: total
SELECT n FROM (SELECT 2 AS n UNION ALL SELECT NULL UNION ALL SELECT 1) AS v ORDER BY n;

-- case: x-order-values-nulls-desc
-- order: total
SELECT n FROM (SELECT 2 AS n UNION ALL SELECT NULL UNION ALL SELECT 1) AS v ORDER BY n DESC;

-- case: x-order-mixed-int-float
-- order: total
SELECT n FROM (SELECT 2 AS n UNION ALL SELECT 1.5 UNION ALL SELECT 10) AS v ORDER BY n;

-- case: x-distinct-numeric-float
SELECT DISTINCT n FROM (SELECT 1.0 AS n UNION ALL SELECT 1 UNION ALL SELECT 1.00) AS v;

-- case: x-unknown-function
-- expect: error: no such function
SELECT nosuchfunction(1);

-- case: x-wrong-argument-count
-- expect: error: lower takes one argument
SELECT lower('a', 'b');

-- ==== more casts and numbers =================================================

-- case: x-cast-text-numeric-int
SELECT '3.0'::numeric::int, '  12  '::numeric, '1e3'::float, CAST(NULL AS int);

-- case: x-cast-exponent-to-int
-- expect: error: '1e3' is not an integer
SELECT '1e3'::int;

-- case: x-cast-smallint-range
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT 40000::smallint;

-- case: x-float-special
-- expect: unsupported: NaN and Infinity literals (SQLite stores NaN as NULL)
SELECT 'NaN'::float, 'Infinity'::float, '-Infinity'::float8;

-- case: x-float-overflow
SELECT 2 ^ 1024;

-- case: x-numeric-power-exact
SELECT 2::numeric ^ 64;

-- case: x-power-big-double
SELECT power(2, 64), 2.0 ^ 0.5;

-- case: x-round-decimal-half
SELECT round(2.675, 2), round(4.45, 1), round(-0.5), round(-0.4);

-- case: x-int-div-then-decimal
SELECT 10 / 3 * 3.0, '10' / 3, 7 / 2 * 2;

-- case: x-numeric-long-division
SELECT 1::numeric / 3, 2::numeric / 3 * 3;

-- case: x-int8-float4-spellings
SELECT 5::int8, 1.5::float4, 2::double precision, 7::bigint / 2;

-- case: x-decimal-modulo
SELECT 10 % 3.5, mod(-7, -3);

-- case: x-abs-int-min
-- expect: divergence: integers are 64-bit (bigint); the overflow of a 32-bit integer is not raised
SELECT abs(-2147483647 - 1);

-- case: x-negative-zero
SELECT -0.0::float, ceil(-0.5::float), round(-0.4::float);

-- case: x-substr-numeric-position
-- expect: divergence: a numeric position of substr() is truncated, not refused
SELECT substr('hello', 1.5);

-- case: x-left-text-count
SELECT left('hello', '3');

-- case: x-length-of-number
-- expect: error: length(double precision) does not exist
SELECT length(4.5::float);

-- ==== more text ============================================================

-- case: x-substring-regex
-- expect: unsupported: regular expressions (~, ~*, SIMILAR TO, regexp_*, substring FROM pattern)
SELECT substring('hello' FROM 'l+'), substring('abc123' FROM '[0-9]+');

-- case: x-trim-characters
SELECT ltrim('xxhixx', 'x'), rtrim('xxhixx', 'x'), trim(both from '  a  ');

-- case: x-replace-null
SELECT replace('abc', 'b', NULL), replace(NULL, 'a', 'b'), left(NULL, 2);

-- case: x-text-trailing-spaces
SELECT 'abc ' = 'abc', length('abc '), 'abc '::char(5) = 'abc'::char(5);

-- case: x-like-glob-characters
SELECT 'a*' LIKE 'a*', '[a]' LIKE '[a]', 'a?' LIKE 'a?', 'ab' LIKE 'a*';

-- case: x-like-percent-literal-escape
SELECT '100%' LIKE '%\%', '100' LIKE '%\%';

-- case: x-ilike-escape
SELECT 'A_B' ILIKE 'a\_b', 'AxB' ILIKE 'a\_b';

-- case: x-not-ilike
SELECT 'Hello' NOT ILIKE 'h%', 'Hello' NOT LIKE 'h%';

-- case: x-upper-lower-non-ascii
SELECT upper('straße'), lower('ÄÖÜ'), upper('élan');

-- case: x-quote-ident-literal
-- expect: unsupported: to_char(), format(), quote_literal() and age() are not on the function list
SELECT quote_literal('it''s'), quote_ident('Name');

-- case: x-translate
SELECT translate('12345', '143', 'ax');

-- case: x-chr-unicode-length
SELECT length('日本語'), upper('日本語'), left('日本語', 2);

-- ==== more dates and intervals ==============================================

-- case: x-date-function-cast
SELECT date('2026-12-25');

-- case: x-date-text-plus-interval
SELECT '2026-12-25'::date + '1 day'::interval;

-- case: x-interval-arithmetic
SELECT INTERVAL '2 hours' * 3, INTERVAL '1 day' + INTERVAL '1 hour', INTERVAL '90 minutes' / 2;

-- case: x-interval-week
SELECT DATE '2026-12-25' + INTERVAL '1 week', DATE '2026-12-25' - INTERVAL '2 weeks';

-- case: x-extract-more
SELECT EXTRACT(ISODOW FROM DATE '2026-12-27'), EXTRACT(DOY FROM DATE '2026-12-25'), EXTRACT(QUARTER FROM DATE '2026-12-25'), EXTRACT(WEEK FROM DATE '2026-12-25');

-- case: x-extract-epoch-date
SELECT EXTRACT(EPOCH FROM DATE '2026-12-25'), date_part('epoch', DATE '2026-01-01');

-- case: x-age
-- expect: unsupported: to_char(), format(), quote_literal() and age() are not on the function list
SELECT age(DATE '2026-12-25', DATE '2026-01-01');

-- case: x-date-compare-timestamp
SELECT DATE '2026-12-25' < TIMESTAMP '2026-12-25 00:00:01', DATE '2026-12-25' = TIMESTAMP '2026-12-25 00:00:00';

-- case: x-date-between
SELECT DATE '2026-12-25' BETWEEN '2026-12-01' AND '2026-12-31';

-- case: x-date-order
-- order: total
SELECT d FROM (SELECT DATE '2026-12-25' AS d UNION ALL SELECT DATE '2026-01-05' UNION ALL SELECT DATE '2027-03-01') s ORDER BY d DESC;

-- case: x-date-min-max
SELECT min(d), max(d), count(DISTINCT d) FROM (SELECT DATE '2026-12-25' AS d UNION ALL SELECT '2026-1-5'::date UNION ALL SELECT DATE '2026-12-25') s;

-- case: x-current-timestamp-type
SELECT CURRENT_TIMESTAMP IS NOT NULL, now() IS NOT NULL;

-- case: x-now-date
-- pg: SELECT DATE '2026-11-26'
SELECT now()::date;

-- case: x-current-date-extract
-- pg: SELECT EXTRACT(YEAR FROM DATE '2026-11-26'), EXTRACT(MONTH FROM DATE '2026-11-26')
SELECT EXTRACT(YEAR FROM CURRENT_DATE), EXTRACT(MONTH FROM CURRENT_DATE);

-- case: x-current-date-compare-text
-- pg: SELECT DATE '2026-11-26' > '2026-11-01', DATE '2026-11-26' = '2026-11-26'
SELECT CURRENT_DATE > '2026-11-01', CURRENT_DATE = '2026-11-26';

-- case: x-time-text-compare
-- expect: error: time > date has no operator
SELECT TIME '10:00' > DATE '2026-12-25';

-- ==== more booleans and NULL ================================================

-- case: x-boolean-string-compare
SELECT true = 't', false = 'no', true::text = 'true';

-- case: x-boolean-order-by-desc
-- order: total
SELECT b FROM (SELECT true AS b UNION ALL SELECT false UNION ALL SELECT NULL) s ORDER BY b DESC;

-- case: x-boolean-aggregate-empty
SELECT bool_and(x), bool_or(x), count(x) FROM (SELECT true AS x WHERE false) s;

-- case: x-null-in-case-result
SELECT CASE WHEN 1 = 1 THEN NULL ELSE 1 END;

-- case: x-coalesce-mixed-numeric
SELECT COALESCE(NULL, 1, 2.5), COALESCE(NULL::int, 2);

-- case: x-nullif-types
SELECT NULLIF('a', 'a'), NULLIF(1.0, 1);

-- case: x-distinct-from-in-where
SELECT count(*) FROM courses WHERE units_min IS NOT DISTINCT FROM 3;

-- ==== more arrays on literals =================================================

-- case: x-array-two-dim
SELECT ARRAY[[1, 2], [3, 4]];

-- case: x-array-null-element
SELECT ARRAY[1, NULL, 3], array_length(ARRAY[NULL, NULL]::int[], 1);

-- case: x-array-position-remove
SELECT array_position(ARRAY['a', 'b'], 'b'), array_remove(ARRAY[1, 2, 1], 1);

-- case: x-array-upper-lower
SELECT array_upper(ARRAY[1, 2, 3], 1), array_lower(ARRAY[1, 2, 3], 1);

-- case: x-array-compare-order
SELECT ARRAY[1, 2] < ARRAY[1, 3], ARRAY['a'] < ARRAY['a', 'b'], ARRAY[2] > ARRAY[10];

-- case: x-unnest-two-arrays
-- expect: unsupported: set-returning functions other than unnest(array), WITH ORDINALITY, multi-array unnest
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b']) AS u(n, s);

-- case: x-array-agg-distinct
SELECT array_agg(DISTINCT x ORDER BY x) FROM (SELECT 2 AS x UNION ALL SELECT 1 UNION ALL SELECT 2) s;
