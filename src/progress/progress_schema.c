/* progress_schema.c - the tables of the progress database and their migrations. */
#include "progress_schema.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* The tables of schema 4, as migration 4 makes them and as a new database gets them at once
 * (new_database below): one text for both, so that the two cannot differ. */
#define BEST_KIND_TABLE                                                                    \
    "CREATE TABLE best_kind (kind INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
#define ORIGIN_TABLE "CREATE TABLE origin (origin INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
#define LOOKUP_TABLES                                                                      \
    BEST_KIND_TABLE                                                                        \
    "INSERT INTO best_kind VALUES (0, 'fewest moves'), (1, 'fewest pushes');" ORIGIN_TABLE \
    "INSERT INTO origin VALUES (0, 'own'), (1, 'assisted'), (2, 'imported');"
/* (level's and snapshot's columns without their end, where schema 6 adds one) */
#define LEVEL_COLUMNS_4                                                                    \
    " ("                                                                                   \
    "  key INTEGER PRIMARY KEY,"                                                           \
    "  solved INTEGER NOT NULL DEFAULT 0 CHECK (solved IN (0, 1)),"                       \
    "  unfinished TEXT,"                                                                   \
    "  assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1)),"                   \
    "  unfinished_redo TEXT,"                                                              \
    "  seconds REAL NOT NULL DEFAULT 0 CHECK (seconds >= 0),"                             \
    "  unfinished_solver_from INTEGER CHECK (unfinished_solver_from >= 0),"               \
    "  unfinished_hint_from INTEGER CHECK (unfinished_hint_from >= 0)"
#define LEVEL_COLUMNS LEVEL_COLUMNS_4 ");"
#define BEST_COLUMNS                                                                       \
    " ("                                                                                   \
    "  key INTEGER NOT NULL REFERENCES level (key) ON DELETE CASCADE,"                    \
    "  kind INTEGER NOT NULL REFERENCES best_kind (kind),"                                \
    "  lurd TEXT NOT NULL,"                                                                \
    "  moves INTEGER NOT NULL CHECK (moves >= 0),"                                        \
    "  pushes INTEGER NOT NULL CHECK (pushes >= 0),"                                      \
    "  checked INTEGER NOT NULL DEFAULT 0 CHECK (checked IN (0, 1)),"                     \
    "  origin INTEGER NOT NULL DEFAULT 0 REFERENCES origin (origin),"                     \
    "  PRIMARY KEY (key, kind)) WITHOUT ROWID;"
#define SNAPSHOT_COLUMNS_4                                                                 \
    " ("                                                                                   \
    "  key INTEGER NOT NULL REFERENCES level (key) ON DELETE CASCADE,"                    \
    "  name TEXT NOT NULL,"                                                                \
    "  lurd TEXT NOT NULL,"                                                                \
    "  redo TEXT NOT NULL DEFAULT '',"                                                     \
    "  saved INTEGER NOT NULL"
#define SNAPSHOT_KEY ",  PRIMARY KEY (key, name));"
#define SNAPSHOT_COLUMNS SNAPSHOT_COLUMNS_4 SNAPSHOT_KEY
#define IMPORTED_COLUMNS                                                                   \
    " ("                                                                                   \
    "  key INTEGER NOT NULL REFERENCES level (key) ON DELETE CASCADE,"                    \
    "  lurd TEXT NOT NULL,"                                                                \
    "  moves INTEGER NOT NULL CHECK (moves >= 0),"                                        \
    "  pushes INTEGER NOT NULL CHECK (pushes >= 0),"                                      \
    "  source TEXT NOT NULL,"                                                              \
    "  PRIMARY KEY (key, lurd));"
#define COLLECTION_COLUMNS                                                                 \
    " ("                                                                                   \
    "  path TEXT PRIMARY KEY,"                                                             \
    "  level INTEGER NOT NULL CHECK (level >= 0),"                                        \
    "  played REAL NOT NULL DEFAULT 0 CHECK (played >= 0));"
/* imported_file.modified: nanoseconds since the epoch; imported: when, in seconds */
#define IMPORTED_FILE_TABLE                                                                \
    "CREATE TABLE imported_file ("                                                         \
    "  path TEXT PRIMARY KEY,"                                                             \
    "  device INTEGER NOT NULL,"                                                           \
    "  inode INTEGER NOT NULL,"                                                            \
    "  size INTEGER NOT NULL,"                                                             \
    "  modified INTEGER NOT NULL,"                                                         \
    "  imported REAL NOT NULL);"
