# enable on systemd: mdprofile.service (a oneshot that stays active; stop
# reverts; the udev rule reloads it once per assembly of a pinned array; no
# DSM re-check), mdprofile-auto.service for --auto (simple, restarted on
# failure), enabled with systemctl; the same again changes nothing; disable
# disables and removes them and reverts. Without systemctl, or when it
# fails, nothing is half-enabled: the files stay, the commands are printed,
# exit 1.
export SOURCE_DATE_EPOCH=1767225600
fixture server-raid6-raid10
fakes systemd
B=/usr/local/bin/mdprofile
mkdir -p "$ROOT/usr/local/bin" "$ROOT/p"
printf '#!/bin/sh\n' >"$ROOT$B"
chmod 0755 "$ROOT/usr/local/bin" "$ROOT$B"
printf 'extends: balanced\narrays:\n  - match: {names: [md0]}\n    read_ahead: 8MiB\n' >"$ROOT/p/srv.yaml"
LOG="$ROOT/var/log/fake-services.log"
snapshot

run --services-backend none enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
expect_exit 0
expect_stderr </dev/null
expect_stdout <<'EOF'
md0 stripe_cache_size: 8192 -> 2048
dev.raid.speed_limit_min: 1000 KiB/s -> 50000 KiB/s
md0 read_ahead: 6 MiB -> 8 MiB
md1 read_ahead: 2 MiB -> 4 MiB
profile srv is active
installed the boot script /usr/local/lib/mdprofile/mdprofile.sh
installed the boot unit /etc/systemd/system/mdprofile.service
installed the boot udev rule /etc/udev/rules.d/90-mdprofile.rules
installed the boot watcher unit /etc/systemd/system/mdprofile-auto.service
enabled mdprofile.service and mdprofile-auto.service
the watcher (mdprofile auto reshape-fast) starts at the next boot; now: systemctl start mdprofile-auto.service
profile srv is enabled at every boot (target systemd, watcher: reshape-fast); 'mdprofile disable' undoes it
EOF
expect_file var/log/fake-services.log <<'EOF'
systemctl daemon-reload
systemctl enable mdprofile.service mdprofile-auto.service
EOF
expect_file etc/systemd/system/mdprofile.service <<'EOF'
# mdprofile: applies profile srv at boot (mdprofile enable).
# Remove: mdprofile disable
[Unit]
Description=mdprofile: apply profile srv to the md arrays
After=local-fs.target mdmonitor.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/lib/mdprofile/mdprofile.sh start
ExecReload=/usr/local/lib/mdprofile/mdprofile.sh start
ExecStop=/usr/local/lib/mdprofile/mdprofile.sh stop
TimeoutStartSec=420

[Install]
WantedBy=multi-user.target
EOF
expect_file etc/systemd/system/mdprofile-auto.service <<'EOF'
# mdprofile: applies profile reshape-fast during md operations, over srv (mdprofile enable --auto).
# Remove: mdprofile disable
[Unit]
Description=mdprofile: apply profile reshape-fast while md resyncs, recovers or reshapes
Wants=mdprofile.service
After=mdprofile.service

[Service]
Type=simple
ExecStart=/usr/local/bin/mdprofile auto reshape-fast
Restart=on-failure
RestartSec=10

