# diff and apply --dry-run show each service of the profile as apply would treat it (issue 12).
# tags: heavy
fixture ds220j-dsm7
fakes dsm7 synoindexd=running synomkthumbd=stopped pkg:SynologyPhotos=running
mkdir -p "$ROOT"/etc/mdprofile/profiles
printf 'services:\n  pause: [synoindexd, synomkthumbd, pkg:SynologyPhotos, {name: nosuchd, optional: true}, gone]\n' > "$ROOT"/etc/mdprofile/profiles/svc.yaml
printf 'services:\n  pause: [synoindexd]\n' > "$ROOT"/etc/mdprofile/profiles/idx.yaml
snapshot
run_expect 0 diff-svc - diff svc
run apply svc --dry-run --json
expect_exit 0
expect_json apply-svc-dry-run-json
expect_unchanged "a preview"
# What the active profile paused stays paused: the preview says so without asking.
run apply idx
expect_exit 0
: >"$ROOT"/var/log/fake-services.log
run_expect 0 apply-svc-dry-run . apply svc --dry-run
expect_file var/log/fake-services.log fake-services.log
run revert
expect_exit 0
# The service tool gone: one error, every state unknown, the tunables still shown.
rm "$ROOT"/usr/syno/bin/synosystemctl
run_expect 0 diff-svc.2 diff-svc diff svc
# ... and apply is a system failure that touches nothing.
snapshot
run_expect 3 . apply-svc apply svc
expect_unchanged "apply without its service tool"
