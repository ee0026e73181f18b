DROP TABLE restaurants
