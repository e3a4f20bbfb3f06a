# explain: 3.10: the stripe cache full in both samples and it does not grow itself
fixture explain/stripe
read_only 1 explain
