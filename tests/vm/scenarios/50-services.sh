# 50-services: the DSM 6 and DSM 7 fakes of tests/fakes/ (which behave as the
# facts at the top of src/txn/services.c say DSM's tools do) on the real kernel:
# apply pauses by reason, a service DSM holds for its own reason stays
# stopped after revert, a crash after each service step is recovered, and
# the tunables come back byte-identical every time (invariant 6 throughout).
have_mdprofile || skip_all "no mdprofile in the image"
FAKE=/lab/fake-root # the fakes' own root: their state, their log and lib.sh

# fake_dsm MAJOR: the fakes installed for DSM MAJOR. mdprofile runs the tools
# on the real root, where it gives them no MDPROFILE_ROOT: small wrappers in
# /usr/syno (and /usr/bin/systemctl on DSM 7) point them at $FAKE.
fake_dsm() {
	rm -rf "$FAKE"
	mkdir -p "$FAKE/etc.defaults" /etc.defaults
	printf 'majorversion="%s"\nminorversion="2"\n' "$1" >"$FAKE/etc.defaults/VERSION"
	cp "$FAKE/etc.defaults/VERSION" /etc.defaults/VERSION
	sh /lab/fakes/install.sh "$FAKE" "dsm$1" synoindexd=running synomkthumbd=running \
		synorelayd=stopped || fail "install.sh dsm$1"
	for t in usr/syno/sbin/synoservice usr/syno/bin/synosystemctl usr/syno/bin/synopkg \
		usr/bin/systemctl; do
		[ -e "$FAKE/$t" ] || continue
		mkdir -p "/${t%/*}"
		printf '#!/bin/sh\nMDPROFILE_ROOT=%s exec %s/%s "$@"\n' "$FAKE" "$FAKE" "$t" >"/$t"
		chmod 0755 "/$t"
	done
}

unfake_dsm() {
	rm -rf /etc.defaults /usr/syno /usr/bin/systemctl "$FAKE"
}

state() {
	cat "$FAKE/var/lib/fake-services/$1"
}

calls() {
	tr '\n' ';' <"$FAKE/var/log/fake-services.log"
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

# services MAJOR PAUSED PAUSE_CALL: one DSM generation from apply to revert.
services() {
	major=$1 paused=$2 pause_call=$3
	fake_dsm "$major"
	snapshot "$VM_STATE/snap.50"
	mdp apply "$PROFILES/svc.yaml"
	expect_exit 0 "DSM $major: apply with services"
	expect_eq "$(state synoindexd)" "$paused" "DSM $major: synoindexd paused"
	expect_eq "$(state synomkthumbd)" "$paused" "DSM $major: synomkthumbd paused"
	expect_eq "$(state synorelayd)" stopped "DSM $major: synorelayd (stopped by the user) left alone"
	expect_match "$(calls)" "$pause_call" "DSM $major: paused by reason, arguments in DSM $major's order"
	# DSM stops synomkthumbd for a reason of its own while the profile is active.
	echo no-volume >>"$FAKE/var/lib/fake-services/synomkthumbd.reasons"
	mdp revert
	expect_exit 0 "DSM $major: revert with services"
	expect_eq "$(state synoindexd)" running "DSM $major: synoindexd resumed"
	expect_eq "$(state synomkthumbd)" "$paused" "DSM $major: synomkthumbd still held by DSM's reason"
	expect_match "$OUT" "synomkthumbd: released mdprofile's pause" "DSM $major: revert says so"
	expect_eq "$(state synorelayd)" stopped "DSM $major: synorelayd still stopped after revert"
	expect_unchanged "$VM_STATE/snap.50" "DSM $major: tunables byte-identical after revert"
	rm "$FAKE/var/lib/fake-services/synomkthumbd.reasons"
	echo running >"$FAKE/var/lib/fake-services/synomkthumbd"

	# A crash after each service step (the tunable is already written):
	# recover resumes what was paused and restores the tunables.
	for k in 1 2; do
		MDPROFILE_FAULT=crash-after-service:$k mdp apply "$PROFILES/svc.yaml"
		if [ "$RC" != 137 ]; then
			fail "DSM $major: crash-after-service:$k did not kill apply (exit $RC)"
			show_last
			mdp revert
			continue
		fi
		expect_eq "$(state synoindexd)" "$paused" "DSM $major: synoindexd paused when killed after step $k"
		mdp recover
		expect_exit 0 "DSM $major: recover after a crash after service step $k"
		expect_eq "$(state synoindexd)" running "DSM $major: synoindexd resumed by recover ($k)"
		expect_eq "$(state synomkthumbd)" running "DSM $major: synomkthumbd running after recover ($k)"
		expect_eq "$(state synorelayd)" stopped "DSM $major: synorelayd still stopped after recover ($k)"
		expect_unchanged "$VM_STATE/snap.50" "DSM $major: tunables byte-identical after recover ($k)"
	done
	if grep -Eq -- "(--resume|--resume-by-reason|start|start-service-by-reason mdprofile) synorelayd" \
		"$FAKE/var/log/fake-services.log"; then
		fail "DSM $major: synorelayd was started"
	else
		ok "DSM $major: synorelayd never started"
	fi
	echo "    DSM $major calls: $(calls)"
	unfake_dsm
}

services 6 paused "--pause-by-reason synoindexd mdprofile"
services 7 stopped "stop-service-by-reason mdprofile synoindexd"