#define COLLECTION_INDEX "CREATE INDEX collection_played ON collection (played);"

#define SCHEMA_VERSION_TEXT "7" /* PROGRESS_SCHEMA_VERSION as text, for the pragma */
_Static_assert(PROGRESS_SCHEMA_VERSION == 7, "SCHEMA_VERSION_TEXT follows the version");
/* What schema 5 adds to schema 4's tables. */
#define OPTIMIZED_ORIGIN "INSERT INTO origin VALUES (3, 'optimized');"
/* What schema 6 adds to schema 5's: the steps of a saved game played as one move (a box
 * moved with the mouse), as "FIRST-LAST" history indices (over the moves and the redo
 * steps), comma-separated; NULL or '' when none. */
#define LEVEL_GROUPS "unfinished_groups TEXT"
#define SNAPSHOT_GROUPS "groups TEXT NOT NULL DEFAULT ''"
#define MOVE_GROUPS                                                                        \
    "ALTER TABLE level ADD COLUMN " LEVEL_GROUPS ";"                                       \
    "ALTER TABLE snapshot ADD COLUMN " SNAPSHOT_GROUPS ";"
/* Schema 6's level and snapshot as a new database makes them: the text SQLite's ALTER TABLE
 * ADD COLUMN leaves (", " and the column after the last one, before the table's key), so
 * that a database has the same tables however it came to version 6. */
#define LEVEL_COLUMNS_6 LEVEL_COLUMNS_4 ", " LEVEL_GROUPS ");"
#define SNAPSHOT_COLUMNS_6 SNAPSHOT_COLUMNS_4 ", " SNAPSHOT_GROUPS SNAPSHOT_KEY
/* What schema 7 adds: which database this is (progress_wal.h), one row: a random id
 * (written into the file at its creation) and a count every commit of ours raises, so that
 * the page of the id is in every write-ahead log of ours; and the databases set aside by a
 * repair whose rows were copied, by name and file (device, inode), recorded in the copy's
 * transaction, so that a repair cut short after it is never copied twice. */
#define IDENTITY_TABLE                                                                     \
    "CREATE TABLE identity (one INTEGER PRIMARY KEY CHECK (one = 1), id BLOB NOT NULL,"    \
    " commits INTEGER NOT NULL DEFAULT 0);"
#define MERGED_TABLE                                                                       \
    "CREATE TABLE merged_repair (aside TEXT NOT NULL, device INTEGER NOT NULL,"            \
    " inode INTEGER NOT NULL, PRIMARY KEY (aside, device, inode));"
