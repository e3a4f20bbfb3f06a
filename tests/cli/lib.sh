# shellcheck shell=sh
# CLI test helpers: run the real binary on a copy of a fixture root and
# compare exact stdout, stderr and exit code. Sourced by run.sh per case.
#
# The checks share their names and meanings with the VM guest's (docs/hacking.md, "Test
# checks"): a failed one says so and the case goes on, failing at its end.
#
#   fail MSG            the case fails, MSG on its log (the check of a case's own test)
#   fixture NAME        copy tests/fixtures/NAME to a fresh $ROOT
#   run ARGS...         mdprofile --root $ROOT ARGS (env passes through)
#   run_noroot ARGS...  mdprofile ARGS (no --root)
#   host_md_exit        0, or 3 where this host has no md: what a command that needs md
#                       and would succeed exits on the real root
#   expect_exit N       every run's exit code must be checked (or exit_checked said)
#   expect_stdout NAME  exact, after @ROOT@/@BIN@/@SRC@ substitution, against the file
#                       tests/cli/expected/$CASE/NAME.out (NAME with a '/' is a path below
#                       tests/cli/expected/: a document several cases share lives once)
#   expect_stderr NAME  the same against NAME.err
#   expect_json NAME    stdout is one line of JSON; compared indented, against NAME.json
#   expect_stdout <<EOF ... EOF     the same with the expected text inline (also stderr,
#                                   json); for short or computed text
#   expect_file PATH [NAME]         exact content of $ROOT/PATH (NAME.file, or stdin)
#   expect_no_stdout, expect_no_stderr    nothing at all was written there
#   run_expect RC OUT ERR ARGS...  run ARGS; expect_exit RC; expect_stdout OUT; expect_stderr
#                       ERR (a '-' for OUT or ERR: nothing written there; a '.': that
#                       stream is not compared here)
#   stdout_line TEXT    one line of stdout is exactly TEXT (a case about one line or field)
#   stderr_line TEXT    the same for stderr
#   json_field PATH WANT  the JSON value at PATH ('.a.b[0]', as jq) of stdout, compact, is WANT
#   stdout_has TEXT, stderr_has TEXT    TEXT stands somewhere in stdout/stderr
#   expect_calls NAME   the fake service managers' calls since the last check, exactly,
#                       against NAME.calls (the log is emptied after); expect_calls <<EOF:
#                       inline; expect_calls </dev/null: none
#   expect_states NAME=STATE...     the fake services' states
#   expect_gone PID...  the processes end within 5 s
#   read_only RC CMD... CMD and --json CMD exit RC, print NAME.out and json-NAME.json
#                       (NAME: CMD's first word), nothing on stderr, change nothing
#   run_bg ARGS...      mdprofile --root $ROOT ARGS in the background, output as run's;
#                       its pid in $BGPID (the case waits for it and checks $RC itself)
#   bg_start ARGS...; bg_finish     the same as a detached watcher runs: a subshell reaps it
#                       (bg.out, bg.err, bg.pid, bg.rc in $WORK; $BGSH); bg_finish waits and
#                       leaves RC, out and err as run does, their lines' times taken off
#   unstamp             the times off the lines of out and err (a watcher's log, run in front)
#   wait_until TRIES STEP 'TEST'    eval TEST until true, TRIES times STEP s; 1 if never
#   shipped_list [SOURCE [PATH]]    the shipped profiles as list shows them, from their one
#                       home in the tests, tests/cli/expected/shared/list.out (case 20's);
#                       SOURCE for the source column (built-in, --profiles), PATH for -v's
#                       "  [PATH]", %s there the name; shipped_names: the names alone
#   snapshot; expect_unchanged      the system files of $ROOT are byte-identical
#   revert_unchanged WHAT           revert exits 0 and the tree is the snapshot again
#   dsm_binary; tasks   a binary on a DSM volume ($B); the fake esynoscheduler's tasks
#   fakes KIND NAME=STATE...        install fake service managers into $ROOT (root_tools)
#   root_tools          the programs in $ROOT may run (MDPROFILE_ROOT_EXEC=$ROOT); fixture
#                       forgets it
#   kill_when_pausing PID SVC       SIGKILL mdprofile PID once its journal names
#                                   the tool pausing SVC (svc SVC pausing PGID)
#
# UPDATE=1 sh tests/cli/run.sh BINARY CASE...  writes what the binary printed into the
# expected files the case names (never into inline text) instead of comparing; the exit
# codes are still checked, so a case with a wrong exit code still fails. Review the
# written files with git diff before committing them.
set -u

