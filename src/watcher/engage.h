/*
 * engage: when a watcher (mdprofile auto, apply --until-idle) applies its
 * profile, keeps it, and lets it go, as a state machine over what md shows
 * at each look. Pure: the caller discovers, applies, re-asserts and
 * reverts, and tells this module what happened.
 *
 *   armed --an operation of a watched kind runs on a selected array--> engage
 *   engaged --every selected array idle for the debounce--> release
 *   engaged --the overlay removed by someone else (revert)--> held
 *   held --every selected array idle for the debounce--> armed
 *
 * The debounce covers DSM chaining steps (a reshape, then a resync) and
 * the instant between an operation ending and md starting the next one.
 * apply --until-idle starts engaged and ends at its first release.
 */
#ifndef MDP_ENGAGE_H
#define MDP_ENGAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "mdp_md.h"

/* The kinds of md operation, as bits. */
enum mdp_op_kind {
	MDP_OP_RESYNC = 1u << 0,
	MDP_OP_RECOVERY = 1u << 1,
	MDP_OP_RESHAPE = 1u << 2,
	MDP_OP_CHECK = 1u << 3,
	MDP_OP_REPAIR = 1u << 4,
};
/* resync, recovery and reshape: what makes an array slow or unsafe until it ends. */
#define MDP_OP_DEFAULT (MDP_OP_RESYNC | MDP_OP_RECOVERY | MDP_OP_RESHAPE)
#define MDP_OP_ALL     (MDP_OP_DEFAULT | MDP_OP_CHECK | MDP_OP_REPAIR)

/*
 * "resync,recovery,reshape,check,repair" (any of them, comma-separated) ->
 * bits. -EINVAL with *bad pointing at the first word that is none.
 */
int mdp_op_kinds_parse(const char *s, unsigned *kinds, const char **bad, size_t *bad_len);
/* Every such word, NULL-ended: --on's choices, for the command's option table. */
extern const char *const mdp_op_kind_words[];

enum mdp_engage_state { MDP_ENG_ARMED, MDP_ENG_ENGAGED, MDP_ENG_HELD };
enum mdp_engage_do {
	MDP_ENG_NOTHING,
	MDP_ENG_APPLY,   /* engage: apply the profile (then mdp_engage_applied) */
	MDP_ENG_RELEASE, /* remove the overlay (then mdp_engage_released) */
	MDP_ENG_REARM,   /* held ended: armed again (informational) */
};

/* How many times one value is put back within one engagement before it is left. */
#define MDP_REASSERT_MAX 3

struct mdp_reassert {
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	unsigned n;
	bool given_up;
};

/*
 * Flapping (an operation that keeps stopping and starting: a recovery onto
 * a failing spare, a check restarted): an engage within MDP_FLAP_WINDOW_S
 * of the last release doubles the debounce, up to MDP_DEBOUNCE_MAX_S, so
 * that the overlay stays on rather than being applied and removed at each
 * cycle (services paused and resumed, the journal written each time). An
 * engage after a longer quiet starts from the debounce given again.
 */
#define MDP_FLAP_WINDOW_S  600.0
#define MDP_DEBOUNCE_MAX_S 300.0

struct mdp_engage {
	enum mdp_engage_state state;
	unsigned kinds;      /* enum mdp_op_kind bits */
	double debounce_s;   /* idle this long (seconds) before a release or re-arm */
	double debounce_now; /* debounce_s, doubled per flap */
	unsigned flaps;      /* engages within MDP_FLAP_WINDOW_S of the last release, in a row */
	double released_at;  /* monotonic seconds of the last release; <0: none */
	bool flap_counted;   /* the engage after that release was counted */
	double idle_since;   /* when every selected array was first seen idle; <0: busy */
	struct mdp_reassert *re; /* per value, this engagement */
	size_t n_re;
};

#endif
