# Services paused and resumed on DSM 6: the exact calls to synoservice (the fakes' log),
# the exit code and the services' states after each command.
# tags: heavy
. "$SRC/tests/cli/svc.sh"

# An optional service the system lacks is only looked at; a package the user had
# stopped stays stopped, also on revert. (What status says of the paused ones: case 30.)
begin dsm6 synoindexd=running synomkthumbd=running pkgctl-FileStation=stopped
profile a synoindexd synomkthumbd pkg:FileStation '?nosuchd'
mdp_calls 0 apply apply a
expect_states synoindexd=paused synomkthumbd=paused pkgctl-FileStation=stopped
# Again: what is paused stays so; the others are looked at again (the user may have
# started File Station since).
mdp_calls 0 apply.2 apply a
mdp_calls 0 revert revert
expect_states synoindexd=running synomkthumbd=running pkgctl-FileStation=stopped
expect_baseline

# A service the profile requires but the system lacks: nothing is touched.
begin dsm6 a=running
profile a a nosuchd
mdp_calls 2 apply-missing apply a
stderr_has "service 'nosuchd' does not exist"
expect_states a=running
expect_baseline

# The service tool gone: a system failure, nothing touched.
begin dsm6 a=running
rm "$ROOT/usr/syno/sbin/synoservice"
profile a a
mdp apply a
expect_exit 3
stderr_has "service a: cannot run 'synoservice --status a': synoservice not found in"
stderr_has "--services-backend none changes the tunables without pausing services"
expect_calls </dev/null
expect_baseline
mdp --services-backend none apply a
expect_exit 2
stderr_has "cannot pause service 'a': no service manager found"