fail() {
	echo "FAIL $CASE: $*" >&2
	# shellcheck disable=SC2034 # read by run.sh after the case
	FAILED=1
}

fixture() {
	ROOT="$WORK/root"
	rm -rf "$ROOT"
	cp -a "$SRC/tests/fixtures/$1" "$ROOT"
	unset MDPROFILE_ROOT_EXEC
}

# root_tools: the programs in $ROOT may run (MDPROFILE_ROOT_EXEC names it, as it would
# name any tree whose tools are the caller's own); fakes says it, and a case that puts a
# tool there by hand. $ROOT writable by nobody else, whatever the umask (case.sh sees to
# $WORK).
root_tools() {
	chmod go-w "$ROOT"
	MDPROFILE_ROOT_EXEC=$ROOT
	export MDPROFILE_ROOT_EXEC
}

# Paths vary per run; show them as placeholders.
_norm() {
	sed -e "s|$ROOT|@ROOT@|g" -e "s|$BINDIR|@BIN@|g" -e "s|$SRC|@SRC@|g" "$1"
}

run() {
	run_noroot --root "$ROOT" "$@"
}

# The exit code of a command that needs md and would succeed, run on this host's real root
# (run_noroot): 0, or 3 where md is not loaded here (mdprofile(8), EXIT STATUS).
host_md_exit() {
	if [ -e /proc/mdstat ] || [ -e /proc/sys/dev/raid ]; then echo 0; else echo 3; fi
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
	[ "${UNCHECKED:-0}" = 0 ] || fail "the exit code of 'mdprofile $LAST' ($RC) was not checked"
	UNCHECKED=0
}

exit_checked() { UNCHECKED=0; }

expect_exit() {
	UNCHECKED=0
	[ "$RC" = "$1" ] || {
		fail "'mdprofile $LAST' exited $RC, expected $1"
		sed 's/^/    stderr: /' "$WORK/err" >&2
	}
}

EXPECTED="$SRC/tests/cli/expected"

# The shipped profiles: list's columns are the name (17 wide), the source (11) and the
# description.
shipped_list() {
	awk -v src="${1:-shipped}" -v path="${2:-}" '{
		line = substr($0, 1, 17) sprintf("%-11s", src) substr($0, 29)
		if (path != "") {
			p = path
			gsub(/%s/, $1, p)
			line = line "  [" p "]"
		}
		print line
	}' "$EXPECTED/shared/list.out"
}

shipped_names() { cut -d' ' -f1 "$EXPECTED/shared/list.out"; }

