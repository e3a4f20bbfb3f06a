/*
 * mdp_base.h: the door of the room src/base/, what every room uses: the root and its paths,
 * running programs, messages, outside text, numbers, names, the clock, growing arrays. Another
 * room, or cmd/, includes this header alone (tools/rooms.sh); the headers below are the room's
 * public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_BASE_H
#define MDP_ROOM_BASE_H

#include "clock.h"
#include "diag.h"
#include "exec.h"
#include "grow.h"
#include "ident.h"
#include "num.h"
#include "root.h"
#include "text.h"

#endif /* MDP_ROOM_BASE_H */
