# Service tools that hang, stop slowly or say they stopped while the service runs on:
# mdprofile's timeouts (--service-timeout, --package-timeout), then every change rolled back.
# tags: slow
. "$SRC/tests/cli/svc.sh"

# A pause that hangs: killed after the timeout, the tool's processes gone, all undone.
begin dsm7 a=running b=running
touch "$ROOT/var/lib/fake-services/b.hang"
profile a a b
mdp_calls 3 apply-hangs --service-timeout 1 apply a
stderr_has "service b: 'synosystemctl stop-service-by-reason mdprofile b' timed out after 1 s, killed"
# shellcheck disable=SC2046 # the pids, one a word
expect_gone $(cat "$ROOT/var/lib/fake-services/b.hang.pids")
expect_ab_back

# Docker-like: the stop returns at once, the package shows "stopping" a while.
begin dsm7 pkg:Docker=running
echo 2 >"$ROOT/var/lib/fake-services/Docker.settle"
profile a pkg:Docker
mdp apply a
expect_exit 0
expect_states Docker=stopped
n=$(grep -c '^synopkg status Docker$' "$ROOT/var/log/fake-services.log" || true)
[ "$n" -ge 3 ] || fail "the stopping package was polled $n times"
[ "$(tail -n 1 "$ROOT/var/log/fake-services.log")" = "synopkg status Docker" ] ||
	fail "something ran after the last poll"
mdp revert
expect_exit 0
expect_states Docker=running
expect_baseline

# The stop says it worked, the service runs on: the step fails, all rolled back.
begin systemd a.service=running b.service=running
: >"$ROOT/var/lib/fake-services/b.service.stuck"
profile a a.service b.service
mdp --service-timeout 1 apply a
expect_exit 3
stderr_has "service b.service: the stop reported success but the service is running after 1 s"
stderr_has "apply failed; every change was rolled back"
expect_states a.service=running b.service=running
expect_baseline

# Packages have their own limit: a unit's does not cut a package's wait short.
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
grep -q "^synopkg stop Docker$" "$ROOT/var/log/fake-services.log" || fail "Docker was not stopped"
expect_states Docker=running a=running
expect_baseline
