/*
 * mdp_txn.h: the door of the room src/txn/, the plan, the journal and its locks, services,
 * drift, and the one apply, revert and recover. Another room, or cmd/, includes this header
 * alone (tools/rooms.sh); the headers below are the room's public ones, its *_int.h its own.
 */
#ifndef MDP_ROOM_TXN_H
#define MDP_ROOM_TXN_H

#include "drift.h"
#include "journal.h"
#include "plan.h"
#include "services.h"
#include "txn.h"

#endif /* MDP_ROOM_TXN_H */
