# The fake esynoscheduler (tests/fakes) answers as DSM 6.2.3's own does
# (struct mdp_boot_dsm, src/boot/boot.c): exit 0 on failure, "(PID) file:LINE"
# prefixes, defaults for omitted parameters, a UNIQUE failure that keeps the
# old row, '%' that saves nothing, "%s"/"%d" that crash, --set's lie,
# --get/--list/--delete, and --fireEvent running every enabled task.
# tags: heavy no-valgrind (tests the fake; runs no mdprofile)
fixture ds-dsm6-reshape
fakes esynoscheduler
E="$ROOT/usr/syno/sbin/esynoscheduler"
# Run the fake as mdprofile would (MDPROFILE_ROOT set), PIDs shown as PID.
es() {
	LAST="esynoscheduler $*"
	set +e
	MDPROFILE_ROOT=$ROOT "$E" "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	set -e
	sed -i 's/^([0-9]*) /(PID) /' "$WORK/out"
}

es --create task_name=t1 event=bootup enable=true 'owner={"0":"root"}' operation_type=script \
	'operation=/bin/bash /volume1/x.sh' description=mine
expect_exit 0
expect_stdout cmd
# The same name again: no "save ok", exit 0, the old row kept.
es --create task_name=t1 enable=true operation=other
expect_exit 0
expect_stdout cmd.2
es --get task_name=t1
grep -q '"operation" : "/bin/bash /volume1/x.sh"' "$WORK/out" || fail "the UNIQUE failure changed the old row"
# Omitted parameters: defaults, a disabled task of admin's; enable=yes is not true.
es --create task_name=t2 enable=yes
expect_stdout cmd.3
# '%' saves nothing; %s and %d crash.
es --create task_name=t3 enable=true 'operation=echo 50%'
expect_exit 0
expect_stdout cmd.4
for v in 'echo %s' 'echo %d'; do
	es --create task_name=t3 enable=true "operation=$v"
	expect_exit 139
done
es --get task_name=t3
expect_stdout cmd.5
# --set says "save ok" for a task that does not exist, and creates none.
es --set task_name=t3 enable=true
expect_exit 0
expect_stdout cmd.6
es --list
expect_exit 0
[ "$(tail -n 1 "$WORK/out")" = "(PID) esynoscheduler.cpp:289 total number=2" ] ||
	fail "--list: $(tail -n 1 "$WORK/out")"
head -n 1 "$WORK/out" | grep -qx '(PID) esynoscheduler.cpp:287 jOut=\[' || fail "--list: $(head -n 1 "$WORK/out")"
# --delete: the same "delete task ok" whether there was one or not.
es --delete task_name=t2
expect_stdout cmd.7
es --delete task_name=t2
expect_stdout cmd.8
# --fireEvent runs each enabled task of the event (here with the fixture's
# paths), not the disabled ones, and waits for them.
es --delete task_name=t1
es --create task_name=t4 enable=true "operation=echo t4 >$ROOT/fired.t4"
es --create task_name=t5 enable=false "operation=echo t5 >$ROOT/fired.t5"
es --fireEvent event=bootup
expect_exit 0
[ "$(cat "$ROOT/fired.t4" 2>/dev/null)" = t4 ] || fail "--fireEvent did not run the enabled task"
[ -e "$ROOT/fired.t5" ] && fail "--fireEvent ran a disabled task"
[ -z "$(ls "$ROOT/tmp" 2>/dev/null)" ] || fail "--fireEvent left $(ls "$ROOT/tmp")"
