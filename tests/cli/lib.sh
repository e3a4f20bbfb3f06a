# shellcheck shell=sh
# CLI test helpers: run the real binary on a copy of a fixture root and
# compare exact stdout, stderr and exit code. Sourced by run.sh per case.
#
#   fixture NAME        copy tests/fixtures/NAME to a fresh $ROOT
#   run ARGS...         mdprofile --root $ROOT ARGS (env passes through)
#   run_noroot ARGS...  mdprofile ARGS (no --root)
#   expect_exit N       every run's exit code must be checked (or exit_checked said)
#   expect_stdout <<EOF ... EOF     exact, after @ROOT@/@BIN@/@SRC@ substitution
#   expect_stderr <<EOF ... EOF
#   expect_json <<EOF ... EOF       stdout is one line of JSON; compared indented
#   snapshot; expect_unchanged      the system files of $ROOT are byte-identical
#   expect_file PATH <<EOF          exact content of $ROOT/PATH
#   fakes KIND NAME=STATE...        install fake service managers into $ROOT
#   kill_when_pausing PID SVC       SIGKILL mdprofile PID once its journal names
#                                   the tool pausing SVC (svc SVC pausing PGID)
set -u

_fail() {
	echo "FAIL $CASE: $*" >&2
	# shellcheck disable=SC2034 # read by run.sh after the case
	FAILED=1
}

fixture() {
	ROOT="$WORK/root"
	rm -rf "$ROOT"
	cp -a "$SRC/tests/fixtures/$1" "$ROOT"
}

# Paths vary per run; show them as placeholders.
_norm() {
	sed -e "s|$ROOT|@ROOT@|g" -e "s|$BINDIR|@BIN@|g" -e "s|$SRC|@SRC@|g" "$1"
}

run() {
	run_noroot --root "$ROOT" "$@"
}

run_noroot() {
	_exit_checked
	LAST="$*"
	UNCHECKED=1
	set +e
	# The subshell waits for mdprofile itself, so a "Killed" notice from a
	# crash test lands in the captured stderr, not on the terminal.
	(
		# MDP_WRAP: a runner such as valgrind (make valgrind).
		cd "$SRC" && ${MDP_WRAP:-} "$MDP" "$@"
		rc=$?
		exit $rc
	) >"$WORK/out" 2>"$WORK/err"
	RC=$?
	set -e
}

# A case that runs mdprofile and never looks at the exit code fails: run.sh calls this after
# the case, run_noroot before the next command. A case that judges $RC itself says so with
# exit_checked.
_exit_checked() {
	[ "${UNCHECKED:-0}" = 0 ] || _fail "the exit code of 'mdprofile $LAST' ($RC) was not checked"
	UNCHECKED=0
}

exit_checked() { UNCHECKED=0; }

expect_exit() {
	UNCHECKED=0
	[ "$RC" = "$1" ] || {
		_fail "'mdprofile $LAST' exited $RC, expected $1"
		sed 's/^/    stderr: /' "$WORK/err" >&2
	}
}

_expect() {
	cat >"$WORK/want"
	_norm "$1" >"$WORK/got"
	if ! cmp -s "$WORK/want" "$WORK/got"; then
		_fail "'mdprofile $LAST' $2 differs (-expected +actual):"
		diff -u "$WORK/want" "$WORK/got" | tail -n +3 | sed 's/^/    /' >&2
	fi
}

expect_stdout() { _expect "$WORK/out" stdout; }

# --json writes one document on one line; the expected text is the same
# document indented by python's json.tool, so a long line reads in review.
expect_json() {
	if [ "$(wc -l <"$WORK/out")" != 1 ]; then
		_fail "'mdprofile $LAST' stdout is not one line of JSON:"
		sed 's/^/    /' "$WORK/out" >&2
		return
	fi
	if ! python3 -m json.tool --indent 1 <"$WORK/out" >"$WORK/out.json" 2>"$WORK/json.err"; then
		_fail "'mdprofile $LAST' stdout is not JSON: $(cat "$WORK/json.err")"
		return
	fi
	_expect "$WORK/out.json" "stdout (JSON)"
}
expect_stderr() { _expect "$WORK/err" stderr; }

expect_file() {
	if [ ! -f "$ROOT/$1" ]; then
		_fail "$1 does not exist"
		return
	fi
	cat >"$WORK/want"
	cmp -s "$WORK/want" "$ROOT/$1" || {
		_fail "$1 differs (-expected +actual):"
		diff -u "$WORK/want" "$ROOT/$1" | tail -n +3 | sed 's/^/    /' >&2
	}
}

# A path that runs the binary under test as a script would call it: through
# MDP_WRAP (qemu-user for a cross binary) when one is set.
wrapped_mdp() {
	if [ -z "${MDP_WRAP:-}" ]; then
		echo "$MDP"
		return
	fi
	printf '#!/bin/sh\nexec %s %s "$@"\n' "$MDP_WRAP" "$MDP" >"$WORK/mdprofile-wrapped"
	chmod 0755 "$WORK/mdprofile-wrapped"
	echo "$WORK/mdprofile-wrapped"
}

# as_nobody: run the binary as an unprivileged user from here on. As root that is nobody
# (through setpriv, and MDP_WRAP keeps wrapping, qemu-user too), with the binary copied into
# a directory nobody can reach ($NB, removed by the caller); as another user, that user.
# Returns 1 when root has no setpriv (the case then has nothing to test).
as_nobody() {
	AS=
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || return 1
		AS="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	fi
	NB=$(mktemp -d)
	chmod 0755 "$NB"
	mkdir "$NB/bin"
	cp "$MDP" "$NB/bin/mdprofile"
	ln -s "$SRC/profiles" "$NB/bin/profiles"
	MDP="$NB/bin/mdprofile"
	MDP_WRAP="$AS ${MDP_WRAP:-}"
}

fakes() {
	sh "$SRC/tests/fakes/install.sh" "$ROOT" "$@" >/dev/null
}

# The lock file is mdprofile's own and the fakes' call log only grows;
# everything else is "system" and must come back byte for byte.
_sys_copy() {
	rm -rf "$2"
	cp -a "$1" "$2"
	rm -f "$2/run/mdprofile/lock" "$2/run/mdprofile/watcher.lock" "$2/var/log/fake-services.log"
	rmdir "$2/run/mdprofile" 2>/dev/null || true
	rmdir "$2/run" 2>/dev/null || true
}

snapshot() {
	_sys_copy "$ROOT" "$WORK/snap"
}

expect_unchanged() {
	_sys_copy "$ROOT" "$WORK/cmp"
	if ! diff -r "$WORK/snap" "$WORK/cmp" >"$WORK/rdiff" 2>&1; then
		_fail "${1:-tree} not byte-identical to the snapshot:"
		sed 's/^/    /' "$WORK/rdiff" | head -20 >&2
	fi
}

# The journal names the pausing tool's process group only once the tool has
# started: between the fork and that write mdprofile has nothing to record.
kill_when_pausing() {
	i=0
	while ! grep -q "^svc $2 pausing " "$ROOT/run/mdprofile/journal" 2>/dev/null &&
		[ $i -lt 200 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	kill -KILL "$1"
	wait "$1" 2>/dev/null || true
}
