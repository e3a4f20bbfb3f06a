# 21-udev-apply-revert: 20-apply-revert's checks with the dynamic build
# (libudev), then an apply whose rule matches an array by the UUID its udev
# record holds: apply's lean discovery reads UUIDs only for such rules.
[ -x "$MDP_UDEV" ] || skip_all "no dynamic mdprofile in the image"
MDP=$MDP_UDEV
# Run alone (VM_SCENARIOS=21-...), the database is not there yet.
if [ -z "$(udev_prop md1 MD_UUID)" ]; then
	start_udev
	stop_udev
fi

. "$LAB/scenarios/20-apply-revert.sh"

uuid=$(udev_prop md1 MD_UUID)
snapshot "$VM_STATE/snap.21"
cat >"$PROFILES/by-uuid.yaml" <<YAML
description: md1 by the UUID udev holds for it
arrays:
  - match: {uuids: ["$uuid"]}
    stripe_cache_size: 1024
YAML
mdp apply "$PROFILES/by-uuid.yaml"
expect_exit 0 "apply of a rule matching md1 by its UUID ($uuid)"
expect_eq "$(cat /sys/block/md1/md/stripe_cache_size)" 1024 "md1 matched by its UUID"
expect_eq "$(cat /sys/block/md2/md/stripe_cache_size)" \
	"$(sed -n 's|^/sys/block/md2/md/stripe_cache_size\t||p' "$VM_STATE/snap.21")" \
	"md2 did not match"
mdp revert
expect_exit 0 "revert"
expect_unchanged "$VM_STATE/snap.21" "byte-identical after revert"
