SELECT $$it's$$, U&'\0041', 'two'
  'parts', E'line1\nline2\ttab', 'Mélisse'
