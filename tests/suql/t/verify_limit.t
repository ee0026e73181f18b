# A free-text filter: candidates by the structured part, verified until LIMIT.
mock: {"chat": [{"stage": "verify", "contains": "parking", "reply": "Yes"}, {"stage": "verify", "reply": "No"}]}
query: SELECT name FROM places WHERE city = 'north' AND answer(reviews, 'is there parking?') = 'Yes' LIMIT 1
plan: mode:   optimized
plan: structured: SELECT "places"."_id" FROM "places" WHERE "places"."city" = 'north'
plan: candidates: 2 rows now
calls: 2
rows:
name
Lot Diner
