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

# The same disks on two PCI SATA cards behind one legacy PCI bridge (class 0x060401: a
# conventional bus; the cards state no PCIe link): they share that bus, not "at their limit".
fixture explain/disks
mkdir -p "$ROOT/sys/class/block" "$ROOT/sys/bus/pci/devices/0000:00:1e.0"
echo 0x060401 >"$ROOT/sys/bus/pci/devices/0000:00:1e.0/class"
for d in sda:0 sdb:0 sdc:1 sdd:1; do
	card="../../devices/pci0000:00/0000:00:1e.0/0000:05:0${d#*:}.0"
	ln -s "$card/ata1/host0/target0:0:0/0:0:0:0/block/${d%:*}" "$ROOT/sys/class/block/${d%:*}"
done
run explain
expect_exit 0
expect_stdout <<'OUT'
md2: recover 22.1%, 30000 KiB/s per disk (progress over 10.0 s), about 14h 2m left
  limits: minimum 10000 (system), maximum 200000 (system): between the limits: md throttles only while it sees other I/O
  pacing: kernel 4.4.302+, 4.1+ rule, drains its requests while it sees other I/O (from upstream md.c)
  controller: sdd, sdc, sdb, sda share the conventional PCI bus behind bridge 0000:00:1e.0 (its clock and width unread: 130208 KiB/s of data if it is the common 32-bit 33 MHz one): together 120000 KiB/s, 92% of it
              each is 80%+ busy yet moves 30000 KiB/s at most, under half of what a hard disk streams: they wait on the bus they share, not on their own media
              disks busy: sdd 97% sdc 97% sdb 97% sda 97%
    => none: no limit gets more through a shared bus; put the disks on the board's own ports or a PCIe card and the sync can run at the disks' own speed
OUT
expect_no_stderr
