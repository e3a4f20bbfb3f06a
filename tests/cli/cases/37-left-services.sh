# A service left paused is reported with a command only where the backend can express one (issue 13, item 1).
fixture ds220j-dsm7
fakes dsm7 pkg:SynologyPhotos=running synoindexd=running
mkdir -p "$ROOT"/etc/mdprofile/profiles && printf 'services:\n  pause: [pkg:SynologyPhotos, synoindexd]\n' > "$ROOT"/etc/mdprofile/profiles/photos.yaml
run apply photos
expect_exit 0
expect_stdout <<'EOF'
service pkg:SynologyPhotos: paused
service synoindexd: paused
profile photos is active; 'mdprofile revert' restores the values from before
EOF
expect_stderr <<'EOF'
EOF
# revert under another backend: systemd cannot start a DSM package; it says so in words.
sh tests/fakes/install.sh "$ROOT" systemd >/dev/null
run revert --services-backend systemd
expect_exit 4
expect_stdout <<'EOF'
reverting profile photos
EOF
expect_stderr <<'EOF'
mdprofile: service pkg:SynologyPhotos: package entries (pkg:) need the dsm6 or dsm7 backend
mdprofile: rollback incomplete; these are left as they are:
mdprofile:   service pkg:SynologyPhotos is still paused
mdprofile: to restore them by hand, as root:
mdprofile:   start service pkg:SynologyPhotos with the service manager that paused it (the systemd backend has no command for it)
EOF
run revert --services-backend systemd --json
expect_exit 4
expect_json <<'EOF'
{
 "changed": false,
 "profile": "photos",
 "result": "rollback-incomplete",
 "dry_run": false,
 "changes": [],
 "services": [],
 "notes": [
  "found an interrupted revert of profile photos: restoring the baseline"
 ],
 "left": [
  {
   "service": "pkg:SynologyPhotos",
   "state": "paused",
   "message": "service pkg:SynologyPhotos is still paused",
   "fix": null
  }
 ]
}
EOF
expect_stderr <<'EOF'
mdprofile: service pkg:SynologyPhotos: package entries (pkg:) need the dsm6 or dsm7 backend
mdprofile: rollback incomplete; these are left as they are:
mdprofile:   service pkg:SynologyPhotos is still paused
mdprofile: to restore them by hand, as root:
mdprofile:   start service pkg:SynologyPhotos with the service manager that paused it (the systemd backend has no command for it)
EOF
run revert
expect_exit 0
expect_stdout <<'EOF'
found an interrupted revert of profile photos: restoring the baseline
service pkg:SynologyPhotos: resumed
EOF
expect_stderr <<'EOF'
EOF
