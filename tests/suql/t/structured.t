# A query without free text runs in SQLite as written.
query: SELECT name, city FROM places WHERE city = 'south' ORDER BY name LIMIT 2
plan: mode:   plain
calls: 0
rows:
name,city
Family Taqueria,south
Noisy Pub,south