#define IDENTITY                                                                           \
    IDENTITY_TABLE "INSERT INTO identity (one, id) VALUES (1, randomblob(16));" MERGED_TABLE

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

    /* 4: the schema says what it means. A best's kind and origin name a row of the lookup
     * tables best_kind and origin; every best, snapshot and imported solution belongs to a
     * level row (a foreign key, on in every connection; forgetting a level forgets them) and
     * those that had none get one; flags are 0 or 1 and counts never negative (a best with a
     * negative count is kept unchecked, so that its replay counts it again; an unknown
     * origin becomes imported, the least a best can claim). A collection's `played` becomes
     * the time of its last play, seconds since the epoch (0: never), the old counter's order
     * kept. imported_file remembers the files whose solution sections were imported. */
    LOOKUP_TABLES
    "CREATE TABLE level_4" LEVEL_COLUMNS
    "INSERT INTO level_4 SELECT key, solved != 0, unfinished, assisted != 0, unfinished_redo,"
    "  max(seconds, 0), CASE WHEN unfinished_solver_from >= 0 THEN unfinished_solver_from END,"
    "  CASE WHEN unfinished_hint_from >= 0 THEN unfinished_hint_from END FROM level;"
    "INSERT OR IGNORE INTO level_4 (key) SELECT key FROM best UNION SELECT key FROM snapshot"
    "  UNION SELECT key FROM imported;"
    "CREATE TABLE best_4" BEST_COLUMNS
    "INSERT INTO best_4 SELECT key, kind, lurd, max(moves, 0), max(pushes, 0),"
    "  checked != 0 AND moves >= 0 AND pushes >= 0,"
    "  CASE WHEN origin IN (0, 1, 2) THEN origin ELSE 2 END FROM best WHERE kind IN (0, 1);"
    "CREATE TABLE snapshot_4" SNAPSHOT_COLUMNS
    "INSERT INTO snapshot_4 SELECT key, name, lurd, redo, saved FROM snapshot;"
    "CREATE TABLE imported_4" IMPORTED_COLUMNS
    "INSERT INTO imported_4 SELECT key, lurd, moves, pushes, source FROM imported"
    "  WHERE moves >= 0 AND pushes >= 0;"
    "CREATE TABLE collection_4" COLLECTION_COLUMNS
    "INSERT INTO collection_4 SELECT path, max(level, 0), CASE WHEN played > 0 THEN"
    "  (julianday('now') - 2440587.5) * 86400.0 -"
    "  ((SELECT max(played) FROM collection) - played) ELSE 0 END FROM "
    "collection;" IMPORTED_FILE_TABLE
    "DROP TABLE best; DROP TABLE snapshot; DROP TABLE imported; DROP TABLE collection;"
    "DROP TABLE level;"
    "ALTER TABLE level_4 RENAME TO level;"
    "ALTER TABLE best_4 RENAME TO best;"
    "ALTER TABLE snapshot_4 RENAME TO snapshot;"
    "ALTER TABLE imported_4 RENAME TO imported;"
    "ALTER TABLE collection_4 RENAME TO collection;" COLLECTION_INDEX,

    /* 5: a best the optimizer made shorter (the game's O) has an origin of its own. */
    OPTIMIZED_ORIGIN,

    /* 6: the moves of an unfinished game and of a snapshot that were played as one (a box
     * moved with the mouse undoes as one after a resume). */
    MOVE_GROUPS,

    /* 7: which database this is, and the repairs whose rows were copied (IDENTITY). */
    IDENTITY,
};

/* A new database gets the latest schema at once: running every migration makes thousands of
 * allocations more (and each start of a first game pays them; schema 6's two ALTER TABLEs
 * alone were a quarter of a new database's). The test
 * test_a_new_database_has_the_schema_migrations_make compares the two. */
static const char new_database[] =
    LOOKUP_TABLES OPTIMIZED_ORIGIN "CREATE TABLE level" LEVEL_COLUMNS_6
    "CREATE TABLE best" BEST_COLUMNS "CREATE TABLE snapshot" SNAPSHOT_COLUMNS_6
    "CREATE TABLE imported" IMPORTED_COLUMNS "CREATE TABLE collection" COLLECTION_COLUMNS
        IMPORTED_FILE_TABLE COLLECTION_INDEX IDENTITY;

const char *const progress_schema_tables[] = {
    "level", "best", "collection", "snapshot", "imported", "imported_file", "merged_repair", NULL};

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

/* True when the database holds a view or a trigger, which sokoban never makes: a query of
 * ours on a view, or a write of ours that fires a trigger, would run what the file says
 * (without end, for a recursive one). False when it cannot tell (a lock held past the busy
 * timeout says nothing of the file). */
static bool has_views_or_triggers(sqlite3 *db)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db,
                           "SELECT 1 FROM sqlite_master WHERE type IN ('view', 'trigger') LIMIT 1",
                           -1, &statement, NULL) != SQLITE_OK)
        return false;
    bool any = sqlite3_step(statement) == SQLITE_ROW;
    sqlite3_finalize(statement);
    return any;
}

/* True when SQLite's `code` (a migration's) says what the file holds is not what the
 * migration was written for (a table or column missing: SQLITE_ERROR; a value refused:
 * SQLITE_CONSTRAINT, SQLITE_MISMATCH; SQLITE_CORRUPT), not that it could not run now (a
 * lock, memory, the disk). The write lock is held, so SQLITE_ERROR is the SQL's own. */
static bool refused_for_the_file(int code)
{
    code &= 0xff;
    return code == SQLITE_ERROR || code == SQLITE_CONSTRAINT || code == SQLITE_MISMATCH ||
           code == SQLITE_CORRUPT;
}

