/*
 * libFuzzer target: values read from sysfs and procfs. The first byte picks
 * the parser (a tunable, md/sync_completed, a UUID, mdadm --export output),
 * the rest is the text as read.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "discover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(unsigned sel, const char *text, size_t len)
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
	} else if (!mdp_discover_mdadm_uuid(text, len, uuid, sizeof(uuid)) && strlen(uuid) != 32) {
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
	one(data[0] % (MDP_T_COUNT + 3), text, size - 1);
	free(text);
	return 0;
}
