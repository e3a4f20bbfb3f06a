# --root never leads out of the tree. A directory symlink pointing outside
# it, absolute or climbing with "..", is refused with a clear error before
# anything is written: nothing outside the root changes, not even the lock
# or the journal. Links that stay inside the tree, as sysfs's do, work.
# tags: heavy smoke (the aarch64 set of make check-deep)
OUT="$WORK/outside"

# escape DIR TARGET: move $ROOT/DIR's content to $OUT and make DIR a symlink to TARGET.
escape() {
	rm -rf "$OUT" "$WORK/out-snap"
	mkdir -p "$OUT" "$(dirname "$ROOT/$1")"
	if [ -d "$ROOT/$1" ]; then
		cp -a "$ROOT/$1/." "$OUT/"
		rm -rf "${ROOT:?}/$1"
	fi
	ln -s "$2" "$ROOT/$1"
	cp -a "$OUT" "$WORK/out-snap"
}

# Before expect_unchanged: its copy of the tree drops run/mdprofile/lock, through the link.
expect_outside_unchanged() {
	diff -r "$WORK/out-snap" "$OUT" >/dev/null 2>&1 ||
		fail "$1: something outside the root changed: $(ls -A "$OUT")"
}

# refused DIR TARGET ATTR...: with DIR a link to TARGET, commands stop at reading each ATTR.
refused() {
	link="$1 -> $2"
	fixture ds-dsm6-reshape
	fakes dsm6 synoindexd=running
	escape "$1" "$2"
	shift 2
	snapshot
	run apply reshape-fast
	expect_exit 3
	{
		for attr; do
			echo "mdprofile: cannot read $attr: a symbolic link leads out of the root"
		done
		echo "mdprofile: cannot read the system state: a symbolic link leads out of the root"
	} | expect_stderr
	expect_outside_unchanged "$link"
	expect_unchanged "$link"
	run status
	expect_exit 3
}

# The dev.raid sysctls by an absolute link; an array's queue/ by a relative one that climbs out.
refused proc/sys/dev/raid "$OUT" /proc/sys/dev/raid/speed_limit_min \
	/proc/sys/dev/raid/speed_limit_max
refused sys/block/md2/queue ../../../../outside /sys/block/md2/queue/read_ahead_kb

# mdprofile's own state directory: the lock and the journal stay in the tree.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
escape run/mdprofile "$OUT"
snapshot
for cmd in "apply reshape-fast" revert recover; do
	# shellcheck disable=SC2086 # the command and its argument
	run $cmd
	expect_exit 3
	expect_stderr <<'EOF2'
mdprofile: cannot take the lock /run/mdprofile/lock: a symbolic link leads out of the root
EOF2
done
expect_outside_unchanged "run/mdprofile -> $OUT"
expect_unchanged "run link"

# Links inside the tree are followed: a queue/ directory elsewhere in the
# tree, as sysfs's /sys/block entries are links, and a state directory
# that is a link to another place in the tree.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
mkdir -p "$ROOT/sys/devices/virtual/md2" "$ROOT/var/lib/mdp" "$ROOT/run"
mv "$ROOT/sys/block/md2/queue" "$ROOT/sys/devices/virtual/md2/queue"
ln -s ../../devices/virtual/md2/queue "$ROOT/sys/block/md2/queue"
ln -s ../var/lib/mdp "$ROOT/run/mdprofile"
snapshot
run -q apply reshape-fast
expect_exit 0
expect_stderr <<'EOF2'
EOF2
expect_file sys/devices/virtual/md2/queue/read_ahead_kb <<'EOF2'
32768
EOF2
[ -f "$ROOT/var/lib/mdp/journal" ] || fail "the journal is not where run/mdprofile leads"
run -q revert
expect_exit 0
rm -f "$ROOT/var/lib/mdp/lock"
expect_unchanged "inside links"
