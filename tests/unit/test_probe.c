/*
 * explain --probe's pure parts: which finding it tests, its one setting,
 * the one-rule profile, and the A/B/A arithmetic (median and spread of the
 * A windows, the operation ending mid-probe).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "probe.h"
#include "profile.h"
#include "support.h"
#include "explain_int.h"

static void test_judge(void **state)
{
	struct mdp_probe_windows w = {.a1 = 4100, .b = 5800, .a2 = 4300, .window_s = 10};
	struct mdp_probe_result r;

	(void)state;
	mdp_probe_judge(&w, &r);
	assert_true(r.valid);
	assert_true(r.base > 4199.9 && r.base < 4200.1); /* the median of two: their mean */
	assert_true(r.change > 0.380 && r.change < 0.381);
	assert_true(r.spread > 0.0476 && r.spread < 0.0477);
	assert_true(r.beyond);

	/* The A windows farther apart than B from them: within the noise, either sign. */
	w = (struct mdp_probe_windows){.a1 = 4000, .b = 5000, .a2 = 8000, .window_s = 10};
	mdp_probe_judge(&w, &r);
	assert_true(r.valid);
	assert_true(r.change < -0.16 && r.change > -0.17);
	assert_true(r.spread > 0.66 && r.spread < 0.67);
	assert_false(r.beyond);

	/* Identical A windows: any change stands out; none does not. */
	w = (struct mdp_probe_windows){.a1 = 4000, .b = 4000, .a2 = 4000};
	mdp_probe_judge(&w, &r);
	assert_true(r.valid);
	assert_true(r.change == 0 && r.spread == 0);
	assert_false(r.beyond);

	/* md did not move in the A windows: no ratio. */
	w = (struct mdp_probe_windows){.a1 = 0, .b = 300, .a2 = 0};
	mdp_probe_judge(&w, &r);
	assert_true(r.valid);
	assert_true(r.base == 0 && r.change == 0);
	assert_false(r.beyond);

	/* The operation ended during the probe: no figure at all. */
	w = (struct mdp_probe_windows){.a1 = 4100, .b = 9000, .a2 = 0, .ended = true};
	mdp_probe_judge(&w, &r);
	assert_false(r.valid);
	assert_false(r.beyond);
	assert_true(r.change == 0);
}

static void finding(struct mdp_xfinding *f, enum mdp_xkind k, enum mdp_xrec rec, const char *name,
		    const char *value, enum mdp_xgain g)
{
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->rec = rec;
	snprintf(f->rec_name, sizeof(f->rec_name), "%s", name ? name : "");
	snprintf(f->rec_value, sizeof(f->rec_value), "%s", value ? value : "");
	f->gain = g;
}

static void test_pick(void **state)
{
	struct mdp_xreport r;

	(void)state;
	memset(&r, 0, sizeof(r));
	/* A computed gain (the floor's upper bound) is not probed; nothing recommended neither. */
	finding(&r.findings[0], MDP_XK_FLOOR, MDP_XR_PROFILE, "balanced", NULL, MDP_XG_UPPER);
	finding(&r.findings[1], MDP_XK_INFO, MDP_XR_NONE, NULL, NULL, MDP_XG_UNKNOWN);
	r.n_findings = 2;
	assert_null(mdp_probe_pick(&r));
	finding(&r.findings[2], MDP_XK_CPU, MDP_XR_SETTING, "md2/group_thread_cnt", "4",
		MDP_XG_UNKNOWN);
	finding(&r.findings[3], MDP_XK_STRIPE_CACHE, MDP_XR_SETTING, "md2/stripe_cache_size", "128",
		MDP_XG_UNKNOWN);
	r.n_findings = 4;
	assert_ptr_equal(mdp_probe_pick(&r), &r.findings[2]);
}

