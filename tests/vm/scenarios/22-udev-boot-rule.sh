# 22-udev-boot-rule: the systemd target's udev rule under udevd with Debian's
# md rules, on the real kernel. A stand-in /bin/systemctl logs what the rule
# asks. The rule must run the unit once when it finds a pinned array running,
# not again on later change events of that array (`udevadm trigger`, as
# package scripts run it; the end of a grow reshape is a change event too),
# which would undo a revert; and once more after the array is stopped and
# assembled anew.
have_mdprofile || skip_all "no mdprofile in the image"
[ -x /lib/systemd/systemd-udevd ] || skip_all "no udevd in the image"
[ ! -e /bin/systemctl ] || skip_all "/bin/systemctl exists: the stand-in would hide it"

log=$VM_STATE/systemctl.22
: >"$log"
printf '#!/bin/sh\necho "$*" >>%s\n' "$log" >/bin/systemctl
chmod 0755 /bin/systemctl
mkdir -p /run/p22
chmod 0755 /run/p22
printf 'arrays:\n  - match: {names: [md1]}\n    read_ahead: 1MiB\n' >/run/p22/pin1.yaml
stop_udev
mdp boot-script --install --target systemd --binary "$MDP" /run/p22/pin1.yaml
expect_exit 0 "boot-script --install --target systemd"
expect_eq "$(grep -c '^RemainAfterExit=yes$' /etc/systemd/system/mdprofile-pin1.service)" 1 \
	"the unit stays active once it has run"

# How many times the rule asked systemctl to (re)start the unit, once udev is done.
runs() {
	udevadm settle --timeout=60
	grep -Ec '^--no-block (re)?start mdprofile-pin1.service$' "$log"
}

start_udev || fail "udevd did not start or settle"
expect_eq "$(runs)" 1 "md1 found running: the rule runs the unit once"
udevadm trigger --action=change --sysname-match=md1
expect_eq "$(runs)" 1 "udevadm trigger --action=change md1: not again"
udevadm trigger --action=add --sysname-match=md1
expect_eq "$(runs)" 1 "udevadm trigger --action=add md1: not again"
udevadm trigger --action=change --subsystem-match=block
expect_eq "$(runs)" 1 "a change event for every block device: not again"
expect_eq "$(grep -vc 'mdprofile-pin1.service$' "$log")" 0 "nothing else was asked of systemctl"

# Stopped and assembled again: a new device, a new udev record, the unit runs again.
members=$(ls -d /sys/block/md1/md/dev-* | sed 's|.*/dev-|/dev/|')
mdadm --stop /dev/md1 >/dev/null 2>&1 || fail "mdadm --stop md1"
udevadm settle --timeout=60
# shellcheck disable=SC2086
mdadm --assemble /dev/md1 $members >/dev/null 2>&1 || fail "mdadm --assemble md1"
expect_eq "$(runs)" 2 "md1 assembled again: the rule runs the unit once more"
udevadm trigger --action=change --sysname-match=md1
expect_eq "$(runs)" 2 "then a change event of md1: not again"
expect_match "$(cat /sys/block/md1/md/array_state)" '^(clean|active)$' "md1 runs again"

mdp boot-script --uninstall --target systemd pin1
expect_exit 0 "boot-script --uninstall by name"
expect_eq "$(find /etc/udev/rules.d /etc/systemd/system /usr/local/lib/mdprofile -name '*-pin1.*' | wc -l)" \
	0 "--uninstall removed the script, the unit and the rule"
stop_udev
rm -f /bin/systemctl
rm -rf /run/p22
