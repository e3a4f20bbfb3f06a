/*
 * mdp_md.h: the door of the room src/md/, the live md system: discovery, /proc/mdstat, the
 * tunables registry, the watch, iostat, SMART, volume throughput, the latency goal. Another
 * room, or cmd/, includes this header alone (tools/rooms.sh); the headers below are the room's
 * public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_MD_H
#define MDP_ROOM_MD_H

#include "discover.h"
#include "goal.h"
#include "maint.h"
#include "maint_ckpt.h"
#include "iostat.h"
#include "mdstat.h"
#include "smart.h"
#include "tunable.h"
#include "volbench.h"
#include "watch.h"

#endif /* MDP_ROOM_MD_H */
