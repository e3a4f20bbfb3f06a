# boot-script --install / --uninstall under --root: each target's files where
# it runs them, with their modes, refused where others could change them, and
# the steps left to the owner.
export SOURCE_DATE_EPOCH=1767225600

# The binary a script runs must be there, root's alone: a stand-in for it.
binary() {
	mkdir -p "$ROOT$(dirname "$1")"
	printf '#!/bin/sh\n' >"$ROOT$1"
	chmod 0755 "$ROOT$1"
}

# DSM: the script next to the binary, on the volume; the Task Scheduler steps.
fixture ds-dsm6-reshape
mkdir -p "$ROOT/volume1/@mdprofile"
chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile"
binary /volume1/@mdprofile/mdprofile
run boot-script --install --binary /volume1/@mdprofile/mdprofile balanced
expect_exit 0
expect_stderr <<'EOF'
EOF
expect_stdout <<'EOF'
installed the boot script /volume1/@mdprofile/mdprofile-balanced.sh
to run it at every boot, in DSM:
Control Panel > Task Scheduler > Create > Triggered Task > User-defined script
General: Task: mdprofile, User: root, Event: Boot-up, Enabled
Task Settings: Run command: bash /volume1/@mdprofile/mdprofile-balanced.sh
EOF
[ "$(stat -c %a "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh")" = 755 ] || _fail "script mode"
run boot-script --binary /volume1/@mdprofile/mdprofile balanced
expect_exit 0
cmp -s "$WORK/out" "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh" ||
	_fail "--install wrote another script than boot-script prints"
run boot-script --uninstall --binary /volume1/@mdprofile/mdprofile balanced
expect_exit 0
expect_stdout <<'EOF'
removed the boot script /volume1/@mdprofile/mdprofile-balanced.sh
then delete its task in DSM: Control Panel > Task Scheduler, select the task, Delete
EOF
[ -e "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh" ] && _fail "--uninstall left the script"
run boot-script --uninstall --binary /volume1/@mdprofile/mdprofile balanced
expect_exit 0
expect_stdout <<'EOF'
no boot files of profile balanced for target dsm to remove
then delete its task in DSM: Control Panel > Task Scheduler, select the task, Delete
EOF
# A shared folder others can write to is refused, and nothing is left there.
mkdir -p "$ROOT/volume1/share"
binary /volume1/share/mdprofile
chmod 0777 "$ROOT/volume1/share"
run boot-script --install --binary /volume1/share/mdprofile balanced
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: refusing to install: --binary /volume1/share/mdprofile: directory @ROOT@/volume1/share is group/world-writable (mode 0777); others could change what the boot script runs as root
EOF
[ "$(ls "$ROOT/volume1/share")" = mdprofile ] || _fail "a refused install left files: $(ls "$ROOT/volume1/share")"
# So is a place for the script others can write to (rc.d here), the binary being fine.
binary /usr/local/bin/mdprofile
mkdir -p "$ROOT/usr/local/etc/rc.d"
chmod 0777 "$ROOT/usr/local/etc/rc.d"
run boot-script --install --target rc.d --binary /usr/local/bin/mdprofile balanced
expect_exit 2
expect_stderr <<'EOF'
mdprofile: refusing to install the boot script /usr/local/etc/rc.d/mdprofile-balanced.sh: directory @ROOT@/usr/local/etc/rc.d is group/world-writable (mode 0777); others could change what runs as root at boot
EOF
[ -z "$(ls "$ROOT/usr/local/etc/rc.d")" ] || _fail "a refused install left files"
chmod 0755 "$ROOT/usr/local/etc/rc.d"

