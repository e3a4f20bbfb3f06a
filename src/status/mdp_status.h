/*
 * mdp_status.h: the door of the room src/status/, status's model of arrays, operations and
 * layers. Another room, or cmd/, includes this header alone (tools/rooms.sh); the headers
 * below are the room's public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_STATUS_H
#define MDP_ROOM_STATUS_H

#include "status_model.h"

#endif /* MDP_ROOM_STATUS_H */
