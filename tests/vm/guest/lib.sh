# shellcheck shell=sh
# Tiny test library for the guest scenarios (busybox ash).
#
# A scenario sources this file, then calls run, the checks (expect_exit, expect_eq,
# expect_match, output_match, expect_unchanged: the vocabulary of docs/hacking.md, "Test
# checks", shared with tests/cli/lib.sh) and ok/fail.  Counts go to files under $VM_STATE
# (not variables) because every scenario runs in its own shell and the runner in /init
# adds them up.  Output is quiet on success ("ok - ...") and
# loud on failure: every failure prints what was expected, what was seen and the
# last command's captured stdout/stderr, so a console log alone explains a red run.

VM_STATE=${VM_STATE:-/run/vm}
MDP=${MDP:-/usr/bin/mdprofile}
# The dynamic build, linked with libudev (in the image when the lab was built with it).
# shellcheck disable=SC2034 # read by the scenarios that source this
MDP_UDEV=/usr/bin/mdprofile-udev
# A time as mdprofile prints it: ISO 8601, local, with its offset (2026-12-07T07:42:35+01:00).
# shellcheck disable=SC2034 # read by the scenarios that source this
TS='[0-9-]+T[0-9:]+[-+][0-9][0-9]:[0-9][0-9]'
mkdir -p "$VM_STATE"

# Last command run through `run`: its exit code and captured output.
RC=0
OUT=
ERR=
LAST_CMD=

ok() {
	echo "ok - ${SCENARIO:-?}: $*"
	echo x >>"$VM_STATE/pass"
}

fail() {
	echo "FAIL - ${SCENARIO:-?}: $*"
	echo x >>"$VM_STATE/fail"
}

# Show the last command and its output; called after a failure.
show_last() {
	[ -n "$LAST_CMD" ] || return 0
	echo "    command: $LAST_CMD (exit $RC)"
	printf '%s\n' "$OUT" | sed 's/^/    stdout| /'
	printf '%s\n' "$ERR" | sed 's/^/    stderr| /'
}

# run CMD...: run a command, keep exit code in RC and output in OUT/ERR; never fails.
run() {
	LAST_CMD=$*
	"$@" >"$VM_STATE/out" 2>"$VM_STATE/err" && RC=0 || RC=$?
	OUT=$(cat "$VM_STATE/out")
	ERR=$(cat "$VM_STATE/err")
	return 0
}

# mdp ARGS...: run mdprofile (shorthand for run $MDP ...).
mdp() {
	run "$MDP" "$@"
}

# expect_exit WANT DESC: the last `run` exited with WANT.
expect_exit() {
	if [ "$RC" = "$1" ]; then
		ok "$2 (exit $RC)"
	else
		fail "$2: exit $RC, want $1"
		show_last
	fi
}

# expect_eq GOT WANT DESC
expect_eq() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		fail "$3: got '$1', want '$2'"
	fi
}

# expect_ne GOT NOTWANT DESC
expect_ne() {
	if [ "$1" != "$2" ]; then
		ok "$3"
	else
		fail "$3: got '$1', want anything else"
	fi
}

# expect_match TEXT REGEX DESC: TEXT has a line matching the extended REGEX.
expect_match() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		ok "$3"
	else
		fail "$3: no line matches /$2/"
		printf '%s\n' "$1" | sed 's/^/    text| /'
	fi
}

# output_match REGEX DESC: the last command's stdout+stderr has a line matching REGEX.
output_match() {
	if printf '%s\n%s\n' "$OUT" "$ERR" | grep -Eq -- "$1"; then
		ok "$2"
	else
		fail "$2: output has no line matching /$1/"
		show_last
	fi
}

# output_joined_match REGEX DESC: the last command's stdout, its lines joined with one space
# (what status wraps at 80 columns read as one line), matches REGEX.
output_joined_match() {
	if printf '%s\n' "$OUT" | tr '\n' ' ' | tr -s ' ' | grep -Eq -- "$1"; then
		ok "$2"
	else
		fail "$2: the joined output does not match /$1/"
		show_last
	fi
}

