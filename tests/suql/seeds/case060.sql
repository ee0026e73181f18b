WITH gone AS (DELETE FROM restaurants RETURNING *) SELECT * FROM gone
