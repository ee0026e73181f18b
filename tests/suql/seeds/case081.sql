SELECT * FROM public.restaurants
