# explain's corpus (issue 39): public reports of slow md operations rebuilt as captures by
# tests/fixtures/explain/mk.py (corpus/README.md: each one's source, the numbers as reported,
# what had to be assumed, the cause its thread shows). Each replays to the verdict its thread
# supports (the first finding and the exit code: 1 when explain recommends something), and
# a known failure to what explain says today, so that a fix shows here as a change. No
# report, right or wrong, says both "apply" and "nothing to gain" (issue 39).
# tags: heavy (fifteen replays of the corpus, each checked twice)
for c in \
	c01-ds415-reshape:1:stripe-cache \
	c02-ds418play-init:1:competing-io \
	c04-ts559-floor:1:floor \
	c05-raid6-backup-reshape:0:reshape-method \
	c06-raid6-4k-requests:0:request-pattern \
	c08-mdcheck-users:0:competing-io \
	c09-nvme-cpu:0:cpu \
	c10-shrrs-max-local:1:ceiling \
	c12-pollers:1:competing-io \
	c14-check-at-max:0:ceiling \
	c15-md0-floor:1:floor \
	c15-md1-delayed:0:waiting \
	lprp-dying-member:0:member \
	bugzilla-68181-raid10-oops:0:waiting \
	scalability-ssd-limits:0:info; do
	id=${c%%:*} rest=${c#*:}
	fixture "explain/corpus/$id"
	run explain
	expect_exit "${rest%%:*}"
	first=$(sed -n '/^  \(limits\|pacing\):/d; s/^  \([a-z-]*\): .*/\1/p' "$WORK/out" | sed -n 1p)
	[ "$first" = "${rest#*:}" ] || fail "$id: the first finding is '$first', not '${rest#*:}'"
	# one report never says both "apply" (or raise, or any setting) and "nothing to gain"
	! { grep -q 'nothing to gain' "$WORK/out" && grep -q '^ *=> [^n]' "$WORK/out"; } ||
		fail "$id: the report recommends something and says 'nothing to gain'"
	expect_stdout "$id"
	expect_no_stderr
done
