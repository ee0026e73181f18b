# ORDER BY is honoured exactly: the verified rows come back in its order.
mock: {"chat": [{"stage": "verify", "reply": "Yes"}]}
query: SELECT name FROM places WHERE answer(reviews, 'is it good?') = 'Yes' ORDER BY name DESC LIMIT 2
plan: order:      ORDER BY, exactly
rows:
name
Sushi Zen
Noisy Pub
