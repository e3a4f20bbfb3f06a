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
MDP=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BINDIR=$(dirname "$MDP")
shift
TOP=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$TOP"' EXIT
unset MDPROFILE_ROOT MDPROFILE_FAULT
# The tools tests/deps.sh installs come first: Debian's python3 (with python3-yaml), not a
# version manager's shim earlier in PATH (pyenv's costs 0.3 s a call).
PATH=/usr/bin:/bin:$PATH
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1

pass=0
failed_cases=0
FAILED=0
CASE=services
WORK=$TOP
# One assertion vocabulary: run, expect_exit, stderr_has, expect_calls... are lib.sh's.
# shellcheck source=tests/cli/lib.sh
. "$SRC/tests/cli/lib.sh"

# begin KIND SEEDS...: a fresh root for $CASE with the fakes of KIND.
begin() {
	kind=$1
	shift
	W=$TOP/$CASE
	WORK=$W
	ROOT=$W/root
	P=$W/profiles
	mkdir -p "$P"
	case $kind in
	dsm6) fx=ds-dsm6-reshape ;;
	dsm7) fx=ds220j-dsm7 ;;
	systemd) fx=server-raid6-raid10 ;;
	esac
	cp -a "$SRC/tests/fixtures/$fx" "$ROOT"
	sh "$SRC/tests/fakes/install.sh" "$ROOT" "$kind" "$@" || _fail "install.sh failed"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_min" "$W/min.orig"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_max" "$W/max.orig"
}

