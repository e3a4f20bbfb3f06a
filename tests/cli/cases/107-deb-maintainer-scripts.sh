# The Debian package's maintainer scripts (issue 50): removal undoes enable and reverts
# what is applied and never fails for it; an upgrade keeps it all and restarts the
# watcher once systemd has read the package's new units; purge removes /etc/mdprofile and
# the state directories. The scripts run on the fixture (DPKG_ROOT) with a stand-in
# mdprofile, systemctl and deb-systemd-invoke that log their arguments; tools/deb-check.sh and make piuparts run the real ones.
fixture ds220j-dsm7
exit_checked
bin="$WORK/bin"
mkdir -p "$bin" "$ROOT/etc/mdprofile/profiles" "$ROOT/run/mdprofile" "$ROOT/run/systemd/system" \
	"$ROOT/var/lib/mdprofile/checkpoint"
for t in mdprofile systemctl deb-systemd-invoke; do
	printf '#!/bin/sh\necho "%s $*" >>"$WORK/calls"\nexit "${FAKE_RC:-0}"\n' "$t" >"$bin/$t"
	chmod 0755 "$bin/$t"
done
echo '# mdprofile enable: what is enabled; mdprofile disable removes it' >"$ROOT/etc/mdprofile/enabled"
echo 'description: mine' >"$ROOT/etc/mdprofile/profiles/mine.yaml"
: >"$ROOT/run/mdprofile/journal"
# maint SCRIPT ARGS...: the script's exit code in RC, its stderr in $WORK/err
maint() {
	s=$1
	shift
	: >"$WORK/calls"
	RC=0
	PATH="$bin:$PATH" DPKG_ROOT=$ROOT WORK=$WORK sh "$SRC/debian/mdprofile.$s" "$@" \
		>"$WORK/out" 2>"$WORK/err" || RC=$?
	[ "$RC" -eq 0 ] || fail "$s $*: exit $RC"
}
calls() { printf '%s\n' "$@" | cmp -s "$WORK/calls" - || fail "calls: $(cat "$WORK/calls")"; }

maint prerm remove
calls 'mdprofile disable' 'mdprofile -q revert --all'
[ ! -s "$WORK/err" ] || fail "prerm said: $(cat "$WORK/err")"
# a failure is said and does not stop the removal
FAKE_RC=3 maint prerm remove
calls 'mdprofile disable' 'mdprofile -q revert --all'
grep -q "^mdprofile: 'mdprofile disable' failed (exit 3)" "$WORK/err" || fail "prerm: $(cat "$WORK/err")"
# an upgrade keeps what is enabled and applied
maint prerm upgrade 1.0.0
[ ! -s "$WORK/calls" ] || fail "prerm upgrade ran: $(cat "$WORK/calls")"
maint postinst configure 1.0.0
calls 'systemctl --system daemon-reload' 'deb-systemd-invoke try-restart mdprofile-auto.service'
FAKE_RC=1 maint postinst configure 1.0.0
grep -q 'systemctl restart mdprofile-auto.service' "$WORK/err" || fail "postinst: $(cat "$WORK/err")"
# a first install restarts nothing
maint postinst configure
[ ! -s "$WORK/calls" ] || fail "postinst on install ran: $(cat "$WORK/calls")"
# remove keeps the configuration, purge removes it and the state directory
maint postrm remove
[ -s "$ROOT/etc/mdprofile/profiles/mine.yaml" ] || fail "postrm remove removed /etc/mdprofile"
maint postrm purge
[ ! -e "$ROOT/etc/mdprofile" ] || fail "purge left /etc/mdprofile"
[ ! -e "$ROOT/run/mdprofile" ] || fail "purge left /run/mdprofile"
[ ! -e "$ROOT/var/lib/mdprofile" ] || fail "purge left /var/lib/mdprofile"
[ -d "$ROOT/run/systemd/system" ] || fail "purge removed more than its own"
