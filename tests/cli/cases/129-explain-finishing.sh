# explain: 20 minutes left: not worth tuning
fixture explain/finishing
read_only 0 explain
