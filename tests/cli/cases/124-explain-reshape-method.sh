# explain: a reshape through a backup file: the method sets the pace, no recommendation
fixture explain/backup
read_only 0 explain
