/*
 * discover_values: the current value of every tunable as read, and the
 * machine's memory and boot_id.
 */
#include "discover_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tunables ------------------------------------------------------------ */

void mdp_dw_read_cur(struct mdp_dwalk *w, enum mdp_tunable t, const char *dev, struct mdp_cur *c)
{
	char path[PATH_MAX], buf[128];
	struct mdp_value v;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	if (mdp_tunable_path(t, dev, path, sizeof(path)))
		return;
	if ((n = mdp_dw_read_sys(w, path, buf, sizeof(buf))) < 0)
		return; /* absent (stripe_cache_size on raid1, and so on) or recorded */
	if ((size_t)n >= sizeof(c->raw) || mdp_tunable_parse(t, buf, &v)) {
		mdp_diags_add(w->d, NULL, 0, 0, "%s: unexpected value '%.40s'", path, buf);
		return;
	}
	c->present = true;
	memcpy(c->raw, buf, (size_t)n + 1);
	c->val = v;
}

void mdp_dw_read_tunables(struct mdp_dwalk *w, struct mdp_cur *cur, enum mdp_scope scope,
			  const char *dev)
{
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info((enum mdp_tunable)t);
		if (ti && ti->scope == scope)
			mdp_dw_read_cur(w, (enum mdp_tunable)t, dev, &cur[t]);
		else
			memset(&cur[t], 0, sizeof(cur[t]));
	}
}

/* ---- memory, boot -------------------------------------------------------- */

/* The "Key:   12345 kB" value of /proc/meminfo; 0 when absent or not a number that fits. */
static uint64_t meminfo_kib(const char *text, const char *key)
{
	size_t kl = strlen(key);
	uint64_t v;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			const char *q = p + kl + 1;
			q += strspn(q, " \t");
			return mdp_dw_lead_u64(q, &v) ? 0 : v;
		}
	}
	return 0;
}

/* MemAvailable exists since Linux 3.14; DSM's 3.10 needs the old estimate. */
void mdp_dw_read_meminfo(struct mdp_dwalk *w, struct mdp_system *s)
{
	char *text;

	if (mdp_root_read_all(w->r, "/proc/meminfo", &text, NULL))
		return;
	s->mem_total_kib = meminfo_kib(text, "MemTotal");
	s->mem_avail_kib = meminfo_kib(text, "MemAvailable");
	if (!s->mem_avail_kib)
		s->mem_avail_kib = meminfo_kib(text, "MemFree") + meminfo_kib(text, "Buffers") +
				   meminfo_kib(text, "Cached");
	free(text);
}

void mdp_dw_read_boot_id(struct mdp_dwalk *w, struct mdp_system *s)
{
	char buf[64];

	if (mdp_root_read_value(w->r, "/proc/sys/kernel/random/boot_id", buf, sizeof(buf)) < 0 ||
	    !mdp_dw_copy_str(s->boot_id, sizeof(s->boot_id), buf))
		s->boot_id[0] = '\0';
}
