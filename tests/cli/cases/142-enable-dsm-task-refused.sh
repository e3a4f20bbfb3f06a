# enable on DSM when the Task Scheduler task cannot be made as asked:
# esynoscheduler missing, a --create without "save ok", one that says
# "save ok" but saved nothing. Nothing is half-installed: the script stays,
# no task is left that is not the one asked for, the steps to create it by
# hand are printed, and the exit code is 1. A task "mdprofile" that enable
# did not create is never deleted (enable refuses it, disable leaves it); a
# '%' in what would go to esynoscheduler is refused before anything changes.
# tags: heavy
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
dsm_binary
ES="$ROOT/usr/syno/sbin/esynoscheduler"

# No esynoscheduler: the profile applied, the script installed, the steps printed, exit 1.
run_expect 1 services-backend-none-enable-balanced services-backend-none-enable-balanced --services-backend none enable balanced --binary "$B"
[ -f "$ROOT/volume1/@mdprofile/mdprofile.sh" ] || fail "the script went with the task"
run status
expect_exit 0
sed -n '/^enabled:/,$p' "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout status
# Asked again it tries the task again (and says so again).
run --services-backend none -q enable balanced --binary "$B"
expect_exit 1
# disable removes the script, says to delete a task made by hand, and reverts.
run_expect 0 - - --services-backend none -q disable
[ -e "$ROOT/volume1/@mdprofile/mdprofile.sh" ] && fail "disable left the script"

# A --create that prints no "save ok" (and saves nothing), and one that says
# "save ok" but saves nothing: no task, the steps, exit 1.
fakes esynoscheduler
mkdir -p "$ROOT/var/lib/fake-esynoscheduler"
touch "$ROOT/var/lib/fake-esynoscheduler/fail-create"
run --services-backend none -q enable balanced --binary "$B"
expect_exit 1
sed -i 's/(\([0-9]*\)) task.cpp/(PID) task.cpp/' "$WORK/err"
expect_stderr services-backend-none-q-enable
expect_stdout services-backend-none-q-enable
[ -z "$(tasks)" ] || fail "a failed --create left a task: $(tasks)"
rm "$ROOT/var/lib/fake-esynoscheduler/fail-create"
touch "$ROOT/var/lib/fake-esynoscheduler/lie-create"
run_expect 1 . services-backend-none-q-enable.2 --services-backend none -q enable balanced --binary "$B"
rm "$ROOT/var/lib/fake-esynoscheduler/lie-create"

# A task "mdprofile" the owner made by hand (disabled, admin's, another command): enable
# refuses before it changes anything and names it; the task stays as it was (adversarial-4
# F04: it was deleted and replaced, and disable then left none).
MDPROFILE_ROOT=$ROOT "$ES" --create task_name=mdprofile 'operation=bash /volume1/old.sh' >/dev/null
snapshot
run_expect 2 - services-backend-none-q-enable-foreign --services-backend none -q enable balanced --binary "$B"
expect_unchanged
[ "$(tasks)" = "1|mdprofile|bootup|false|1024|admin|script||bash /volume1/old.sh" ] ||
	fail "the owner's task: $(tasks)"
# Deleted by its owner, enable makes its own: one task in the end.
MDPROFILE_ROOT=$ROOT "$ES" --delete task_name=mdprofile >/dev/null
run_expect 0 . - --services-backend none -q enable balanced --binary "$B"
[ "$(tasks)" = "1|mdprofile|bootup|true|0|root|script|mdprofile: apply profile balanced at boot (mdprofile enable)|/bin/bash /volume1/@mdprofile/mdprofile.sh" ] ||
	fail "the task: $(tasks)"
# Replaced behind enable's back by a task of the owner's: disable leaves that one alone.
cp "$ROOT/var/lib/fake-esynoscheduler/tasks" "$WORK/tasks.ours"
MDPROFILE_ROOT=$ROOT "$ES" --delete task_name=mdprofile >/dev/null
MDPROFILE_ROOT=$ROOT "$ES" --create task_name=mdprofile 'operation=bash /volume1/old.sh' >/dev/null
run --services-backend none disable
expect_exit 0
stdout_line "left the Task Scheduler task mdprofile as it is: mdprofile enable did not create it (owner admin, runs 'bash /volume1/old.sh')"
[ "$(tasks)" = "1|mdprofile|bootup|false|1024|admin|script||bash /volume1/old.sh" ] ||
	fail "disable touched the owner's task: $(tasks)"
cp "$WORK/tasks.ours" "$ROOT/var/lib/fake-esynoscheduler/tasks"
run_expect 0 . - --services-backend none -q enable balanced --binary "$B"
# Changed behind its back (disabled): enable again puts it right.
MDPROFILE_ROOT=$ROOT "$ES" --set task_name=mdprofile enable=false >/dev/null
run --services-backend none enable balanced --binary "$B"
expect_exit 0
tail -n 2 "$WORK/out" >"$WORK/o" && mv "$WORK/o" "$WORK/out"
expect_stdout services-backend-none-enable-balanced.2
[ "$(tasks | wc -l)" = 1 ] || fail "$(tasks | wc -l) tasks"

# disable without esynoscheduler: the task would still run the script at
# boot, so both stay (and the record), exit 1, the step printed.
mv "$ES" "$WORK/es"
run_expect 1 services-backend-none-disable services-backend-none-disable --services-backend none disable
[ -f "$ROOT/volume1/@mdprofile/mdprofile.sh" ] && [ -f "$ROOT/etc/mdprofile/enabled" ] ||
	fail "disable removed the script or the record while the task stays"
mv "$WORK/es" "$ES"

# A '%' (which makes esynoscheduler save nothing, or crash) never reaches it:
# refused with the rest, nothing touched.
run --services-backend none -q disable
expect_exit 0
mkdir -p "$ROOT/volume1/50%"
chmod 0755 "$ROOT/volume1/50%"
cp -p "$ROOT$B" "$ROOT/volume1/50%/mdprofile"
: >"$ROOT/var/log/fake-services.log"
snapshot
run_expect 2 - services-backend-none-enable-balanced.2 --services-backend none enable balanced --binary /volume1/50%/mdprofile
expect_unchanged
[ -s "$ROOT/var/log/fake-services.log" ] && fail "esynoscheduler was run: $(cat "$ROOT/var/log/fake-services.log")"
