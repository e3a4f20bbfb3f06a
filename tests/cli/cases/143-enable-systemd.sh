# enable on systemd: mdprofile.service (a oneshot that stays active; stop
# reverts; the udev rule reloads it once per assembly of a pinned array; no
# DSM re-check), mdprofile-auto.service for --auto (simple, restarted on
# failure), enabled with systemctl; the same again changes nothing; disable
# disables and removes them and reverts. Without systemctl, or when it
# fails, nothing is half-enabled: the files stay, the commands are printed,
# exit 1.
# tags: heavy
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

run_expect 0 services-backend-none-enable-psrv.yaml - --services-backend none enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
expect_file var/log/fake-services.log fake-services.log
expect_file etc/systemd/system/mdprofile.service mdprofile.service
expect_file etc/systemd/system/mdprofile-auto.service mdprofile-auto.service
expect_file etc/udev/rules.d/90-mdprofile.rules 90-mdprofile.rules
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile.service" ] &&
	[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile-auto.service" ] ||
	fail "the units are not enabled"
grep -qx 'recheck_s=0' "$ROOT/usr/local/lib/mdprofile/mdprofile.sh" || fail "a DSM re-check on systemd"
for sh in sh bash; do
	shellcheck -s "$sh" "$ROOT/usr/local/lib/mdprofile/mdprofile.sh" >"$WORK/sc" 2>&1 ||
		fail "shellcheck -s $sh: $(head -5 "$WORK/sc")"
done
if command -v systemd-analyze >/dev/null; then
	for u in mdprofile mdprofile-auto; do
		sed -e "s|ExecStart=/usr|ExecStart=$ROOT/usr|" -e "s|ExecReload=/usr|ExecReload=$ROOT/usr|" \
			-e "s|ExecStop=-/usr|ExecStop=-$ROOT/usr|" -e "s|/bin/sh /usr|/bin/sh $ROOT/usr|" \
			-e "s|=mdprofile.service|=$u-test-base.service|" \
			"$ROOT/etc/systemd/system/$u.service" >"$WORK/$u.service"
	done
	cp "$WORK/mdprofile.service" "$WORK/mdprofile-auto-test-base.service"
	# --man=no: man:mdprofile(8) is the repository's man/mdprofile.8, not installed here
	systemd-analyze verify --man=no "$WORK/mdprofile.service" "$WORK/mdprofile-auto.service" >"$WORK/verify" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$WORK/verify")"
fi

# The same again: no systemctl call, nothing rewritten.
: >"$LOG"
run_expect 0 - . --services-backend none -q enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
[ -s "$LOG" ] && fail "enable again ran: $(cat "$LOG")"
# A link removed behind its back: enable again puts it back.
rm "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile.service"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout status
run --services-backend none -q enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
expect_exit 0
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile.service" ] || fail "not enabled again"

# disable: the units disabled, then their files removed, the values reverted.
: >"$LOG"
run_expect 0 services-backend-none-disable - --services-backend none disable
expect_file var/log/fake-services.log fake-services.log.2
[ -e "$ROOT/etc/mdprofile/enabled" ] && fail "disable left its record"
[ -z "$(ls "$ROOT/etc/systemd/system/multi-user.target.wants")" ] || fail "disable left unit links"
# (the directories made for the files stay: the fixture has none)
rm -rf "${ROOT:?}/run/mdprofile/journal" "${ROOT:?}/etc" "${ROOT:?}/usr/local/lib"
expect_unchanged "the tree after disable"

# systemctl fails: the files stay, the commands are printed, exit 1; disable
# then has no units to disable and removes the files.
touch "$ROOT/var/lib/fake-services/.fail-enable"
run_expect 1 services-backend-none-q-enable services-backend-none-q-enable --services-backend none -q enable balanced --binary "$B"
[ -f "$ROOT/etc/systemd/system/mdprofile.service" ] || fail "the unit went with systemctl's failure"
rm "$ROOT/var/lib/fake-services/.fail-enable"
# No systemctl at all: the same.
rm "$ROOT/bin/systemctl"
run_expect 1 . services-backend-none-q-enable.2 --services-backend none -q enable balanced --binary "$B"
run_expect 0 . - --services-backend none -q disable
[ -e "$ROOT/etc/systemd/system/mdprofile.service" ] && fail "disable left the unit"
true