# ---- system values ----------------------------------------------------------

# Every tunable file mdprofile may touch, one path a line (those that exist).
tunable_files() {
	for f in /proc/sys/dev/raid/speed_limit_min /proc/sys/dev/raid/speed_limit_max; do
		echo "$f"
	done
	for md in /sys/block/md*/md; do
		for a in stripe_cache_size sync_speed_min sync_speed_max group_thread_cnt \
			preread_bypass_threshold; do
			[ -e "$md/$a" ] && echo "$md/$a"
		done
	done
	for q in /sys/block/*/queue/read_ahead_kb; do
		echo "$q"
	done
}

# snapshot FILE: save "path<TAB>content" of every tunable file into FILE.
snapshot() {
	for f in $(tunable_files); do
		printf '%s\t%s\n' "$f" "$(cat "$f")"
	done >"$1"
}

# expect_unchanged FILE DESC: every tunable file is byte-identical to the snapshot.
expect_unchanged() {
	snapshot "$VM_STATE/snap.now"
	if cmp -s "$1" "$VM_STATE/snap.now"; then
		ok "$2"
	else
		fail "$2: values differ from the snapshot (- before, + now)"
		diff "$1" "$VM_STATE/snap.now" | grep '^[-+][^-+]' | sed 's/^/    /'
	fi
}

# sysval PATH: the value in a sysfs/procfs file, "(missing)" if absent.
sysval() {
	cat "$1" 2>/dev/null || echo "(missing)"
}

# Arrays by level (names like md1), from md/level.
arrays_of_level() {
	for d in /sys/block/md*; do
		[ "$(cat "$d/md/level" 2>/dev/null)" = "$1" ] && echo "${d##*/}"
	done
	return 0
}

parity_arrays() {
	arrays_of_level raid5
	arrays_of_level raid6
}

# A directory for the scenarios' own profiles: mdprofile refuses profiles in a
# group/world-writable directory such as /tmp, as it should.
PROFILES=$VM_STATE/profiles
mkdir -p "$PROFILES"
chmod 0755 "$PROFILES"

# section TEXT HEADER: the lines of a `diff` section that starts with HEADER
# (e.g. "md1 ") up to the next blank line.
section() {
	printf '%s\n' "$1" | awk -v h="$2" 'index($0, h) == 1 { on = 1 } on && /^$/ { exit } on'
}

