/*
 * mdp_profile.h: the door of the room src/profile/, the profile format: loading, values,
 * extends, the profile list, pinning. Another room, or cmd/, includes this header alone
 * (tools/rooms.sh); the headers below are the room's public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_PROFILE_H
#define MDP_ROOM_PROFILE_H

#include "pin.h"
#include "profile.h"
#include "profile_list.h"

#endif /* MDP_ROOM_PROFILE_H */
