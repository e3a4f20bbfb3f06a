# Run against the release binary (make cli-release): built without the fault
# seam, it neither reads MDPROFILE_FAULT nor holds the variable's name, so
# nothing in what users run points at a way to make it fail on purpose.
# tags: no-valgrind (looks at the release binary's bytes; build/vg has the seam)
if LC_ALL=C grep -a -q MDPROFILE_FAULT "$MDP"; then
	fail "the release binary holds the string MDPROFILE_FAULT"
fi
