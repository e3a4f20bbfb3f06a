# The seed DiskStation (DSM 6, md3 reshaping): what reshape-fast changes.
# tags: smoke (the aarch64 set of make check-deep)
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running synomkthumbd=stopped pkgctl-FileStation=running
snapshot
run_expect 1 diff-reshape-fast - diff reshape-fast
expect_unchanged "diff"
# The entries for DSM 7 (only_on) are noise on DSM 6: shown with -v only.
run -v diff reshape-fast
expect_exit 1
sed -n '/^services$/,/^$/p' "$WORK/out" >"$WORK/svc"
cp "$WORK/svc" "$WORK/out"
expect_stdout v-diff-reshape-fast
