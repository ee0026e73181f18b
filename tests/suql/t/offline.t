# Offline: the filter is a similarity threshold over the row's sentences.
offline: true
query: SELECT name FROM places WHERE answer(reviews, 'is there parking?') = 'Yes' LIMIT 1
calls: 0
rows:
name
Lot Diner
