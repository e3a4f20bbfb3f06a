/* txn_target: one target read, written and read back, restored (txn_int.h). */
#include "txn_int.h"

#include <stdio.h>
#include <string.h>

static void target_name(enum mdp_tunable t, const char *dev, char *buf, size_t len)
{
	if (mdp_tunable_target_name(t, dev, buf, len))
		snprintf(buf, len, "?");
}

int txn_read_target(const struct mdp_root *r, enum mdp_tunable t, const char *dev, char *raw,
		    size_t cap, struct mdp_value *v)
{
	char path[128];
	ssize_t n;
	int err;

	if ((err = mdp_tunable_path(t, dev, path, sizeof(path))))
		return err;
	/* Trailing newline stripped, as discovery records baselines. */
	if ((n = mdp_root_read_value(r, path, raw, cap)) < 0)
		return (int)n;
	return mdp_tunable_parse(t, raw, v);
}

/* The value to write to get raw back ("10000 (system)\n" -> "system"). */
int txn_raw_value(enum mdp_tunable t, const char *raw, struct mdp_value *v)
{
	return mdp_tunable_parse(t, raw, v);
}

/*
 * Write want to (t, dev) and read it back (invariant 3). On a mismatch the
 * diag says what the kernel kept; the caller treats the step as started.
 */
int txn_write_verify(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		     const struct mdp_value *want)
{
	char path[128], text[48], raw[MDP_RAW_MAX], name[96], a[48], b[48];
	struct mdp_value got;
	int err;

	target_name(t, dev, name, sizeof(name));
	if ((err = mdp_tunable_path(t, dev, path, sizeof(path))) ||
	    (err = mdp_tunable_format(t, want, text, sizeof(text))))
		return err;
	mdp_tunable_show(t, want, a, sizeof(a));
	if ((err = mdp_root_write(tx->root, path, text))) {
		mdp_diags_add(tx->d, NULL, 0, 0, "%s: writing %s failed: %s", name, a,
			      mdp_root_strerror(-err));
		return err;
	}
	if ((err = txn_read_target(tx->root, t, dev, raw, sizeof(raw), &got))) {
		mdp_diags_add(tx->d, NULL, 0, 0, "%s: reading back after writing %s failed: %s",
			      name, a, mdp_root_strerror(-err));
		return err;
	}
	if (!mdp_value_eq(&got, want)) {
		mdp_tunable_show(t, &got, b, sizeof(b));
		mdp_diags_add(tx->d, NULL, 0, 0, "%s: asked for %s, the kernel kept %s", name, a,
			      b);
		return -ERANGE;
	}
	return 0;
}

/*
 * Write a raw baseline/previous value back and verify it. When report is
 * set, a done line says what it went from and to.
 */
int txn_restore_value(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		      const struct mdp_value *want, bool report)
{
	struct mdp_value v = *want, now;
	char cur[MDP_RAW_MAX];
	bool have_now;
	int err;

	have_now = !txn_read_target(tx->root, t, dev, cur, sizeof(cur), &now);
	/*
	 * Already there: nothing to write (keeps a revert from touching more
	 * than it must). "N (system)" matches whatever N: it follows the sysctl.
	 */
	if (have_now && mdp_value_eq(&now, &v))
		return 0;
	if ((err = txn_write_verify(tx, t, dev, &v)) || !report)
		return err;
	txn_ev_change(tx, t, dev, have_now ? &now : NULL, &v);
	return 0;
}

int txn_restore_raw(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw,
		    bool report)
{
	struct mdp_value v;
	int err;

	if ((err = txn_raw_value(t, raw, &v)))
		return err;
	return txn_restore_value(tx, t, dev, &v, report);
}

/*
 * An array stopped (or a disk pulled) since apply took its values with it:
 * md and the block layer forget them, and a device of the same name that
 * comes back starts from the kernel's defaults. There is nothing to restore,
 * so the target is dropped with a note instead of wedging every later
 * command on a write that can never succeed.
 */
bool txn_dev_gone(struct mdp_txn *tx, const char *dev)
{
	char path[64];

	if (!dev[0])
		return false; /* the dev.raid sysctls live as long as md does */
	snprintf(path, sizeof(path), "/sys/block/%s", dev);
	if (mdp_root_exists(tx->root, path))
		return false;
	for (size_t i = 0; i < tx->rep.n_notes; i++)
		if (tx->rep.notes[i].kind == MDP_TXN_NOTE_GONE &&
		    !strcmp(tx->rep.notes[i].dev, dev))
			return true;
	txn_ev_note(tx, MDP_TXN_NOTE_GONE, NULL);
	if (tx->rep.n_notes && tx->rep.notes[tx->rep.n_notes - 1].kind == MDP_TXN_NOTE_GONE)
		snprintf(tx->rep.notes[tx->rep.n_notes - 1].dev, MDP_NAME_MAX, "%s", dev);
	return true;
}
