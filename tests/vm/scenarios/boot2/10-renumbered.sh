# boot2/10-renumbered: the second boot on the same disks assembles the arrays
# under md10 and up; md names are not identities, the tool must still work.
have_mdprofile || skip_all "no mdprofile in the image"
n=$(ls -d /sys/block/md1[0-9] 2>/dev/null | wc -l)
expect_eq "$n" 6 "six arrays assembled as md10..md15"
snapshot "$VM_STATE/snap.b2"
mdp diff reshape-fast
expect_exit 1 "diff on renumbered arrays"
mdp apply reshape-fast
expect_exit 0 "apply on renumbered arrays"
mdp revert
expect_exit 0 "revert on renumbered arrays"
expect_unchanged "$VM_STATE/snap.b2" "byte-identical after revert"
