/*
 * libFuzzer target: values read from sysfs and procfs. The first byte picks
 * the parser (a tunable, md/sync_completed, a UUID, mdadm --export output,
 * smartctl's output with the second byte its exit status, the watcher's state
 * and goal files under /run/mdprofile), the rest is the text as read.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "discover.h"
#include "discover_int.h"
#include "journal.h"
#include "txn_int.h"
#include "profile.h"
#include "smart.h"
#include "smart_int.h"
#include "watcher_int.h"
#include "watcher_goal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(unsigned sel, char *text, size_t len)
{
	struct mdp_value v;
	uint64_t done, total;
	char uuid[33];

	if (sel < MDP_T_COUNT) {
		if (!mdp_tunable_parse((enum mdp_tunable)sel, text, &v) && v.kind != MDP_V_NUM &&
		    v.kind != MDP_V_SYSTEM)
			abort();
	} else if (sel == MDP_T_COUNT) {
		mdp_discover_parse_sync_completed(text, &done, &total);
	} else if (sel == MDP_T_COUNT + 1) {
		if (!mdp_discover_uuid_norm(text, uuid, sizeof(uuid)) && strlen(uuid) != 32)
			abort();
	} else if (sel == MDP_T_COUNT + 2) {
		if (!mdp_discover_mdadm_uuid(text, len, uuid, sizeof(uuid)) && strlen(uuid) != 32)
			abort();
	} else if (sel == MDP_T_COUNT + 4) {
		struct mdp_wgoal_view g;
		if (!mdp_wgoal_parse(text, &g) && (!g.goal_ms || g.n > MDP_WGOAL_VIEW_MAX))
			abort();
		if (g.pct && (g.pct < MDP_GOAL_PERCENTILE_MIN || g.pct > MDP_GOAL_PERCENTILE_MAX))
			abort();
		for (size_t i = 0; i < g.n; i++)
			if (!mdp_ident_dev_ok(g.v[i].name) ||
			    (g.v[i].on[0] && !mdp_ident_dev_ok(g.v[i].on)) ||
			    g.v[i].pct_reads > MDP_IOSTAT_WINDOW)
				abort();
	} else if (sel == MDP_T_COUNT + 5) {
		struct mdp_wstate w;
		if (!mdp_wstate_parse(text, &w) && (!w.pid || !w.state[0]))
			abort();
	} else if (len) {
		struct mdp_smart sm;
		struct mdp_selftest st;
		char line[256];
		int c = -1, err;
		mdp_smart_parse(text + 1, len - 1, (unsigned char)text[0], &sm);
		if ((sm.state != MDP_SMART_READ && mdp_smart_failing(&sm)) || sm.pending < -1 ||
		    sm.reallocated < -1 || sm.crc < -1 || sm.offline_unc < -1 ||
		    sm.nvme_media_errors < -1)
			abort();
		mdp_smart_describe(&sm, "sda", line, sizeof(line));
		if (strlen(line) >= sizeof(line))
			abort();
		mdp_smart_selftest_parse(text + 1, len - 1, (unsigned char)text[0], &st);
		if (st.left < -1 || st.left > 100 || strlen(st.kind) >= sizeof(st.kind) ||
		    (st.state != MDP_SELFTEST_RUNNING && (st.left != -1 || st.kind[0])))
			abort();
		err = mdp_smart_temp_parse(text + 1, len - 1, (unsigned char)text[0], &c);
		if ((err && err != -EAGAIN && err != -ENOENT) || (!err && (c < 0 || c > 150)) ||
		    (err && c != -1))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1 || size > 4096)
		return 0;
	if (!(text = malloc(size)))
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	one(data[0] % (MDP_T_COUNT + 6), text, size - 1);
	free(text);
	return 0;
}
