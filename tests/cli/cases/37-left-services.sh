# A service left paused is reported with a command only where the backend can express one (issue 13, item 1).
fixture ds220j-dsm7
fakes dsm7 pkg:SynologyPhotos=running synoindexd=running
mkdir -p "$ROOT"/etc/mdprofile/profiles && printf 'services:\n  pause: [pkg:SynologyPhotos, synoindexd]\n' > "$ROOT"/etc/mdprofile/profiles/photos.yaml
run_expect 0 apply-photos - apply photos
# revert under another backend: systemd cannot start a DSM package; it says so in words.
sh tests/fakes/install.sh "$ROOT" systemd >/dev/null
run_expect 4 revert-services-backend-systemd revert-services-backend-systemd revert --services-backend systemd
run revert --services-backend systemd --json
expect_exit 4
expect_json revert-services-backend-systemd-json
expect_stderr revert-services-backend-systemd-json
run_expect 0 revert - revert
