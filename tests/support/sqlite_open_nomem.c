/* sqlite_open_nomem.c - an LD_PRELOAD shim for the terminal tests: every sqlite3_open_v2()
 * fails as SQLite's does when memory runs out (SQLITE_NOMEM and no connection), so that a
 * test can start the game with no memory for its saved progress, the database in memory
 * included. */
#include <stddef.h>

#include <sqlite3.h>

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
    (void)filename;
    (void)flags;
    (void)vfs;
    *db = NULL;
    return SQLITE_NOMEM;
}
