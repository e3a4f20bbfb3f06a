# enable on systemd where the package owns the units (issue 50): with
# mdprofile.service and mdprofile-auto.service in /lib/systemd/system (as the
# .deb and make install put them), enable writes the state they read, the
# script /etc/mdprofile/boot.sh, the udev rule and the record, and enables the
# packaged units: no unit in /etc/systemd/system. status checks those units;
# disable disables them and removes only what enable wrote. An enable made
# before the units were packaged (generated units) is replaced by the packaged
# kind: its units go.
export SOURCE_DATE_EPOCH=1767225600
fixture server-raid6-raid10
fakes systemd
B=/usr/bin/mdprofile
mkdir -p "$ROOT/usr/bin" "$ROOT/p"
printf '#!/bin/sh\n' >"$ROOT$B"
chmod 0755 "$ROOT/usr/bin" "$ROOT$B"
printf 'extends: balanced\narrays:\n  - match: {names: [md0]}\n    read_ahead: 8MiB\n' >"$ROOT/p/srv.yaml"
LOG="$ROOT/var/log/fake-services.log"
E=etc/systemd/system
# the units as make install writes them with BINDIR /usr/bin
pkg_units() {
	mkdir -p "$ROOT/lib/systemd/system"
	for u in mdprofile.service mdprofile-auto.service; do
		sed 's|@BINDIR@|/usr/bin|g' "$SRC/systemd/$u" >"$ROOT/lib/systemd/system/$u"
	done
}

snapshot
# Before the package: enable generates its units.
run_expect 0 . - --services-backend none -q enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
[ -f "$ROOT/$E/mdprofile.service" ] || fail "no generated unit without packaged ones"
pkg_units

# With the package's units: the generated ones go, the state is written, the packaged units
# are enabled.
: >"$LOG"
run_expect 0 services-backend-none-enable - --services-backend none enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
expect_file var/log/fake-services.log fake-services.log
expect_file etc/mdprofile/enabled enabled
for f in "$E/mdprofile.service" "$E/mdprofile-auto.service" usr/local/lib/mdprofile/mdprofile.sh; do
	[ -e "$ROOT/$f" ] && fail "enable left the generated $f"
done
[ -x "$ROOT/etc/mdprofile/boot.sh" ] || fail "no /etc/mdprofile/boot.sh"
grep -q 'mdprofile disable: removes this file, disables the units' "$ROOT/etc/mdprofile/boot.sh" ||
	fail "the script does not say what disable does"
for u in mdprofile.service mdprofile-auto.service; do
	[ "$(readlink "$ROOT/$E/multi-user.target.wants/$u")" = "../../../../lib/systemd/system/$u" ] ||
		fail "$u is not enabled from /lib/systemd/system"
done
# The units run the script where enable writes it, with start and auto.
grep -qx 'ExecStart=/bin/sh /etc/mdprofile/boot.sh start' "$ROOT/lib/systemd/system/mdprofile.service" &&
	grep -qx 'ExecStart=/bin/sh /etc/mdprofile/boot.sh auto' "$ROOT/lib/systemd/system/mdprofile-auto.service" &&
	grep -qx 'auto) exec_auto ;;' "$ROOT/etc/mdprofile/boot.sh" || fail "the units and the script disagree"
if command -v systemd-analyze >/dev/null; then
	mkdir "$WORK/units"
	for u in mdprofile.service mdprofile-auto.service; do
		sed "s|@BINDIR@/mdprofile|$MDP|" "$SRC/systemd/$u" >"$WORK/units/$u"
	done
	# --man=no: man:mdprofile(8) is the repository's man/mdprofile.8, not installed here
	if ! (cd "$WORK/units" && systemd-analyze verify --man=no mdprofile.service \
		mdprofile-auto.service) >"$WORK/verify" 2>&1 || grep -q 'mdprofile' "$WORK/verify"; then
		fail "systemd-analyze verify: $(cat "$WORK/verify")"
	fi
fi

# The same again changes nothing; status names the packaged units.
: >"$LOG"
run_expect 0 - . --services-backend none -q enable "$ROOT/p/srv.yaml" --auto reshape-fast --binary "$B"
[ -s "$LOG" ] && fail "enable again ran: $(cat "$LOG")"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout status
# A packaged unit gone (the package removed behind enable's back): not intact.
mv "$ROOT/lib/systemd/system/mdprofile.service" "$WORK/"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout status.2
mv "$WORK/mdprofile.service" "$ROOT/lib/systemd/system/"

# disable: the packaged units disabled, not removed; what enable wrote gone; reverted.
: >"$LOG"
run_expect 0 services-backend-none-disable - --services-backend none disable
expect_file var/log/fake-services.log fake-services.log.2
[ -e "$ROOT/etc/mdprofile/enabled" ] && fail "disable left its record"
[ -z "$(ls "$ROOT/$E/multi-user.target.wants")" ] || fail "disable left unit links"
[ -f "$ROOT/lib/systemd/system/mdprofile.service" ] || fail "disable removed a packaged unit"
# (the directories made for the files stay: the fixture has none)
rm -rf "${ROOT:?}/run/mdprofile/journal" "${ROOT:?}/etc" "${ROOT:?}/usr/local" "${ROOT:?}/lib"
expect_unchanged "the tree after disable"

# The installed units gone behind enable's back (the package removed without its prerm):
# systemctl cannot disable them, and nothing runs the script; disable removes the rest.
pkg_units
run_expect 0 - . --services-backend none -q enable "$ROOT/p/srv.yaml" --binary "$B"
rm "$ROOT/lib/systemd/system/mdprofile.service" "$ROOT/lib/systemd/system/mdprofile-auto.service"
: >"$LOG"
run_expect 0 disable-units-gone - --services-backend none disable
[ -e "$ROOT/etc/mdprofile/boot.sh" ] || [ -e "$ROOT/etc/mdprofile/enabled" ] &&
	fail "disable left the script or the record"
grep -q 'disable' "$LOG" && fail "disable ran systemctl disable: $(cat "$LOG")"
true
