SELECT * FORM restaurants