/* Among reports: the first running one with a finding to probe; why not, when none has. */
static void test_choose(void **state)
{
	struct mdp_xreport r[3];
	struct mdp_probe_setting s;
	size_t rep = 9, fi = 9;

	(void)state;
	memset(r, 0, sizeof(r));
	assert_int_equal(mdp_probe_choose(r, 0, &rep, &fi, &s), -ESRCH);
	snprintf(r[0].action, sizeof(r[0].action), "none");
	finding(&r[0].findings[0], MDP_XK_CPU, MDP_XR_SETTING, "md1/group_thread_cnt", "4",
		MDP_XG_UNKNOWN);
	r[0].n_findings = 1;
	assert_int_equal(mdp_probe_choose(r, 1, &rep, &fi, &s), -ESRCH);
	/* running, its gain computed: nothing to probe */
	snprintf(r[1].action, sizeof(r[1].action), "reshape");
	finding(&r[1].findings[0], MDP_XK_FLOOR, MDP_XR_PROFILE, "balanced", NULL, MDP_XG_UPPER);
	r[1].n_findings = 1;
	assert_int_equal(mdp_probe_choose(r, 2, &rep, &fi, &s), -ENOENT);
	/* the next running report's second finding; not the idle md1's */
	snprintf(r[2].action, sizeof(r[2].action), "recover");
	finding(&r[2].findings[0], MDP_XK_INFO, MDP_XR_NONE, NULL, NULL, MDP_XG_UNKNOWN);
	finding(&r[2].findings[1], MDP_XK_CPU, MDP_XR_SETTING, "md3/group_thread_cnt", "4",
		MDP_XG_UNKNOWN);
	r[2].n_findings = 2;
	assert_int_equal(mdp_probe_choose(r, 3, &rep, &fi, &s), 0);
	assert_int_equal(rep, 2);
	assert_int_equal(fi, 1);
	assert_string_equal(s.dev, "md3");
	/* a profile to probe is named, not taken */
	finding(&r[1].findings[0], MDP_XK_COMPETING_IO, MDP_XR_PROFILE, "reshape-fast", NULL,
		MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_choose(r, 3, &rep, &fi, &s), -EMEDIUMTYPE);
	assert_int_equal(rep, 1);
	assert_int_equal(fi, 0);
}

static void test_setting(void **state)
{
	struct mdp_xfinding f;
	struct mdp_probe_setting s;
	char yaml[512];

	(void)state;
	finding(&f, MDP_XK_CPU, MDP_XR_SETTING, "md2/group_thread_cnt", "4", MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), 0);
	assert_int_equal(s.t, MDP_T_GROUP_THREAD_CNT);
	assert_string_equal(s.dev, "md2");
	assert_string_equal(s.value, "4");
	assert_int_equal(mdp_probe_yaml(&s, yaml, sizeof(yaml)), 0);
	assert_string_equal(yaml, "description: explain --probe of one setting\n"
				  "arrays:\n"
				  "  - match: {names: [md2]}\n"
				  "    group_thread_cnt: 4\n");

	/* The profile the transaction applies: one rule, the one array, the one tunable. */
	{
		struct mdp_profile p;
		struct mdp_diags d;
		mdp_diags_init(&d);
		assert_int_equal(mdp_profile_load_mem(NULL, "md2:group_thread_cnt=4", yaml,
						      strlen(yaml), &p, &d),
				 0);
		mdp_diags_free(&d);
		assert_int_equal(p.n_rules, 1);
		assert_int_equal(p.rules[0].match.n_names, 1);
		assert_string_equal(p.rules[0].match.names[0], "md2");
		assert_int_equal(p.n_services, 0);
		mdp_profile_free(&p);
	}
	assert_int_equal(mdp_probe_yaml(&s, yaml, 20), -ENAMETOOLONG);

	finding(&f, MDP_XK_CEILING, MDP_XR_SETTING, "md10/sync_speed_max", "system",
		MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), 0);
	assert_int_equal(s.t, MDP_T_SYNC_SPEED_MAX);
	assert_string_equal(s.dev, "md10");
	assert_string_equal(s.value, "system");

	/* A profile: not one setting. */
	finding(&f, MDP_XK_COMPETING_IO, MDP_XR_PROFILE, "reshape-fast", NULL, MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), -EMEDIUMTYPE);
	/* md/sync_max is no tunable the journal knows; a global one is not the array's. */
	finding(&f, MDP_XK_WAITING, MDP_XR_SETTING, "md2/sync_max", "max", MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), -EINVAL);
	finding(&f, MDP_XK_FLOOR, MDP_XR_SETTING, "md2/speed_limit_min", "50000", MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), -EINVAL);
	finding(&f, MDP_XK_CPU, MDP_XR_SETTING, "group_thread_cnt", "4", MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), -EINVAL);
	finding(&f, MDP_XK_INFO, MDP_XR_NONE, NULL, NULL, MDP_XG_UNKNOWN);
	assert_int_equal(mdp_probe_setting(&f, &s), -ENOENT);
	assert_int_equal(mdp_probe_setting(NULL, &s), -ENOENT);
}

MDP_TEST_MAIN(test_judge, test_pick, test_choose, test_setting)
