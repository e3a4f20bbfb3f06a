# explain: resync=DELAYED behind md3 on the same disks; md3's progress did not move, so md's own average is used and said
fixture explain/delayed
read_only 0 explain