/* NEWER, FOREIGN or OK for a database of `version` (see progress_schema_look). */
static progress_schema_status classify(sqlite3 *db, int version)
{
    if (version > PROGRESS_SCHEMA_VERSION) return PROGRESS_SCHEMA_NEWER;
    /* no version of ours is negative (the migrations are numbered from 1) */
    if (version < 0 || (version == 0 && has_tables(db)) || has_views_or_triggers(db))
        return PROGRESS_SCHEMA_FOREIGN;
    return PROGRESS_SCHEMA_OK;
}

/* The version a database whose PRAGMA user_version is `version` is of: the version its
 * tables show when that is higher (set down by hand: the migrations from `version` would
 * fail on what the later ones made, "duplicate column name", and the file be set aside);
 * for a version set down to 0 only when every table of ours is there as ours makes it
 * (else it is another program's); else `version`. */
static int version_meant(sqlite3 *db, int version)
{
    if (version < 0 || version >= PROGRESS_SCHEMA_VERSION) return version;
    int shown_version = progress_schema_shown(db);
    if (shown_version <= version) return version;
    if (version == 0 && (shown_version != PROGRESS_SCHEMA_VERSION || !has_tables(db) ||
                         !progress_schema_intact(db, NULL, 0)))
        return version;
    return shown_version;
}

progress_schema_status progress_schema_look(sqlite3 *db, int *found)
{
    /* The version and the tables read in one read transaction: read apart, a game creating
     * the database between the two reads makes it look version 0 with tables, another
     * program's. */
    bool own =
        sqlite3_get_autocommit(db) && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
    int version = 0;
    progress_schema_status status = PROGRESS_SCHEMA_OK;
    if (user_version(db, &version) == SQLITE_OK) {
        if (found) *found = version;
        status = classify(db, version_meant(db, version));
    }
    if (own) sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return status;
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
        return has_views_or_triggers(db) ? PROGRESS_SCHEMA_FOREIGN : PROGRESS_SCHEMA_OK;
    }
    /* A migration rebuilds tables: dropping one must not cascade (a no-op inside a
     * transaction, so before it). */
    sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
    /* IMMEDIATE: two games starting at once must not both migrate. */
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        if (error && error_size) snprintf(error, error_size, "%s", sqlite3_errmsg(db));
        return PROGRESS_SCHEMA_ERROR;
    }
    int version = 0, shown_version = 0, file_version = 0;
    progress_schema_status status = PROGRESS_SCHEMA_OK;
    if (user_version(db, &file_version) != SQLITE_OK) {
        status = PROGRESS_SCHEMA_ERROR;
    } else if ((status = classify(db, version = version_meant(db, file_version))) !=
               PROGRESS_SCHEMA_OK) {
        /* NEWER or FOREIGN: nothing is written */
    } else if (version >= 1 && (shown_version = progress_schema_shown(db)) >= 1 &&
               shown_version < version) {
        /* A version set up by hand: the migrations after it would run on tables of an
         * older schema (and the file then say ours); the salvage reads it as its tables
         * show, through the migrations from there. Nothing is written. */
        status = PROGRESS_SCHEMA_DAMAGED;
        if (error && error_size)
            snprintf(error, error_size, "its tables are of schema %d", shown_version);
        if (found) *found = version;
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return status;
    } else if (version == 0 && to == PROGRESS_SCHEMA_VERSION) {
        if (sqlite3_exec(db, new_database, NULL, NULL, NULL) != SQLITE_OK)
            status = PROGRESS_SCHEMA_ERROR;
        else if (sqlite3_exec(db, "PRAGMA user_version = " SCHEMA_VERSION_TEXT, NULL, NULL, NULL) !=
                 SQLITE_OK)
            status = PROGRESS_SCHEMA_ERROR;
    } else {
        for (int next = version + 1; next <= to && status == PROGRESS_SCHEMA_OK; next++)
            if (sqlite3_exec(db, migrations[next - 1], NULL, NULL, NULL) != SQLITE_OK)
                status = refused_for_the_file(sqlite3_errcode(db)) ? PROGRESS_SCHEMA_DAMAGED
                                                                   : PROGRESS_SCHEMA_ERROR;
        if (status == PROGRESS_SCHEMA_OK && file_version != to) {
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
    progress_schema_status status = migrate(db, PROGRESS_SCHEMA_VERSION, found, error, error_size);
    if (status == PROGRESS_SCHEMA_OK &&
        sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
        if (error && error_size) snprintf(error, error_size, "%s", sqlite3_errmsg(db));
        status = PROGRESS_SCHEMA_ERROR;
    }
    return status;
}

void progress_schema_drop_unkeyed(sqlite3 *db)
{
    static const char *const keyed[] = {"best", "snapshot", "imported"};
    for (size_t i = 0; i < sizeof keyed / sizeof *keyed; i++) {
        char sql[96];
        snprintf(sql, sizeof sql, "DELETE FROM %s WHERE typeof(key) != 'integer'", keyed[i]);
        sqlite3_exec(db, sql, NULL, NULL, NULL); /* a table the version lacks: nothing to do */
    }
}

int progress_schema_mend(sqlite3 *db)
{
    progress_schema_drop_unkeyed(db);
    return sqlite3_exec(db,
                        "INSERT OR IGNORE INTO level (key) SELECT key FROM best UNION SELECT key "
                        "FROM snapshot UNION SELECT key FROM imported;"
                        "UPDATE best SET origin = 2 WHERE origin NOT IN (SELECT origin FROM origin);"
                        "DELETE FROM best WHERE kind NOT IN (SELECT kind FROM best_kind);",
                        NULL, NULL, NULL);
}

/* The query `sql` (its ?1 and ?2 bound to `first` and `second`) gives a row: true; none:
 * false; when it cannot run (out of memory, a lock), `*unsure` is set. */
static bool gives_row(sqlite3 *db, const char *sql, const char *first, const char *second,
                      bool *unsure)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) {
        *unsure = true;
        return false;
    }
    sqlite3_bind_text(statement, 1, first, -1, SQLITE_STATIC);
    sqlite3_bind_text(statement, 2, second, -1, SQLITE_STATIC);
    int rc = sqlite3_step(statement);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) *unsure = true;
    sqlite3_finalize(statement);
    return rc == SQLITE_ROW;
}

