# explain: users' I/O on md2 itself between the limits: a profile, gain only by measuring
fixture explain/competing
read_only 1 explain
