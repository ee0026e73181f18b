-- Free-text queries: the structured part of each conjunct, as genie's
-- optimizer selects its candidates (genie --explain), against PostgreSQL's
-- count of the same conditions.  A case's "candidates" query gives one count
-- a conjunct, in the order of the WHERE clause's disjunctive normal form.

-- case: ft-location-romantic
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE location = 'Palo Alto'
SELECT name FROM restaurants WHERE location = 'Palo Alto' AND answer(reviews, 'is it romantic?') = 'Yes' LIMIT 3;

-- case: ft-enum-order-and-cuisine
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE price > 'moderate' AND 'italian' = ANY (cuisines)
SELECT name FROM restaurants WHERE price > 'moderate' AND 'italian' = ANY (cuisines) AND answer(reviews, 'good for a date?') = 'Yes' LIMIT 2;

-- case: ft-rating-text
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE rating::text = '4'
SELECT name FROM restaurants WHERE rating::text = '4' AND answer(reviews, 'is there parking?') = 'Yes' LIMIT 2;

-- case: ft-round-half-even
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE round(rating) = 4
SELECT name FROM restaurants WHERE round(rating) = 4 AND answer(reviews, 'is it quiet?') = 'Yes' LIMIT 2;

-- case: ft-int-cast-half-even
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE rating::int = 4 AND num_reviews BETWEEN 100 AND 300
SELECT name FROM restaurants WHERE rating::int = 4 AND num_reviews BETWEEN 100 AND 300 AND answer(reviews, 'is the staff friendly?') = 'Yes' LIMIT 2;

-- case: ft-two-conjuncts
-- db: restaurants
-- order: total
-- candidates: SELECT count(*) FROM restaurants WHERE location = 'Sunnyvale' UNION ALL SELECT count(*) FROM restaurants WHERE price = 'cheap' AND rating >= 4.5
SELECT name FROM restaurants WHERE (location = 'Sunnyvale' AND answer(reviews, 'is it romantic?') = 'Yes') OR (price = 'cheap' AND rating >= 4.5 AND answer(reviews, 'is it quiet?') = 'Yes') LIMIT 3;

-- case: ft-null-rating
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE rating IS DISTINCT FROM 4.5 AND location <> 'San Francisco'
SELECT name FROM restaurants WHERE rating IS DISTINCT FROM 4.5 AND location <> 'San Francisco' AND answer(reviews, 'do they have vegan food?') = 'Yes' LIMIT 2;

-- case: ft-array-subscript
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE cuisines[1] = 'pizza'
SELECT name FROM restaurants WHERE cuisines[1] = 'pizza' AND answer(reviews, 'is the crust thin?') = 'Yes' LIMIT 2;

-- case: ft-like-name
-- db: restaurants
-- order: total
-- why: the OR makes two conjuncts, each with its own candidates
-- candidates: SELECT count(*) FROM restaurants WHERE name LIKE '%Cafe%' UNION ALL SELECT count(*) FROM restaurants WHERE name ILIKE '%coffee%'
SELECT name FROM restaurants WHERE (name LIKE '%Cafe%' OR name ILIKE '%coffee%') AND answer(reviews, 'is there wifi?') = 'Yes' LIMIT 2;

-- case: ft-course-time
-- db: courses
-- candidates: SELECT count(*) FROM courses WHERE units_max >= 4 AND title ILIKE '%learning%'
SELECT title FROM courses WHERE units_max >= 4 AND title ILIKE '%learning%' AND answer(description, 'does it have a final project?') = 'Yes' LIMIT 2;

-- case: ft-course-codes-any
-- db: courses
-- candidates: SELECT count(*) FROM courses WHERE 'Letter' = ANY (grading_options) AND course_codes[1] LIKE 'CS 2%'
SELECT title FROM courses WHERE 'Letter' = ANY (grading_options) AND course_codes[1] LIKE 'CS 2%' AND answer(description, 'is it about language?') = 'Yes' LIMIT 2;

-- case: ft-join-pushdown
-- db: courses
-- candidates: SELECT count(*) FROM courses c WHERE c.units_min = 3 AND EXISTS (SELECT 1 FROM ratings r WHERE r.course_id = c.course_id AND r.average_rating > 4)
SELECT c.title FROM courses c JOIN ratings r USING (course_id) WHERE c.units_min = 3 AND r.average_rating > 4 AND answer(c.description, 'is it about NLP?') = 'Yes' ORDER BY r.average_rating DESC LIMIT 3;

-- case: ft-ratings-reviews
-- db: courses
-- candidates: SELECT count(*) FROM ratings WHERE average_hours_per_week < 10.5 AND average_rating BETWEEN SYMMETRIC 5 AND 4
SELECT course_id FROM ratings WHERE average_hours_per_week < 10.5 AND average_rating BETWEEN SYMMETRIC 5 AND 4 AND answer(reviews, 'is the workload light?') = 'Yes' LIMIT 3;

-- case: ft-programs
-- db: courses
-- candidates: SELECT count(*) FROM programs WHERE length(name) > 10
SELECT name FROM programs WHERE length(name) > 10 AND answer(requirements, 'does it require CS 229?') = 'Yes' LIMIT 2;

-- case: ft-cte
-- db: courses
-- candidates: SELECT count(*) FROM courses WHERE units_max - units_min >= 2
WITH flexible AS (SELECT * FROM courses WHERE units_max - units_min >= 2 AND answer(description, 'is there a lab?') = 'Yes') SELECT title FROM flexible ORDER BY title LIMIT 3;

-- case: ft-numeric-literal
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants WHERE rating * 2 >= 9.0 AND num_reviews % 2 = 0
SELECT name FROM restaurants WHERE rating * 2 >= 9.0 AND num_reviews % 2 = 0 AND answer(reviews, 'do they take reservations?') = 'Yes' LIMIT 2;

-- The other tables' structured conditions narrow the pushed-down
-- candidates (a semi-join): the restaurants open late on Friday only.
-- case: ft-join-semijoin-hours
-- db: restaurants
-- candidates: SELECT count(*) FROM restaurants r WHERE EXISTS (SELECT 1 FROM restaurant_hours h WHERE h.restaurant_id = r._id AND h.day = 'Fri' AND h.closes >= '23:00')
SELECT r.name FROM restaurants r JOIN restaurant_hours h ON h.restaurant_id = r._id WHERE h.day = 'Fri' AND h.closes >= '23:00' AND answer(r.reviews, 'does it have live music?') = 'Yes' LIMIT 3;

-- A LEFT JOIN's condition on the right table narrows them as well.
-- case: ft-join-semijoin-left
-- db: courses
-- candidates: SELECT count(*) FROM courses c WHERE EXISTS (SELECT 1 FROM ratings r WHERE r.course_id = c.course_id AND r.average_rating >= 4.5)
SELECT c.title FROM courses c LEFT JOIN ratings r ON r.course_id = c.course_id WHERE r.average_rating >= 4.5 AND answer(c.description, 'is it project-based?') = 'Yes' LIMIT 2;
