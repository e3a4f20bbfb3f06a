/*
 * mdp_boot.h: the door of the room src/boot/, boot scripts and units, the DSM Task Scheduler
 * task, enable and disable, the keeper. Another room, or cmd/, includes this header alone
 * (tools/rooms.sh); the headers below are the room's public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_BOOT_H
#define MDP_ROOM_BOOT_H

#include "boot.h"
#include "enable.h"
#include "keeper.h"
#include "task.h"

#endif /* MDP_ROOM_BOOT_H */
