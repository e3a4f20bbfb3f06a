# explain: resync=DELAYED behind md3 on the same disks; md3 itself resyncs, its progress measured over the window
fixture explain/delayed
read_only 0 explain
