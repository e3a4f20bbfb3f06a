# 11-udev-discover: the dynamic build (libudev) on the real kernel. With no udev
# database yet its UUIDs come from md/uuid; once udevd has run Debian's md rules
# every UUID comes from the array's udev record (MD_UUID) and is the one md/uuid
# and mdadm give. Then 10-discover's checks run again with this binary.
[ -x "$MDP_UDEV" ] || skip_all "no dynamic mdprofile in the image"
MDP=$MDP_UDEV

# "mdN HEX SOURCE" for every array, from `mdprofile -v status`.
uuids() {
	mdp -v status
	printf '%s\n' "$OUT" | awk '/^md[0-9]/ { md = $1 } /^ +uuid / { print md, $2, $4 }' |
		tr -d '()'
}

# mdadm's own MD_UUID of every array, in the same form.
mdadm_uuids() {
	for d in /sys/block/md*; do
		md=${d##*/}
		u=$(mdadm --detail --export "/dev/$md" | sed -n 's/^MD_UUID=//p' | tr -d ':')
		echo "$md $u"
	done | sort
}

n=$(ls -d /sys/block/md* | wc -l)
expect_eq "$(ls /run/udev/data 2>/dev/null | wc -l)" 0 "no udev database before udevd ran"
before=$(uuids)
expect_exit 0 "-v status without a udev database"
expect_eq "$(printf '%s\n' "$before" | grep -c ' md/uuid$')" "$n" \
	"without udev records every UUID comes from md/uuid"
expect_eq "$(printf '%s\n' "$before" | cut -d' ' -f1,2 | sort)" "$(mdadm_uuids)" \
	"md/uuid names each array as mdadm does"

if start_udev; then
	ok "udevd ran the md rules"
else
	fail "udevd did not start or settle"
fi
for d in /sys/block/md*; do
	expect_ne "$(udev_prop "${d##*/}" MD_UUID)" "" "the udev database has MD_UUID for ${d##*/}"
done
after=$(uuids)
expect_exit 0 "-v status with the udev database"
expect_eq "$(printf '%s\n' "$after" | grep -c ' udev$')" "$n" "every UUID now comes from udev"
expect_eq "$(printf '%s\n' "$after" | cut -d' ' -f1,2)" \
	"$(printf '%s\n' "$before" | cut -d' ' -f1,2)" "udev's UUIDs are md/uuid's"
# udevd is not needed to read its records; the other scenarios run without it.
stop_udev

. "$LAB/scenarios/10-discover.sh"
