# explain: md2_raid5 at 95% of a CPU: group_thread_cnt, no number
fixture explain/cpu
read_only 1 explain
