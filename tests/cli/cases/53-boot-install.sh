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
run_expect 0 boot-script-install-binary-volume1mdprof - boot-script --install --binary /volume1/@mdprofile/mdprofile balanced
[ "$(stat -c %a "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh")" = 755 ] || fail "script mode"
run boot-script --binary /volume1/@mdprofile/mdprofile balanced
expect_exit 0
cmp -s "$WORK/out" "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh" ||
	fail "--install wrote another script than boot-script prints"
run_expect 0 boot-script-uninstall-binary-volume1mdpr . boot-script --uninstall --binary /volume1/@mdprofile/mdprofile balanced
[ -e "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh" ] && fail "--uninstall left the script"
run_expect 0 boot-script-uninstall-binary-volume1mdpr.2 . boot-script --uninstall --binary /volume1/@mdprofile/mdprofile balanced
# A shared folder others can write to is refused, and nothing is left there.
mkdir -p "$ROOT/volume1/share"
binary /volume1/share/mdprofile
chmod 0777 "$ROOT/volume1/share"
run_expect 2 - boot-script-install-binary-volume1sharem boot-script --install --binary /volume1/share/mdprofile balanced
[ "$(ls "$ROOT/volume1/share")" = mdprofile ] || fail "a refused install left files: $(ls "$ROOT/volume1/share")"
# So is a place for the script others can write to (rc.d here), the binary being fine.
binary /usr/local/bin/mdprofile
mkdir -p "$ROOT/usr/local/etc/rc.d"
chmod 0777 "$ROOT/usr/local/etc/rc.d"
run_expect 2 . boot-script-install-target-rc.d boot-script --install --target rc.d --binary /usr/local/bin/mdprofile balanced
[ -z "$(ls "$ROOT/usr/local/etc/rc.d")" ] || fail "a refused install left files"
chmod 0755 "$ROOT/usr/local/etc/rc.d"

# rc.d: /usr/local/etc/rc.d/mdprofile-NAME.sh.
run_expect 0 boot-script-install-target-rc.d . boot-script --install --target rc.d --binary /usr/local/bin/mdprofile balanced
[ "$(stat -c %a "$ROOT/usr/local/etc/rc.d/mdprofile-balanced.sh")" = 755 ] || fail "rc.d mode"
run_expect 0 boot-script-uninstall-target-rc.d . boot-script --uninstall --target rc.d balanced

# systemd: the script, a oneshot unit and a udev rule for the pinned UUIDs.
fixture server-raid6-raid10
mkdir -p "$ROOT/p"
printf 'extends: balanced\narrays:\n  - match: {names: [md0]}\n    read_ahead: 8MiB\n' >"$ROOT/p/srv.yaml"
binary /usr/local/bin/mdprofile
run boot-script --install "$ROOT/p/srv.yaml" --wait-arrays 60 --recheck-after 30 \
	--binary /usr/local/bin/mdprofile
expect_exit 0
expect_stdout boot-script-install-psrv.yaml-wait-array
expect_file etc/systemd/system/mdprofile-srv.service mdprofile-srv.service
expect_file etc/udev/rules.d/90-mdprofile-srv.rules 90-mdprofile-srv.rules
[ "$(stat -c %a "$ROOT/etc/systemd/system/mdprofile-srv.service")" = 644 ] || fail "unit mode"
grep -qx '# Remove:  mdprofile boot-script --uninstall --target systemd srv' \
	"$ROOT/usr/local/lib/mdprofile/mdprofile-srv.sh" || fail "the script does not say how to remove it"
if command -v systemd-analyze >/dev/null; then
	# verify wants ExecStart to exist on this host: point it at a copy in $WORK.
	sed "s|ExecStart=/usr|ExecStart=$ROOT/usr|" "$ROOT/etc/systemd/system/mdprofile-srv.service" \
		>"$WORK/mdprofile-srv.service"
	# --man=no: man:mdprofile(8) is the repository's man/mdprofile.8, not installed here
	systemd-analyze verify --man=no "$WORK/mdprofile-srv.service" >"$WORK/verify" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$WORK/verify")"
fi
# An enabled unit is not removed from under systemd.
mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
ln -s ../mdprofile-srv.service "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile-srv.service"
run_expect 3 . boot-script-uninstall-psrv.yaml boot-script --uninstall "$ROOT/p/srv.yaml"
rm "$ROOT/etc/systemd/system/multi-user.target.wants/mdprofile-srv.service"
run_expect 0 boot-script-uninstall-psrv.yaml . boot-script --uninstall "$ROOT/p/srv.yaml"

run_expect 2 . boot-script-install-uninstall-balanced boot-script --install --uninstall balanced
run_expect 2 . boot-script-install-o-x.sh boot-script --install -o "$WORK/x.sh" balanced

# docs/dsm.md's walk-through (section 6) shows what --install prints.
fixture ds-dsm6-reshape
mkdir -p "$ROOT/volume1/@mdprofile"
chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile"
binary /volume1/@mdprofile/mdprofile
run boot-script --install --binary /volume1/@mdprofile/mdprofile reshape-fast
expect_exit 0
sed -n '/^   prints$/,/^3\. /p' "$SRC/docs/dsm.md" | sed -n 's/^       //p' >"$WORK/readme"
cmp -s "$WORK/readme" "$WORK/out" ||
	fail "docs/dsm.md's walk-through differs from --install: $(diff "$WORK/readme" "$WORK/out")"
