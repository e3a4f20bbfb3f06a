# recover lets a service tool that outlived a killed mdprofile finish, then
# kills its process group: only while that group is still the tool mdprofile
# started. A journal that names another process group (a reused number, a
# --root tree's journal, a forged one, one of an earlier version without the
# leader's identity) makes it wait for nothing and signal nothing.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=stopped
boot=$(cat "$ROOT/proc/sys/kernel/random/boot_id")
hostboot=$(cat /proc/sys/kernel/random/boot_id)

# An unrelated process group on this machine: a setsid sleep leads its own.
setsid sleep 120 &
spid=$!
sleep 0.1
[ "$(cut -d' ' -f5 "/proc/$spid/stat")" = "$spid" ] || fail "setsid sleep leads no group"
start=$(sed 's/.*) //' "/proc/$spid/stat" | cut -d' ' -f20)

# journal_pausing WHAT: an interrupted apply whose synoindexd pause was under way.
journal_pausing() {
	mkdir -p "$ROOT/run/mdprofile"
	chmod 0700 "$ROOT/run/mdprofile"
	printf 'mdprofile-journal 1\nstate applying\nboot_id %s\nprofile "reshape-fast"\npath ""\nsvc synoindexd pausing %s\nend\n' \
		"$boot" "$1" >"$ROOT/run/mdprofile/journal"
	chmod 0600 "$ROOT/run/mdprofile/journal"
}

for how in "old" "other"; do
	if [ "$how" = old ]; then
		journal_pausing "$spid"
		why="the journal does not say which process it was"
	else
		journal_pausing "$spid start $((start + 1)) boot $hostboot"
		why="another process has its number"
	fi
	echo stopped >"$ROOT/var/lib/fake-services/synoindexd"
	run --service-timeout 1 --package-timeout 1 revert
	expect_exit 0
	expect_stdout service-timeout-package-timeout-revert
	expect_stderr <<EOF
mdprofile: warning: service 'synoindexd': process group $spid is not the tool that was pausing it ($why): not waited for, not killed
EOF
	kill -0 "$spid" 2>/dev/null || fail "revert ($how journal) killed an unrelated process group"
done

# The group the journal names is that very process: recover waits for it,
# but no longer than the entry's service timeout (1 s here, not the 30 s
# of packages), then kills it.
journal_pausing "$spid start $start boot $hostboot"
echo stopped >"$ROOT/var/lib/fake-services/synoindexd"
t0=$(date +%s)
run --service-timeout 1 --package-timeout 30 revert
t1=$(date +%s)
expect_exit 0
expect_stdout service-timeout-package-timeout-30-rever
expect_stderr </dev/null
[ $((t1 - t0)) -lt 10 ] || fail "recover waited $((t1 - t0)) s for a non-package service's tool"
sleep 0.2
if kill -0 "$spid" 2>/dev/null; then
	fail "recover did not kill the tool's group after its timeout"
	kill "$spid"
fi
wait "$spid" 2>/dev/null || true
