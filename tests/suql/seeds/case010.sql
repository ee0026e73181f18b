SELECT 1;; -- ; DROP TABLE restaurants
