#!/bin/sh
# End-to-end tests of service pause/resume: the real mdprofile binary runs
# apply, revert and recover on copies of the fixture roots with the fake
# service managers of tests/fakes/ installed, and every case asserts the
# exact sequence of service-manager calls (the fakes' call log), the exit
# code and the services' states afterwards.
#
#   sh tests/cli/services.sh PATH/TO/mdprofile [CASE...]
#
# Exits non-zero when a case fails, with a diff of expected and actual.
# Crashes are made two ways: MDPROFILE_FAULT=crash-after-write:K (the
# binary's seam) for the tunable steps, and a SIGKILL of mdprofile while a
# fake pause hangs for the service steps, which the seam cannot reach.
set -u

if [ $# -lt 1 ]; then
	echo "usage: services.sh MDPROFILE [CASE...]" >&2
	exit 2
fi
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
TOP=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$TOP"' EXIT
unset MDPROFILE_ROOT MDPROFILE_FAULT
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1

pass=0
failed_cases=0
FAILED=0
CASE=

fail() {
	echo "FAIL $CASE: $*" >&2
	FAILED=1
}

# begin KIND SEEDS...: a fresh root for $CASE with the fakes of KIND.
begin() {
	kind=$1
	shift
	W=$TOP/$CASE
	ROOT=$W/root
	P=$W/profiles
	mkdir -p "$P"
	case $kind in
	dsm6) fx=ds-dsm6-reshape ;;
	dsm7) fx=ds220j-dsm7 ;;
	systemd) fx=server-raid6-raid10 ;;
	esac
	cp -a "$SRC/tests/fixtures/$fx" "$ROOT"
	sh "$SRC/tests/fakes/install.sh" "$ROOT" "$kind" "$@" || fail "install.sh failed"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_min" "$W/min.orig"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_max" "$W/max.orig"
}

# profile NAME SERVICE...: two speed limits (two writes) and the services.
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

mdp() {
	LAST="$*"
	"$BIN" --root "$ROOT" --profiles "$P" "$@" >"$W/out" 2>"$W/err"
	RC=$?
}

expect_rc() {
	if [ "$RC" != "$1" ]; then
		fail "'mdprofile $LAST' exited $RC, expected $1"
		sed 's/^/    stderr: /' "$W/err" >&2
	fi
}

# The calls since the last check, exactly (stdin), then the log is emptied.
expect_calls() {
	log=$ROOT/var/log/fake-services.log
	cat >"$W/want"
	if ! cmp -s "$W/want" "$log"; then
		fail "after 'mdprofile $LAST' the service calls differ (-expected +actual):"
		diff -u "$W/want" "$log" | tail -n +3 | sed 's/^/    /' >&2
	fi
	: >"$log"
}

# expect_states NAME=STATE...
expect_states() {
	for pair; do
		got=$(cat "$ROOT/var/lib/fake-services/${pair%%=*}" 2>/dev/null || echo missing)
		[ "$got" = "${pair#*=}" ] || fail "service ${pair%%=*} is $got, expected ${pair#*=}"
	done
}

expect_err_has() {
	grep -qF -- "$1" "$W/err" || {
		fail "stderr of 'mdprofile $LAST' lacks: $1"
		sed 's/^/    stderr: /' "$W/err" >&2
	}
}

# Nothing left: no journal, the speed limits as they were.
expect_baseline() {
	[ ! -e "$ROOT/run/mdprofile/journal" ] || fail "a journal is left"
	if ! cmp -s "$W/min.orig" "$ROOT/proc/sys/dev/raid/speed_limit_min" ||
		! cmp -s "$W/max.orig" "$ROOT/proc/sys/dev/raid/speed_limit_max"; then
		fail "speed limits not back to the baseline"
	fi
}

