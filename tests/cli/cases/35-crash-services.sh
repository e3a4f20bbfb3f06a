# A crash right after each service pause (and during revert's resumes),
# then recover: tunables back byte for byte, every paused service resumed.
# tags: heavy seam no-valgrind (crashes on purpose)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running pkgctl-FileStation=running synomkthumbd=stopped
snapshot
for k in 1 2; do
	MDPROFILE_FAULT=crash-after-service:$k run -q apply reshape-fast
	expect_exit 137
	run -q recover
	expect_exit 0
	expect_unchanged "crash after service step $k + recover"
done
MDPROFILE_FAULT=crash-after-service:3 run -q apply reshape-fast
expect_exit 0 # only two services to pause: nothing to crash on

# Crash after the first resume of a revert: recover finishes it.
MDPROFILE_FAULT=crash-after-service:1 run -q revert
expect_exit 137
expect_file var/lib/fake-services/synoindexd synoindexd
: >"$ROOT/var/log/fake-services.log"
run_expect 0 recover . recover
expect_file var/log/fake-services.log fake-services.log
expect_unchanged "crash in revert + recover"
