# explain: every member 97% busy, nothing else runs: nothing to gain, exit 0
fixture explain/disks
read_only 0 explain