[Install]
WantedBy=multi-user.target
EOF
expect_file etc/udev/rules.d/90-mdprofile.rules <<'EOF'
# mdprofile: apply profile srv again when an array it pins is assembled
# after boot (mdprofile enable): once
# per assembly, not on later change events (udevadm trigger, a reshape's end).
SUBSYSTEM!="block", GOTO="MDPROFILE_ENABLED_SEEN_end"
KERNEL!="md*", GOTO="MDPROFILE_ENABLED_SEEN_end"
ACTION!="add|change", GOTO="MDPROFILE_ENABLED_SEEN_end"
TEST!="md/array_state", GOTO="MDPROFILE_ENABLED_SEEN_end"
ATTR{md/array_state}=="|clear|inactive", GOTO="MDPROFILE_ENABLED_SEEN_end"
IMPORT{db}="MDPROFILE_ENABLED_SEEN"
ENV{MDPROFILE_ENABLED_SEEN}=="1", GOTO="MDPROFILE_ENABLED_SEEN_end"
ENV{MD_UUID}=="3f6c9a2e:1b4d4e8f:9a7c5d2e:1f0b8c6a", ENV{MDPROFILE_ENABLED_SEEN}="1", RUN+="/bin/systemctl --no-block reload mdprofile.service"
LABEL="MDPROFILE_ENABLED_SEEN_end"
EOF
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile.service" ] &&
	[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile-auto.service" ] ||
	_fail "the units are not enabled"
grep -qx 'recheck_s=0' "$ROOT/usr/local/lib/mdprofile/mdprofile.sh" || _fail "a DSM re-check on systemd"
for sh in sh bash; do
	shellcheck -s "$sh" "$ROOT/usr/local/lib/mdprofile/mdprofile.sh" >"$WORK/sc" 2>&1 ||
		_fail "shellcheck -s $sh: $(head -5 "$WORK/sc")"
done
if command -v systemd-analyze >/dev/null; then
	for u in mdprofile mdprofile-auto; do
		sed -e "s|ExecStart=/usr|ExecStart=$ROOT/usr|" -e "s|ExecReload=/usr|ExecReload=$ROOT/usr|" \
			-e "s|ExecStop=/usr|ExecStop=$ROOT/usr|" -e "s|=mdprofile.service|=$u-test-base.service|" \
			"$ROOT/etc/systemd/system/$u.service" >"$WORK/$u.service"
	done
	cp "$WORK/mdprofile.service" "$WORK/mdprofile-auto-test-base.service"
	systemd-analyze verify "$WORK/mdprofile.service" "$WORK/mdprofile-auto.service" >"$WORK/verify" 2>&1 ||
		_fail "systemd-analyze verify: $(cat "$WORK/verify")"
fi

# The same again: no systemctl call, nothing rewritten.
: >"$LOG"
run --services-backend none -q enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
expect_exit 0
expect_stdout </dev/null
[ -s "$LOG" ] && _fail "enable again ran: $(cat "$LOG")"
# A link removed behind its back: enable again puts it back.
rm "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile.service"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout <<'EOF'
enabled: profile srv at every boot, target systemd, watcher: reshape-fast: NOT intact (run mdprofile enable again)
  script       /usr/local/lib/mdprofile/mdprofile.sh: intact
  unit         /etc/systemd/system/mdprofile.service: intact
  udev rule    /etc/udev/rules.d/90-mdprofile.rules: intact
  watcher unit /etc/systemd/system/mdprofile-auto.service: intact
  unit link    mdprofile.service: disabled
  unit link    mdprofile-auto.service: intact
EOF
run --services-backend none -q enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
expect_exit 0
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile.service" ] || _fail "not enabled again"

# disable: the units disabled, then their files removed, the values reverted.
: >"$LOG"
run --services-backend none disable
expect_exit 0
expect_stderr </dev/null
expect_stdout <<'EOF'
disabled mdprofile.service and mdprofile-auto.service
removed the boot script /usr/local/lib/mdprofile/mdprofile.sh
removed the boot unit /etc/systemd/system/mdprofile.service
removed the boot udev rule /etc/udev/rules.d/90-mdprofile.rules
removed the boot watcher unit /etc/systemd/system/mdprofile-auto.service
reverting profile srv
md1 read_ahead: 4 MiB -> 2 MiB
md0 read_ahead: 8 MiB -> 6 MiB
dev.raid.speed_limit_min: 50000 KiB/s -> 1000 KiB/s
md0 stripe_cache_size: 2048 -> 8192
profile srv is no longer enabled
EOF
expect_file var/log/fake-services.log <<'EOF'
systemctl disable mdprofile.service mdprofile-auto.service
systemctl --no-block stop mdprofile-auto.service
systemctl daemon-reload
EOF
[ -e "$ROOT/etc/mdprofile/enabled" ] && _fail "disable left its record"
[ -z "$(ls "$ROOT/etc/systemd/system/multi-user.target.wants")" ] || _fail "disable left unit links"
# (the directories made for the files stay: the fixture has none)
rm -rf "${ROOT:?}/run/mdprofile/journal" "${ROOT:?}/etc" "${ROOT:?}/usr/local/lib"
expect_unchanged "the tree after disable"

# systemctl fails: the files stay, the commands are printed, exit 1; disable
# then has no units to disable and removes the files.
touch "$ROOT/var/lib/fake-services/.fail-enable"
run --services-backend none -q enable balanced --binary "$B"
expect_exit 1
expect_stderr <<'EOF'
mdprofile: systemctl enable mdprofile.service failed (exit code 1): Failed to enable unit: Access denied
EOF
expect_stdout <<'EOF'
to enable them: systemctl daemon-reload && systemctl enable mdprofile.service && udevadm control --reload-rules
EOF
[ -f "$ROOT/etc/systemd/system/mdprofile.service" ] || _fail "the unit went with systemctl's failure"
rm "$ROOT/var/lib/fake-services/.fail-enable"
# No systemctl at all: the same.
rm "$ROOT/bin/systemctl"
run --services-backend none -q enable balanced --binary "$B"
expect_exit 1
expect_stderr <<'EOF'
mdprofile: systemctl is not on this system: the units are not enabled
EOF
run --services-backend none -q disable
expect_exit 0
expect_stderr </dev/null
[ -e "$ROOT/etc/systemd/system/mdprofile.service" ] && _fail "disable left the unit"
true
