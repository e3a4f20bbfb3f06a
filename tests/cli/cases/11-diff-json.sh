# diff --json of the seed DiskStation, for scripts.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running synomkthumbd=stopped
run --json diff reshape-fast
expect_exit 1
expect_json json-diff-reshape-fast
expect_no_stderr
