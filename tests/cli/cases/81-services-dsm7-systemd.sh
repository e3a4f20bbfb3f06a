# Services paused and resumed on DSM 7 (synosystemctl, synopkg) and under systemd: the
# exact calls, the exit code and the services' states after each command.
# tags: heavy
. "$SRC/tests/cli/svc.sh"

begin dsm7 synoindexd=running pkg:SynologyPhotos=running pkg-FileStation-thumbd=stopped
profile a synoindexd pkg:SynologyPhotos pkg-FileStation-thumbd
mdp_calls 0 apply-dsm7 apply a
expect_states synoindexd=stopped SynologyPhotos=stopped pkg-FileStation-thumbd=stopped
mdp_calls 0 revert-dsm7 revert
expect_states synoindexd=running SynologyPhotos=running pkg-FileStation-thumbd=stopped
expect_baseline

# A service DSM had stopped for its own reason is not running: never touched.
begin dsm7 a=stopped:ha-passive
profile a a
mdp_calls 0 apply-dsm-stopped apply a
expect_states a=stopped
mdp_calls 0 - revert

# only_on: an entry for another service manager is skipped, never asked about.
begin dsm7 synoindexd=running pkg:FileStation=running pkgctl-FileStation=running
{
	echo "services:"
	echo "  pause:"
	echo "    - {name: synoindexd, only_on: [dsm6, dsm7]}"
	echo "    - {name: pkgctl-FileStation, only_on: [dsm6]}"
	echo "    - {name: smbd.service, only_on: [systemd]}"
} >"$P/a.yaml"
mdp_calls 0 apply-only-on --json apply a
stdout_has '{"name": "pkgctl-FileStation", "action": "pause", "result": "other-platform"}'
stdout_has '{"name": "smbd.service", "action": "pause", "result": "other-platform"}'
expect_states pkgctl-FileStation=running
mdp revert
expect_exit 0
expect_states synoindexd=running
printf 'services:\n  pause:\n    - {name: a, only_on: [dsm8]}\n    - {name: b, only_on: []}\n' >"$P/bad.yaml"
mdp check bad
expect_exit 2
stderr_has "bad.yaml:3:27: only_on 'dsm8' is not a platform: expected dsm6, dsm7 or systemd"
stderr_has "bad.yaml:4:26: empty 'only_on' list: remove it (the entry applies everywhere) or name platforms"

# systemd: a unit the user had stopped stays stopped; an optional absent one is looked at.
begin systemd smbd.service=running nfs-server.service=stopped
profile a smbd.service nfs-server.service '?nosuch.service'
mdp_calls 0 apply-systemd apply a
mdp_calls 0 revert-systemd revert
expect_states smbd.service=running nfs-server.service=stopped
expect_baseline