/* True when `db` has a table `table` (not a view) with a column `column` (NULL: any). */
static bool has_column(sqlite3 *db, const char *table, const char *column, bool *unsure)
{
    return gives_row(db,
                     "SELECT 1 FROM sqlite_master AS m, pragma_table_info(m.name) AS p"
                     " WHERE m.type = 'table' AND m.name = ?1 AND (?2 IS NULL OR"
                     " p.name = ?2) LIMIT 1",
                     table, column, unsure);
}

/* progress_schema_shown, `*unsure` set when a query could not run. */
static int shown(sqlite3 *db, bool *unsure)
{
    if (has_column(db, "identity", NULL, unsure) || has_column(db, "merged_repair", NULL, unsure))
        return 7;
    if (has_column(db, "level", "unfinished_groups", unsure) ||
        has_column(db, "snapshot", "groups", unsure))
        return 6;
    bool lookup = has_column(db, "origin", NULL, unsure) || has_column(db, "best_kind", NULL, unsure);
    if (has_column(db, "origin", "origin", unsure) &&
        gives_row(db, "SELECT 1 FROM origin WHERE origin = 3", NULL, NULL, unsure))
        return 5;
    if (lookup || has_column(db, "imported_file", NULL, unsure)) return 4;
    if (has_column(db, "level", "unfinished_solver_from", unsure) ||
        has_column(db, "level", "unfinished_hint_from", unsure))
        return 3;
    if (has_column(db, "level", "assisted", unsure) || has_column(db, "snapshot", NULL, unsure) ||
        has_column(db, "imported", NULL, unsure) || has_column(db, "best", "origin", unsure))
        return 2;
    return 1;
}

int progress_schema_shown(sqlite3 *db)
{
    bool unsure = false;
    int version = shown(db, &unsure);
    return unsure ? 0 : version;
}

int progress_schema_stamp(sqlite3 *db)
{
    return sqlite3_exec(db, "UPDATE identity SET commits = commits + 1", NULL, NULL, NULL);
}

progress_schema_status progress_schema_create_version(sqlite3 *db, int version)
{
    return migrate(db, version, NULL, NULL, 0);
}

/* ---- Is the database's schema ours? ------------------------------------------------------ */

/* Each column of each table as a new database has it (new_database), one line each: the
 * table, the column, its type, NOT NULL, its default and its place in the primary key, in
 * the order SQLite lists them (COLUMNS_OF reads the same lines from a database); then the
 * rows the lookup tables start with (ROWS_OF). A change to the schema changes these lines:
 * every test that opens a new database fails until they follow (a database that differs is
 * set aside), and test_a_new_database_has_the_schema_migrations_make checks them on a new
 * and on a migrated database. Written out rather than read from a database made for the
 * purpose: that database cost 4,400 allocations at every open. */
