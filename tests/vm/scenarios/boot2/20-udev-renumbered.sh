# boot2/20-udev-renumbered: the same arrays under md10 and up. The dynamic build
# takes each UUID from the udev record of the new name, and they are the UUIDs
# the static build reads from md/uuid: identities survive the renumbering.
[ -x "$MDP_UDEV" ] || skip_all "no dynamic mdprofile in the image"
expect_eq "$(ls -d /sys/block/md1[0-9] 2>/dev/null | wc -l)" 6 "six arrays as md10..md15"

# "mdN HEX SOURCE" for every array, from `BINARY -v status`.
uuids() {
	run "$1" -v status
	printf '%s\n' "$OUT" | awk '/^md[0-9]/ { md = $1 } /^ +uuid / { print md, $2, $4 }' |
		tr -d '()'
}

if start_udev; then
	ok "udevd ran the md rules"
else
	fail "udevd did not start or settle"
fi
stop_udev
dyn=$(uuids "$MDP_UDEV")
expect_exit 0 "-v status (dynamic)"
static=$(uuids "$MDP")
expect_exit 0 "-v status (static)"
expect_eq "$(printf '%s\n' "$dyn" | grep -c '^md1[0-9] [0-9a-f]\{32\} udev$')" 6 \
	"md10..md15: every UUID from udev"
expect_eq "$(printf '%s\n' "$dyn" | cut -d' ' -f1,2)" \
	"$(printf '%s\n' "$static" | cut -d' ' -f1,2)" "udev and md/uuid agree after renumbering"

MDP=$MDP_UDEV
snapshot "$VM_STATE/snap.b2u"
mdp apply reshape-fast
expect_exit 0 "apply on renumbered arrays (dynamic)"
mdp revert
expect_exit 0 "revert on renumbered arrays (dynamic)"
expect_unchanged "$VM_STATE/snap.b2u" "byte-identical after revert (dynamic)"
