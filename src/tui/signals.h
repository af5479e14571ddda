/* signals.h - the signals that end the game, taken from the system's own list.
 *
 * Every signal from 1 to SIGRTMAX whose default action ends the process (terminate or dump
 * core) is caught: all of them but the few POSIX makes ignore, stop or continue the process
 * (SIGCHLD, SIGURG, SIGWINCH, SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU), the two that cannot be
 * caught (SIGKILL, SIGSTOP), the ones the C library keeps for its threads (sigaction
 * refuses them) and SIGPIPE, which stays ignored (the game writes only to its terminal,
 * whose loss is a hang-up).
 *
 * A signal sent by a process (kill, the terminal's Ctrl-C and Ctrl-\) asks the game to
 * stop as q does: signals_stop() names it, and a byte on signals_wake_fd() wakes the loop's
 * poll() (so one arriving between the loop's test and its wait is not missed); the loop
 * then saves and ends with status 128 + the signal's number. A crash (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGTRAP or SIGSYS raised by the processor, SIGABRT from abort()) cannot
 * go on: the terminal is restored (`on_crash`) and the program dies of the same signal;
 * the progress was saved at the last change of the position already. */
#ifndef SOKOBAN_TUI_SIGNALS_H
#define SOKOBAN_TUI_SIGNALS_H

#include <signal.h>

/* Installs the handlers; before initscr(), so that curses keeps its hands off them.
 * `on_crash` must be safe to call from a signal handler, twice. */
void signals_install(void (*on_crash)(void));

/* The signal that asked the game to stop, or 0. */
int signals_stop(void);

/* The read end of the pipe a stop signal writes a byte to, or -1. */
int signals_wake_fd(void);

/* Blocks the stop signals in the calling thread, so that the threads it starts leave them
 * to the game's thread (the faults stay unblocked); `old` gets the mask to put back. */
void signals_block_stops(sigset_t *old);

#endif
