# shellcheck shell=sh
# The service-manager cases' helpers (the NN-services-* cases): mdprofile's apply, revert
# and recover on fixture roots with the fake service managers of tests/fakes/, each
# checking the exact calls the fakes logged (expect_calls), the exit code and the
# services' states afterwards. Sourced after lib.sh.

# begin KIND SEEDS...: a fresh root with the fakes of KIND (dsm6, dsm7, systemd) and SEEDS
# (NAME=STATE), an empty profiles directory $P, the speed limits kept for expect_baseline.
begin() {
	case $1 in
	dsm6) fixture ds-dsm6-reshape ;;
	dsm7) fixture ds220j-dsm7 ;;
	systemd) fixture server-raid6-raid10 ;;
	esac
	fakes "$@"
	P=$WORK/profiles
	rm -rf "$P"
	mkdir -p "$P"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_min" "$WORK/min.orig"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_max" "$WORK/max.orig"
}

# begin_ab: DSM 6, services a and b running, profile a pausing both.
begin_ab() {
	begin dsm6 a=running b=running
	profile a a b
}

# begin_a_applied: x, y and z running; profile a pausing x and y is applied, b pauses y
# and z; the call log starts empty.
begin_a_applied() {
	begin dsm6 x=running y=running z=running
	profile a x y
	profile b y z
	mdp apply a
	expect_exit 0
	: >"$ROOT/var/log/fake-services.log"
}

# profile NAME SERVICE...: two speed limits (two writes) and the services to pause
# (?NAME: an optional one).
profile() {
	name=$1
	shift
	{
		echo "description: services test $name"
		echo "raid: {speed_limit_min: 50000, speed_limit_max: 300000}"
		echo "services:"
		echo "  pause:"
		for s; do
			case $s in
			\?*) echo "    - {name: ${s#\?}, optional: true}" ;;
			*) echo "    - $s" ;;
			esac
		done
	} >"$P/$name.yaml"
}

# mdp ARGS: run with these profiles.
mdp() {
	run --profiles "$P" "$@"
}

# mdp_calls RC NAME ARGS: mdp ARGS exits RC and makes the calls of NAME.calls ('-': none).
mdp_calls() {
	_rc=$1 _calls=$2
	shift 2
	mdp "$@"
	expect_exit "$_rc"
	if [ "$_calls" = - ]; then expect_calls </dev/null; else expect_calls "$_calls"; fi
}

# a and b running again, and nothing left.
expect_ab_back() {
	expect_states a=running b=running
	expect_baseline
}

# Nothing left: no journal, the speed limits as they were.
expect_baseline() {
	[ ! -e "$ROOT/run/mdprofile/journal" ] || fail "a journal is left"
	if ! cmp -s "$WORK/min.orig" "$ROOT/proc/sys/dev/raid/speed_limit_min" ||
		! cmp -s "$WORK/max.orig" "$ROOT/proc/sys/dev/raid/speed_limit_max"; then
		fail "speed limits not back to the baseline"
	fi
}
