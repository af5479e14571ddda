/* progress_salvage.c - what can be read of a damaged progress database, copied row by row
 * into a new one. */
#include "progress_salvage.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "progress_schema.h"

/* What a row copied does where the new database has one of the same key (only when a repair
 * cut short is finished: a repair's first copy goes into an empty database). A row written
 * since is newer and kept, but a level solved stays solved, the time played is the sum, a
 * best stays the better of the two and a collection keeps its last time played and the
 * level it was at then (two rows of one path in a damaged file whose key was dropped:
 * the one played last). */
static const char *on_conflict(const char *table)
{
    if (strcmp(table, "level") == 0)
        return " ON CONFLICT (key) DO UPDATE SET solved = max(solved, excluded.solved),"
               " assisted = max(assisted, excluded.assisted),"
               " seconds = seconds + excluded.seconds";
    if (strcmp(table, "best") == 0)
        return " ON CONFLICT (key, kind) DO UPDATE SET lurd = excluded.lurd,"
               " moves = excluded.moves, pushes = excluded.pushes, checked = excluded.checked,"
               " origin = excluded.origin"
               " WHERE (kind = 0 AND (excluded.moves < moves OR (excluded.moves = moves AND"
               " excluded.pushes < pushes))) OR (kind = 1 AND (excluded.pushes < pushes OR"
               " (excluded.pushes = pushes AND excluded.moves < moves)))";
    if (strcmp(table, "collection") == 0)
        return " ON CONFLICT (path) DO UPDATE SET level = CASE WHEN excluded.played > played"
               " THEN excluded.level ELSE level END, played = max(played, excluded.played)";
    return " ON CONFLICT DO NOTHING";
}

/* True when `name` is a table in `old` (not a view: reading one would run what the file
 * says, without end for a recursive one). */
static bool is_table(sqlite3 *old, const char *name)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(old, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1,
                           &statement, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(statement, 1, name, -1, SQLITE_STATIC);
    bool table = sqlite3_step(statement) == SQLITE_ROW;
    sqlite3_finalize(statement);
    return table;
}

/* Appends `before` and the column name `name` quoted as an identifier to `sql` (`used` of
 * its `size` bytes taken): a name is the damaged file's text, never SQL of its own (one that
 * closed the column list and added a recursive SELECT filled the disk). Returns the bytes
 * taken, `size` when it does not fit or `name` is NULL (out of memory). */
static size_t append_name(char *sql, size_t size, size_t used, const char *before, const char *name)
{
    if (!name) return size;
    used += (size_t)snprintf(sql + used, size - used, "%s\"", before);
    for (; *name && used + 2 < size; name++) {
        if (*name == '"') sql[used++] = '"';
        sql[used++] = *name;
    }
    if (*name || used + 2 > size) return size;
    sql[used++] = '"';
    sql[used] = '\0';
    return used;
}

/* `sql` made "SELECT a, b... FROM `table`" of the columns `old` stores (by name, quoted),
 * never a generated one: its expression is the file's, run for each row read (one building
 * a 200 MB text took seconds a row, and gigabytes). False when there is none or it does not
 * fit. */