static const char schema_columns[] = "best key INTEGER NOT NULL KEY 1\n"
                                     "best kind INTEGER NOT NULL KEY 2\n"
                                     "best lurd TEXT NOT NULL\n"
                                     "best moves INTEGER NOT NULL\n"
                                     "best pushes INTEGER NOT NULL\n"
                                     "best checked INTEGER NOT NULL DEFAULT 0\n"
                                     "best origin INTEGER NOT NULL DEFAULT 0\n"
                                     "best_kind kind INTEGER KEY 1\n"
                                     "best_kind name TEXT NOT NULL\n"
                                     "collection path TEXT KEY 1\n"
                                     "collection level INTEGER NOT NULL\n"
                                     "collection played REAL NOT NULL DEFAULT 0\n"
                                     "identity one INTEGER KEY 1\n"
                                     "identity id BLOB NOT NULL\n"
                                     "identity commits INTEGER NOT NULL DEFAULT 0\n"
                                     "imported key INTEGER NOT NULL KEY 1\n"
                                     "imported lurd TEXT NOT NULL KEY 2\n"
                                     "imported moves INTEGER NOT NULL\n"
                                     "imported pushes INTEGER NOT NULL\n"
                                     "imported source TEXT NOT NULL\n"
                                     "imported_file path TEXT KEY 1\n"
                                     "imported_file device INTEGER NOT NULL\n"
                                     "imported_file inode INTEGER NOT NULL\n"
                                     "imported_file size INTEGER NOT NULL\n"
                                     "imported_file modified INTEGER NOT NULL\n"
                                     "imported_file imported REAL NOT NULL\n"
                                     "level key INTEGER KEY 1\n"
                                     "level solved INTEGER NOT NULL DEFAULT 0\n"
                                     "level unfinished TEXT\n"
                                     "level assisted INTEGER NOT NULL DEFAULT 0\n"
                                     "level unfinished_redo TEXT\n"
                                     "level seconds REAL NOT NULL DEFAULT 0\n"
                                     "level unfinished_solver_from INTEGER\n"
                                     "level unfinished_hint_from INTEGER\n"
                                     "level unfinished_groups TEXT\n"
                                     "merged_repair aside TEXT NOT NULL KEY 1\n"
                                     "merged_repair device INTEGER NOT NULL KEY 2\n"
                                     "merged_repair inode INTEGER NOT NULL KEY 3\n"
                                     "origin origin INTEGER KEY 1\n"
                                     "origin name TEXT NOT NULL\n"
                                     "snapshot key INTEGER NOT NULL KEY 1\n"
                                     "snapshot name TEXT NOT NULL KEY 2\n"
                                     "snapshot lurd TEXT NOT NULL\n"
                                     "snapshot redo TEXT NOT NULL DEFAULT ''\n"
                                     "snapshot saved INTEGER NOT NULL\n"
                                     "snapshot groups TEXT NOT NULL DEFAULT ''\n";
static const char schema_rows[] = "best_kind 0 fewest moves\n"
                                  "best_kind 1 fewest pushes\n"
                                  "origin 0 own\n"
                                  "origin 1 assisted\n"
                                  "origin 2 imported\n"
                                  "origin 3 optimized\n";
#define COLUMNS_OF                                                                                 \
    "SELECT m.name || ' ' || p.name || ' ' || p.type ||"                                           \
    "  CASE WHEN p.\"notnull\" THEN ' NOT NULL' ELSE '' END ||"                                    \
    "  ifnull(' DEFAULT ' || p.dflt_value, '') ||"                                                 \
    "  CASE WHEN p.pk THEN ' KEY ' || p.pk ELSE '' END"                                            \
    " FROM sqlite_master AS m, pragma_table_info(m.name, 'main') AS p"                             \
    " WHERE m.type = 'table' ORDER BY m.name, p.cid"
#define ROWS_OF                                                                                    \
    "SELECT 'best_kind ' || kind || ' ' || name FROM best_kind UNION ALL"                          \
    " SELECT 'origin ' || origin || ' ' || name FROM origin ORDER BY 1"

