# md not loaded (issue 50): no /proc/mdstat, no dev.raid sysctls, no md arrays. Every command
# that reads or tunes md says so in one message and exits 3 (a failure on the system),
# changing nothing; status said "no md arrays found" with exit 0, diff "in sync", apply
# "nothing changed", explain "cannot read /proc/mdstat" with exit 3. A profile error is said
# first (exit 2). The commands that need no md (list, check, revert, disable: the package's
# prerm; boot-script, which pins what is there) work as before.
fixture ds220j-dsm7
rm -rf "$ROOT/proc/mdstat" "$ROOT/proc/sys/dev/raid" "$ROOT"/sys/block/md*
snapshot
msg="mdprofile: md is not loaded (no /proc/mdstat): no md RAID here, or its driver is not \
loaded yet (modprobe md_mod)"
for c in status "status --format prometheus" "status --watch" "diff balanced" explain \
	"apply balanced" "apply --dry-run balanced" "auto responsive" \
	"enable --binary /bin/sh balanced"; do
	# bounded: the watchers (status --watch, auto) ran on without md, waiting for arrays
	wrap=${MDP_WRAP:-}
	MDP_WRAP="timeout 20 $wrap"
	# shellcheck disable=SC2086 # the command's words
	run $c
	MDP_WRAP=$wrap
	expect_exit 3
	expect_no_stdout
	[ "$(cat "$WORK/err")" = "$msg" ] || fail "$c said: $(cat "$WORK/err")"
done
run --json status
expect_exit 3
json_field .error.exit 3
run apply nope
expect_exit 2
expect_unchanged "md not loaded"
for c in list "check balanced" revert disable "boot-script balanced"; do
	# shellcheck disable=SC2086
	run $c
	expect_exit 0
done
