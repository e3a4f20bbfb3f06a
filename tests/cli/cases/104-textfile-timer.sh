# The textfile export's systemd units (issue 37): systemd accepts them, each says where
# its documentation is, and the service's command writes mdprofile.prom as status
# --format prometheus prints it.
fixture ds220j-dsm7
mkdir "$WORK/units" "$ROOT/textfile"
for u in mdprofile-textfile.service mdprofile-textfile.timer; do
	# as make install writes them, the binary under test in the place of BINDIR's
	sed -e "s|@BINDIR@/mdprofile|$MDP|" -e "s|@DOCDIR@|$SRC/docs|" "$SRC/systemd/$u" >"$WORK/units/$u"
	grep -q '^Documentation=man:mdprofile(8)$' "$WORK/units/$u" || fail "$u: no Documentation="
done
if command -v systemd-analyze >/dev/null; then
	# --man=no: man:mdprofile(8) is the repository's man/mdprofile.8, not installed here
	# and a warning about them (an unknown key) fails too: verify exits 0 on it
	if ! (cd "$WORK/units" && systemd-analyze verify --man=no mdprofile-textfile.timer \
		mdprofile-textfile.service) >"$WORK/verify" 2>&1 ||
		grep -q mdprofile-textfile "$WORK/verify"; then
		fail "systemd-analyze verify: $(cat "$WORK/verify")"
	fi
fi
grep -qx 'OnCalendar=minutely' "$WORK/units/mdprofile-textfile.timer" || fail "the timer is not minutely"
# Without node_exporter's textfile directory the timer does not start (said once) and the
# service, started by hand, does nothing: both name the directory the service writes to,
# which is also the one directory it may write (issue 50).
tdir=/var/lib/prometheus/node-exporter
for u in mdprofile-textfile.service mdprofile-textfile.timer; do
	grep -qx "ConditionPathIsDirectory=$tdir" "$WORK/units/$u" || fail "$u: no condition on $tdir"
	# every file: link opens (a page installed uncompressed)
	# shellcheck disable=SC2013 # paths, one a line, without spaces
	for f in $(sed -n 's|^Documentation=file://||p' "$WORK/units/$u"); do
		[ -f "$f" ] || fail "$u: Documentation=file://$f is no file"
	done
done
# Sandboxed: the system read-only but that directory, no home, no new privileges.
for want in ProtectSystem=strict "ReadWritePaths=$tdir" ProtectHome=yes NoNewPrivileges=yes \
	PrivateTmp=yes ProtectKernelTunables=yes; do
	grep -qx "$want" "$WORK/units/mdprofile-textfile.service" || fail "the service lacks $want"
done
if command -v systemd-analyze >/dev/null &&
	systemd-analyze security --help 2>/dev/null | grep -q -- --offline; then
	# exposure 4.0 or less out of 10 (3.3 when written; 9.0 without the sandbox)
	(cd "$WORK/units" && systemd-analyze security --offline=true --threshold=40 \
		mdprofile-textfile.service) >"$WORK/security" 2>&1 ||
		fail "systemd-analyze security: $(tail -n 1 "$WORK/security")"
fi
# The service's command, on the fixture, its file in a scratch directory.
cmd=$(sed -n 's|^ExecStart=||p' "$WORK/units/mdprofile-textfile.service")
case $cmd in
"$MDP status --format prometheus --output /var/lib/prometheus/node-exporter/mdprofile.prom") ;;
*) fail "ExecStart=$cmd" ;;
esac
args=$(printf '%s\n' "${cmd#"$MDP "}" | sed "s|/var/lib/prometheus/node-exporter/|$ROOT/textfile/|")
# shellcheck disable=SC2086 # the command's words, as systemd splits them (none is quoted)
run_expect 0 - - $args
run status --format prometheus
expect_exit 0
cmp -s "$WORK/out" "$ROOT/textfile/mdprofile.prom" || fail "the service's file is not status's"
