#!/bin/sh
# Lint: every function or object a file of src/ or cmd/ exports is used by another file. One
# that only its own file uses is made static (and its declaration leaves the header); one that
# nothing uses is removed.
#   tools/exported.sh OBJ...   the objects of src/, cmd/ and tools/ that make lint builds
#
# It reads the objects' symbol tables (nm), not the sources: what each object defines as
# global (a function, T; an object, D, R or B) and what it takes from the others (U). So a
# name in a comment, a string or a test does not count as a use, a call a macro makes does,
# and what counts as a file is a compiled one (main is the program's, exempt).
#
# Which callers count: the other objects given, that is src/, cmd/ and tools/gen-schema.c
# (the schema's generator, part of the build). The unit tests and fuzz targets count only
# for the names in SEAMS below, each with why: a function that only tests call is
# a smell (dead code its test keeps alive, or a test that reaches past the interface), and
# sometimes the right place to test: a parser fed fixed or hostile text, one step of a loop
# that the public call hides behind a clock or a signal, a fallback the machine running the
# tests would never take. Listing it says that it is such a seam; the lint checks that a
# test still names it and that nothing else calls it (else the entry goes).
#
# INFLIGHT lists what this lint found in files other branches were changing when it came
# (issue 46): to be made static (or removed, or moved to SEAMS) after those merges. Both
# lists only shrink: an entry no longer found fails the lint until it is removed.
set -eu
[ $# -gt 0 ] || {
	echo "usage: tools/exported.sh OBJ..." >&2
	exit 2
}

# Unit tests and fuzz targets are their only callers outside their file: NAME  why.
SEAMS=$(cat <<'EOF'
mdp_bench_sample              one sample of the busy arrays, on a fixture, without the clock
mdp_discover                  the whole discovery at once: the tests read fixture trees so
mdp_discover_mdadm_uuid       a parser of outside text: fixed and fuzzed inputs
mdp_discover_parse_sync_completed a parser of outside text: fixed and fuzzed inputs
mdp_discover_permille         the progress arithmetic, at its edges
mdp_discover_sb_uuid          a parser of outside text: fixed inputs
mdp_discover_udev_uuid        a parser of outside text: fixed inputs
mdp_discover_uuid_norm        a parser of outside text: fixed and fuzzed inputs
mdp_exec_find                 the search of the fixed directories under a root
mdp_smart_selftest_parse      a parser of outside text: fixed and fuzzed inputs
mdp_smart_temp_parse          a parser of outside text: fixed and fuzzed inputs
mdp_explain_kver              a parser of the kernel release string
mdp_iostat_parse              a parser of a stat file: fixed inputs
txn_pauses_parse              a parser of the pause journal: fixed inputs
txn_pauses_format             the pause journal's text, formatted back
txn_pauses_store              a pause journal of another boot put in place for recover
mdp_journal_format            the journal text, formatted and parsed back: fixed and fuzzed
mdp_journal_parse             the journal text, parsed: fixed and fuzzed inputs
mdp_probe_pick                which finding --probe takes, over built reports
mdp_probe_setting             a finding to its one setting, over built findings
mdp_probe_yaml                the probe profile text, exactly
mdp_profile_is_builtin        which paths name a built-in (one that only looks like it is a file)
mdp_resolve_walk              the fallback for kernels without openat2, held to openat2's answers
mdp_svc_dsm6                  a backend's ops table: tests see which detect picks, and drive it
mdp_svc_dsm7                  a backend's ops table: tests see which detect picks, and drive it
mdp_svc_systemd               a backend's ops table: tests see which detect picks, and drive it
mdp_watch_follow              the watch the loop reaches through mdp_watch_plain_ops, direct
mdp_watch_read                the watch the loop reaches through mdp_watch_plain_ops, direct
mdp_watch_wait_signal         the watch the loop reaches through mdp_watch_plain_ops, direct
mdp_wgoal_find                an array's goal state, read after a look
mdp_wgoal_parse               a parser of the watcher's goal file: fixed and fuzzed inputs
mdp_wloop_summary             one step of the watcher loop, on a fake clock and watch
mdp_wloop_track               one step of the watcher loop, on a fake clock and watch
mdp_wstate_parse              a parser of the watcher state file: fuzzed inputs
mdp_profile_check_perms       the ownership rule of a profile file, on files a test makes as root
mdp_status_busy               a piece of status's view of an array, at its edges
mdp_status_eta                a piece of status's view of an array, at its edges
mdp_status_failed             a piece of status's view of an array, at its edges
mdp_status_missing            a piece of status's view of an array, at its edges
mdp_status_op_state           a piece of status's view of an array, at its edges
mdp_watch_open                the watch the loop reaches through mdp_watch_plain_ops, direct
mdp_watch_wait                the watch the loop reaches through mdp_watch_plain_ops, direct
mdp_wloop_auto                the watcher loop on a fake clock and watch (cmd/ runs mdp_wloop_run)
mdp_wloop_fini                the watcher loop on a fake clock and watch (cmd/ runs mdp_wloop_run)
mdp_wloop_init                the watcher loop on a fake clock and watch (cmd/ runs mdp_wloop_run)
mdp_wloop_until_idle          the watcher loop on a fake clock and watch (cmd/ runs mdp_wloop_run)
mdp_xrules                    explain's rule table, its order and constraints checked by its test
mdp_xcap_tar                  the capture's tar, its bytes checked without a file written
mdp_xrules_n                  explain's rule table, its order and constraints checked by its test
mdp_xrun_profile_of           the speed limits of a profile, for the reports tests build
mdp_xrun_profiles             the shipped profiles as a fixture box would take them, alone
mdp_xrun_reports              the window's reports from samples a test builds, without the clock
mdp_xrun_samples              the window's two samples from a hostile capture, without the reports
EOF
)
# Found in files in flight when this lint came: to be fixed after their merges. NAME  file.
INFLIGHT=$(cat <<'EOF'
EOF
)

