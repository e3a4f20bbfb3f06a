# A 512 MiB two-disk DS220j (DSM 7): raid1 only, low-ram.
# tags: smoke (the aarch64 set of make check-deep)
fixture ds220j-dsm7
fakes dsm7 synoindexd=running pkg-FileStation-thumbd=stopped
run_expect 1 diff-low-ram - diff low-ram
run_expect 1 diff-reshape-fast - diff reshape-fast
