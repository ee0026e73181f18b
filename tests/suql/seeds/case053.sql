SET search_path = x
