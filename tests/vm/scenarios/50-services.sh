# 50-services: on a DSM 6 look-alike, apply pauses the profile's services through
# synoservice and revert resumes exactly those it paused (invariant 6).
have_mdprofile || skip_all "no mdprofile in the image"
SYNO=/tmp/syno   # the fake's state: one file per service holding start|stop|pause

fake_dsm() {
	mkdir -p /etc.defaults /usr/syno/sbin /usr/syno/bin "$SYNO"
	printf 'majorversion="6"\nminorversion="2"\nproductversion="6.2.4"\nbuildnumber="25556"\n' \
		>/etc.defaults/VERSION
	cat >/usr/syno/sbin/synoservice <<'SH'
#!/bin/sh
# Fake DSM 6 synoservice: state in /tmp/syno/NAME, every call logged.
echo "$*" >>/tmp/syno/calls.log
f=/tmp/syno/$2
[ -f "$f" ] || { echo "Service [$2] is not found"; exit 1; }
case $1 in
--status)
	# A paused service stays enabled but its upstart job is stopped.
	s=$(cat "$f")
	job=stop
	[ "$s" = start ] && job=start
	echo "service [$2] status=[enable]"
	echo "required upstart job:"
	echo "	[$2] is $job."
	[ "$s" = start ] && exit 0
	exit 1 ;;
--pause) echo pause >"$f" ;;
--resume) echo start >"$f" ;;
--stop) echo stop >"$f" ;;
--start) echo start >"$f" ;;
*) echo "unknown option $1"; exit 2 ;;
esac
SH
	chmod 0755 /usr/syno/sbin/synoservice
	echo start >"$SYNO/synoindexd"
	echo start >"$SYNO/synomkthumbd"
	echo stop >"$SYNO/synorelayd"   # the user stopped this one
	: >"$SYNO/calls.log"
}

unfake_dsm() {
	rm -rf /etc.defaults /usr/syno "$SYNO"
}

state() {
	cat "$SYNO/$1"
}

cat >"$PROFILES/svc.yaml" <<'YAML'
description: pause indexing during RAID work
raid:
  speed_limit_min: 50000
services:
  pause:
    - synoindexd
    - synomkthumbd
    - synorelayd
YAML

fake_dsm
snapshot "$VM_STATE/snap.50"
mdp apply "$PROFILES/svc.yaml"
assert_exit 0 "apply with services on DSM 6"
assert_ne "$(state synoindexd)" start "synoindexd paused"
assert_ne "$(state synomkthumbd)" start "synomkthumbd paused"
assert_eq "$(state synorelayd)" stop "synorelayd (stopped by the user) left alone"
assert_match "$(cat $SYNO/calls.log)" "^--pause synoindexd" "synoservice --pause synoindexd called"
mdp revert
assert_exit 0 "revert with services"
assert_eq "$(state synoindexd)" start "synoindexd resumed"
assert_eq "$(state synomkthumbd)" start "synomkthumbd resumed"
assert_eq "$(state synorelayd)" stop "synorelayd still stopped after revert"
if grep -q -- "synorelayd" "$SYNO/calls.log" && grep -Eq -- "--(resume|start) synorelayd" "$SYNO/calls.log"; then
	fail "synorelayd was started by revert"
else
	ok "synorelayd never started"
fi
assert_snapshot "$VM_STATE/snap.50" "tunables byte-identical after revert"

# A crash after each service step (the tunable is already written): recover
# resumes what was paused and restores the tunables on the real kernel.
for k in 1 2; do
	MDPROFILE_FAULT=crash-after-service:$k mdp apply "$PROFILES/svc.yaml"
	if [ "$RC" != 137 ]; then
		fail "crash-after-service:$k did not kill apply (exit $RC)"
		show_last
		mdp revert
		continue
	fi
	assert_ne "$(state synoindexd)" start "synoindexd paused when killed after step $k"
	mdp recover
	assert_exit 0 "recover after a crash after service step $k"
	assert_eq "$(state synoindexd)" start "synoindexd resumed by recover ($k)"
	assert_eq "$(state synomkthumbd)" start "synomkthumbd running after recover ($k)"
	assert_eq "$(state synorelayd)" stop "synorelayd still stopped after recover ($k)"
	assert_snapshot "$VM_STATE/snap.50" "tunables byte-identical after recover ($k)"
done
echo "    synoservice calls: $(tr '\n' ';' <"$SYNO/calls.log")"
unfake_dsm