# begin_ab: DSM 6, services a and b running, profile a pausing both.
begin_ab() {
	begin dsm6 a=running b=running
	profile a a b
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

# mdp ARGS: lib.sh's run with this case's profiles (the suite runs without set -e).
mdp() {
	run --profiles "$P" "$@"
	set +e
}

# dsm6_paused SVC...: the calls that pause each SVC on DSM 6 (the pause, a look).
dsm6_paused() {
	for s; do
		printf 'synoservice --pause-by-reason %s mdprofile\nsynoservice --status %s\n' "$s" "$s"
	done
}

# dsm6_resumed SVC...: the calls that resume each SVC on DSM 6 (a look, the resume, a look).
dsm6_resumed() {
	for s; do
		printf 'synoservice --status %s\nsynoservice --resume-by-reason %s mdprofile\nsynoservice --status %s\n' "$s" "$s" "$s"
	done
}

# a and b running again, and nothing left.
expect_ab_back() {
	expect_states a=running b=running
	expect_baseline
}

# Nothing left: no journal, the speed limits as they were.
expect_baseline() {
	[ ! -e "$ROOT/run/mdprofile/journal" ] || _fail "a journal is left"
	if ! cmp -s "$W/min.orig" "$ROOT/proc/sys/dev/raid/speed_limit_min" ||
		! cmp -s "$W/max.orig" "$ROOT/proc/sys/dev/raid/speed_limit_max"; then
		_fail "speed limits not back to the baseline"
	fi
}

# ---- cases -------------------------------------------------------------

case_apply_revert_dsm6() {
	begin dsm6 synoindexd=running synomkthumbd=running pkgctl-FileStation=stopped
	profile a synoindexd synomkthumbd pkg:FileStation '?nosuchd'
	mdp apply a
	expect_exit 0
	expect_calls <<-EOF
		synoservice --status synoindexd
		synoservice --status synomkthumbd
		synoservice --status pkgctl-FileStation
		synoservice --status nosuchd
		$(dsm6_paused synoindexd synomkthumbd)
	EOF
	expect_states synoindexd=paused synomkthumbd=paused pkgctl-FileStation=stopped
	# status names what the active profile paused, and only that
	mdp status
	expect_exit 0
	stdout_line "paused services: synoindexd, synomkthumbd"
	mdp --json status
	expect_exit 0
	json_field .active_profile '"a"'
	json_field .paused_services '["synoindexd","synomkthumbd"]'
	expect_calls </dev/null
	# Again: what is paused stays so; the others are looked at again (the
	# user may have started File Station since).
	mdp apply a
	expect_exit 0
	expect_calls <<-EOF
		synoservice --status pkgctl-FileStation
		synoservice --status nosuchd
	EOF
	# the user had stopped File Station: revert must not start it
	mdp revert
	expect_exit 0
	expect_calls <<-EOF
		$(dsm6_resumed synomkthumbd synoindexd)
	EOF
	expect_states synoindexd=running synomkthumbd=running pkgctl-FileStation=stopped
	expect_baseline
}

case_apply_revert_dsm7() {
	begin dsm7 synoindexd=running pkg:SynologyPhotos=running pkg-FileStation-thumbd=stopped
	profile a synoindexd pkg:SynologyPhotos pkg-FileStation-thumbd
	mdp apply a
	expect_exit 0
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
	expect_exit 0
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
	expect_exit 0
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
	expect_exit 0
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
	expect_exit 2
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status nosuchd
	EOF
	stderr_has "service 'nosuchd' does not exist"
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
	expect_exit 3
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status b
		synoservice --status c
		$(dsm6_paused a)
		synoservice --pause-by-reason b mdprofile
		synoservice --resume-by-reason b mdprofile
		synoservice --status b
		synoservice --resume-by-reason a mdprofile
		synoservice --status a
	EOF
	stderr_has "service b: 'synoservice --pause-by-reason b mdprofile' failed (exit code 1): Failed to pause service [b]"
	expect_states a=running b=running c=running
	expect_baseline
}

case_pause_hangs() {
	begin dsm7 a=running b=running
	touch "$ROOT/var/lib/fake-services/b.hang"
	profile a a b
	mdp --service-timeout 1 apply a
	expect_exit 3
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
	stderr_has "service b: 'synosystemctl stop-service-by-reason mdprofile b' timed out after 1 s, killed"
	# shellcheck disable=SC2046
	expect_gone $(cat "$ROOT/var/lib/fake-services/b.hang.pids")
	expect_ab_back
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

# A -> B replacing the base: B's new services paused, A's that B does not list resumed.
case_switch() {
	begin_a_applied
	mdp apply --base b
	expect_exit 0
	expect_calls <<-EOF
		synoservice --status z
		$(dsm6_paused z)
		synoservice --resume-by-reason x mdprofile
		synoservice --status x
	EOF
	expect_states x=running y=paused z=paused
	mdp revert
	expect_exit 0
	expect_calls <<-EOF
		$(dsm6_resumed z y)
	EOF
	expect_states x=running y=running z=running
	expect_baseline
}

# B as an overlay on A: B's new services paused, A's kept paused under it;
# revert resumes only the overlay's, a second revert the base's.
case_overlay() {
	begin_a_applied
	mdp apply b
	expect_exit 0
	expect_calls <<-EOF
		synoservice --status z
		$(dsm6_paused z)
	EOF
	expect_states x=paused y=paused z=paused
	: >"$ROOT/var/log/fake-services.log"
	mdp revert
	expect_exit 0
	expect_calls <<-EOF
		$(dsm6_resumed z)
	EOF
	expect_states x=paused y=paused z=running
	mdp revert
	expect_exit 0
	expect_states x=running y=running z=running
	expect_baseline
}

case_resume_fails_on_revert() {
	begin_ab
	mdp apply a
	expect_exit 0
	: >"$ROOT/var/log/fake-services.log"
	touch "$ROOT/var/lib/fake-services/a.fail-resume"
	mdp revert
	expect_exit 4
	expect_calls <<-EOF
		$(dsm6_resumed b)
		synoservice --status a
		synoservice --resume-by-reason a mdprofile
	EOF
	stderr_has "service a is still paused"
	stderr_has "  synoservice --resume-by-reason a mdprofile"
	rm "$ROOT/var/lib/fake-services/a.fail-resume"
	mdp revert
	expect_exit 0
	expect_calls <<-EOF
		$(dsm6_resumed a)
	EOF
	expect_ab_back
}

# Crash after the K-th tunable write of apply (before any pause), recover.
crash_after_write() {
	begin_ab
	MDPROFILE_FAULT=crash-after-write:$1 mdp apply a
	expect_exit 137
	expect_calls <<-EOF
		synoservice --status a
		synoservice --status b
	EOF
	expect_states a=running b=running
	mdp recover
	expect_exit 0
	# The journal names every service apply meant to pause; recover looks
	# first and resumes only what is not running.
	expect_calls <<-EOF
		synoservice --status b
		synoservice --status a
	EOF
	expect_ab_back
}

case_crash_after_write_1() { crash_after_write 1; }
case_crash_after_write_2() { crash_after_write 2; }

# Crash while the N-th pause runs (SIGKILL of mdprofile), then recover.
crash_in_pause() {
	begin dsm6 a=running b=running
	hung=$1
	touch "$ROOT/var/lib/fake-services/$hung.hang"
	profile a a b
	run_bg --profiles "$P" apply a
	LAST="apply a (killed)"
	# shellcheck disable=SC2016 # wait_until evaluates it
	wait_until 100 0.1 '[ -s "$ROOT/var/lib/fake-services/$hung.hang.pids" ]' || true
	kill -9 "$BGPID"
	wait "$BGPID" 2>/dev/null
	# shellcheck disable=SC2046
	kill -9 $(cat "$ROOT/var/lib/fake-services/$hung.hang.pids") 2>/dev/null
	rm -f "$ROOT/var/lib/fake-services/$hung.hang"
	expect_calls <"$TOP/$CASE.before"
	mdp recover
	expect_exit 0
	expect_calls <"$TOP/$CASE.after"
	expect_ab_back
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
		$(dsm6_paused a)
		synoservice --pause-by-reason b mdprofile
	EOF
	cat >"$TOP/$CASE.after" <<-EOF
		synoservice --status b
		$(dsm6_resumed a)
	EOF
	crash_in_pause b
}

case_crash_in_revert() {
	begin_ab
	mdp apply a
	expect_exit 0
	: >"$ROOT/var/log/fake-services.log"
	MDPROFILE_FAULT=crash-after-write:1 mdp revert
	expect_exit 137
	expect_calls </dev/null
	expect_states a=paused b=paused
	mdp recover
	expect_exit 0
	expect_calls <<-EOF
		$(dsm6_resumed b a)
	EOF
	expect_ab_back
}

# A journal from an earlier boot: the reboot brought the services back.
case_stale_journal() {
	begin_ab
	mdp apply a
	expect_exit 0
	: >"$ROOT/var/log/fake-services.log"
	echo 00000000-0000-4000-8000-000000000000 >"$ROOT/proc/sys/kernel/random/boot_id"
	mdp recover
	expect_exit 0
	expect_calls </dev/null
	[ ! -e "$ROOT/run/mdprofile/journal" ] || _fail "the stale journal is left"
}

# ---- DSM's own reasons, versions and timing (issue 12) ----------------------


# DSM stops a service mdprofile paused for a reason of its own (no volume):
# revert releases mdprofile's reason only and leaves the service stopped.
held_after_revert() {
	kind=$1
	begin "$kind" a=running b=running
	profile a a b
	mdp apply a
	expect_exit 0
	printf 'no-volume\n' >>"$ROOT/var/lib/fake-services/a.reasons"
	: >"$ROOT/var/log/fake-services.log"
	if [ "$kind" = dsm6 ]; then
		mdp revert
		expect_exit 0
		stdout_has "service a: released mdprofile's pause, but DSM keeps it stopped for a reason of its own; left stopped"
		stdout_has "service b: resumed"
	else
		mdp --json revert
		expect_exit 0
		stdout_has '{"name": "a", "action": "resume", "result": "held"}'
		stdout_has '{"name": "b", "action": "resume", "result": "done"}'
	fi
	[ "$(cat "$ROOT/var/lib/fake-services/a.reasons")" = no-volume ] ||
		_fail "a's reasons are not just no-volume"
	grep -q "^synoservice --resume a$\|^synosystemctl start a$" "$ROOT/var/log/fake-services.log" &&
		_fail "a plain resume was used"
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
	expect_exit 0
	expect_calls <<-EOF
		synosystemctl get-active-status a
		synosystemctl get-load-status a
	EOF
	expect_states a=stopped
	mdp revert
	expect_exit 0
	expect_calls </dev/null
}

# A DSM without the by-reason verbs: the plain ones, and one note saying so.
case_plain_verbs() {
	begin dsm6 a=running b=running
	: >"$ROOT/var/lib/fake-services/.no-reason-verbs"
	profile a a b
	mdp apply a
	expect_exit 0
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
		_fail "the plain-verbs note is not said exactly once"
	mdp --json revert
	expect_exit 0
	grep -qF '"this DSM'"'"'s service tool has no pause/resume by reason' "$W/out" ||
		_fail "the JSON notes lack the plain-verbs note"
	expect_ab_back
}

# synopkg of DSM VERSION: pause, skip what is stopped or not installed, revert.
synopkg_generation() {
	W=$TOP/$CASE
	WORK=$W
	mkdir -p "$W/root/etc.defaults"
	cp -a "$SRC/tests/fixtures/ds220j-dsm7/." "$W/root/"
	printf '%s\n' "$1" >"$W/root/etc.defaults/VERSION"
	ROOT=$W/root
	P=$W/profiles
	mkdir -p "$P"
	sh "$SRC/tests/fakes/install.sh" "$ROOT" dsm7 pkg:Run=running pkg:Off=stopped ||
		_fail "install.sh failed"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_min" "$W/min.orig"
	cp "$ROOT/proc/sys/dev/raid/speed_limit_max" "$W/max.orig"
	profile a pkg:Run pkg:Off '?pkg:Gone'
	mdp --json apply a
	expect_exit 0
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
		grep -qF "$want" "$W/out" || _fail "apply --json lacks $want"
	done
	mdp revert
	expect_exit 0
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
	expect_exit 3
	stderr_has "service pkg:Bad: 'synopkg status Bad' says the package is broken"
	expect_states a=running Bad=broken
	expect_baseline
}

# Docker-like: the stop returns at once, the package shows "stopping" a while.
case_slow_stop_polled() {
	begin dsm7 pkg:Docker=running
	echo 2 >"$ROOT/var/lib/fake-services/Docker.settle"
	profile a pkg:Docker
	mdp apply a
	expect_exit 0
	expect_states Docker=stopped
	n=$(grep -c '^synopkg status Docker$' "$ROOT/var/log/fake-services.log")
	[ "$n" -ge 3 ] || _fail "the stopping package was polled $n times"
	[ "$(tail -n 1 "$ROOT/var/log/fake-services.log")" = "synopkg status Docker" ] ||
		_fail "something ran after the last poll"
	mdp revert
	expect_exit 0
	expect_states Docker=running
	expect_baseline
}

# The stop says it worked, the service runs on: the step fails, all rolled back.
case_stop_does_not_stop() {
	begin systemd a.service=running b.service=running
	: >"$ROOT/var/lib/fake-services/b.service.stuck"
	profile a a.service b.service
	mdp --service-timeout 1 apply a
	expect_exit 3
	stderr_has "service b.service: the stop reported success but the service is running after 1 s"
	stderr_has "apply failed; every change was rolled back"
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
	expect_exit 4
	stderr_has "service pkg:Docker: the stop reported success but the service is stopping after 1 s"
	stderr_has "service pkg:Docker: the start reported success but the service is starting after 1 s"
	stderr_has "  synopkg start Docker"
	mdp --package-timeout 10 recover
	expect_exit 0
	expect_states Docker=running
	mdp --service-timeout 1 --package-timeout 10 apply a
	expect_exit 3
	stderr_has "service a: the stop reported success but the service is running after 1 s"
	grep -q "^synopkg stop Docker$" "$ROOT/var/log/fake-services.log" || _fail "Docker was not stopped"
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
	expect_exit 0
	expect_calls <<-EOF
		synosystemctl get-active-status synoindexd
		synosystemctl stop-service-by-reason mdprofile synoindexd
		synosystemctl get-active-status synoindexd
		synosystemctl get-load-status synoindexd
	EOF
	stdout_has '{"name": "pkgctl-FileStation", "action": "pause", "result": "other-platform"}'
	stdout_has '{"name": "smbd.service", "action": "pause", "result": "other-platform"}'
	expect_states pkgctl-FileStation=running
	mdp revert
	expect_exit 0
	expect_states synoindexd=running
	printf 'services:\n  pause:\n    - {name: a, only_on: [dsm8]}\n    - {name: b, only_on: []}\n' >"$P/bad.yaml"
	mdp check bad
	expect_exit 2
	stderr_has "bad.yaml:3:27: only_on 'dsm8' is not a platform: expected dsm6, dsm7 or systemd"
	stderr_has "bad.yaml:4:26: empty 'only_on' list: remove it (the entry applies everywhere) or name platforms"
}

# A DSM box whose service tool is gone: a system failure, nothing touched.
case_missing_tool() {
	begin dsm6 a=running
	rm "$ROOT/usr/syno/sbin/synoservice"
	profile a a
	mdp apply a
	expect_exit 3
	stderr_has "service a: cannot run 'synoservice --status a': synoservice not found in"
	stderr_has "--services-backend none changes the tunables without pausing services"
	expect_calls </dev/null
	expect_baseline
	mdp --services-backend none apply a
	expect_exit 2
	stderr_has "cannot pause service 'a': no service manager found"
}

# ---- run -----------------------------------------------------------------

cases=${*:-$(sed -n 's/^case_\([a-z0-9_]*\)() {.*/\1/p' "$0")}
for c in $cases; do
	CASE=$c
	FAILED=0
	"case_$c"
	_exit_checked
	if [ "$FAILED" = 0 ]; then
		pass=$((pass + 1))
	else
		failed_cases=$((failed_cases + 1))
	fi
done
echo "services: $pass passed, $failed_cases failed"
[ "$failed_cases" -eq 0 ]
