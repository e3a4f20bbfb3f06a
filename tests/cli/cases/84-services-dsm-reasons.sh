# DSM stops a service mdprofile paused for a reason of its own (no volume): revert
# releases mdprofile's reason only and leaves the service stopped (DSM 6 and DSM 7).
# tags: heavy
. "$SRC/tests/cli/svc.sh"

for kind in dsm6 dsm7; do
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
		expect_states a=paused b=running
	else
		mdp --json revert
		expect_exit 0
		stdout_has '{"name": "a", "action": "resume", "result": "held"}'
		stdout_has '{"name": "b", "action": "resume", "result": "done"}'
		expect_states a=stopped b=running
	fi
	[ "$(cat "$ROOT/var/lib/fake-services/a.reasons")" = no-volume ] ||
		fail "$kind: a's reasons are not just no-volume"
	! grep -q "^synoservice --resume a$\|^synosystemctl start a$" "$ROOT/var/log/fake-services.log" ||
		fail "$kind: a plain resume was used"
	expect_baseline
done
