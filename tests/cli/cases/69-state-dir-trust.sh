# The state directory, the journal and the lock steer what mdprofile does as
# root (the values revert writes, the services it starts): one that others
# may write is refused with what to do, before anything is read from it.
fixture server-raid6-raid10
fakes systemd poweroff.target=stopped
boot=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
mkdir -p "$ROOT/run/mdprofile"
printf 'mdprofile-journal 1\nstate active\nboot_id %s\nprofile "x"\npath ""\nsvc poweroff.target paused\nend\n' \
	"$boot" >"$ROOT/run/mdprofile/journal"
chmod 0600 "$ROOT/run/mdprofile/journal"
chmod 0777 "$ROOT/run/mdprofile"
snapshot

run_expect 3 . revert revert
expect_file var/log/fake-services.log </dev/null
expect_unchanged "revert with a state directory others can write"

run status
expect_exit 0
grep -q "^mdprofile: warning: @ROOT@/run/mdprofile: refusing the state directory" "$WORK/err" 2>/dev/null ||
	_norm "$WORK/err" | grep -q "^mdprofile: warning: @ROOT@/run/mdprofile: refusing the state directory" ||
	fail "status does not say why it ignores the journal: $(cat "$WORK/err")"

# The journal itself, writable by others.
chmod 0700 "$ROOT/run/mdprofile"
chmod 0622 "$ROOT/run/mdprofile/journal"
run_expect 3 . recover recover
expect_file var/log/fake-services.log </dev/null

# Put right as told: the paused service is resumed.
chmod 0600 "$ROOT/run/mdprofile/journal"
run_expect 0 revert . revert
