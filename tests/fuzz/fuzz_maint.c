/*
 * libFuzzer target: maintenance's texts (issue 49). The first byte picks the parser: a
 * window as a profile writes it ("Mon-Fri 01:00-07:00"), or a check's place as its file
 * (/var/lib/mdprofile/checkpoint/UUID holds it); the rest is the text. What parses must
 * hold its invariants and read back the same from the text mdprofile writes of it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maint.h"
#include "maint_ckpt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void window(const char *text)
{
	struct mdp_mwin w, back;
	struct mdp_maint m = {.windows = &w, .n_windows = 1};
	char why[160], buf[64];
	unsigned until;

	if (mdp_mwin_parse(text, &w, why, sizeof(why))) {
		if (!why[0] || strlen(why) >= sizeof(why))
			abort();
		return;
	}
	if (!w.days || w.days > 0x7f || w.start > 1439 || w.end > 1440 || w.start == w.end)
		abort();
	if (mdp_mwin_parse(mdp_mwin_text(&w, buf, sizeof(buf)), &back, why, sizeof(why)) ||
	    memcmp(&w, &back, sizeof(w)))
		abort();
	for (unsigned d = 0; d < 7; d++) {
		struct mdp_mtime at = {d, w.start};
		if (w.days & 1u << d &&
		    (!mdp_maint_window_at(&m, at, &until) || !until || until > MDP_MAINT_WEEK_MIN))
			abort();
	}
}

static void place(const char *text)
{
	struct mdp_mckpt c, back;
	char why[96], buf[MDP_MAINT_CKPT_MAX];

	if (mdp_mckpt_parse(text, &c, why, sizeof(why)))
		return;
	if (c.position > c.total || !c.raid_disks || strlen(c.uuid) != 32 ||
	    (strcmp(c.action, "check") && strcmp(c.action, "repair")))
		abort();
	if (mdp_mckpt_format(&c, buf, sizeof(buf)) ||
	    mdp_mckpt_parse(buf, &back, why, sizeof(why)) || memcmp(&c, &back, sizeof(c)))
		abort();
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
	if (data[0] & 1)
		place(text);
	else
		window(text);
	free(text);
	return 0;
}
