/*
 * gen-schema: print schema/profile.schema.json (make schema-gen writes it,
 * make schema checks the committed file is what this prints).
 *
 * Every key comes from the profile's key table (mdp_profile_key) or the
 * tunable registry, with each tunable's range, "system", "auto" and
 * description (its doc) from its registry entry, so the schema cannot
 * name a key the loader does not take. What the schema says about the
 * other keys' values (patterns, descriptions) is written here.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mdp_profile.h"
#include "mdp_md.h"

#define K(k) mdp_profile_key(MDP_PK_##k)

/* s as the body of a JSON string (the docs are plain text: quotes and backslashes escaped). */
static void json_text(const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
}

/*
 * The plain value rule of a tunable: a number in its range, a size, or also
 * "system" or "auto". A bound's value (bound true) is never "system".
 */
static int plain_value(enum mdp_tunable t, const char *ind, bool bound)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	const char *word = ti->allows_system && !bound    ? "system"
			   : t == MDP_T_STRIPE_CACHE_SIZE ? "auto" /* as the loader has it */
							  : NULL;

	if (!strcmp(ti->unit, "KiB")) {
		/* $defs/read_ahead spells 0..1 GiB per unit; another range needs its patterns. */
		if (ti->min != 0 || ti->max != 1048576 || word) {
			fprintf(stderr,
				"gen-schema: %s: no pattern for a size in %" PRIu64 "..%" PRIu64
				" KiB\n",
				ti->key, ti->min, ti->max);
			return -1;
		}
		printf("%s\"$ref\": \"#/$defs/read_ahead\"\n", ind);
	} else if (word) {
		printf("%s\"anyOf\": [\n%s  {\"type\": \"integer\", \"minimum\": %" PRIu64
		       ", \"maximum\": %" PRIu64 "},\n%s  {\"const\": \"%s\"}\n%s]\n",
		       ind, ind, ti->min, ti->max, ind, word, ind);
	} else {
		printf("%s\"type\": \"integer\",\n%s\"minimum\": %" PRIu64
		       ",\n%s\"maximum\": %" PRIu64 "\n",
		       ind, ind, ti->min, ind, ti->max);
	}
	return 0;
}

/* {"KEY": V}: a floor or ceiling, one key, V the plain rule without system. */
static int bound_value(enum mdp_tunable t, const char *key, const char *ind, bool last)
{
	char in[64];

	snprintf(in, sizeof(in), "%s      ", ind);
	printf("%s  {\n%s    \"type\": \"object\",\n%s    \"additionalProperties\": false,\n"
	       "%s    \"required\": [\"%s\"],\n%s    \"properties\": {\n%s      \"%s\": {\n",
	       ind, ind, ind, ind, key, ind, ind, key);
	if (plain_value(t, in, true))
		return -1;
	printf("%s      }\n%s    }\n%s  }%s\n", ind, ind, ind, last ? "" : ",");
	return 0;
}

/*
 * The value rule of a tunable: the plain value, or {at_least: V} or
 * {at_most: V} (profile.h, enum mdp_bound).
 */
static int tunable_value(enum mdp_tunable t, const char *ind)
{
	char in[64];

	snprintf(in, sizeof(in), "%s    ", ind);
	printf("%s\"oneOf\": [\n%s  {\n", ind, ind);
	if (plain_value(t, in, false))
		return -1;
	printf("%s  },\n", ind);
	if (bound_value(t, K(AT_LEAST), ind, false) || bound_value(t, K(AT_MOST), ind, true))
		return -1;
	printf("%s]\n", ind);
	return 0;
}

/* The properties of the tunables of some scopes, each with its doc; -1 when there is none. */
static int tunables(unsigned scopes)
{
	int n = 0, last = -1;

	for (int t = 0; t < MDP_T_COUNT; t++)
		if (scopes & 1u << mdp_tunable_info(t)->scope)
			last = t;
	for (int t = 0; t <= last; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info(t);
		if (!(scopes & 1u << ti->scope))
			continue;
		printf("        \"%s\": {\n          \"description\": \"", ti->key);
		json_text(ti->doc);
		printf("\",\n");
		if (tunable_value(t, "          "))
			return -1;
		printf("        }%s\n", t < last ? "," : "");
		n++;
	}
	return n ? 0 : -1;
}