# _want NAME EXT: the expected file's path for NAME (see the header).
_want() {
	case $1 in
	*/*) echo "$EXPECTED/$1.$2" ;;
	*) echo "$EXPECTED/$CASE/$1.$2" ;;
	esac
}

# _cmp WANT GOT WHAT: compare byte for byte; UPDATE=1 writes GOT over a WANT file instead.
_cmp() {
	if [ "${UPDATE:-0}" = 1 ] && [ "$1" != "$WORK/want" ]; then
		mkdir -p "$(dirname "$1")"
		cp "$2" "$1"
		return
	fi
	if [ ! -f "$1" ]; then
		fail "$3: no expected file ${1#"$SRC/"} (UPDATE=1 writes it)"
	elif ! cmp -s "$1" "$2"; then
		fail "$3 differs (-expected +actual):"
		diff -u "$1" "$2" | tail -n +3 | sed 's/^/    /' >&2
	fi
}

# _expect FILE WHAT EXT [NAME]: the normalised FILE against NAME.EXT, or stdin without NAME.
_expect() {
	_norm "$1" >"$WORK/got"
	if [ $# -ge 4 ]; then
		_cmp "$(_want "$4" "$3")" "$WORK/got" "'mdprofile $LAST' $2"
	else
		cat >"$WORK/want"
		_cmp "$WORK/want" "$WORK/got" "'mdprofile $LAST' $2"
	fi
}

expect_stdout() { _expect "$WORK/out" stdout out "$@"; }
expect_no_stdout() { _expect "$WORK/out" stdout out </dev/null; }
expect_no_stderr() { _expect "$WORK/err" stderr err </dev/null; }

# --json writes one document on one line; the expected text is the same
# document indented by python's json.tool, so a long line reads in review.
expect_json() {
	if [ "$(wc -l <"$WORK/out")" != 1 ]; then
		fail "'mdprofile $LAST' stdout is not one line of JSON:"
		sed 's/^/    /' "$WORK/out" >&2
		return
	fi
	if ! python3 -m json.tool --indent 1 <"$WORK/out" >"$WORK/out.json" 2>"$WORK/json.err"; then
		fail "'mdprofile $LAST' stdout is not JSON: $(cat "$WORK/json.err")"
		return
	fi
	_expect "$WORK/out.json" "stdout (JSON)" json "$@"
}
expect_stderr() { _expect "$WORK/err" stderr err "$@"; }

expect_file() {
	if [ ! -f "$ROOT/$1" ]; then
		fail "$1 does not exist"
		return
	fi
	if [ $# -ge 2 ]; then
		_cmp "$(_want "$2" file)" "$ROOT/$1" "$1"
	else
		cat >"$WORK/want"
		_cmp "$WORK/want" "$ROOT/$1" "$1"
	fi
}

run_expect() {
	_rc=$1 _out=$2 _err=$3
	shift 3
	run "$@"
	expect_exit "$_rc"
	case $_out in -) expect_no_stdout ;; .) ;; *) expect_stdout "$_out" ;; esac
	case $_err in -) expect_no_stderr ;; .) ;; *) expect_stderr "$_err" ;; esac
}

# _line FILE WHAT TEXT: one line of the normalised FILE is exactly TEXT.
_line() {
	_norm "$1" >"$WORK/got"
	grep -qxF -e "$3" "$WORK/got" || {
		fail "'mdprofile $LAST' $2 has no line '$3':"
		sed 's/^/    /' "$WORK/got" | head -40 >&2
	}
}
# _has FILE WHAT TEXT: TEXT stands somewhere in FILE.
_has() {
	grep -qF -- "$3" "$1" || {
		fail "$2 of 'mdprofile $LAST' lacks: $3"
		sed "s/^/    $2: /" "$1" >&2
	}
}
stdout_has() { _has "$WORK/out" stdout "$1"; }
stderr_has() { _has "$WORK/err" stderr "$1"; }

stdout_line() { _line "$WORK/out" stdout "$1"; }
stderr_line() { _line "$WORK/err" stderr "$1"; }

# json_field PATH WANT: stdout's JSON value at PATH (jq syntax: .a.b[0]), compact, is WANT.
json_field() {
	got=$(python3 -c '
import json, re, sys
v = json.load(sys.stdin)
for k, i in re.findall(r"\.([A-Za-z0-9_-]+)|\[([0-9]+)\]", sys.argv[1]):
    v = v[k] if k else v[int(i)]
print(json.dumps(v, separators=(",", ":")))' "$1" <"$WORK/out" 2>&1) || {
		fail "'mdprofile $LAST' stdout has no JSON field $1: $got"
		return
	}
	[ "$got" = "$2" ] || fail "'mdprofile $LAST' JSON $1 is $got, expected $2"
}

# json_only PATH...: narrow stdout's JSON document to the fields a case tests, for
# expect_json: a.b is field b of a, or of each element when a is a list; a field
# the document lacks fails the case.
json_only() {
	python3 -c '
import json, sys
def pick(src, dst, path):
    k, _, rest = path.partition(".")
    if not isinstance(src, dict) or k not in src:
        sys.exit("no JSON field " + path)
    if not rest:
        dst[k] = src[k]
    elif isinstance(src[k], list):
        for s, d in zip(src[k], dst.setdefault(k, [{} for _ in src[k]])):
            pick(s, d, rest)
    else:
        pick(src[k], dst.setdefault(k, {}), rest)
doc, out = json.load(open(sys.argv[1])), {}
for p in sys.argv[2:]:
    pick(doc, out, p)
print(json.dumps(out))' "$WORK/out" "$@" >"$WORK/out.only" 2>"$WORK/only.err" || {
		fail "'mdprofile $LAST' stdout: $(cat "$WORK/only.err")"
		return
	}
	mv "$WORK/out.only" "$WORK/out"
}

# read_only RC CMD...: a report both as text and as JSON, on a tree it must not touch.
read_only() {
	_rc=$1
	shift
	snapshot
	run "$@"
	expect_exit "$_rc"
	expect_stdout "$1"
	expect_no_stderr
	run --json "$@"
	expect_exit "$_rc"
	expect_json "json-$1"
	expect_unchanged
}

run_bg() {
	LAST="$*"
	(cd "$SRC" && exec ${MDP_WRAP:-} "$MDP" --root "$ROOT" "$@") >"$WORK/out" 2>"$WORK/err" &
	# shellcheck disable=SC2034 # read by the case
	BGPID=$!
}

# A subshell reaps the background mdprofile, so the shell's "Killed" notice stays out of the
# test's output.
bg_start() {
	LAST="$*"
	rm -f "$WORK/bg.pid" "$WORK/bg.rc"
	(
		cd "$SRC" || exit
		${MDP_WRAP:-} "$MDP" --root "$ROOT" "$@" >"$WORK/bg.out" 2>"$WORK/bg.err" &
		echo $! >"$WORK/bg.pid"
		if wait $!; then echo 0; else echo $?; fi >"$WORK/bg.rc"
	) 2>/dev/null &
	BGSH=$!
}

bg_finish() {
	wait "$BGSH" || true
	RC=$(cat "$WORK/bg.rc")
	mv "$WORK/bg.out" "$WORK/out"
	mv "$WORK/bg.err" "$WORK/err"
	unstamp
}

# zone SECONDS ABBR: the tree's /etc/localtime (its box's zone, mdp_root_zone) a fixed zone
# SECONDS east of UTC called ABBR, written as a TZif file (tzfile(5): no transitions, one
# type), so that a case's times do not depend on the host's zone data.
zone() {
	mkdir -p "$ROOT/etc"
	{
		printf 'TZif\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000'
		be32 0 && be32 0 && be32 0 && be32 0 && be32 1 && be32 $((${#2} + 1))
		be32 "$1" && printf '\000\000%s\000' "$2"
	} >"$ROOT/etc/localtime"
}
be32() {
	for _s in 24 16 8 0; do
		# shellcheck disable=SC2059 # the format is the byte
		printf "\\$(printf %03o $((($1 >> _s) & 255)))"
	done
}

# The watcher's lines to a file begin with their time (cmd/wlog.h): out and err without it.
STAMP_RE='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2} '
unstamp() {
	sed -i -E "s/^$STAMP_RE//" "$WORK/out" "$WORK/err"
}

wait_until() {
	_tries=$1 _step=$2 _i=0
	until eval "$3"; do
		_i=$((_i + 1))
		[ $_i -lt "$_tries" ] || return 1
		sleep "$_step"
	done
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

# dsm_binary: $B, a binary on the data volume as enable on DSM wants it (a script here).
dsm_binary() {
	B=/volume1/@mdprofile/mdprofile
	mkdir -p "$ROOT/volume1/@mdprofile"
	# the binary under test: the watcher enable --auto starts runs it (the tree's copy)
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${MDP_WRAP:-}" "$MDP" >"$ROOT$B"
	chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile" "$ROOT$B"
}

# The tasks as the fake esynoscheduler keeps them, one a line, fields joined by '|'.
tasks() { tr '\037' '|' <"$ROOT/var/lib/fake-esynoscheduler/tasks"; }

fakes() {
	sh "$SRC/tests/fakes/install.sh" "$ROOT" "$@" >/dev/null
	root_tools
}

# The lock file is mdprofile's own and the fakes' call log only grows;
# everything else is "system" and must come back byte for byte.
_sys_copy() {
	rm -rf "$2"
	cp -a "$1" "$2"
	rm -f "$2/run/mdprofile/lock" "$2/run/mdprofile/watcher.lock" "$2/run/mdprofile/keeper.lock" \
		"$2/var/log/fake-services.log"
	rmdir "$2/run/mdprofile" 2>/dev/null || true
	rmdir "$2/run" 2>/dev/null || true
}

snapshot() {
	_sys_copy "$ROOT" "$WORK/snap"
}

expect_unchanged() {
	_sys_copy "$ROOT" "$WORK/cmp"
	if ! diff -r "$WORK/snap" "$WORK/cmp" >"$WORK/rdiff" 2>&1; then
		fail "${1:-tree} not byte-identical to the snapshot:"
		sed 's/^/    /' "$WORK/rdiff" | head -20 >&2
	fi
}

revert_unchanged() {
	run revert
	expect_exit 0
	expect_unchanged "$1"
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

# The fake service managers' calls since the last check, exactly (NAME.calls, or stdin);
# the log is emptied.
expect_calls() {
	if [ $# -ge 1 ]; then
		_cmp "$(_want "$1" calls)" "$ROOT/var/log/fake-services.log" "the service-call log after 'mdprofile $LAST'"
	else
		cat >"$WORK/want"
		_cmp "$WORK/want" "$ROOT/var/log/fake-services.log" "the service-call log after 'mdprofile $LAST'"
	fi
	: >"$ROOT/var/log/fake-services.log"
}

# expect_states NAME=STATE...: the fake services' states.
expect_states() {
	for pair; do
		got=$(cat "$ROOT/var/lib/fake-services/${pair%%=*}" 2>/dev/null || echo missing)
		[ "$got" = "${pair#*=}" ] || fail "service ${pair%%=*} is $got, expected ${pair#*=}"
	done
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
