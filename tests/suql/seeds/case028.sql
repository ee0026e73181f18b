SELECT (a + b)::int, -a::int, (-a)::int, (-5)::int, -5::int, a::int::text