/* Each table and index of ours as its CREATE statement, the text sqlite_master keeps of it
 * (with a ';' after; a table renamed by migration 4 is kept as "level", quoted, so quotes
 * are left out before comparing): what the column lines cannot see, a CHECK, a COLLATE, a
 * foreign key, changed by hand, and an index added by hand, which can fail a save ("UNIQUE
 * constraint failed") as a table dropped does. The migrations make the same text as
 * new_database (test_a_new_database_has_the_schema_migrations_make). */
static const char *const schema_statements[][2] = {
    {"best", "CREATE TABLE best" BEST_COLUMNS},
    {"best_kind", BEST_KIND_TABLE},
    {"collection", "CREATE TABLE collection" COLLECTION_COLUMNS},
    {"collection_played", COLLECTION_INDEX},
    {"identity", IDENTITY_TABLE},
    {"imported", "CREATE TABLE imported" IMPORTED_COLUMNS},
    {"imported_file", IMPORTED_FILE_TABLE},
    {"level", "CREATE TABLE level" LEVEL_COLUMNS_6},
    {"merged_repair", MERGED_TABLE},
    {"origin", ORIGIN_TABLE},
    {"snapshot", "CREATE TABLE snapshot" SNAPSHOT_COLUMNS_6},
};
/* The tables and indexes that have a statement (SQLite's own autoindexes have none) on the
 * tables of ours, each with its table: a table not ours, and an index on it, are left alone
 * (nothing of ours reads or writes them, and they fail nothing of ours). */
#define STATEMENTS_OF                                                                      \
    "SELECT name, type, tbl_name, replace(sql, '\"', '') FROM sqlite_master"               \
    " WHERE sql IS NOT NULL AND type IN ('table', 'index') AND tbl_name IN ('best',"       \
    " 'best_kind', 'collection', 'identity', 'imported', 'imported_file', 'level',"        \
    " 'merged_repair', 'origin', 'snapshot')"

/* The statement of ours named `name`, or NULL. */
static const char *statement_of(const char *name)
{
    for (size_t i = 0; i < sizeof schema_statements / sizeof *schema_statements; i++)
        if (strcmp(schema_statements[i][0], name) == 0) return schema_statements[i][1];
    return NULL;
}

/* The first table or index in `db` whose statement is not ours (see schema_statements): its
 * table's name in `table` and how it differs, or NULL when none (or when it cannot tell). */
static const char *statement_differs(sqlite3 *db, char *table, size_t table_size)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, STATEMENTS_OF, -1, &statement, NULL) != SQLITE_OK) return NULL;
    const char *how = NULL;
    while (!how && sqlite3_step(statement) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(statement, 0);
        const char *type = (const char *)sqlite3_column_text(statement, 1);
        const char *on = (const char *)sqlite3_column_text(statement, 2);
        const char *sql = (const char *)sqlite3_column_text(statement, 3);
        if (!name || !type || !on || !sql) continue; /* out of memory: cannot tell */
        const char *ours = statement_of(name);
        size_t length = strlen(sql);
        bool same = ours && strncmp(ours, sql, length) == 0 && strcmp(ours + length, ";") == 0;
        if (same) continue;
        snprintf(table, table_size, "%s", on);
        how = strcmp(type, "index") == 0 ? "has an index sokoban's does not"
                                         : "has constraints sokoban's does not";
    }
    sqlite3_finalize(statement);
    return how;
}

/* The length of the first word of `line` (its table), up to the space. */
static size_t table_length(const char *line)
{
    return strcspn(line, " \n");
}

/* True when `text` has a line about the table that `line` starts with. */
static bool names_table(const char *text, const char *line)
{
    size_t length = table_length(line);
    for (const char *at = text; *at; at = strchr(at, '\n') + 1)
        if (table_length(at) == length && strncmp(at, line, length) == 0) return true;
    return false;
}

/* Writes the lines `sql` gives in `db` (one text column) to `out` (`size` bytes), each
 * ended by a line end, leaving out those about tables `ours` does not name. SQLITE_OK,
 * SQLITE_TOOBIG when they do not fit, or SQLite's error. */
