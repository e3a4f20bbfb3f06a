# 98-enable, boot 1 of the set-and-forget proof on a DSM-like box: the only
# DSM piece is tests/fakes' esynoscheduler (it behaves as src/boot.c's DSM
# facts say DSM's does). `mdprofile enable low-ram --auto reshape-fast`
# applies low-ram now, as the base, and creates the one boot-up task; the
# task database, the script and enable's record go to the spare disk d22 (at
# 4 MiB: 05-boot-script keeps the first MiB) for boot2/30-enable, which fires
# the boot-up event as DSM does at boot.
have_mdprofile || skip_all "no mdprofile in the image"
spare=$(serial_disk d22) || skip_all "no spare disk d22"

# the fake esynoscheduler at DSM's path, its state and log on the guest's own root
home=/volume1/@mdprofile
dsm_fakes "$home"

snapshot "$VM_STATE/snap.98"
run "$home/mdprofile" enable low-ram --auto reshape-fast --target dsm \
	--binary "$home/mdprofile" --wait-arrays 30 --recheck-after 2
assert_exit 0 "enable low-ram --auto reshape-fast --target dsm"
assert_out '^created the Task Scheduler boot-up task mdprofile: /bin/bash /volume1/@mdprofile/mdprofile.sh$' \
	"it says it created the boot-up task"
run /usr/syno/sbin/esynoscheduler --get task_name=mdprofile
assert_out '"enable" *: *true' "the task is stored enabled"
mdp status
assert_out '^active profile: low-ram since .*, applied by mdprofile enable$' "low-ram is active, by enable"
assert_out '^enabled: profile low-ram at every boot, target dsm' "status says what is enabled"

tar -cf - -C / volume1/@mdprofile/mdprofile.sh etc/mdprofile/enabled \
	var/lib/fake-esynoscheduler | dd of="$spare" bs=64k seek=64 conv=fsync 2>/dev/null
assert_eq "$?" 0 "the task, the script and the record kept on d22"

# The box as it was for whatever runs next; the task stays for boot 2.
mdp -q revert --all
assert_exit 0 "revert --all"
assert_snapshot "$VM_STATE/snap.98" "the values from before enable"
