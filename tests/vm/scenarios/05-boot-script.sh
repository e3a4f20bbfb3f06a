# 05-boot-script, boot 1 of the boot persistence proof: a profile that names
# md1, md2 and md5 (reshaping) becomes a DSM boot script, installed next to the
# binary as DSM owners keep it; the script and what each array must get (by
# mdadm's UUID) go to the spare disk d22 for boot2/05-boot-script, which runs
# it after the arrays come back under other numbers.
have_mdprofile || skip_all "no mdprofile in the image"

spare=$(serial_disk d22) || skip_all "no spare disk d22"
home=/volume1/@mdprofile
mkdir -p "$home"
chmod 0755 /volume1 "$home"
cp "$MDP" "$home/mdprofile"
cat >/run/vmboot.yaml <<'EOF'
raid:
  speed_limit_min: 20000
arrays:
  - match: {names: [md1]}
    stripe_cache_size: 512
  - match: {names: [md2]}
    stripe_cache_size: 1024
    read_ahead: 4MiB
  - match: {names: [md5]}
    stripe_cache_size: 2048
  - match: {levels: [raid10]}
    read_ahead: 2MiB
EOF
snapshot "$VM_STATE/snap.05"
run "$home/mdprofile" boot-script --install --target dsm --binary "$home/mdprofile" \
	--wait-arrays 30 --recheck-after 2 /run/vmboot.yaml
expect_exit 0 "boot-script --install"
output_match "^Task Settings: Run command: bash $home/mdprofile-vmboot.sh\$" \
	"the Task Scheduler command line"
expect_unchanged "$VM_STATE/snap.05" "generating and installing change no tunable"
script=$home/mdprofile-vmboot.sh
expect_eq "$(stat -c %a "$script")" 755 "the script is 0755"
expect_match "$(cat "$script")" "^#            $(tr -d - </sys/block/md2/md/uuid) \\(md2 when generated\\)\$" \
	"the header names md2's UUID"

uuid() { mdadm --detail --export "/dev/$1" | sed -n 's/^MD_UUID=//p' | tr -d :; }
{
	echo "- /proc/sys/dev/raid/speed_limit_min 20000"
	echo "$(uuid md1) md/stripe_cache_size 512"
	echo "$(uuid md2) md/stripe_cache_size 1024"
	echo "$(uuid md2) queue/read_ahead_kb 4096"
	echo "$(uuid md5) md/stripe_cache_size 2048"
	echo "$(uuid md3) queue/read_ahead_kb 2048"
} >/run/vmboot.expect
uuid md5 >/run/vmboot.reshaping
tar -cf - -C / "${script#/}" run/vmboot.expect run/vmboot.reshaping | dd of="$spare" bs=64k conv=fsync 2>/dev/null
rc=$?
expect_eq "$rc" 0 "script and expectations kept on d22"