static int lines_of(sqlite3 *db, const char *sql, const char *ours, char *out, size_t size)
{
    sqlite3_stmt *statement;
    int rc = sqlite3_prepare_v2(db, sql, -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    size_t used = 0;
    out[0] = '\0';
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(statement, 0);
        if (!line) {
            rc = sqlite3_errcode(db) == SQLITE_NOMEM ? SQLITE_NOMEM : SQLITE_ROW;
            if (rc == SQLITE_NOMEM) break;
            continue;
        }
        if (strchr(line, '\n') || !names_table(ours, line)) continue;
        int wrote = snprintf(out + used, size - used, "%s\n", line);
        if (wrote < 0 || (size_t)wrote >= size - used) {
            rc = SQLITE_TOOBIG;
            break;
        }
        used += (size_t)wrote;
    }
    sqlite3_finalize(statement);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* True when `found` has the same lines about the table `line` starts with as `expected`. */
static bool same_table(const char *expected, const char *found, const char *line)
{
    size_t length = table_length(line);
    const char *a = expected, *b = found;
    for (;;) {
        while (*a && !(table_length(a) == length && strncmp(a, line, length) == 0))
            a = strchr(a, '\n') + 1;
        while (*b && !(table_length(b) == length && strncmp(b, line, length) == 0))
            b = strchr(b, '\n') + 1;
        if (!*a || !*b) return !*a && !*b;
        size_t end_a = strcspn(a, "\n"), end_b = strcspn(b, "\n");
        if (end_a != end_b || strncmp(a, b, end_a) != 0) return false;
        a += end_a + 1;
        b += end_b + 1;
    }
}

/* The first table of `expected` whose lines `found` does not have, as its line's start (its
 * name up to table_length()), or NULL when none. */
static const char *first_differing(const char *expected, const char *found)
{
    for (const char *line = expected; *line; line = strchr(line, '\n') + 1)
        if (!same_table(expected, found, line)) return line;
    return NULL;
}

/* The first table of ours in `db` holding a row its CHECK or NOT NULL refuses (PRAGMA
 * quick_check of that table, its checks on), NULL when none (or when it cannot tell). Run only
 * once the tables' statements are ours (statement_differs): the checks run are then our own,
 * never an expression the file brought (one that built a 300 MB blob for each row took 24 s
 * at the start, where the whole file's quick_check ran it). */
static const char *row_refused(sqlite3 *db)
{
    static const char *const tables[] = {"best",     "best_kind",     "collection",
                                         "identity", "imported",      "imported_file",
                                         "level",    "merged_repair", "origin",
                                         "snapshot"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA quick_check(%s)", tables[i]);
        sqlite3_stmt *statement;
        if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) continue;
        const unsigned char *verdict =
            sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_text(statement, 0) : NULL;
        bool refused = verdict && strcmp((const char *)verdict, "ok") != 0;
        sqlite3_finalize(statement);
        if (refused) return tables[i];
    }
    return NULL;
}

bool progress_schema_intact(sqlite3 *db, char *what, size_t what_size)
{
    char found[8192];
    const char *differs = NULL, *how = "";
    int rc = lines_of(db, COLUMNS_OF, schema_columns, found, sizeof found);
    if (rc == SQLITE_OK || rc == SQLITE_TOOBIG) {
        differs = rc == SQLITE_TOOBIG ? schema_columns : first_differing(schema_columns, found);
        how = differs && !names_table(found, differs) ? "is missing"
                                                      : "has columns sokoban's does not";
    }
    if (!differs && rc == SQLITE_OK) {
        rc = lines_of(db, ROWS_OF, schema_rows, found, sizeof found);
        if (rc == SQLITE_OK || rc == SQLITE_TOOBIG) {
            differs = rc == SQLITE_TOOBIG ? schema_rows : first_differing(schema_rows, found);
            how = "has rows sokoban's does not";
        }
    }
    char table[64] = "";
    const char *statement_how = NULL;
    if (!differs && rc == SQLITE_OK) statement_how = statement_differs(db, table, sizeof table);
    const char *refused = !differs && rc == SQLITE_OK && !statement_how ? row_refused(db) : NULL;
    if (refused) {
        snprintf(table, sizeof table, "%s", refused);
        statement_how = "holds a row its schema refuses";
    }
    if (what && what_size) {
        if (differs)
            snprintf(what, what_size, "its table %.*s %s", (int)table_length(differs), differs,
                     how);
        else if (statement_how)
            snprintf(what, what_size, "its table %s %s", table, statement_how);
        else
            what[0] = '\0';
    }
    return !differs && !statement_how;
}
