# --json for the mutating commands: one object on stdout, diagnostics on stderr.
fixture ds-dsm6-reshape
fakes dsm6 synoindexd=running
snapshot
run --json apply balanced
expect_exit 0
expect_stdout <<'EOF'
{"command": "apply", "result": "ok", "done": ["dev.raid.speed_limit_min: 10000 KiB/s -> 50000 KiB/s", "md2 read_ahead: 192 KiB -> 4096 KiB", "md3 read_ahead: 192 KiB -> 4096 KiB", "md2 stripe_cache_size: 256 -> 2048", "md3 stripe_cache_size: 256 -> 2048"], "info": [], "left": [], "fix": []}
EOF
# A failed switch to reshape-fast: rolled back to balanced, nothing reported done.
MDPROFILE_FAULT=write:2 run --json apply reshape-fast
expect_exit 3
expect_stdout <<'EOF'
{"command": "apply", "result": "rolled-back", "done": [], "info": ["optional service synomkthumbd not found; skipped", "optional service pkgctl-FileStation not found; skipped", "optional service pkg-FileStation-thumbd not found; skipped", "optional service pkgctl-SynoFinder not found; skipped", "optional service pkgctl-SynologyPhotos not found; skipped"], "left": [], "fix": []}
EOF
expect_stderr <<'EOF'
mdprofile: dev.raid.speed_limit_max: writing 500000 KiB/s failed: Input/output error
mdprofile: apply failed; every change was rolled back
EOF
run --json revert
expect_exit 0
expect_stdout <<'EOF'
{"command": "revert", "result": "ok", "done": ["md3 stripe_cache_size: 2048 -> 256", "md2 stripe_cache_size: 2048 -> 256", "md3 read_ahead: 4096 KiB -> 192 KiB", "md2 read_ahead: 4096 KiB -> 192 KiB", "dev.raid.speed_limit_min: 50000 KiB/s -> 10000 KiB/s"], "info": ["reverting profile balanced"], "left": [], "fix": []}
EOF
expect_unchanged "json apply + revert"