/* maintenance: its windows' and process names' patterns are the loader's rules (maint.c). */
#define DAY  "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
#define DAYS DAY "(-" DAY ")?"
#define HM   "([01][0-9]|2[0-3]):[0-5][0-9]"
static void maint(void)
{
	printf("    \"%s\": {\n"
	       "      \"description\": \"When mdprofile auto lets a check or repair run: it pauses "
	       "one in place outside the windows, while a member disk is hot or while a job it "
	       "defers to runs, and resumes it from where it stood. A resync, recovery or reshape "
	       "is never paused.\",\n"
	       "      \"type\": \"object\",\n"
	       "      \"additionalProperties\": false,\n"
	       "      \"minProperties\": 1,\n"
	       "      \"properties\": {\n"
	       "        \"%s\": {\n"
	       "          \"description\": \"Windows of the week in the box's local time, "
	       "[DAYS ]HH:MM-HH:MM (Mon-Fri 01:00-07:00): days or ranges of days, comma-separated, "
	       "on which a window starts (every day when left out); an end at or before the start "
	       "is the next day's; 24:00 only as an end.\",\n"
	       "          \"type\": \"array\",\n"
	       "          \"minItems\": 1,\n"
	       "          \"maxItems\": %u,\n"
	       "          \"items\": {\"type\": \"string\", \"pattern\": \"^(" DAYS "(," DAYS
	       ")* )?" HM "-(" HM "|24:00)$\"}\n"
	       "        },\n",
	       K(MAINT), K(MAINT_WINDOWS), MDP_MAINT_MAX_WINDOWS);
	printf("        \"%s\": {\n"
	       "          \"description\": \"Pause while any member disk is at hot_at_c degrees "
	       "Celsius or above; resume once every one is below cool_below_c (at most "
	       "hot_at_c).\",\n"
	       "          \"type\": \"object\",\n"
	       "          \"additionalProperties\": false,\n"
	       "          \"required\": [\"%s\", \"%s\"],\n"
	       "          \"properties\": {\n"
	       "            \"%s\": {\"type\": \"integer\", \"minimum\": %u, \"maximum\": %u},\n"
	       "            \"%s\": {\"type\": \"integer\", \"minimum\": %u, \"maximum\": %u}\n"
	       "          }\n"
	       "        },\n",
	       K(MAINT_HEAT), K(MAINT_HOT_AT), K(MAINT_COOL_BELOW), K(MAINT_HOT_AT),
	       MDP_MAINT_HEAT_MIN_C, MDP_MAINT_HEAT_MAX_C, K(MAINT_COOL_BELOW),
	       MDP_MAINT_HEAT_MIN_C, MDP_MAINT_HEAT_MAX_C);
	printf("        \"%s\": {\n"
	       "          \"description\": \"Pause while one of these runs: %s (a SMART self-test "
	       "on a member disk) or a process by its name in /proc/PID/comm.\",\n"
	       "          \"type\": \"array\",\n"
	       "          \"minItems\": 1,\n"
	       "          \"maxItems\": %u,\n"
	       "          \"uniqueItems\": true,\n"
	       "          \"items\": {\"type\": \"string\", \"pattern\": "
	       "\"^[!-.0-~]([ -.0-~]{0,13}[!-.0-~])?$\"}\n"
	       "        },\n",
	       K(MAINT_DEFER_TO), MDP_MAINT_SELFTEST, MDP_MAINT_MAX_DEFER);
	printf("        \"%s\": {\n"
	       "          \"description\": \"Tell of each check or repair's start, pause, resume "
	       "and end: in the watcher's log, DSM's notifications on DSM, and the command (an "
	       "absolute path, run with MDPROFILE_* environment variables) when given; events: "
	       "those told beyond the log (all four when left out).\",\n"
	       "          \"type\": \"object\",\n"
	       "          \"additionalProperties\": false,\n"
	       "          \"minProperties\": 1,\n"
	       "          \"properties\": {\n"
	       "            \"%s\": {\"type\": \"string\", \"maxLength\": %u, \"pattern\": "
	       "\"^/[!-~]+$\"},\n"
	       "            \"%s\": {\"type\": \"array\", \"minItems\": 1, \"uniqueItems\": true, "
	       "\"items\": {\"enum\": [\"start\", \"pause\", \"resume\", \"end\"]}}\n"
	       "          }\n"
	       "        }\n"
	       "      }\n"
	       "    },\n",
	       K(MAINT_NOTIFY), K(NOTIFY_COMMAND), MDP_MAINT_CMD_MAX, K(NOTIFY_EVENTS));
}

