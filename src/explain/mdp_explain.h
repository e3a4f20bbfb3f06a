/*
 * mdp_explain.h: the door of the room src/explain/, explain's rules, samples and runs, the
 * probe, bench. Another room, or cmd/, includes this header alone (tools/rooms.sh); the
 * headers below are the room's public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_EXPLAIN_H
#define MDP_ROOM_EXPLAIN_H

#include "bench.h"
#include "explain.h"
#include "explain_run.h"
#include "explain_sample.h"
#include "probe.h"

#endif /* MDP_ROOM_EXPLAIN_H */
