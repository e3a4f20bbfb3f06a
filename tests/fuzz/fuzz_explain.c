/*
 * libFuzzer target: explain's rules on two samples of one array, any numbers. A capture
 * replayed with --root is outside input, and so is a live /sys that moved between the
 * samples. The bytes choose the words md would show (operation, states, level) and give every
 * number; the rules must neither crash nor convert a figure out of range (UBSan's
 * float-cast-overflow is in -fsanitize=undefined), and the report keeps its invariants. The
 * bytes left after the samples give the shipped profiles' limits and refusals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "explain_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct bytes {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct bytes *b, unsigned len)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < len; i++) {
		v = v << 8 | (b->n ? *b->p : 0);
		if (b->n) {
			b->p++;
			b->n--;
		}
	}
	return v;
}

/* A number as md might show it: small ones often, any 64-bit one sometimes. */
static uint64_t num(struct bytes *b)
{
	unsigned k = (unsigned)take(b, 1);

	return k < 128 ? take(b, 2) : k < 224 ? take(b, 4) : take(b, 8);
}

static const char *word(struct bytes *b, const char *const *w, size_t n)
{
	return w[take(b, 1) % n];
}

static void io(struct bytes *b, struct mdp_xio *x, const char *name)
{
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->present = take(b, 1) % 8 != 0;
	x->full = x->present;
	x->field = 14;
	x->rd_ios = num(b);
	x->rd_sect = num(b);
	x->rd_ms = num(b);
	x->wr_ios = num(b);
	x->wr_sect = num(b);
	x->wr_ms = num(b);
	x->inflight = take(b, 1);
	x->io_ticks = num(b);
	x->rd_merges = num(b);
	x->wr_merges = num(b);
}

static void limit(struct bytes *b, struct mdp_xlimit *l)
{
	l->read = take(b, 1) % 8 != 0;
	l->local = take(b, 1) % 4 == 0;
	l->kib = num(b);
}

static void array(struct bytes *b, struct mdp_xarray *a, struct mdp_xmember *m, size_t n)
{
	static const char *const actions[] = {"resync", "recover", "reshape", "check",
					      "repair", "idle",    "frozen"};
	static const char *const levels[] = {"raid1", "raid5", "raid6", "raid10", "raid0"};
	static const char *const states[] = {
	    "in_sync", "", "faulty", "spare", "in_sync,write_error", "write_mostly"};

	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "md2");
	snprintf(a->level, sizeof(a->level), "%s", word(b, levels, 5));
	snprintf(a->action, sizeof(a->action), "%s", word(b, actions, 7));
	snprintf(a->array_state, sizeof(a->array_state), "%s",
		 take(b, 1) % 4 ? "clean" : "write-pending");
	snprintf(a->sync_completed, sizeof(a->sync_completed), "%s",
		 take(b, 1) % 2 ? "1 / 2" : "none");
	snprintf(a->sync_max, sizeof(a->sync_max), "%s", take(b, 1) % 4 ? "max" : "1024");
	snprintf(a->bitmap, sizeof(a->bitmap), "%s", take(b, 1) % 2 ? "+8" : "none");
	a->have_progress = take(b, 1) % 4 != 0;
	a->done_kib = num(b);
	a->total_kib = num(b);
	/* -1 (unread) reachable: subtracted unsigned, so INT64_MIN - 1 never happens */
	a->sync_speed = (int64_t)(num(b) - (take(b, 1) % 8 == 0 ? 0 : 1));
	limit(b, &a->min);
	limit(b, &a->max);
	a->stripe_size = (int64_t)take(b, 2) - 1;
	a->stripe_active = (int64_t)take(b, 2) - 1;
	a->group_threads = (int64_t)take(b, 1) - 1;
	a->chunk_kib = (int64_t)take(b, 2) - 1;
	a->suspend_hi = (int64_t)(num(b) - 1);
	a->backup_file = take(b, 1) % 8 == 0;
	io(b, &a->io, "md2");
	a->n_members = n;
	for (size_t i = 0; i < n; i++) {
		char nm[16];
		m[i] = (struct mdp_xmember){0};
		snprintf(nm, sizeof(nm), "sd%c", (char)('a' + i));
		snprintf(m[i].name, sizeof(m[i].name), "%s5", nm);
		snprintf(m[i].disk, sizeof(m[i].disk), "%s", nm);
		snprintf(m[i].state, sizeof(m[i].state), "%s", word(b, states, 6));
		m[i].errors_read = true;
		m[i].errors = take(b, 1);
		m[i].offset = (int64_t)take(b, 2);
		m[i].new_offset = (int64_t)take(b, 2);
		m[i].rotational = (int)(take(b, 1) % 3) - 1;
		m[i].bad_blocks = (int64_t)take(b, 1) - 1;
		io(b, &m[i].part, m[i].name);
		io(b, &m[i].whole, m[i].disk);
		a->members[i] = m[i];
	}
	a->threads_read = true;
	a->n_threads = 1;
	snprintf(a->threads[0].comm, sizeof(a->threads[0].comm), "md2_raid5");
	a->threads[0].pid = 100;
	a->threads[0].ticks = num(b);
	snprintf(a->threads[0].wchan, sizeof(a->threads[0].wchan), "%s",
		 take(b, 1) % 2 ? "md_thread" : "raid5_get_active_stripe");
}