/* $id is a URN: the schema has no public address; editors find it by path (each shipped
 * profile's yaml-language-server line names ../schema/profile.schema.json). */
static void top(void)
{
	printf("{\n"
	       "  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n"
	       "  \"$id\": \"urn:mdprofile:schema:profile\",\n"
	       "  \"title\": \"mdprofile profile\",\n"
	       "  \"description\": \"A declarative tuning profile for Linux md RAID (mdprofile). "
	       "Speed limits are KiB/s per device; stripe cache memory is 4 KiB x member disks x "
	       "stripe_cache_size. Numbers are plain decimal digits (no quotes, sign, leading "
	       "zeros, fraction, exponent, base prefix or underscores): mdprofile refuses other "
	       "spellings, which YAML 1.1 and 1.2 tools read differently, even where this schema "
	       "sees an acceptable value. mdprofile also checks what a schema cannot: min <= max, "
	       "extends chains, duplicate keys.\",\n"
	       "  \"type\": \"object\",\n"
	       "  \"additionalProperties\": false,\n"
	       "  \"properties\": {\n");
	printf("    \"%s\": {\n"
	       "      \"description\": \"One line saying what the profile is for; shown by "
	       "`mdprofile list` and `show`.\",\n"
	       "      \"type\": \"string\"\n"
	       "    },\n",
	       K(DESCRIPTION));
	printf("    \"%s\": {\n"
	       "      \"description\": \"Name of a parent profile (no path, no .yaml), looked up "
	       "next to this file first, then in the profile directories. This profile's scalars "
	       "override the parent's; the parent's array rules come first; services are the "
	       "union.\",\n"
	       "      \"type\": \"string\",\n"
	       "      \"pattern\": \"^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$\"\n"
	       "    },\n",
	       K(EXTENDS));
	printf("    \"%s\": {\n"
	       "      \"description\": \"Cap on the memory all stripe caches may use together: a "
	       "percentage of RAM (1%%..90%%) or a size above 0 (512MiB). %s: auto picks the "
	       "largest size that fits.\",\n"
	       "      \"anyOf\": [\n"
	       "        {\"$ref\": \"#/$defs/percent\"},\n"
	       "        {\"$ref\": \"#/$defs/budget_size\"}\n"
	       "      ]\n"
	       "    },\n",
	       K(BUDGET), mdp_tunable_info(MDP_T_STRIPE_CACHE_SIZE)->key);
	printf("    \"%s\": {\n"
	       "      \"description\": \"A goal mdprofile auto and apply --until-idle steer to: "
	       "each engaged array's own sync_speed_min between its value before the profile and "
	       "the profile's minimum, lowered while the foreground's requests take longer than "
	       "the goal and raised while they are well below it.\",\n"
	       "      \"type\": \"object\",\n"
	       "      \"additionalProperties\": false,\n"
	       "      \"required\": [\"%s\"],\n"
	       "      \"properties\": {\n"
	       "        \"%s\": {\n"
	       "          \"description\": \"Milliseconds per foreground request (reads and "
	       "writes through the array, the sync excluded where the kernel counts them), "
	       "1..%u.\",\n"
	       "          \"type\": \"integer\",\n"
	       "          \"minimum\": 1,\n"
	       "          \"maximum\": %u\n"
	       "        },\n"
	       "        \"%s\": {\n"
	       "          \"description\": \"Steer the latency's percentile, %u..%u, over the "
	       "watcher's last %u timed reads of the array (its own 4 KiB reads, three a look), "
	       "rather than the mean of every request.\",\n"
	       "          \"type\": \"integer\",\n"
	       "          \"minimum\": %u,\n"
	       "          \"maximum\": %u\n"
	       "        }\n"
	       "      }\n"
	       "    },\n",
	       K(GOAL), K(GOAL_LATENCY), K(GOAL_LATENCY), MDP_GOAL_LATENCY_MAX_MS,
	       MDP_GOAL_LATENCY_MAX_MS, K(GOAL_PERCENTILE), MDP_GOAL_PERCENTILE_MIN,
	       MDP_GOAL_PERCENTILE_MAX, MDP_IOSTAT_WINDOW, MDP_GOAL_PERCENTILE_MIN,
	       MDP_GOAL_PERCENTILE_MAX);
	maint();
	printf("    \"%s\": {\n"
	       "      \"description\": \"The global dev.raid sysctls (/proc/sys/dev/raid).\",\n"
	       "      \"type\": \"object\",\n"
	       "      \"additionalProperties\": false,\n"
	       "      \"properties\": {\n",
	       K(RAID));
}

