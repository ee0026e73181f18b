# answer() in the select list runs for the rows returned only.
mock: {"chat": [{"stage": "answer", "reply": "Tacos."}]}
query: SELECT name, answer(dishes, 'what is popular?') AS dish FROM places WHERE city = 'south' ORDER BY name LIMIT 1
calls: 1
rows:
name,dish
Family Taqueria,Tacos.
