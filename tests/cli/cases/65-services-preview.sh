# diff and apply --dry-run show each service of the profile as apply would treat it (issue 12).
fixture ds220j-dsm7
fakes dsm7 synoindexd=running synomkthumbd=stopped pkg:SynologyPhotos=running
mkdir -p "$ROOT"/etc/mdprofile/profiles
printf 'services:\n  pause: [synoindexd, synomkthumbd, pkg:SynologyPhotos, {name: nosuchd, optional: true}, gone]\n' > "$ROOT"/etc/mdprofile/profiles/svc.yaml
printf 'services:\n  pause: [synoindexd]\n' > "$ROOT"/etc/mdprofile/profiles/idx.yaml
snapshot
run diff svc
expect_exit 0
expect_stdout <<'EOF'
profile svc (@ROOT@/etc/mdprofile/profiles/svc.yaml)

services
  synoindexd: running; would be paused
  synomkthumbd: stopped; left alone
  pkg:SynologyPhotos: running; would be paused
  nosuchd: not found (optional); skipped
  gone: missing; apply refuses a profile that requires it

in sync: nothing to change
EOF
expect_stderr <<'EOF'
EOF
run apply svc --dry-run --json
expect_exit 0
expect_json <<'EOF'
{
 "changed": false,
 "profile": "svc",
 "result": "ok",
 "dry_run": true,
 "changes": [],
 "services": [
  {
   "name": "synoindexd",
   "action": "pause",
   "result": "would-pause"
  },
  {
   "name": "synomkthumbd",
   "action": "pause",
   "result": "not-running"
  },
  {
   "name": "pkg:SynologyPhotos",
   "action": "pause",
   "result": "would-pause"
  },
  {
   "name": "nosuchd",
   "action": "pause",
   "result": "not-found"
  },
  {
   "name": "gone",
   "action": "pause",
   "result": "missing"
  }
 ],
 "notes": [],
 "left": []
}
EOF
expect_unchanged "a preview"
# What the active profile paused stays paused: the preview says so without asking.
run apply idx
expect_exit 0
: >"$ROOT"/var/log/fake-services.log
run apply svc --dry-run
expect_exit 0
expect_stdout <<'EOF'

services
  synoindexd: paused by the active profile; stays paused
  synomkthumbd: stopped; left alone
  pkg:SynologyPhotos: running; would be paused
  nosuchd: not found (optional); skipped
  gone: missing; apply refuses a profile that requires it

dry run: 0 changes would be made, nothing was touched
EOF
expect_file var/log/fake-services.log <<'EOF'
synosystemctl get-active-status synomkthumbd
synosystemctl get-load-status synomkthumbd
synopkg status SynologyPhotos
synosystemctl get-active-status nosuchd
synosystemctl get-load-status nosuchd
systemctl show -p LoadState nosuchd
synosystemctl get-active-status gone
synosystemctl get-load-status gone
systemctl show -p LoadState gone
EOF
run revert
expect_exit 0
# The service tool gone: one error, every state unknown, the tunables still shown.
rm "$ROOT"/usr/syno/bin/synosystemctl
run diff svc
expect_exit 0
expect_stdout <<'EOF'
profile svc (@ROOT@/etc/mdprofile/profiles/svc.yaml)

services
  synoindexd: state unknown (see the error)
  synomkthumbd: state unknown (see the error)
  pkg:SynologyPhotos: state unknown (see the error)
  nosuchd: state unknown (see the error)
  gone: state unknown (see the error)

in sync: nothing to change
EOF
expect_stderr <<'EOF'
mdprofile: service synoindexd: cannot run 'synosystemctl get-active-status synoindexd': synosystemctl not found in /usr/syno/sbin:/usr/syno/bin:/usr/sbin:/usr/bin:/sbin:/bin (this system's service manager is not usable; --services-backend none changes the tunables without pausing services)
EOF
# ... and apply is a system failure that touches nothing.
snapshot
run apply svc
expect_exit 3
expect_stderr <<'EOF'
mdprofile: service synoindexd: cannot run 'synosystemctl get-active-status synoindexd': synosystemctl not found in /usr/syno/sbin:/usr/syno/bin:/usr/sbin:/usr/bin:/sbin:/bin (this system's service manager is not usable; --services-backend none changes the tunables without pausing services)
mdprofile: apply failed; every change was rolled back
EOF
expect_unchanged "apply without its service tool"