static bool select_stored(sqlite3 *old, const char *table, char *sql, size_t size)
{
    sqlite3_stmt *columns;
    if (sqlite3_prepare_v2(old, "SELECT name FROM pragma_table_xinfo(?1) WHERE hidden = 0", -1,
                           &columns, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(columns, 1, table, -1, SQLITE_STATIC);
    size_t used = (size_t)snprintf(sql, size, "SELECT ");
    int count = 0;
    while (used < size && sqlite3_step(columns) == SQLITE_ROW)
        used = append_name(sql, size, used, count++ ? ", " : "",
                           (const char *)sqlite3_column_text(columns, 0));
    sqlite3_finalize(columns);
    if (used < size) used += (size_t)snprintf(sql + used, size - used, " FROM %s", table);
    return count > 0 && used < size;
}

/* A column of a new table that a copy fills: its place in the old row, and what may stand
 * in for a value the schema refuses. */
typedef struct column_copy {
    int from;         /* the old row's column */
    bool replaceable; /* not in the key, and has a default or may be NULL */
    bool numeric;     /* INTEGER or REAL */
} column_copy;

/* Looks up the new database's column `name` of `table`: false when it has none. Its default
 * (SQL of our own schema, as pragma_table_info gives it; "" when none) goes to `fallback`. */
static bool find_column(sqlite3 *db, const char *table, const char *name, column_copy *column,
                        char *fallback, size_t fallback_size)
{
    sqlite3_stmt *statement;
    if (!name || sqlite3_prepare_v2(db,
                                    "SELECT type, \"notnull\", dflt_value, pk FROM "
                                    "pragma_table_info(?1, 'main') WHERE name = ?2",
                                    -1, &statement, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(statement, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(statement, 2, name, -1, SQLITE_STATIC);
    bool found = sqlite3_step(statement) == SQLITE_ROW;
    if (found) {
        const char *type = (const char *)sqlite3_column_text(statement, 0);
        const char *value = (const char *)sqlite3_column_text(statement, 2);
        column->numeric = type && (strcmp(type, "INTEGER") == 0 || strcmp(type, "REAL") == 0);
        column->replaceable = sqlite3_column_int(statement, 3) == 0 &&
                              (value || sqlite3_column_int(statement, 1) == 0);
        snprintf(fallback, fallback_size, "%s", value ? value : "");
    }
    sqlite3_finalize(statement);
    return found;
}

/* How much of a row a copy replaces to have it taken: nothing; the values the schema's types
 * refuse (NULL, text or a blob where a number is kept); every number it may replace. */
typedef enum replace { REPLACE_NOTHING, REPLACE_MISTYPED, REPLACE_NUMBERS } replace;

/* Inserts the old row `select` is on with `insert`, `replacing` what may be replaced by
 * NULL (its column's default, through the insert's coalesce()): SQLite's primary code. */
static int insert_row(sqlite3_stmt *insert, sqlite3_stmt *select, const column_copy *columns,
                      int count, replace replacing)
{
    for (int c = 0; c < count; c++) {
        sqlite3_value *value = sqlite3_column_value(select, columns[c].from);
        int type = sqlite3_value_type(value);
        bool mistyped = type == SQLITE_NULL ||
                        (columns[c].numeric && (type == SQLITE_TEXT || type == SQLITE_BLOB));
        bool replace =
            columns[c].replaceable && ((replacing == REPLACE_MISTYPED && mistyped) ||
                                       (replacing == REPLACE_NUMBERS && columns[c].numeric));
        if (replace)
            sqlite3_bind_null(insert, c + 1);
        else
            sqlite3_bind_value(insert, c + 1, value);
    }
    int rc = sqlite3_step(insert);
    sqlite3_reset(insert);
    return rc & 0xff;
}

/* Copies, row by row, every table of the database `old` into `db` (when `merge`,
 * on_conflict() says what a row of a key already there does; otherwise it is passed over);
 * a row that cannot be read ends its table, and a name of ours that is not a table there
 * is passed over. A column the new table lacks (one added or renamed by hand) is left out,
 * so that the table's rows still come. A row the schema refuses (a NULL, a text where a
 * number is kept, a number its CHECK refuses: written by hand) is tried again with those
 * values replaced by their column's default (or NULL), then with every number outside the
 * key replaced, so that the rest of it (an unfinished game, a solution) still comes; a row
 * short of a column the schema needs is not copied. Returns the rows copied, or -1 when the
 * transaction of `db` it runs in (its caller's) was rolled back by SQLite under it (a full
 * disk, an I/O error): the rows after would each be committed alone, outside it. */
static long copy_rows(sqlite3 *db, sqlite3 *old, bool merge)
{
    long copied = 0;
    bool rolled_back = false;
    for (const char *const *table = progress_schema_tables; *table && !rolled_back; table++) {
        if (!is_table(old, *table)) continue;
        char sql[2048], values[1024], fallback[256];
        sqlite3_stmt *select;
        if (!select_stored(old, *table, sql, sizeof sql) ||
            sqlite3_prepare_v2(old, sql, -1, &select, NULL) != SQLITE_OK)
            continue;
        int count = sqlite3_column_count(select), taken = 0;
        column_copy *columns = malloc((size_t)(count > 0 ? count : 1) * sizeof *columns);
        size_t used =
            columns ? (size_t)snprintf(sql, sizeof sql, "INSERT INTO %s (", *table) : sizeof sql;
        size_t used_values = 0;
        for (int c = 0; c < count && used < sizeof sql && used_values < sizeof values; c++) {
            const char *name = sqlite3_column_name(select, c);
            if (!find_column(db, *table, name, &columns[taken], fallback, sizeof fallback))
                continue;
            used = append_name(sql, sizeof sql, used, taken ? ", " : "", name);
            columns[taken].from = c;
            const char *comma = taken ? ", " : "";
            size_t left = sizeof values - used_values;
            used_values +=
                (size_t)(fallback[0] ? snprintf(values + used_values, left, "%scoalesce(?, %s)",
                                                comma, fallback)
                                     : snprintf(values + used_values, left, "%s?", comma));
            taken++;
        }
        if (used < sizeof sql && used_values < sizeof values)
            used += (size_t)snprintf(sql + used, sizeof sql - used, ") VALUES (%s)%s", values,
                                     merge ? on_conflict(*table) : " ON CONFLICT DO NOTHING");
        sqlite3_stmt *insert = NULL;
        if (taken > 0 && used < sizeof sql &&
            sqlite3_prepare_v2(db, sql, -1, &insert, NULL) == SQLITE_OK) {
            while (sqlite3_step(select) == SQLITE_ROW) {
                int rc = insert_row(insert, select, columns, taken, REPLACE_NOTHING);
                if (rc == SQLITE_CONSTRAINT)
                    rc = insert_row(insert, select, columns, taken, REPLACE_MISTYPED);
                if (rc == SQLITE_CONSTRAINT)
                    rc = insert_row(insert, select, columns, taken, REPLACE_NUMBERS);
                if (rc == SQLITE_DONE && sqlite3_changes(db) > 0) copied++;
                if ((rolled_back = sqlite3_get_autocommit(db) != 0)) break;
            }
        }
        sqlite3_finalize(insert);
        sqlite3_finalize(select);
        free(columns);
    }
    return rolled_back ? -1 : copied;
}

/* The schema version `old` says it has: PRAGMA user_version, 0 when it cannot be read. */
static int version_of(sqlite3 *old)
{
    sqlite3_stmt *statement;
    int version = 0;
    if (sqlite3_prepare_v2(old, "PRAGMA user_version", -1, &statement, NULL) != SQLITE_OK) return 0;
    if (sqlite3_step(statement) == SQLITE_ROW) version = sqlite3_column_int(statement, 0);
    sqlite3_finalize(statement);
    return version;
}

/* The size of the database `old`: its pages times their size (0 when it cannot tell). */
long long progress_salvage_bytes(sqlite3 *old)
{
    sqlite3_stmt *statement;
    long long bytes = 0;
    if (sqlite3_prepare_v2(old,
                           "SELECT page_count * page_size FROM pragma_page_count, "
                           "pragma_page_size",
                           -1, &statement, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(statement) == SQLITE_ROW) bytes = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    return bytes;
}

/* Removes the scratch database at `scratch` and its journal, if any (unlink: a link there
 * goes, never what it names). */
static void remove_scratch(const char *scratch)
{
    if (!scratch) return;
    unlink(scratch);
    size_t size = strlen(scratch) + sizeof "-journal";
    char *journal = malloc(size);
    if (journal) {
        snprintf(journal, size, "%s-journal", scratch);
        unlink(journal);
    }
    free(journal);
}

long long progress_salvage_free_beside(const char *path, const progress_options *options)
{
    const char *slash = strrchr(path, '/');
    char *folder = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!folder) return -1;
    long long room = -1;
    struct statvfs space;
    if (options && options->free_bytes)
        room = options->free_bytes(folder);
    else if (statvfs(folder, &space) == 0)
        room = (long long)space.f_bavail * (long long)space.f_frsize;
    free(folder);
    return room;
}

/* How many times the size of a file set aside must be free beside the database for a repair
 * to copy it in: the copy's transaction writes its rows into the database's -wal (up to
 * about the file's size) and the checkpoint writes them into the database (as much again).
 * Measured on a tmpfs with a 4 MiB damaged file: 4 MiB free, the copy failed (disk full);
 * 5 to 7, it was made but filled the disk, its -wal left (every save after failed); 8, clean.
 * With less, the copy filled the disk, failed, and was tried again at every start. */
enum { COPY_ROOM = 2 };

bool progress_salvage_room_to_copy(const char *aside, long long bytes,
                                   const progress_options *options, char *why, size_t why_size)
{
    long long room = progress_salvage_free_beside(aside, options);
    if (room < 0 || room / COPY_ROOM >= bytes) return true;
    if (why && why_size)
        snprintf(why, why_size, "copying it needs %lld MiB free beside it, and %lld MiB are free",
                (COPY_ROOM * bytes + (1 << 20) - 1) >> 20, room >> 20);
    return false;
}

/* How many times the size of the file set aside must be free beside it for its migration on
 * disk: the scratch database takes up to twice it (migration 4 copies every table before
 * dropping the old one), and while it is there the copy into the new database writes that
 * database's -wal (up to once more) and its checkpoint the database (once more). Measured on
 * a tmpfs with a 4 MiB schema 3 file (4,000 level rows, snapshot dropped, memory_max 1):
 * with 3.5 times its size free at the start (2.9 at the check, the -wal of the file set
 * aside made meanwhile) the scratch filled the disk and nothing was copied, the repair left
 * for the next start to fail the same; with 4.5 times it was migrated and copied. */
enum { SCRATCH_ROOM = 4 };

/* options->memory_max, PROGRESS_MEMORY_MAX when 0 (or no options). */
static long long memory_max_of(const progress_options *options)
{
    return options && options->memory_max > 0 ? options->memory_max : PROGRESS_MEMORY_MAX;
}

/* A database for migrated_copy() to fill: in memory when `old` is at most options->memory_max
 * bytes (a player's progress is a few megabytes), else on disk
 * at `scratch` (one larger, blobs written by hand, is never held whole in memory), made
 * anew (what a game killed while using it left there is removed first), without a journal
 * or a sync: it is thrown away after. On disk it is made only when the folder has
 * SCRATCH_ROOM times the size of `old` free (progress_salvage_free_beside; with less, a full disk and a repair failed at
 * every start: `note` says so, and the caller copies `old` as it is). NULL when none can be
 * had. */
static sqlite3 *open_scratch(sqlite3 *old, const char *scratch, const progress_options *options,
                             bool *on_disk, char *note, size_t note_size)
{
    long long bytes = progress_salvage_bytes(old);
    bool small = bytes <= memory_max_of(options);
    if (!small && !scratch) return NULL;
    if (!small) {
        long long room = progress_salvage_free_beside(scratch, options);
        if (room >= 0 && room / SCRATCH_ROOM < bytes) {
            if (note && note_size)
                snprintf(note, note_size,
                         "bringing its older schema up to date first needs %lld MiB free beside "
                         "it, and %lld MiB are free",
                         (SCRATCH_ROOM * bytes + (1 << 20) - 1) >> 20, room >> 20);
            return NULL;
        }
    }
    *on_disk = !small;
    if (!small) remove_scratch(scratch);
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW;
    if (sqlite3_open_v2(small ? ":memory:" : scratch, &db, flags, NULL) != SQLITE_OK ||
        (!small && sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", NULL,
                                NULL, NULL) != SQLITE_OK)) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* What can be read of `old`, a database of an older schema than ours, copied into a scratch
 * database of that schema (open_scratch) and brought up to ours by the migrations, so that
 * what the older schema meant is carried over as they carry it (schemas 1 to 3's
 * collection counter becomes a time, their flags 0 or 1), whatever its size (`on_disk` set
 * when the scratch database is the file `scratch`, for the caller to remove). NULL when
 * `old` is not of an older schema of ours, no scratch database can be had, or its rows
 * cannot be migrated (a value a migration refuses): the caller then copies `old` as it
 * is; so is a file whose tables are of our version whatever its user_version says. `note`
 * (open_scratch) says when the disk had no room for the scratch database. */
static sqlite3 *migrated_copy(sqlite3 *old, const char *scratch, const progress_options *options,
                              bool *on_disk, char *note, size_t note_size)
{
    int version = version_of(old);
    /* A version set down or up by hand (PRAGMA user_version) is not what the file is: its
     * tables say (the migrations from a lower version would take what the later ones added
     * for damage: an optimized best made imported, the move groups dropped; a higher one
     * would skip what the migrations after the real one carry: a flag of 2 refused, the
     * collection counter kept as a time). */
    int shown = version >= 1 ? progress_schema_shown(old) : 0;
    if (shown >= 1) version = shown;
    if (version < 1 || version >= PROGRESS_SCHEMA_VERSION) return NULL;
    sqlite3 *copy = open_scratch(old, scratch, options, on_disk, note, note_size);
    if (!copy || progress_schema_create_version(copy, version) != PROGRESS_SCHEMA_OK ||
        sqlite3_exec(copy, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(copy);
        return NULL;
    }
    if (copy_rows(copy, old, false) < 0) {
        sqlite3_close(copy);
        return NULL;
    }
    progress_schema_drop_unkeyed(copy);
    if (sqlite3_exec(copy, "COMMIT", NULL, NULL, NULL) != SQLITE_OK ||
        progress_schema_upgrade(copy, NULL, NULL, 0) != PROGRESS_SCHEMA_OK) {
        sqlite3_close(copy);
        return NULL;
    }
    return copy;
}

/* The file set aside at `aside` as merged_repair names it: its name (without the folder, so
 * that a folder moved keeps it), device and inode. False when it cannot be looked at. */
typedef struct aside_file {
    const char *name;
    struct stat status;
} aside_file;

static bool look_at(const char *aside, aside_file *file)
{
    const char *slash = strrchr(aside, '/');
    file->name = slash ? slash + 1 : aside;
    return lstat(aside, &file->status) == 0;
}

/* Binds the aside file's name, device and inode to ?1, ?2, ?3 of `statement`. */
static void bind_aside(sqlite3_stmt *statement, const aside_file *file)
{
    sqlite3_bind_text(statement, 1, file->name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(statement, 2, (sqlite3_int64)file->status.st_dev);
    sqlite3_bind_int64(statement, 3, (sqlite3_int64)file->status.st_ino);
}

/* Records in `db` that the rows of `file` were copied (in the copy's transaction). */
static bool record_merged(sqlite3 *db, const aside_file *file)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO merged_repair VALUES (?1, ?2, ?3)", -1,
                           &statement, NULL) != SQLITE_OK)
        return false;
    bind_aside(statement, file);
    bool done = sqlite3_step(statement) == SQLITE_DONE;
    sqlite3_finalize(statement);
    return done;
}

/* True when `db` records that the rows of `file` were copied into it. */
static bool was_merged(sqlite3 *db, const aside_file *file)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db,
                           "SELECT 1 FROM merged_repair WHERE aside = ?1 AND device = ?2 AND "
                           "inode = ?3",
                           -1, &statement, NULL) != SQLITE_OK)
        return false;
    bind_aside(statement, file);
    bool merged = sqlite3_step(statement) == SQLITE_ROW;
    sqlite3_finalize(statement);
    return merged;
}

bool progress_salvage_merged(sqlite3 *db, const char *aside)
{
    aside_file file;
    return look_at(aside, &file) && was_merged(db, &file);
}

/* progress_salvage_from, recording `merged` (when not NULL) in the copy's transaction. */
static long salvage(sqlite3 *db, sqlite3 *old, const char *scratch,
                    const progress_options *options, const aside_file *merged, char *note,
                    size_t note_size);

long progress_salvage(sqlite3 *db, const char *aside, const progress_options *options, char *note,
                      size_t note_size)
{
    if (note && note_size) note[0] = '\0';
    aside_file file;
    if (!look_at(aside, &file)) {
        if (note && note_size) snprintf(note, note_size, "%s", strerror(errno));
        return -1;
    }
    sqlite3 *old = NULL;
    if (sqlite3_open_v2(aside, &old, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL) !=
        SQLITE_OK) {
        if (note && note_size) snprintf(note, note_size, "%s", sqlite3_errmsg(old));
        sqlite3_close(old);
        return -1;
    }
    size_t size = strlen(aside) + sizeof PROGRESS_SALVAGE_SCRATCH;
    char *scratch = malloc(size);
    if (scratch) snprintf(scratch, size, "%s" PROGRESS_SALVAGE_SCRATCH, aside);
    long copied = salvage(db, old, scratch, options, &file, note, note_size);
    free(scratch);
    sqlite3_close(old);
    return copied;
}

long progress_salvage_from(sqlite3 *db, sqlite3 *old, const char *scratch,
                           const progress_options *options)
{
    return salvage(db, old, scratch, options, NULL, NULL, 0);
}

static long salvage(sqlite3 *db, sqlite3 *old, const char *scratch,
                    const progress_options *options, const aside_file *merged, char *note,
                    size_t note_size)
{
    /* The write lock of `db` is taken first and held through the migration: the scratch
     * database beside the file set aside is made, filled and removed only under it, so that
     * a second game finishing the same repair waits (or gives up at its busy timeout)
     * instead of removing the first one's scratch in the middle of its migration; under it,
     * a file another game has copied meanwhile is not copied again. Foreign keys off while
     * copying: a best whose level row was lost to the damage is kept, and given a level row
     * after (progress_schema_mend). */
    sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        if (note && note_size) snprintf(note, note_size, "%s", sqlite3_errmsg(db));
        sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
        return rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? PROGRESS_SALVAGE_BUSY : -1;
    }
    if (merged && was_merged(db, merged)) { /* copied by another game while this one waited */
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
        return 0;
    }
    bool on_disk = false;
    sqlite3 *migrated = migrated_copy(old, scratch, options, &on_disk, note, note_size);
    sqlite3 *from = migrated ? migrated : old;
    long copied = copy_rows(db, from, true);
    /* (the id's page in the -wal too: progress_wal.h) */
    if (copied < 0 || progress_schema_mend(db) != SQLITE_OK ||
        (merged && !record_merged(db, merged)) || progress_schema_stamp(db) != SQLITE_OK ||
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        /* (SQLite's reason, read before the ROLLBACK replaces it) */
        if (note && note_size) snprintf(note, note_size, "%s", sqlite3_errmsg(db));
        if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        copied = -1;
    }
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    sqlite3_close(migrated);
    if (on_disk) remove_scratch(scratch);
    return copied;
}
