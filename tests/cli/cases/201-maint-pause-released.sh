# A check mdprofile paused in place (issue 49) leaves no pause behind: revert (and disable,
# which reverts) resumes it from its place; when md refuses, md/sync_min goes back to 0, as
# md was; on DSM it is left at its place with a word (DSM's own scrub keeps it there).
# tags: seam (md refusing the check is MDPROFILE_FAULT's write fault)
fixture server-raid6-raid10
md=$ROOT/sys/block/md1/md
# paused DEV ACTION PLACE: the pause journal a watcher writes before it writes idle.
paused() {
	mkdir -p "$ROOT/run/mdprofile"
	chmod 700 "$ROOT/run/mdprofile"
	printf 'mdprofile-paused 1\nboot_id %s\npause %s %s %s\nend\n' \
		"$(cat "$ROOT/proc/sys/kernel/random/boot_id")" "$1" "$2" "$3" >"$ROOT/run/mdprofile/paused"
	chmod 600 "$ROOT/run/mdprofile/paused"
}
echo idle >"$md/sync_action"
echo 863341056 >"$md/sync_min"
paused md1 check 863341056
run_expect 0 revert - revert
[ "$(cat "$md/sync_action")" = check ] || fail "md1's check not resumed"
[ "$(cat "$md/sync_min")" = 863341056 ] || fail "md1's place moved: $(cat "$md/sync_min")"
[ ! -e "$ROOT/run/mdprofile/paused" ] || fail "the pause journal stayed"
run_expect 0 revert.2 - revert

# md refuses the check: its place forgotten, the next check starts at 0 as md's own would.
echo idle >"$md/sync_action"
paused md1 check 863341056
MDPROFILE_FAULT=write:1 run_expect 0 revert.forgot revert.forgot revert
[ "$(cat "$md/sync_min")" = 0 ] || fail "md1's sync_min left at $(cat "$md/sync_min")"
[ "$(cat "$md/sync_action")" = idle ] || fail "md1 not idle"

# DSM: never sync_min 0.
fixture dt-sata-dsm7
md=$ROOT/sys/block/md2/md
echo idle >"$md/sync_action"
echo 2048 >"$md/sync_min"
paused md2 repair 2048
MDPROFILE_FAULT=write:1 run_expect 0 revert.dsm revert.dsm revert
[ "$(cat "$md/sync_min")" = 2048 ] || fail "md2's sync_min written on DSM: $(cat "$md/sync_min")"
[ ! -e "$ROOT/run/mdprofile/paused" ] || fail "the pause journal stayed"
