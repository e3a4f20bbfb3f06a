# Without root, a command that changes the system says so first, in one line with the fix,
# before it reads a profile or touches anything; commands that only read still run. On a
# --root tree the caller's own rights decide, as before.
# tags: no-valgrind (runs as nobody)
as_nobody || return 0
# (enable's and bench's checks read a profile and /proc/mounts: after this)
for cmd in "apply balanced" revert recover "bench --compare balanced" "enable nosuchprofile"; do
	# shellcheck disable=SC2086 # a command with its arguments
	run_noroot $cmd
	expect_exit 77
	expect_no_stdout
	expect_stderr <<OUT
mdprofile: '${cmd%% *}' changes kernel settings and services and needs root: run it with sudo or as root
OUT
done
run_noroot --json revert
expect_exit 77
expect_json json-revert
# Reading needs no root; a dry run reads only.
run_noroot list -q
expect_exit 0
run_noroot apply --dry-run "$SRC/profiles/balanced.yaml"
case $RC in
0 | 2) ;; # 2: nobody cannot read the profile (a source tree under /root)
"$(host_md_exit)") ;; # 3: this host has no md
77) fail "apply --dry-run asked for root: $(cat "$WORK/err")" ;;
*) fail "apply --dry-run exited $RC: $(cat "$WORK/err")" ;;
esac
exit_checked
rm -rf "$NB"