# serial_disk SERIAL: the block device whose virtio serial is SERIAL (d01, d02, ...).
serial_disk() {
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${d##*/}" && return 0
	done
	return 1
}

# have_mdprofile: whether the tool is in the image (the lab also boots without it).
have_mdprofile() {
	[ -x "$MDP" ]
}

# ---- udev ---------------------------------------------------------------------

# start_udev: udevd with the md rules only, then a change event for every block
# device, so the database holds what 63-md-raid-arrays.rules imports from
# `mdadm --detail --export` (MD_UUID, MD_LEVEL, MD_DEVICES) for each array, as on
# a distribution. A no-op when it already runs.
start_udev() {
	[ -x /lib/systemd/systemd-udevd ] || return 1
	# A udevd told to exit leaves its socket behind: only one that answers counts.
	if ! udevadm control --ping >/dev/null 2>&1; then
		rm -f /run/udev/control
		/lib/systemd/systemd-udevd --daemon --resolve-names=never >/dev/null 2>&1 || return 1
	fi
	udevadm trigger --subsystem-match=block --action=change &&
		udevadm settle --timeout=60
}

# running PID: whether process PID runs (a zombie no child of ours left ended).
running() {
	kill -0 "$1" 2>/dev/null && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# wait_exit PID SECONDS: wait (polling every 0.2 s) until process PID has ended;
# 1 when it still runs after SECONDS.
wait_exit() {
	_i=0
	while running "$1" && [ $_i -lt $(($2 * 5)) ]; do
		_i=$((_i + 1))
		sleep 0.2
	done
	! running "$1"
}

# stop_udev: udevd exits; its database stays in /run/udev/data, as after any
# event, so later scenarios see the same records without a daemon running.
stop_udev() {
	[ -S /run/udev/control ] && udevadm control --exit
	return 0
}

# udev_prop DEV KEY: a property of block device DEV in the udev database, or "".
udev_prop() {
	udevadm info --query=property --name="/dev/$1" 2>/dev/null | sed -n "s/^$2=//p"
}

# skip_all WHY: report the whole scenario as not run (counts as a failure).
skip_all() {
	fail "not run: $*"
	exit 0
}

# ---- explain --------------------------------------------------------------------

# explain ARGS...: mdprofile --json explain ARGS, the exit code in RC and the
# document in OUT (as `run`).
explain() {
	run "$MDP" --json explain "$@"
}

# first_kind JSON: the kind of the first finding of the one array reported
first_kind() {
	printf '%s\n' "$1" | sed -n 's/.*"findings": \[{"kind": "\([a-z-]*\)".*/\1/p'
}

# speed_of JSON: the operation's speed in KiB/s over explain's window
speed_of() {
	printf '%s\n' "$1" | sed -n 's/.*"speed_kib_s": \([0-9]*\),.*/\1/p'
}

# median N...: the middle one of the numbers (the lower middle of an even count)
median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# reader_start DEV: a competing reader that reads DEV as fast as it can, from the start
# again at its end, with O_DIRECT (so the page cache never answers); its pid in READER.
# The lab's first measurements for explain's rules took what such a reader costs a sync.
reader_start() {
	(
		trap 'kill $_dd 2>/dev/null; exit 0' TERM
		while :; do
			dd if="$1" of=/dev/null bs=1M iflag=direct 2>/dev/null &
			_dd=$!
			wait $_dd
		done
	) &
	READER=$!
}

# reader_stop: end the reader that reader_start started
reader_stop() {
	kill "$READER" 2>/dev/null
	wait "$READER" 2>/dev/null
	READER=
}

# ---- background commands and the DSM fakes ------------------------------------------

# poll STEP TRIES WHAT CMD...: run CMD every STEP seconds until it succeeds; fails with
# WHAT (and returns 1) after TRIES tries.
poll() {
	_step=$1 _tries=$2 _what=$3
	shift 3
	_i=0
	until "$@"; do
		_i=$((_i + 1))
		[ $_i -lt "$_tries" ] || {
			fail "$_what"
			return 1
		}
		sleep "$_step"
	done
}

# wait_line FILE LINE SECONDS WHAT: wait until FILE has the line LINE (poll, 0.2 s).
wait_line() {
	poll 0.2 $(($3 * 5)) "$4" grep -sqx "$2" "$1"
}

# action_is MD ACTION: md/sync_action of array MD reads ACTION
action_is() {
	[ "$(cat "/sys/block/$1/md/sync_action")" = "$2" ]
}

# ---- a scenario's array $MD: where its sync stands, and mdprofile's pause of it ----------

# md_pos: the sectors md's sync of $MD has done (md/sync_completed "N / M"; none: 0). md moves
# it every sixteenth of the array, and it shows the last run's place until a new run's
# thread sets it.
md_pos() {
	read -r _p _rest <"/sys/block/$MD/md/sync_completed"
	case $_p in none) echo 0 ;; *) echo "$_p" ;; esac
}
# md_pos_above N: md_pos is past sector N.
md_pos_above() {
	[ "$(md_pos)" -gt "$1" ]
}
# md_live: where $MD's sync is now, in sectors, from /proc/mdstat's "(N/M)" (KiB): md's own
# position; nothing when no progress shows.
md_live() {
	awk -v md="$MD" '$1 == md { f = 1; next }
		f && /^$/ { exit }
		f && match($0, /\([0-9]+\//) { print substr($0, RSTART + 1, RLENGTH - 2) * 2; exit }' /proc/mdstat
}
md_live_above() {
	_l=$(md_live)
	[ -n "$_l" ] && [ "$_l" -gt "$1" ]
}
# md_paused_field N: field N of $MD's line in mdprofile's pause journal (3 its place, 5 why).
md_paused_field() {
	awk -v md="$MD" -v n="$1" '$1 == "pause" && $2 == md { print $(n + 1) }' \
		/run/mdprofile/paused 2>/dev/null
}
# md_is_paused: $MD idle with a pause journaled.
md_is_paused() {
	action_is "$MD" idle && [ -n "$(md_paused_field 3)" ]
}

# finish_bg PID SECONDS LOG WHAT: wait for background command WHAT (SIGKILL after
# SECONDS); its exit code, log and name become the last command's (RC, OUT, LAST_CMD).
finish_bg() {
	if ! wait_exit "$1" "$2"; then
		fail "$4 still running after $2 s"
		kill -KILL "$1"
	fi
	wait "$1" && RC=0 || RC=$?
	OUT=$(cat "$3") ERR='' LAST_CMD=$4
}

# stop_bg PID SECONDS LOG WHAT: SIGTERM, then finish_bg.
stop_bg() {
	kill -TERM "$1"
	finish_bg "$@"
}

# syslog_start FILE: a syslogd writing to FILE, as DSM has one (logger(1), the watcher);
# its pid in SLOG.
syslog_start() {
	syslogd -n -O "$1" &
	# shellcheck disable=SC2034 # read by the scenarios that source this
	SLOG=$!
	sleep 1
}

# check_matches SNAP WHAT: the tunables equal snapshot SNAP byte for byte; otherwise
# expect_unchanged says how (a failure) and it returns 1. For loops over many runs.
check_matches() {
	snapshot "$VM_STATE/snap.now"
	cmp -s "$1" "$VM_STATE/snap.now" && return 0
	expect_unchanged "$1" "$2"
	return 1
}

# dsm_fakes HOME: DSM's esynoscheduler (tests/fakes) at its DSM path with its state on
# the guest's own root (mdprofile gives a tool on the real root no MDPROFILE_ROOT: a
# wrapper gives it "/"), and mdprofile copied into HOME as an owner would.
dsm_fakes() {
	mkdir -p "$1" /usr/syno/sbin /usr/lib/fake-services /var/log
	chmod 0755 /volume1 "$1" /usr/syno /usr/syno/sbin
	cp /lab/fakes/lib.sh /usr/lib/fake-services/lib.sh
	printf '#!/bin/sh\nMDPROFILE_ROOT=/ exec /bin/sh /lab/fakes/esynoscheduler "$@"\n' \
		>/usr/syno/sbin/esynoscheduler
	chmod 0755 /usr/syno/sbin/esynoscheduler
	cp "$MDP" "$1/mdprofile"
}

# journal_has LINE: the journal has the line LINE
journal_has() {
	grep -qx "$1" /run/mdprofile/journal 2>/dev/null
}

# engaged: mdprofile auto has applied its profile (journal: by auto, state active)
engaged() {
	journal_has 'by auto' && journal_has 'state active'
}

# held_recovery MD: a recovery on array MD, its last member failed, removed and added
# back, held at 8192 sectors (md/sync_max) until the scenario writes max there.
held_recovery() {
	_m=$(for s in "/sys/block/$1/slaves"/*; do basename "$s"; done | tail -1)
	echo 8192 >"/sys/block/$1/md/sync_max"
	mdadm "/dev/$1" --fail "/dev/$_m" >/dev/null 2>&1 || fail "mdadm --fail $_m"
	mdadm "/dev/$1" --remove "/dev/$_m" >/dev/null 2>&1 || fail "mdadm --remove $_m"
	sleep 0.5
	mdadm "/dev/$1" --add "/dev/$_m" >/dev/null 2>&1 || fail "mdadm --add $_m"
}

# wait_engaged WHAT: wait (10 s at most, polling every 20 ms) until engaged
wait_engaged() {
	poll 0.02 500 "$1" engaged
}
