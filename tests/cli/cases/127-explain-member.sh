# explain: one member 96% busy, the others 9%: the slow disk is the speed
fixture explain/member
read_only 0 explain