tmp=${TMPDIR:-/tmp}/mdp-exported.$$
trap 'rm -f "$tmp"' EXIT
# "KIND NAME FILE" per global symbol: KIND d (defined) or u (used), FILE its source (src/ROOM/x.c)
nm -A -g "$@" | awk '
{
	file = $1; sub(/:.*/, "", file)
	if (match(file, /(src\/[^\/]*|cmd|tools)\/[^\/]*\.o$/)) file = substr(file, RSTART, RLENGTH)
	sub(/\.o$/, ".c", file)
	if ($(NF - 1) == "U") print "u", $NF, file
	else if ($(NF - 1) ~ /^[TDRBCGSVW]$/) print "d", $NF, file
}' >"$tmp"
# every definition in src/ or cmd/ that no other file uses: "NAME FILE"
found=$(awk '
$1 == "d" { def[$2] = $3 }
$1 == "u" { users[$2] = users[$2] " " $3 }
END {
	for (f in def) {
		if (f == "main" || def[f] !~ /^(src|cmd)\//) continue
		n = split(users[f], u, " "); other = 0
		for (i = 1; i <= n; i++) if (u[i] != def[f]) other = 1
		if (!other) print f, def[f]
	}
}' "$tmp" | sort)

# is NAME the first word of a line of LIST?
listed() { echo "$1" | awk -v f="$2" '$1 == f { ok = 1 } END { exit !ok }'; }
bad=0
for f in $(echo "$found" | awk 'NF { print $1 }'); do
	listed "$SEAMS
$INFLIGHT" "$f" && continue
	file=$(echo "$found" | awk -v f="$f" '$1 == f { print $2 }')
	echo "exported: $f ($file) is used by no other file: make it static and drop its" \
		"declaration, or remove it if nothing calls it" >&2
	bad=1
done
for f in $(echo "$SEAMS
$INFLIGHT" | awk 'NF { print $1 }'); do
	if ! listed "$found" "$f"; then
		echo "exported: $f, listed in tools/exported.sh, is static, gone or used by" \
			"another file now: remove its entry" >&2
		bad=1
	elif listed "$SEAMS" "$f" && ! grep -qw -- "$f" tests/unit/*.c tests/fuzz/*.c; then
		echo "exported: $f is listed as a seam for tests and no test calls it: make it" \
			"static or remove it, and its entry" >&2
		bad=1
	fi
done
exit $bad