# Running: not gone, and not a zombie waiting for a slow init to reap it.
running() {
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

expect_gone() {
	for pid; do
		i=0
		while running "$pid"; do
			i=$((i + 1))
			[ $i -lt 50 ] || {
				fail "process $pid still runs"
				break
			}
			sleep 0.1
		done
	done
}

# ---- cases -------------------------------------------------------------

case_apply_revert_dsm6() {
	begin dsm6 synoindexd=running synomkthumbd=running pkgctl-FileStation=stopped
	profile a synoindexd synomkthumbd pkg:FileStation '?nosuchd'
	mdp apply a
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status synoindexd
		synoservice --status synomkthumbd
		synoservice --status pkgctl-FileStation
		synoservice --status nosuchd
		synoservice --pause-by-reason synoindexd mdprofile
		synoservice --status synoindexd
		synoservice --pause-by-reason synomkthumbd mdprofile
		synoservice --status synomkthumbd
	EOF
	expect_states synoindexd=paused synomkthumbd=paused pkgctl-FileStation=stopped
	# status names what the active profile paused, and only that
	mdp status
	expect_rc 0
	grep -qx "paused services: synoindexd, synomkthumbd" "$W/out" || fail "status: $(cat "$W/out")"
	mdp --json status
	# shellcheck disable=SC2015 # fail unless both match
	grep -qF '"active_profile": "a", ' "$W/out" &&
		grep -qF '"paused_services": ["synoindexd", "synomkthumbd"]' "$W/out" ||
		fail "status --json: $(cat "$W/out")"
	expect_calls </dev/null
	# Again: what is paused stays so; the others are looked at again (the
	# user may have started File Station since).
	mdp apply a
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status pkgctl-FileStation
		synoservice --status nosuchd
	EOF
	# the user had stopped File Station: revert must not start it
	mdp revert
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status synomkthumbd
		synoservice --resume-by-reason synomkthumbd mdprofile
		synoservice --status synomkthumbd
		synoservice --status synoindexd
		synoservice --resume-by-reason synoindexd mdprofile
		synoservice --status synoindexd
	EOF
	expect_states synoindexd=running synomkthumbd=running pkgctl-FileStation=stopped
	expect_baseline
}

case_apply_revert_dsm7() {
	begin dsm7 synoindexd=running pkg:SynologyPhotos=running pkg-FileStation-thumbd=stopped
	profile a synoindexd pkg:SynologyPhotos pkg-FileStation-thumbd
	mdp apply a
	expect_rc 0
	expect_calls <<-EOF
		synosystemctl get-active-status synoindexd
		synopkg status SynologyPhotos
		synosystemctl get-active-status pkg-FileStation-thumbd
		synosystemctl get-load-status pkg-FileStation-thumbd
		synosystemctl stop-service-by-reason mdprofile synoindexd
		synosystemctl get-active-status synoindexd
		synosystemctl get-load-status synoindexd
		synopkg stop SynologyPhotos
		synopkg status SynologyPhotos
	EOF
	expect_states synoindexd=stopped SynologyPhotos=stopped pkg-FileStation-thumbd=stopped
	mdp revert
	expect_rc 0
	expect_calls <<-EOF
		synopkg status SynologyPhotos
		synopkg start SynologyPhotos
		synopkg status SynologyPhotos
		synosystemctl get-active-status synoindexd
		synosystemctl get-load-status synoindexd
		synosystemctl start-service-by-reason mdprofile synoindexd
		synosystemctl get-active-status synoindexd
	EOF
	expect_states synoindexd=running SynologyPhotos=running pkg-FileStation-thumbd=stopped
	expect_baseline
}

case_apply_revert_systemd() {
	begin systemd smbd.service=running nfs-server.service=stopped
	profile a smbd.service nfs-server.service '?nosuch.service'
	mdp apply a
	expect_rc 0
	expect_calls <<-EOF
		systemctl is-active smbd.service
		systemctl is-active nfs-server.service
		systemctl show -p LoadState nfs-server.service
		systemctl is-active nosuch.service
		systemctl show -p LoadState nosuch.service
		systemctl stop smbd.service
		systemctl is-active smbd.service
		systemctl show -p LoadState smbd.service
	EOF
	mdp revert
	expect_rc 0
	expect_calls <<-EOF
		systemctl is-active smbd.service
		systemctl show -p LoadState smbd.service
		systemctl start smbd.service
		systemctl is-active smbd.service
	EOF
	expect_states smbd.service=running nfs-server.service=stopped
	expect_baseline
}

# A service the profile requires but the system lacks: nothing is touched.
case_missing_required() {
	begin dsm6 a=running
	profile a a nosuchd
	mdp apply a
	expect_rc 2
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status nosuchd
	EOF
	expect_err_has "service 'nosuchd' does not exist"
	expect_states a=running
	expect_baseline
}

# The failed step is undone too: a stop that failed or was killed midway
# may have half-stopped the service (it was running before, so starting it
# again is right either way).
case_pause_fails_midway() {
	begin dsm6 a=running b=running c=running
	touch "$ROOT/var/lib/fake-services/b.fail-pause"
	profile a a b c
	mdp apply a
	expect_rc 3
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status b
		synoservice --status c
		synoservice --pause-by-reason a mdprofile
		synoservice --status a
		synoservice --pause-by-reason b mdprofile
		synoservice --resume-by-reason b mdprofile
		synoservice --status b
		synoservice --resume-by-reason a mdprofile
		synoservice --status a
	EOF
	expect_err_has "service b: 'synoservice --pause-by-reason b mdprofile' failed (exit code 1): Failed to pause service [b]"
	expect_states a=running b=running c=running
	expect_baseline
}

case_pause_hangs() {
	begin dsm7 a=running b=running
	touch "$ROOT/var/lib/fake-services/b.hang"
	profile a a b
	mdp --service-timeout 1 apply a
	expect_rc 3
	expect_calls <<-EOF
		synosystemctl get-active-status a
		synosystemctl get-active-status b
		synosystemctl stop-service-by-reason mdprofile a
		synosystemctl get-active-status a
		synosystemctl get-load-status a
		synosystemctl stop-service-by-reason mdprofile b
		synosystemctl start-service-by-reason mdprofile b
		synosystemctl get-active-status b
		synosystemctl start-service-by-reason mdprofile a
		synosystemctl get-active-status a
	EOF
	expect_err_has "service b: 'synosystemctl stop-service-by-reason mdprofile b' timed out after 1 s, killed"
	# shellcheck disable=SC2046
	expect_gone $(cat "$ROOT/var/lib/fake-services/b.hang.pids")
	expect_states a=running b=running
	expect_baseline
}

# A -> B replacing the base: B's new services paused, A's that B does not list resumed.
case_switch() {
	begin dsm6 x=running y=running z=running
	profile a x y
	profile b y z
	mdp apply a
	expect_rc 0
	: >"$ROOT/var/log/fake-services.log"
	mdp apply --base b
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status z
		synoservice --pause-by-reason z mdprofile
		synoservice --status z
		synoservice --resume-by-reason x mdprofile
		synoservice --status x
	EOF
	expect_states x=running y=paused z=paused
	mdp revert
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status z
		synoservice --resume-by-reason z mdprofile
		synoservice --status z
		synoservice --status y
		synoservice --resume-by-reason y mdprofile
		synoservice --status y
	EOF
	expect_states x=running y=running z=running
	expect_baseline
}

# B as an overlay on A: B's new services paused, A's kept paused under it;
# revert resumes only the overlay's, a second revert the base's.
case_overlay() {
	begin dsm6 x=running y=running z=running
	profile a x y
	profile b y z
	mdp apply a
	expect_rc 0
	: >"$ROOT/var/log/fake-services.log"
	mdp apply b
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status z
		synoservice --pause-by-reason z mdprofile
		synoservice --status z
	EOF
	expect_states x=paused y=paused z=paused
	: >"$ROOT/var/log/fake-services.log"
	mdp revert
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status z
		synoservice --resume-by-reason z mdprofile
		synoservice --status z
	EOF
	expect_states x=paused y=paused z=running
	mdp revert
	expect_rc 0
	expect_states x=running y=running z=running
	expect_baseline
}

case_resume_fails_on_revert() {
	begin dsm6 a=running b=running
	profile a a b
	mdp apply a
	expect_rc 0
	: >"$ROOT/var/log/fake-services.log"
	touch "$ROOT/var/lib/fake-services/a.fail-resume"
	mdp revert
	expect_rc 4
	expect_calls <<-EOF
		synoservice --status b
		synoservice --resume-by-reason b mdprofile
		synoservice --status b
		synoservice --status a
		synoservice --resume-by-reason a mdprofile
	EOF
	expect_err_has "service a is still paused"
	expect_err_has "  synoservice --resume-by-reason a mdprofile"
	rm "$ROOT/var/lib/fake-services/a.fail-resume"
	mdp revert
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status a
		synoservice --resume-by-reason a mdprofile
		synoservice --status a
	EOF
	expect_states a=running b=running
	expect_baseline
}

# Crash after the K-th tunable write of apply (before any pause), recover.
crash_after_write() {
	begin dsm6 a=running b=running
	profile a a b
	MDPROFILE_FAULT=crash-after-write:$1 mdp apply a
	expect_rc 137
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status b
	EOF
	expect_states a=running b=running
	mdp recover
	expect_rc 0
	# The journal names every service apply meant to pause; recover looks
	# first and resumes only what is not running.
	expect_calls <<-EOF
		synoservice --status b
		synoservice --status a
	EOF
	expect_states a=running b=running
	expect_baseline
}

case_crash_after_write_1() { crash_after_write 1; }
case_crash_after_write_2() { crash_after_write 2; }

# Crash while the N-th pause runs (SIGKILL of mdprofile), then recover.
crash_in_pause() {
	begin dsm6 a=running b=running
	hung=$1
	touch "$ROOT/var/lib/fake-services/$hung.hang"
	profile a a b
	LAST="apply a (killed)"
	"$BIN" --root "$ROOT" --profiles "$P" apply a >"$W/out" 2>"$W/err" &
	pid=$!
	i=0
	while [ ! -s "$ROOT/var/lib/fake-services/$hung.hang.pids" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	# shellcheck disable=SC2046
	kill -9 $(cat "$ROOT/var/lib/fake-services/$hung.hang.pids") 2>/dev/null
	rm -f "$ROOT/var/lib/fake-services/$hung.hang"
	expect_calls <"$TOP/$CASE.before"
	mdp recover
	expect_rc 0
	expect_calls <"$TOP/$CASE.after"
	expect_states a=running b=running
	expect_baseline
}

# The killed pause never changed its service: recover leaves it alone and
# resumes only what was really paused.
case_crash_in_pause_1() {
	cat >"$TOP/$CASE.before" <<-EOF
		synoservice --status a
		synoservice --status b
		synoservice --pause-by-reason a mdprofile
	EOF
	cat >"$TOP/$CASE.after" <<-EOF
		synoservice --status b
		synoservice --status a
	EOF
	crash_in_pause a
}

case_crash_in_pause_2() {
	cat >"$TOP/$CASE.before" <<-EOF
		synoservice --status a
		synoservice --status b
		synoservice --pause-by-reason a mdprofile
		synoservice --status a
		synoservice --pause-by-reason b mdprofile
	EOF
	cat >"$TOP/$CASE.after" <<-EOF
		synoservice --status b
		synoservice --status a
		synoservice --resume-by-reason a mdprofile
		synoservice --status a
	EOF
	crash_in_pause b
}

case_crash_in_revert() {
	begin dsm6 a=running b=running
	profile a a b
	mdp apply a
	expect_rc 0
	: >"$ROOT/var/log/fake-services.log"
	MDPROFILE_FAULT=crash-after-write:1 mdp revert
	expect_rc 137
	expect_calls </dev/null
	expect_states a=paused b=paused
	mdp recover
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status b
		synoservice --resume-by-reason b mdprofile
		synoservice --status b
		synoservice --status a
		synoservice --resume-by-reason a mdprofile
		synoservice --status a
	EOF
	expect_states a=running b=running
	expect_baseline
}

# A journal from an earlier boot: the reboot brought the services back.
case_stale_journal() {
	begin dsm6 a=running b=running
	profile a a b
	mdp apply a
	expect_rc 0
	: >"$ROOT/var/log/fake-services.log"
	echo 00000000-0000-4000-8000-000000000000 >"$ROOT/proc/sys/kernel/random/boot_id"
	mdp recover
	expect_rc 0
	expect_calls </dev/null
	[ ! -e "$ROOT/run/mdprofile/journal" ] || fail "the stale journal is left"
}

# ---- DSM's own reasons, versions and timing (issue 12) ----------------------

expect_out_has() {
	grep -qF -- "$1" "$W/out" || {
		fail "stdout of 'mdprofile $LAST' lacks: $1"
		sed 's/^/    stdout: /' "$W/out" >&2
	}
}

# DSM stops a service mdprofile paused for a reason of its own (no volume):
# revert releases mdprofile's reason only and leaves the service stopped.
held_after_revert() {
	kind=$1
	begin "$kind" a=running b=running
	profile a a b
	mdp apply a
	expect_rc 0
	printf 'no-volume\n' >>"$ROOT/var/lib/fake-services/a.reasons"
	: >"$ROOT/var/log/fake-services.log"
	if [ "$kind" = dsm6 ]; then
		mdp revert
		expect_rc 0
		expect_out_has "service a: released mdprofile's pause, but DSM keeps it stopped for a reason of its own; left stopped"
		expect_out_has "service b: resumed"
	else
		mdp --json revert
		expect_rc 0
		expect_out_has '{"name": "a", "action": "resume", "result": "held"}'
		expect_out_has '{"name": "b", "action": "resume", "result": "done"}'
	fi
	[ "$(cat "$ROOT/var/lib/fake-services/a.reasons")" = no-volume ] ||
		fail "a's reasons are not just no-volume"
	grep -q "^synoservice --resume a$\|^synosystemctl start a$" "$ROOT/var/log/fake-services.log" &&
		fail "a plain resume was used"
	expect_baseline
}

case_held_after_revert_dsm6() {
	held_after_revert dsm6
	expect_states a=paused b=running
}

case_held_after_revert_dsm7() {
	held_after_revert dsm7
	expect_states a=stopped b=running
}

# A service DSM had stopped for its own reason is not running: never touched.
case_dsm_stopped_left_alone() {
	begin dsm7 a=stopped:ha-passive
	profile a a
	mdp apply a
	expect_rc 0
	expect_calls <<-EOF
		synosystemctl get-active-status a
		synosystemctl get-load-status a
	EOF
	expect_states a=stopped
	mdp revert
	expect_rc 0
	expect_calls </dev/null
}

# A DSM without the by-reason verbs: the plain ones, and one note saying so.
case_plain_verbs() {
	begin dsm6 a=running b=running
	: >"$ROOT/var/lib/fake-services/.no-reason-verbs"
	profile a a b
	mdp apply a
	expect_rc 0
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status b
		synoservice --pause-by-reason a mdprofile
		synoservice --pause a
		synoservice --status a
		synoservice --pause b
		synoservice --status b
	EOF
	[ "$(grep -c 'no pause/resume by reason' "$W/out")" = 1 ] ||
		fail "the plain-verbs note is not said exactly once"
	mdp --json revert
	expect_rc 0
	grep -qF '"this DSM'"'"'s service tool has no pause/resume by reason' "$W/out" ||
		fail "the JSON notes lack the plain-verbs note"
	expect_states a=running b=running
	expect_baseline
}

# synopkg of DSM VERSION: pause, skip what is stopped or not installed, revert.
synopkg_generation() {
	W=$TOP/$CASE
	mkdir -p "$W/root/etc.defaults"
	cp -a "$SRC/tests/fixtures/ds220j-dsm7/." "$W/root/"
	printf '%s\n' "$1" >"$W/root/etc.defaults/VERSION"
	ROOT=$W/root
	P=$W/profiles
	mkdir -p "$P"
	sh "$SRC/tests/fakes/install.sh" "$ROOT" dsm7 pkg:Run=running pkg:Off=stopped ||
		fail "install.sh failed"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_min" "$W/min.orig"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_max" "$W/max.orig"
	profile a pkg:Run pkg:Off '?pkg:Gone'
	mdp --json apply a
	expect_rc 0
	expect_calls <<-EOF
		synopkg status Run
		synopkg status Off
		synopkg status Gone
		synopkg stop Run
		synopkg status Run
	EOF
	for want in '"name": "pkg:Run", "action": "pause", "result": "done"' \
		'"name": "pkg:Off", "action": "pause", "result": "not-running"' \
		'"name": "pkg:Gone", "action": "pause", "result": "not-found"'; do
		grep -qF "$want" "$W/out" || fail "apply --json lacks $want"
	done
	mdp revert
	expect_rc 0
	expect_states Run=running Off=stopped
	expect_baseline
}

case_synopkg_dsm70() { synopkg_generation 'majorversion="7"
minorversion="0"'; }
case_synopkg_dsm71() { synopkg_generation 'majorversion="7"
minorversion="1"'; }
case_synopkg_dsm72() { synopkg_generation 'majorversion="7"
minorversion="2"'; }

case_synopkg_broken() {
	begin dsm7 pkg:Bad=broken a=running
	profile a a pkg:Bad
	mdp apply a
	expect_rc 3
	expect_err_has "service pkg:Bad: 'synopkg status Bad' says the package is broken"
	expect_states a=running Bad=broken
	expect_baseline
}

# Docker-like: the stop returns at once, the package shows "stopping" a while.
case_slow_stop_polled() {
	begin dsm7 pkg:Docker=running
	echo 2 >"$ROOT/var/lib/fake-services/Docker.settle"
	profile a pkg:Docker
	mdp apply a
	expect_rc 0
	expect_states Docker=stopped
	n=$(grep -c '^synopkg status Docker$' "$ROOT/var/log/fake-services.log")
	[ "$n" -ge 3 ] || fail "the stopping package was polled $n times"
	[ "$(tail -n 1 "$ROOT/var/log/fake-services.log")" = "synopkg status Docker" ] ||
		fail "something ran after the last poll"
	mdp revert
	expect_rc 0
	expect_states Docker=running
	expect_baseline
}

# The stop says it worked, the service runs on: the step fails, all rolled back.
case_stop_does_not_stop() {
	begin systemd a.service=running b.service=running
	: >"$ROOT/var/lib/fake-services/b.service.stuck"
	profile a a.service b.service
	mdp --service-timeout 1 apply a
	expect_rc 3
	expect_err_has "service b.service: the stop reported success but the service is running after 1 s"
	expect_err_has "apply failed; every change was rolled back"
	expect_states a.service=running b.service=running
	expect_baseline
}

# Packages have their own limit: a unit's does not cut a package's wait short.
case_package_timeout() {
	begin dsm7 pkg:Docker=running a=running
	echo 3 >"$ROOT/var/lib/fake-services/Docker.settle"
	: >"$ROOT/var/lib/fake-services/a.stuck"
	profile a pkg:Docker a
	# Too short: the stop fails, and so does the start that undoes it.
	mdp --service-timeout 1 --package-timeout 1 apply a
	expect_rc 4
	expect_err_has "service pkg:Docker: the stop reported success but the service is stopping after 1 s"
	expect_err_has "service pkg:Docker: the start reported success but the service is starting after 1 s"
	expect_err_has "  synopkg start Docker"
	mdp --package-timeout 10 recover
	expect_rc 0
	expect_states Docker=running
	mdp --service-timeout 1 --package-timeout 10 apply a
	expect_rc 3
	expect_err_has "service a: the stop reported success but the service is running after 1 s"
	grep -q "^synopkg stop Docker$" "$ROOT/var/log/fake-services.log" || fail "Docker was not stopped"
	expect_states Docker=running a=running
	expect_baseline
}

# only_on: an entry for another service manager is skipped, never asked about.
case_only_on() {
	begin dsm7 synoindexd=running pkg:FileStation=running pkgctl-FileStation=running
	{
		echo "services:"
		echo "  pause:"
		echo "    - {name: synoindexd, only_on: [dsm6, dsm7]}"
		echo "    - {name: pkgctl-FileStation, only_on: [dsm6]}"
		echo "    - {name: smbd.service, only_on: [systemd]}"
	} >"$P/a.yaml"
	mdp --json apply a
	expect_rc 0
	expect_calls <<-EOF
		synosystemctl get-active-status synoindexd
		synosystemctl stop-service-by-reason mdprofile synoindexd
		synosystemctl get-active-status synoindexd
		synosystemctl get-load-status synoindexd
	EOF
	expect_out_has '{"name": "pkgctl-FileStation", "action": "pause", "result": "other-platform"}'
	expect_out_has '{"name": "smbd.service", "action": "pause", "result": "other-platform"}'
	expect_states pkgctl-FileStation=running
	mdp revert
	expect_rc 0
	expect_states synoindexd=running
	printf 'services:\n  pause:\n    - {name: a, only_on: [dsm8]}\n    - {name: b, only_on: []}\n' >"$P/bad.yaml"
	mdp check bad
	expect_rc 2
	expect_err_has "bad.yaml:3:27: only_on 'dsm8' is not a platform: expected dsm6, dsm7 or systemd"
	expect_err_has "bad.yaml:4:26: empty 'only_on' list: remove it (the entry applies everywhere) or name platforms"
}

# A DSM box whose service tool is gone: a system failure, nothing touched.
case_missing_tool() {
	begin dsm6 a=running
	rm "$ROOT/usr/syno/sbin/synoservice"
	profile a a
	mdp apply a
	expect_rc 3
	expect_err_has "service a: cannot run 'synoservice --status a': synoservice not found in"
	expect_err_has "--services-backend none changes the tunables without pausing services"
	expect_calls </dev/null
	expect_baseline
	mdp --services-backend none apply a
	expect_rc 2
	expect_err_has "cannot pause service 'a': no service manager found"
}

# ---- run -----------------------------------------------------------------

cases=${*:-$(sed -n 's/^case_\([a-z0-9_]*\)() {.*/\1/p' "$0")}
for c in $cases; do
	CASE=$c
	FAILED=0
	"case_$c"
	if [ "$FAILED" = 0 ]; then
		pass=$((pass + 1))
	else
		failed_cases=$((failed_cases + 1))
	fi
done
echo "services: $pass passed, $failed_cases failed"
[ "$failed_cases" -eq 0 ]