static void sample(struct bytes *b, struct mdp_xsample *s, struct mdp_xarray *a, size_t n)
{
	struct mdp_xmember m[4];

	memset(s, 0, sizeof(*s));
	limit(b, &s->sys_min);
	limit(b, &s->sys_max);
	s->sync_io_depth = take(b, 1) % 8 == 0;
	snprintf(s->release, sizeof(s->release), "%s", take(b, 1) % 2 ? "6.1.0" : "4.4.302+");
	s->vmstat_read = true;
	s->pswpin = num(b);
	s->pswpout = num(b);
	s->stat_read = true;
	s->cpu_idle = num(b);
	s->cpu_total = num(b);
	s->ncpu = (unsigned)take(b, 1) % 9;
	array(b, a, m, n);
	s->arrays = a;
	s->n_arrays = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = {data, size};
	struct mdp_xsample s0, s1;
	struct mdp_xarray *a = calloc(2, sizeof(*a));
	struct mdp_xreport *r = calloc(1, sizeof(*r));
	struct mdp_xprofiles pro = {0};
	size_t n = 1 + take(&b, 1) % 4;
	double dt = (double)(1 + take(&b, 2)) / 1000.0; /* 1 ms to 65 s */

	if (!a || !r)
		abort();
	sample(&b, &s0, &a[0], n);
	sample(&b, &s1, &a[1], n);
	/* the shipped profiles' limits and refusals, as the caller found them: any */
	for (const char *name; (name = mdp_explain_profile(pro.n)) && pro.n < 4; pro.n++) {
		struct mdp_xprofile *x = &pro.v[pro.n];
		snprintf(x->name, sizeof(x->name), "%s", name);
		x->min = num(&b);
		x->max = num(&b);
		x->refused = take(&b, 1) & 1;
		snprintf(x->why, sizeof(x->why), "over the budget");
	}
	if (mdp_explain_array(&s0, &s1, dt, "md2", &pro, r))
		abort(); /* the array is in both samples and dt is positive */
	if (r->n_findings > MDP_X_FINDINGS || r->speed_kib > (uint64_t)1e9 + 1 ||
	    (r->speed_src == MDP_XS_NONE && r->speed_kib) ||
	    strnlen(r->action, sizeof(r->action)) == sizeof(r->action))
		abort();
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].n_evidence > MDP_X_EVIDENCE ||
		    strnlen(r->findings[i].rec_text, MDP_X_TEXT) == MDP_X_TEXT)
			abort();
	(void)mdp_explain_recommends(r);
	free(a);
	free(r);
	return 0;
}
