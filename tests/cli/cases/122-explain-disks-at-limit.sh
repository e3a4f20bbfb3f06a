# explain: every member 97% busy, nothing else runs: nothing to gain, exit 0
fixture explain/disks
read_only 0 explain

# every disk 98% busy, but all four on one PCIe 2.0 x1 card whose link carries 78% of its
# data rate: the controller binds, not the disks; still nothing to gain, and said once
fixture explain/controller
run explain
expect_exit 0
expect_stdout controller
expect_no_stderr
run --json explain
expect_exit 0
expect_json json-controller

# Links (a disk's /sys/class/block entry, its controller's path) are captured as links, and a
# target beyond ustar's 100 bytes through a pax header: the replay names the same controller.
fixture explain/controller
long=../../devices/pci0000:00/0000:00:1c.4/0000:02:00.0/0000:03:00.0/ata1/host0/target0:0:0/0:0:0:0/scsi_disk/../block/sda
ln -sfn "$long" "$ROOT/sys/class/block/sda"
run explain --capture "$WORK/c3.tar"
expect_exit 0
cp "$WORK/out" "$WORK/first"
mkdir "$WORK/x3"
tar xf "$WORK/c3.tar" -C "$WORK/x3"
[ "$(readlink "$WORK/x3/sys/class/block/sda")" = "$long" ] || fail "the long link did not survive"
ROOT="$WORK/x3"
run explain
expect_exit 0
cmp -s "$WORK/first" "$WORK/out" || fail "the replay of links differs"
grep -q "share 0000:03:00.0" "$WORK/out" || fail "the replay lost the controller"
