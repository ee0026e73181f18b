SELECT * INTO copy FROM restaurants