/* The top-level keys after raid: arrays and services. */
static void arrays_services(void)
{
	printf("    \"%s\": {\n"
	       "      \"description\": \"Per-array rules, in order. Several rules may match one "
	       "array; for each tunable the last matching rule that sets it wins.\",\n"
	       "      \"type\": \"array\",\n"
	       "      \"maxItems\": 1024,\n"
	       "      \"items\": {\"$ref\": \"#/$defs/rule\"}\n"
	       "    },\n",
	       K(ARRAYS));
	printf("    \"%s\": {\n"
	       "      \"description\": \"Services paused while the profile is applied and "
	       "resumed on revert (DSM 6 synoservice, DSM 7 synosystemctl/synopkg, or "
	       "systemd).\",\n"
	       "      \"type\": \"object\",\n"
	       "      \"additionalProperties\": false,\n"
	       "      \"properties\": {\n"
	       "        \"%s\": {\n"
	       "          \"description\": \"Services to pause. Only services mdprofile paused "
	       "are resumed later.\",\n"
	       "          \"type\": \"array\",\n"
	       "          \"maxItems\": 1024,\n"
	       "          \"items\": {\n"
	       "            \"anyOf\": [\n"
	       "              {\"$ref\": \"#/$defs/service_name\"},\n"
	       "              {\n"
	       "                \"type\": \"object\",\n"
	       "                \"additionalProperties\": false,\n"
	       "                \"required\": [\"%s\"],\n"
	       "                \"properties\": {\n"
	       "                  \"%s\": {\"$ref\": \"#/$defs/service_name\"},\n",
	       K(SERVICES), K(PAUSE), K(NAME), K(NAME));
	printf("                  \"%s\": {\n"
	       "                    \"description\": \"true: a service this system does not have "
	       "is skipped instead of being an error.\",\n"
	       "                    \"type\": \"boolean\"\n"
	       "                  },\n"
	       "                  \"%s\": {\n"
	       "                    \"description\": \"The service managers this entry applies "
	       "to; elsewhere it is skipped. Without it: everywhere.\",\n"
	       "                    \"type\": \"array\",\n"
	       "                    \"minItems\": 1,\n"
	       "                    \"items\": {\"enum\": [",
	       K(OPTIONAL), K(ONLY_ON));
	for (int pl = 0; pl < MDP_PLATFORM_COUNT; pl++)
		printf("%s\"%s\"", pl ? ", " : "", mdp_platform_name((enum mdp_platform)pl));
	printf("]}\n"
	       "                  },\n"
	       "                  \"%s\": {\n"
	       "                    \"description\": \"Seconds (1..3600) for each service-manager "
	       "command of this entry and for its stop or start to show. Wins over "
	       "--service-timeout and --package-timeout; without it the backend's default (30 s "
	       "for services, 900 s for pkg: entries).\",\n"
	       "                    \"type\": \"integer\",\n"
	       "                    \"minimum\": 1,\n"
	       "                    \"maximum\": 3600\n"
	       "                  }\n"
	       "                }\n"
	       "              }\n"
	       "            ]\n"
	       "          }\n"
	       "        }\n"
	       "      }\n"
	       "    }\n"
	       "  },\n",
	       K(TIMEOUT));
}

