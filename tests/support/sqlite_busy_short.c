/* sqlite_busy_short.c - an LD_PRELOAD shim for the terminal tests: every busy timeout the
 * game sets (sqlite3_busy_timeout) is a tenth as long, so that a test of what the game says
 * after a wait on another program's lock (a save that fails) does not spend the whole wait
 * (2 s as a game ends) doing nothing. What comes after the wait is the same. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stddef.h>

#include <sqlite3.h>

int sqlite3_busy_timeout(sqlite3 *db, int ms)
{
    int (*real)(sqlite3 *, int) = (int (*)(sqlite3 *, int))dlsym(RTLD_NEXT, "sqlite3_busy_timeout");
    if (!real) return SQLITE_ERROR;
    return real(db, ms / 10);
}
