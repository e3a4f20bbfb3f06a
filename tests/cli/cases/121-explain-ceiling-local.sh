# explain: a (local) sync_speed_max left at 10000 binds: the one setting, not a profile, and a rough gain
fixture explain/ceiling-local
read_only 1 explain
