/* solver_learned.h - what the searches on one board learn of its deadlocks, kept for the
 * searches after them and shared by those that run at once: the table of learned corrals
 * (solver_corral_deadlock.h) and the patterns of stuck boxes (solver_stuck.h). Both hold
 * on the board whatever position a search starts from, and both take several threads at
 * once. The public functions are in solver.h; the searches of a race without one make
 * their own (solver.c). Part of the solver; internal to it. */
#ifndef SOKOBAN_SOLVER_LEARNED_H
#define SOKOBAN_SOLVER_LEARNED_H

#include "solver.h"
#include "solver_corral_deadlock.h"
#include "solver_stuck.h"

/* The table of learned corrals a race or a level keeps: 1 MiB. */
enum { SOLVER_LEARNED_CORRAL_ENTRIES = 2 * SOLVER_CORRAL_ENTRIES };

struct solver_learned {
    int width, height;
    uint8_t *flags; /* the board's squares (walls, goals, inside), to tell boards apart */
    solver_corral_memory corrals;
    solver_stuck_patterns patterns;
};

#endif
