# A cast gives the answer a type; SQLite compares the number.
mock: {"chat": [{"stage": "answer", "contains": "candlelit", "reply": "12"}, {"stage": "answer", "reply": "3"}]}
query: SELECT name FROM places WHERE city = 'north' AND answer(reviews, 'how many tables?')::int > 10
plan: then SQLite
rows:
name
Candle Bistro
