/*
 * mdp_watcher.h: the door of the room src/watcher/, the watcher's loop, its engaging and its
 * latency goal. Another room, or cmd/, includes this header alone (tools/rooms.sh); the
 * headers below are the room's public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_WATCHER_H
#define MDP_ROOM_WATCHER_H

#include "engage.h"
#include "watcher_goal.h"
#include "watcher_loop.h"

#endif /* MDP_ROOM_WATCHER_H */
