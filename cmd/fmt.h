/* fmt: how values are shown to people (text) and programs (JSON). */
#ifndef MDP_FMT_H
#define MDP_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "tunable.h"

/* "32 MiB", "192 KiB" for sizes in KiB. */
void fmt_kib(uint64_t kib, char *buf, size_t len);
/* A live/desired value with its unit: "4096", "100000 KiB/s", "system (10000)", "32 MiB". */
void fmt_value(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len);
/* A profile setting: like fmt_value, plus "auto". */
void fmt_setting(enum mdp_tunable t, const struct mdp_setting *s, char *buf, size_t len);
/* JSON: a number, "auto" or "system". */
void fmt_setting_json(const struct mdp_setting *s);
/* "25% of RAM", "512 MiB", "25% of RAM (default)". */
void fmt_budget(const struct mdp_budget *b, char *buf, size_t len);

#endif