# rc.d: /usr/local/etc/rc.d/mdprofile-NAME.sh.
run boot-script --install --target rc.d --binary /usr/local/bin/mdprofile balanced
expect_exit 0
expect_stdout <<'EOF'
installed the boot script /usr/local/etc/rc.d/mdprofile-balanced.sh
DSM 6 runs /usr/local/etc/rc.d/*.sh with start at every boot; to run it now: /usr/local/etc/rc.d/mdprofile-balanced.sh start
EOF
[ "$(stat -c %a "$ROOT/usr/local/etc/rc.d/mdprofile-balanced.sh")" = 755 ] || _fail "rc.d mode"
run boot-script --uninstall --target rc.d balanced
expect_exit 0
expect_stdout <<'EOF'
removed the boot script /usr/local/etc/rc.d/mdprofile-balanced.sh
EOF

# systemd: the script, a oneshot unit and a udev rule for the pinned UUIDs.
fixture server-raid6-raid10
mkdir -p "$ROOT/p"
printf 'extends: balanced\narrays:\n  - match: {names: [md0]}\n    read_ahead: 8MiB\n' >"$ROOT/p/srv.yaml"
binary /usr/local/bin/mdprofile
run boot-script --install "$ROOT/p/srv.yaml" --wait-arrays 60 --recheck-after 30 \
	--binary /usr/local/bin/mdprofile
expect_exit 0
expect_stdout <<'EOF'
installed the boot script /usr/local/lib/mdprofile/mdprofile-srv.sh
installed the boot unit /etc/systemd/system/mdprofile-srv.service
installed the boot udev rule /etc/udev/rules.d/90-mdprofile-srv.rules
to enable it: systemctl daemon-reload && systemctl enable mdprofile-srv.service && udevadm control --reload-rules
EOF
expect_file etc/systemd/system/mdprofile-srv.service <<'EOF'
# mdprofile: applies profile srv at boot (mdprofile boot-script --install).
# Remove: mdprofile boot-script --uninstall --target systemd srv
[Unit]
Description=mdprofile: apply profile srv to the md arrays
After=local-fs.target mdmonitor.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/lib/mdprofile/mdprofile-srv.sh start
TimeoutStartSec=390

[Install]
WantedBy=multi-user.target
EOF
expect_file etc/udev/rules.d/90-mdprofile-srv.rules <<'EOF'
# mdprofile: apply profile srv again when an array it pins is assembled
# after boot (mdprofile boot-script --install --target systemd): once
# per assembly, not on later change events (udevadm trigger, a reshape's end).
SUBSYSTEM!="block", GOTO="MDPROFILE_SEEN_srv_end"
KERNEL!="md*", GOTO="MDPROFILE_SEEN_srv_end"
ACTION!="add|change", GOTO="MDPROFILE_SEEN_srv_end"
TEST!="md/array_state", GOTO="MDPROFILE_SEEN_srv_end"
ATTR{md/array_state}=="|clear|inactive", GOTO="MDPROFILE_SEEN_srv_end"
IMPORT{db}="MDPROFILE_SEEN_srv"
ENV{MDPROFILE_SEEN_srv}=="1", GOTO="MDPROFILE_SEEN_srv_end"
ENV{MD_UUID}=="3f6c9a2e:1b4d4e8f:9a7c5d2e:1f0b8c6a", ENV{MDPROFILE_SEEN_srv}="1", RUN+="/bin/systemctl --no-block restart mdprofile-srv.service"
LABEL="MDPROFILE_SEEN_srv_end"
EOF
[ "$(stat -c %a "$ROOT/etc/systemd/system/mdprofile-srv.service")" = 644 ] || _fail "unit mode"
grep -qx '# Remove:  mdprofile boot-script --uninstall --target systemd srv' \
	"$ROOT/usr/local/lib/mdprofile/mdprofile-srv.sh" || _fail "the script does not say how to remove it"
if command -v systemd-analyze >/dev/null; then
	# verify wants ExecStart to exist on this host: point it at a copy in $WORK.
	sed "s|ExecStart=/usr|ExecStart=$ROOT/usr|" "$ROOT/etc/systemd/system/mdprofile-srv.service" \
		>"$WORK/mdprofile-srv.service"
	systemd-analyze verify "$WORK/mdprofile-srv.service" >"$WORK/verify" 2>&1 ||
		_fail "systemd-analyze verify: $(cat "$WORK/verify")"
fi
# An enabled unit is not removed from under systemd.
mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
ln -s ../mdprofile-srv.service "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile-srv.service"
run boot-script --uninstall "$ROOT/p/srv.yaml"
expect_exit 3
expect_stderr <<'EOF'
mdprofile: mdprofile-srv.service is enabled: run 'systemctl disable mdprofile-srv.service' first
EOF
rm "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile-srv.service"
run boot-script --uninstall "$ROOT/p/srv.yaml"
expect_exit 0
expect_stdout <<'EOF'
removed the boot script /usr/local/lib/mdprofile/mdprofile-srv.sh
removed the boot unit /etc/systemd/system/mdprofile-srv.service
removed the boot udev rule /etc/udev/rules.d/90-mdprofile-srv.rules
then: systemctl daemon-reload && udevadm control --reload-rules
EOF

run boot-script --install --uninstall balanced
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --install and --uninstall: choose one
EOF
run boot-script --install -o "$WORK/x.sh" balanced
expect_exit 2
expect_stderr <<'EOF'
mdprofile: -o and --install: choose one
EOF

# The README's DSM walk-through shows what --install prints.
fixture ds-dsm6-reshape
mkdir -p "$ROOT/volume1/@mdprofile"
chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile"
binary /volume1/@mdprofile/mdprofile
run boot-script --install --binary /volume1/@mdprofile/mdprofile reshape-fast
expect_exit 0
sed -n '/^   which prints$/,/^4\. /p' "$SRC/README.md" | sed -n 's/^       //p' >"$WORK/readme"
cmp -s "$WORK/readme" "$WORK/out" ||
	_fail "README's walk-through differs from --install: $(diff "$WORK/readme" "$WORK/out")"
