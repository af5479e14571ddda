/* progress_schema.c - the tables of the progress database and their migrations. */
#include "progress_schema.h"

#include <assert.h>
#include <stdio.h>

/* migrations[N - 1] brings version N - 1 to version N. Never edit one that shipped: add a
 * new one. Level keys are the 64-bit keys stored as SQLite's signed integers. */
static const char *const migrations[PROGRESS_SCHEMA_VERSION] = {
    /* 1: what progress.txt held. A level's bests are one row each, `kind` 0 by moves, 1 by
     * pushes; `checked` is 1 once the solution was replayed to a solved level. The collection
     * played last is the one with the highest `played`. */
    "CREATE TABLE level ("
    "  key INTEGER PRIMARY KEY,"
    "  solved INTEGER NOT NULL DEFAULT 0,"
    "  unfinished TEXT);"
    "CREATE TABLE best ("
    "  key INTEGER NOT NULL,"
    "  kind INTEGER NOT NULL CHECK (kind IN (0, 1)),"
    "  lurd TEXT NOT NULL,"
    "  moves INTEGER NOT NULL,"
    "  pushes INTEGER NOT NULL,"
    "  checked INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (key, kind)) WITHOUT ROWID;"
    "CREATE TABLE collection ("
    "  path TEXT PRIMARY KEY,"
    "  level INTEGER NOT NULL,"
    "  played INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX collection_played ON collection (played);",

    /* 2: the player's side. `assisted`: solved with help; `origin` of a best: 0 own,
     * 1 assisted, 2 imported; snapshots with their undo (lurd) and redo steps; solutions
     * imported from files. */
    "ALTER TABLE level ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE level ADD COLUMN unfinished_redo TEXT;"
    "ALTER TABLE level ADD COLUMN seconds REAL NOT NULL DEFAULT 0;"
    "ALTER TABLE best ADD COLUMN origin INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE snapshot ("
    "  key INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  lurd TEXT NOT NULL,"
    "  redo TEXT NOT NULL DEFAULT '',"
    "  saved INTEGER NOT NULL,"
    "  PRIMARY KEY (key, name));"
    "CREATE TABLE imported ("
    "  key INTEGER NOT NULL,"
    "  lurd TEXT NOT NULL,"
    "  moves INTEGER NOT NULL,"
    "  pushes INTEGER NOT NULL,"
    "  source TEXT NOT NULL,"
    "  PRIMARY KEY (key, lurd));",

    /* 3: the help in the unfinished game: the history index (among its moves and redo
     * steps) of the first step the solver's replay took and of the first taken with a hint
     * on show; NULL when none. */
    "ALTER TABLE level ADD COLUMN unfinished_solver_from INTEGER;"
    "ALTER TABLE level ADD COLUMN unfinished_hint_from INTEGER;",
};

const char *const progress_schema_tables[] = {"level",    "best",     "collection",
                                              "snapshot", "imported", NULL};

static int user_version(sqlite3 *db, int *version)
{
    sqlite3_stmt *statement;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(statement);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int(statement, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(statement);
    return rc;
}

/* True when the database holds any table (or cannot tell). */
static bool has_tables(sqlite3 *db)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master LIMIT 1", -1, &statement, NULL) !=
        SQLITE_OK)
        return true;
    bool any = sqlite3_step(statement) != SQLITE_DONE;
    sqlite3_finalize(statement);
    return any;
}

/* Runs the migrations after `from` up to `to` and sets the version, inside a transaction. */
static progress_schema_status migrate(sqlite3 *db, int to, int *found, char *error,
                                      size_t error_size)
{
    assert(to >= 1 && to <= PROGRESS_SCHEMA_VERSION);
    /* Already at the version asked for (every open but the first): nothing to write, so no
     * write lock to wait for while other games save. */
    int current = 0;
    if (user_version(db, &current) == SQLITE_OK && current == to) {
        if (found) *found = current;
        return PROGRESS_SCHEMA_OK;
    }
    /* IMMEDIATE: two games starting at once must not both migrate. */
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        if (error && error_size) snprintf(error, error_size, "%s", sqlite3_errmsg(db));
        return PROGRESS_SCHEMA_ERROR;
    }
    int version = 0;
    progress_schema_status status = PROGRESS_SCHEMA_OK;
    if (user_version(db, &version) != SQLITE_OK) {
        status = PROGRESS_SCHEMA_ERROR;
    } else if (version > PROGRESS_SCHEMA_VERSION) {
        status = PROGRESS_SCHEMA_NEWER;
    } else if (version == 0 && has_tables(db)) {
        status = PROGRESS_SCHEMA_FOREIGN;
    } else {
        for (int next = version + 1; next <= to && status == PROGRESS_SCHEMA_OK; next++)
            if (sqlite3_exec(db, migrations[next - 1], NULL, NULL, NULL) != SQLITE_OK)
                status = PROGRESS_SCHEMA_ERROR;
        if (status == PROGRESS_SCHEMA_OK && version < to) {
            char pragma[48];
            snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", to);
            if (sqlite3_exec(db, pragma, NULL, NULL, NULL) != SQLITE_OK)
                status = PROGRESS_SCHEMA_ERROR;
        }
    }
    if (found) *found = version;
    if (status == PROGRESS_SCHEMA_OK && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return status;
    if (status == PROGRESS_SCHEMA_OK) status = PROGRESS_SCHEMA_ERROR;
    /* Keep the first error's message: the rollback must not replace it. */
    if (error && error_size) snprintf(error, error_size, "%s", sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

progress_schema_status progress_schema_upgrade(sqlite3 *db, int *found, char *error,
                                               size_t error_size)
{
    return migrate(db, PROGRESS_SCHEMA_VERSION, found, error, error_size);
}

progress_schema_status progress_schema_create_version(sqlite3 *db, int version)
{
    return migrate(db, version, NULL, NULL, 0);
}