static void defs(void)
{
	printf(
	    "  \"$defs\": {\n"
	    "    \"percent\": {\n"
	    "      \"description\": \"A whole percentage of RAM, 1%% to 90%%.\",\n"
	    "      \"type\": \"string\",\n"
	    "      \"pattern\": \"^([1-9]|[1-8][0-9]|90)%%$\"\n"
	    "    },\n"
	    "    \"budget_size\": {\n"
	    "      \"description\": \"A size above 0 with a unit: KiB, MiB, GiB or 512-byte "
	    "sectors "
	    "(an even count). No leading zeros; a bare number is an error.\",\n"
	    "      \"type\": \"string\",\n"
	    "      \"anyOf\": [\n"
	    "        {\"pattern\": \"^[1-9][0-9]* *(KiB|MiB|GiB)$\"},\n"
	    "        {\"allOf\": [{\"pattern\": \"^[1-9][0-9]* *sectors?$\"}, {\"pattern\": "
	    "\"[02468] *sectors?$\"}]}\n"
	    "      ]\n"
	    "    },\n"
	    "    \"read_ahead\": {\n"
	    "      \"description\": \"A read-ahead size from 0 to 1 GiB with a unit: KiB, MiB, GiB "
	    "or 512-byte sectors (an even count). No leading zeros; a bare number is an "
	    "error.\",\n"
	    "      \"type\": \"string\",\n"
	    "      \"anyOf\": [\n"
	    "        {\"pattern\": "
	    "\"^(0|[1-9][0-9]{0,5}|10[0-3][0-9]{4}|104[0-7][0-9]{3}|1048[0-4][0-9]{2}|10485[0-6]["
	    "0-9]|104857[0-6]) *KiB$\"},\n"
	    "        {\"pattern\": \"^(0|[1-9][0-9]{0,2}|10[01][0-9]|102[0-4]) *MiB$\"},\n"
	    "        {\"pattern\": \"^(0|1) *GiB$\"},\n"
	    "        {\"allOf\": [\n"
	    "          {\"pattern\": "
	    "\"^(0|[1-9][0-9]{0,5}|1[0-9]{6}|20[0-8][0-9]{4}|209[0-6][0-9]{3}|20971[0-4][0-9]|"
	    "209715[0-2]) *sectors?$\"},\n"
	    "          {\"pattern\": \"[02468] *sectors?$\"}\n"
	    "        ]}\n"
	    "      ]\n"
	    "    },\n"
	    "    \"service_name\": {\n"
	    "      \"description\": \"Letters, digits and @._:- only, not starting with '-', at "
	    "most "
	    "128 characters. pkg:NAME is a DSM package: NAME is required and has no ':' and no "
	    "leading '-'.\",\n"
	    "      \"type\": \"string\",\n"
	    "      \"pattern\": \"^[A-Za-z0-9@._:][A-Za-z0-9@._:-]{0,127}$\",\n"
	    "      \"not\": {\"pattern\": \"^pkg:(-|$|.*:)\"}\n"
	    "    },\n");
	printf(
	    "    \"%s\": {\n"
	    "      \"description\": \"Which arrays a rule applies to: '%s', or any of %s/%s/%s/%s "
	    "(an array matching any entry of a given list; all given lists must match).\",\n"
	    "      \"anyOf\": [\n"
	    "        {\"const\": \"%s\"},\n"
	    "        {\n"
	    "          \"type\": \"object\",\n"
	    "          \"additionalProperties\": false,\n"
	    "          \"minProperties\": 1,\n"
	    "          \"properties\": {\n",
	    K(MATCH), K(ALL), K(NAMES), K(LEVELS), K(UUIDS), K(MEDIA), K(ALL));
	printf("            \"%s\": {\n"
	       "              \"description\": \"md device names such as md2. Names can change "
	       "across reboots; uuids do not.\",\n"
	       "              \"type\": \"array\",\n"
	       "              \"maxItems\": 1024,\n"
	       "              \"minItems\": 1,\n"
	       "              \"items\": {\"type\": \"string\", \"pattern\": "
	       "\"^[a-z][a-z0-9_]{0,30}$\"}\n"
	       "            },\n"
	       "            \"%s\": {\n"
	       "              \"description\": \"RAID levels: linear, raid0, raid1, raid4, raid5, "
	       "raid6, raid10, or the bare digits.\",\n"
	       "              \"type\": \"array\",\n"
	       "              \"maxItems\": 1024,\n"
	       "              \"minItems\": 1,\n"
	       "              \"items\": {\n"
	       "                \"anyOf\": [\n"
	       "                  {\"enum\": [\"linear\", \"raid0\", \"raid1\", \"raid4\", "
	       "\"raid5\", \"raid6\", \"raid10\",\n"
	       "                            \"0\", \"1\", \"4\", \"5\", \"6\", \"10\"]},\n"
	       "                  {\"enum\": [0, 1, 4, 5, 6, 10]}\n"
	       "                ]\n"
	       "              }\n"
	       "            },\n",
	       K(NAMES), K(LEVELS));
	printf(
	    "            \"%s\": {\n"
	    "              \"description\": \"Array UUIDs as mdadm prints them "
	    "(a1b2c3d4:e5f6a7b8:c9d0e1f2:a3b4c5d6), with dashes, or as 32 hex digits.\",\n"
	    "              \"type\": \"array\",\n"
	    "              \"maxItems\": 1024,\n"
	    "              \"minItems\": 1,\n"
	    "              \"items\": {\n"
	    "                \"type\": \"string\",\n"
	    "                \"pattern\": "
	    "\"^([0-9a-fA-F]{8}(:[0-9a-fA-F]{8}){3}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-["
	    "0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32})$\"\n"
	    "              }\n"
	    "            },\n"
	    "            \"%s\": {\n"
	    "              \"description\": \"Disk classes: the rule applies to an array whose "
	    "member disks are all of the classes named (nvme: an NVMe namespace; ssd: another "
	    "non-rotational disk; hdd: a rotational one). An array whose class cannot be read is "
	    "not matched.\",\n"
	    "              \"anyOf\": [\n"
	    "                {\"$ref\": \"#/$defs/media_class\"},\n"
	    "                {\n"
	    "                  \"type\": \"array\",\n"
	    "                  \"maxItems\": 1024,\n"
	    "                  \"minItems\": 1,\n"
	    "                  \"items\": {\"$ref\": \"#/$defs/media_class\"}\n"
	    "                }\n"
	    "              ]\n"
	    "            }\n"
	    "          }\n"
	    "        }\n"
	    "      ]\n"
	    "    },\n"
	    "    \"media_class\": {\"enum\": [\"%s\", \"%s\", \"%s\"]},\n"
	    "    \"rule\": {\n"
	    "      \"type\": \"object\",\n"
	    "      \"additionalProperties\": false,\n"
	    "      \"required\": [\"%s\"],\n"
	    "      \"properties\": {\n"
	    "        \"%s\": {\"$ref\": \"#/$defs/match\"},\n",
	    K(UUIDS), K(MEDIA), mdp_ident_media_name(MDP_MEDIA_HDD),
	    mdp_ident_media_name(MDP_MEDIA_SSD), mdp_ident_media_name(MDP_MEDIA_NVME), K(MATCH),
	    K(MATCH));
}

int main(void)
{
	top();
	if (tunables(1u << MDP_SCOPE_GLOBAL))
		return 1;
	printf("      }\n    },\n");
	arrays_services();
	defs();
	if (tunables(1u << MDP_SCOPE_ARRAY | 1u << MDP_SCOPE_DISK))
		return 1;
	printf("      }\n    }\n  }\n}\n");
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
