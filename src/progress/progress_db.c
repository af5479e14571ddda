/* progress_db.c - the progress database as a file: opening it safely, setting it aside. */
#include "progress_db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress_db_examine.h"
#include "progress_db_names.h"
#include "progress_db_read.h"
#include "progress_salvage.h"
#include "progress_schema.h"
#include "progress_wal.h"

/* A damaged database is set aside as FILE.repairing-STAMP until what can be read of it is
 * committed into the new one, then renamed FILE.corrupt-STAMP: a repair cut short (the game
 * killed in between) leaves the first name, and the next game to open the database finishes
 * it (finish_repairs_cut_short). */
#define REPAIRING "repairing"
#define REPAIRED "corrupt"

/* How often opening tries again when other games hold the database (see prepare()). */
enum { OPEN_ATTEMPTS = 20, OPEN_RETRY_NS = 100 * 1000 * 1000 };

__attribute__((format(printf, 3, 4))) static void set_message(char *message, size_t size,
                                                              const char *format, ...)
{
    if (!message || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, size, format, arguments);
    va_end(arguments);
}

void progress_db_tell_also(char *message, size_t size, const char *format, ...)
{
    if (!message || size == 0) return;
    size_t used = strnlen(message, size - 1);
    if (used + 1 >= size) return;
    const char *head = used ? "; " : "progress: ";
    int wrote = snprintf(message + used, size - used, "%s", head);
    used += (size_t)(wrote > 0 ? wrote : 0);
    if (used + 1 >= size) return;
    va_list arguments;
    va_start(arguments, format);
    int needed = vsnprintf(message + used, size - used, format, arguments);
    va_end(arguments);
    /* more than the line holds: it ends marked cut, "...", after a whole UTF-8 character */
    if (needed >= 0 && (size_t)needed >= size - used && size > 4) {
        size_t end = size - 4;
        while (end > 0 && ((unsigned char)message[end] & 0xC0) == 0x80) end--;
        memcpy(message + end, "...", 4);
    }
}

/* Tells `options` (progress_options.h) the line of `format` (with the file `file` and the
 * size in MiB) before a step of opening on `bytes`, when they are over its long_bytes. */
__attribute__((format(printf, 3, 0))) static void
tell_long(const progress_options *options, long long bytes, const char *format, const char *file)
{
    if (!options->before_long || bytes <= options->long_bytes) return;
    char line[1200];
    snprintf(line, sizeof line, format, file, (bytes + (1 << 20) - 1) >> 20);
    options->before_long(line, options->argument);
}

char *progress_db_with_suffix(const char *file, const char *suffix)
{
    size_t size = strlen(file) + strlen(suffix) + 1;
    char *name = malloc(size);
    if (name) snprintf(name, size, "%s%s", file, suffix);
    return name;
}

/* False only when the database is known damaged: `PRAGMA quick_check` finds a fault in its
 * pages, or SQLite calls the file corrupt or not a database. A check that cannot run because
 * another game holds the lock past the busy timeout (or for want of memory) says nothing of the
 * file, and a sound database must never be set aside for it: that counts as sound, and
 * what follows reports the lock if it lasts. */
static bool looks_sound(sqlite3 *db)
{
    /* the file's pages only: a CHECK is an expression the file brings, run on every row
     * (progress_schema_intact checks the rows of our tables, once their statements are
     * ours) */
    sqlite3_exec(db, "PRAGMA ignore_check_constraints = ON", NULL, NULL, NULL);
    sqlite3_stmt *statement;
    bool sound = false, told = false;
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &statement, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(statement);
        if (rc == SQLITE_ROW) {
            const unsigned char *verdict = sqlite3_column_text(statement, 0);
            sound = !verdict || strcmp((const char *)verdict, "ok") == 0;
            told = true;
        }
        int finalized = sqlite3_finalize(statement);
        if (!told) rc = finalized;
    }
    sqlite3_exec(db, "PRAGMA ignore_check_constraints = OFF", NULL, NULL, NULL);
    if (told) return sound;
    rc &= 0xff; /* the primary code of an extended one */
    return rc != SQLITE_CORRUPT && rc != SQLITE_NOTADB;
}

/* Opens the file as SQLite with the busy timeout. SQLITE_OPEN_NOFOLLOW refuses a link in
 * any component of the path, so `file` must be one whose folders are resolved
 * (progress_db_real_file()); the file itself and its -wal and -shm were looked at by
 * progress_db_refuse(). NULL with SQLite's reason in `why` when it cannot be opened. */
static sqlite3 *open_connection(const char *file, char *why, size_t why_size)
{
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW;
    if (sqlite3_open_v2(file, &db, flags, NULL) != SQLITE_OK) {
        set_message(why, why_size, "%s", db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, PROGRESS_OPEN_BUSY_MS);
    sqlite3_extended_result_codes(db, 0);
    return db;
}

/* True when `file` is a regular file (not a link). Only lstat(): a file this process holds
 * SQLite's locks on must never be opened and closed here, as closing any descriptor of a
 * file drops every POSIX lock the process holds on it. */
static bool is_regular_file(const char *file)
{
    struct stat status;
    return lstat(file, &status) == 0 && S_ISREG(status.st_mode);
}

/* After a database was renamed from `from` to `to`: its -wal goes with it (the WAL holds the
 * last commits, of games still playing on it: left behind it would be read as the WAL of
 * the database next at `from`; its header is not a database's, so any regular file is
 * taken), and its -shm, SQLite's scratch, goes. */
static void move_scratch(const char *from, const char *to)
{
    char *wal = progress_db_with_suffix(from, "-wal"),
         *to_wal = progress_db_with_suffix(to, "-wal");
    char *shm = progress_db_with_suffix(from, "-shm");
    if (wal && to_wal && is_regular_file(wal)) progress_db_rename_new(wal, to_wal);
    struct stat status;
    if (shm && lstat(shm, &status) == 0 && !S_ISLNK(status.st_mode)) unlink(shm);
    free(wal);
    free(to_wal);
    free(shm);
}

/* Sets the damaged database at `file` aside (its -wal with it; the -shm is SQLite's scratch
 * and goes), while this process holds its write lock: the files are only looked at with
 * lstat() (is_regular_file), so that the lock stays held. Returns the new name or NULL with
 * `message` set. */
static char *set_damaged_aside(const char *file, char *message, size_t message_size)
{
    if (!is_regular_file(file)) {
        set_message(message, message_size,
                    "progress: %s is damaged and not a regular file; progress is not saved", file);
        return NULL;
    }
    char *aside = progress_db_set_aside(file, REPAIRING);
    if (!aside) {
        set_message(message, message_size,
                    "progress: %s is damaged and cannot be set aside (%s); progress is not saved",
                    file, strerror(errno));
        return NULL;
    }
    move_scratch(file, aside);
    return aside;
}

/* Tells why a database that is not ours to write (PROGRESS_SCHEMA_NEWER, of schema `found`,
 * or PROGRESS_SCHEMA_FOREIGN) is left alone; where a -wal beside it is what makes it
 * another program's, names the -wal. */
static void tell_refused(progress_schema_status status, const char *file, int found, char *message,
                         size_t message_size)
{
    if (status == PROGRESS_SCHEMA_NEWER)
        set_message(message, message_size,
                    "progress: %s was written by a newer sokoban (schema %d), so it is left "
                    "alone and progress is not saved",
                    file, found);
    else if (progress_wal_is_the_cause(file, status))
        set_message(message, message_size,
                    "progress: %s-wal does not belong to %s (with it, the database reads as "
                    "another program's), so both are left alone and progress is not saved; move "
                    "%s-wal away to get your progress back",
                    file, file, file);
    else
        set_message(message, message_size,
                    "progress: %s is another program's database, so it is left alone and "
                    "progress is not saved",
                    file);
}

/* Makes the connection ready: WAL, then the schema. NULL with `message` when refused, or
 * with `*full` set when what that writes (the -shm, the first pages) fails for the disk (no
 * room, a quota, an I/O error): `message` is then only the reason, for the caller. An
 * older schema whose migration the file's own content refused (progress_schema_upgrade's
 * PROGRESS_SCHEMA_DAMAGED) is told in `damage` (when not NULL; otherwise refused), the
 * connection returned unchanged for the caller to set the file aside. */
static sqlite3 *prepare(sqlite3 *db, const char *file, const progress_options *options,
                        char *message, size_t message_size, char *damage, size_t damage_size,
                        bool *full)
{
    /* WAL: readers never wait for the writer; NORMAL: a commit survives the game being
     * killed (a power loss may take the last ones, never the database). */
    int found = 0;
    char error[256] = "";
    /* Another program's database or a newer sokoban's is refused before anything is written
     * (the switch to WAL writes the file's header). */
    progress_schema_status status = progress_schema_look(db, &found);
    bool refused = status != PROGRESS_SCHEMA_OK;
    if (!refused && found >= 1 && found < PROGRESS_SCHEMA_VERSION)
        tell_long(options, progress_salvage_bytes(db),
                  "progress: bringing %s up to date (%lld MiB)...", file);
    /* Games starting at once contend for the first moments (switching to WAL, creating the
     * tables), sometimes past SQLite's busy handler: try again for a while. */
    for (int attempt = 0; !refused && attempt < OPEN_ATTEMPTS; attempt++) {
        if (attempt) nanosleep(&(struct timespec){0, OPEN_RETRY_NS}, NULL);
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", NULL, NULL,
                     NULL);
        status = progress_schema_upgrade(db, &found, error, sizeof error);
        int code = sqlite3_errcode(db);
        if (status != PROGRESS_SCHEMA_ERROR || (code != SQLITE_BUSY && code != SQLITE_LOCKED))
            break;
    }
    if (status == PROGRESS_SCHEMA_OK) {
        /* A database made or migrated now: its id into the file itself (progress_wal.h),
         * where a -wal beside it is checked against it. */
        if (found < PROGRESS_SCHEMA_VERSION)
            sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        sqlite3_busy_timeout(db, PROGRESS_BUSY_MS);
        return db;
    }
    if (status == PROGRESS_SCHEMA_DAMAGED && damage && damage_size) {
        snprintf(damage, damage_size, "its schema %d cannot be brought up to date: %s", found,
                 error);
        return db;
    }
    int system = sqlite3_system_errno(db);
    if (status == PROGRESS_SCHEMA_NEWER || status == PROGRESS_SCHEMA_FOREIGN)
        tell_refused(status, file, found, message, message_size);
    else if ((*full = system == ENOSPC || system == EDQUOT || system == EFBIG ||
                      strcmp(error, sqlite3_errstr(SQLITE_FULL)) == 0 ||
                      strcmp(error, sqlite3_errstr(SQLITE_IOERR)) == 0))
        set_message(message, message_size, "%s", system ? strerror(system) : error);
    else
        set_message(message, message_size, "progress: cannot use %s (%s); progress is not saved",
                    file, error);
    /* left as found: closing the last connection would checkpoint a WAL beside the file into
     * it (one of another database's turned ours into that one) */
    progress_db_close_stale(db);
    return NULL;
}

/* Renames the database at `aside` (FILE.repairing-STAMP), whose rows are in the new one now,
 * to FILE.corrupt-STAMP, its -wal with it (move_scratch). The name it has after (malloc'd;
 * `aside`'s own when it cannot be renamed). */
static char *mark_repaired(const char *aside)
{
    const char *mark = strstr(aside, "." REPAIRING "-");
    char *done = NULL;
    if (mark) {
        size_t head = (size_t)(mark - aside), size = strlen(aside) + sizeof REPAIRED + 1;
        char *stem = malloc(size);
        if (stem) {
            snprintf(stem, size, "%.*s." REPAIRED "-%s", (int)head, aside,
                     mark + sizeof "." REPAIRING "-" - 1);
            done = progress_db_rename_to_free_name(aside, stem);
            free(stem);
        }
    }
    if (!done) return strdup(aside);
    move_scratch(aside, done);
    return done;
}

/* Adds one repair left unfinished to `unfinished` ("; " after what it holds). */
__attribute__((format(printf, 3, 4))) static void tell_unfinished(char *unfinished, size_t size,
                                                                  const char *format, ...)
{
    size_t used = strnlen(unfinished, size - 1);
    if (used && used + 3 < size) used += (size_t)snprintf(unfinished + used, size - used, "; ");
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(unfinished + used, size - used, format, arguments);
    va_end(arguments);
}

/* True when `name` (in the database's folder) is a database set aside by a repair not yet
 * finished: BASE.repairing-..., not a file SQLite keeps beside it (progress_db_with_scratch)
 * nor the salvage's scratch database (PROGRESS_SALVAGE_SCRATCH). */
static bool is_repair_cut_short(const char *name, const char *base)
{
    size_t length = strlen(base), stem = sizeof "." REPAIRING "-" - 1;
    if (strncmp(name, base, length) != 0 || strncmp(name + length, "." REPAIRING "-", stem) != 0)
        return false;
    size_t all = strlen(name), scratch = sizeof PROGRESS_SALVAGE_SCRATCH - 1;
    if (all > scratch && strcmp(name + all - scratch, PROGRESS_SALVAGE_SCRATCH) == 0) return false;
    for (size_t i = 1; i < PROGRESS_DB_SCRATCH_NAMES; i++) {
        size_t tail = strlen(progress_db_with_scratch[i]);
        if (all > tail && strcmp(name + all - tail, progress_db_with_scratch[i]) == 0) return false;
    }
    return true;
}

/* Finishes every repair of `file` cut short: copies what can be read of each database still
 * set aside as FILE.repairing-* into `db` (merged with the rows written since: progress_salvage)
 * and marks it repaired; one that progress_db_refuse() refuses (a link or a hard link beside it,
 * which SQLite would write its -shm through) is left alone. Tells each in `message`, after what it
 * holds ("; " between: progress_db_tell_also). One that cannot be copied now (no room:
 * progress_salvage_room_to_copy; a failed copy) is left for the next start, `unfinished`
 * saying why (each, "; " between), its size added to `*unfinished_bytes` and one to
 * `*unfinished_count`; one
 * another game holds the lock of is left to that game. When `read_only` (`db` is the copy in
 * memory of a file that cannot be written), each is only read into `db` (open_reading) and
 * left, nothing told, but one that would take `db` over memory_max (`unfinished` says, and
 * counts it). */
static void finish_repairs_cut_short(sqlite3 *db, const char *file, bool read_only,
                                     const progress_options *options, char *message,
                                     size_t message_size, char *unfinished, size_t unfinished_size,
                                     long long *unfinished_bytes, int *unfinished_count)
{
    const char *slash = strrchr(file, '/');
    if (!slash) return;
    char *folder = strndup(file, (size_t)(slash - file) + 1);
    DIR *directory = folder ? opendir(folder) : NULL;
    if (!directory) {
        free(folder);
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (!is_repair_cut_short(entry->d_name, slash + 1)) continue;
        char *aside = progress_db_with_suffix(folder, entry->d_name);
        char refused[1200] = "";
        if (!aside || !is_regular_file(aside) ||
            progress_db_refuse(aside, false, "the repair cut short is not finished from it",
                               refused, sizeof refused)) {
            if (refused[0]) progress_db_tell_also(message, message_size, "%s", refused + 10);
            free(aside);
            continue;
        }
        /* A game killed between the copy's commit and the renaming: only the renaming is
         * left (copied again, a level's time played would be doubled). */
        bool merged = progress_salvage_merged(db, aside);
        struct stat status = {0};
        if (!merged && lstat(aside, &status) == 0)
            tell_long(options, (long long)status.st_size,
                      read_only ? "progress: reading %s (%lld MiB)..."
                                : "progress: finishing the repair of %s (%lld MiB)...",
                      aside);
        if (read_only && !merged &&
            progress_salvage_bytes(db) + (long long)status.st_size > options->memory_max) {
            tell_unfinished(unfinished, unfinished_size,
                            "%s, a repair cut short beside it, is not shown: at %lld MiB it is "
                            "too large to read into memory",
                            aside, ((long long)status.st_size + (1 << 20) - 1) >> 20);
            (*unfinished_count)++;
            free(aside);
            continue;
        }
        if (read_only) {
            sqlite3 *old = merged ? NULL : progress_db_open_reading(aside);
            if (old) progress_salvage_from(db, old, NULL, options);
            sqlite3_close(old);
            free(aside);
            continue;
        }
        if (merged) {
            char *done = mark_repaired(aside);
            progress_db_tell_also(message, message_size,
                                  "a repair of %s was cut short after its records were copied; "
                                  "it was finished: %s",
                                  file, done ? done : aside);
            free(done);
            free(aside);
            continue;
        }
        char note[256] = "";
        bool room = progress_salvage_room_to_copy(aside, (long long)status.st_size, options, note,
                                                  sizeof note);
        long copied = room ? progress_salvage(db, aside, options, note, sizeof note) : -1;
        if (copied >= 0) {
            char *done = mark_repaired(aside);
            progress_db_tell_also(message, message_size,
                                  "a repair of %s was cut short; it was finished from %s and "
                                  "%ld record%s copied%s%s%s",
                                  file, done ? done : aside, copied,
                                  copied == 1 ? " was" : "s were", note[0] ? " as it was (" : "",
                                  note, note[0] ? ")" : "");
            free(done);
        } else if (copied != PROGRESS_SALVAGE_BUSY) {
            tell_unfinished(unfinished, unfinished_size,
                            "a repair of %s was cut short, and it cannot be finished from %s yet "
                            "(%s%s; each start tries again)",
                            file, aside, room ? "its copy failed: " : "", note);
            *unfinished_bytes += (long long)status.st_size;
            (*unfinished_count)++;
        }
        free(aside);
    }
    closedir(directory);
    free(folder);
}

/* The database at `file`, which cannot be written (`why`: cannot_write's reason), copied into
 * a database in memory as a salvage copies it (an older schema's through the migrations), so
 * that the progress saved in it is shown while this session's play is not saved; nothing is
 * written there. Another program's database and a newer sokoban's are refused as prepare()
 * refuses them, and one over options->memory_max (64 MiB) too: it would be held
 * whole in memory. NULL with `message` set when refused or unreadable. What it says of the
 * repairs cut short beside it (not read, or refused) also goes to `also` when not NULL. */
static sqlite3 *open_read_only_copy(const char *file, const char *why,
                                    const progress_options *options, char *message,
                                    size_t message_size, char *also, size_t also_size)
{
    sqlite3 *old = progress_db_open_reading(file);
    int found = 0;
    progress_schema_status status = old ? progress_schema_look(old, &found) : PROGRESS_SCHEMA_OK;
    long long bytes = old && status == PROGRESS_SCHEMA_OK ? progress_salvage_bytes(old) : 0;
    if (bytes > options->memory_max) {
        sqlite3_close(old);
        set_message(message, message_size,
                    "progress: %s cannot be written (%s), and at %lld MiB it is too large to read "
                    "into memory; progress is not saved",
                    file, why, (bytes + (1 << 20) - 1) >> 20);
        return NULL;
    }
    sqlite3 *db = old && status == PROGRESS_SCHEMA_OK ? progress_db_open_memory() : NULL;
    if (db) tell_long(options, bytes, "progress: reading %s (%lld MiB)...", file);
    long copied = db ? progress_salvage_from(db, old, NULL, options) : -1;
    sqlite3_close(old);
    if (copied >= 0) {
        char skipped[PROGRESS_DB_MESSAGE_SIZE] = "", refused[PROGRESS_DB_MESSAGE_SIZE] = "";
        long long unused_bytes = 0;
        int unused_count = 0;
        finish_repairs_cut_short(db, file, true, options, refused, sizeof refused, skipped,
                                 sizeof skipped, &unused_bytes, &unused_count);
        if (refused[0]) tell_unfinished(skipped, sizeof skipped, "%s", refused + 10);
        if (also) set_message(also, also_size, "%s", skipped);
        set_message(message, message_size,
                    "progress: %s cannot be written (%s)%s%s" PROGRESS_DB_SHOWN, file, why,
                    skipped[0] ? "; " : "", skipped);
        return db;
    }
    sqlite3_close(db);
    if (status == PROGRESS_SCHEMA_NEWER || status == PROGRESS_SCHEMA_FOREIGN)
        tell_refused(status, file, found, message, message_size);
    else if (strncmp(why, "its folder: ", sizeof "its folder: " - 1) == 0 &&
             progress_db_has_wal_only(file))
        set_message(message, message_size,
                    "progress: %s cannot be read: its -wal needs a -shm beside it, which its "
                    "read-only folder cannot hold; make the folder writable to get your progress "
                    "back; progress is not saved",
                    file);
    else
        set_message(message, message_size,
                    "progress: %s cannot be written (%s) nor read; progress is not saved", file,
                    why);
    return NULL;
}

/* `db`, the database at `file`, beside a file set aside (`aside_bytes`) whose rows cannot be
 * copied into it now (`unfinished` says why): the game goes on with `db`, saved, the rows set
 * aside not shown until a start with room copies them in (a player's play is never given up
 * to show them); with no `db` (no room even for a new one), the file set aside is read into
 * memory (open_read_only_copy, up to memory_max), shown and not saved. The file is left for
 * the next start, `message` telling it. */
static sqlite3 *unrepaired(sqlite3 *db, const char *file, const char *unfinished,
                           int unfinished_count, long long aside_bytes,
                           const progress_options *options, bool *read_only, char *message,
                           size_t message_size)
{
    if (db) {
        progress_db_tell_also(message, message_size,
                              "%s: what %s not shown until then, and this session's play is "
                              "saved without %s",
                              unfinished, unfinished_count > 1 ? "they hold is" : "it holds is",
                              unfinished_count > 1 ? "them" : "it");
        return db;
    }
    char refused[PROGRESS_DB_MESSAGE_SIZE], skipped[PROGRESS_DB_MESSAGE_SIZE] = "";
    sqlite3 *copy = aside_bytes <= options->memory_max
                        ? open_read_only_copy(file, "", options, refused, sizeof refused, skipped,
                                              sizeof skipped)
                        : NULL;
    if (copy) {
        *read_only = true;
        set_message(message, message_size, "progress: %s%s%s" PROGRESS_DB_SHOWN, unfinished,
                    skipped[0] ? "; " : "", skipped);
        return copy;
    }
    set_message(message, message_size, "progress: %s; progress is not saved", unfinished);
    return NULL;
}

/* open_real's repair of the damaged database at `file` (`damaged`, its write lock held if it
 * could be had; closed here): set aside, a new one made and what can be read of it copied
 * in, told in `message`; `why_damaged` says what was wrong. */
static sqlite3 *repair(sqlite3 *damaged, const char *file, const char *why_damaged,
                       const progress_options *options, bool *read_only, char *message,
                       size_t message_size)
{
    char why[512];
    bool full = false;
    char *aside = set_damaged_aside(file, message, message_size);
    if (!aside) {
        progress_db_close_stale(damaged);
        return NULL;
    }
    sqlite3 *db = open_connection(file, why, sizeof why);
    if (!db)
        set_message(message, message_size,
                    "progress: %s was damaged and set aside as %s, and a new one cannot be "
                    "opened (%s); progress is not saved",
                    file, aside, why);
    if (db) db = prepare(db, file, options, message, message_size, NULL, 0, &full);
    if (full) {
        char unfinished[900];
        set_message(unfinished, sizeof unfinished,
                    "%s was damaged%s; it was set aside as %s, and a new one cannot be made yet "
                    "(%s; each start tries again)",
                    file, why_damaged, aside, message);
        struct stat set_aside = {0};
        lstat(aside, &set_aside);
        progress_db_close_stale(damaged);
        free(aside);
        return unrepaired(NULL, file, unfinished, 1, (long long)set_aside.st_size, options,
                          read_only, message, message_size);
    }
    struct stat status = {0};
    char note[256] = "";
    bool room = db && (lstat(aside, &status) != 0 ||
                       progress_salvage_room_to_copy(aside, (long long)status.st_size, options,
                                                     note, sizeof note));
    if (room)
        tell_long(options, (long long)status.st_size, "progress: repairing %s (%lld MiB)...", file);
    long copied = room ? progress_salvage(db, aside, options, note, sizeof note) : -1;
    progress_db_close_stale(damaged);
    if (copied >= 0) {
        char *done = mark_repaired(aside);
        free(aside);
        aside = done;
    }
    if (db && copied >= 0)
        set_message(message, message_size,
                    "progress: %s was damaged%s; it was set aside as %s and %ld record%s copied "
                    "from it%s%s%s",
                    file, why_damaged, aside ? aside : "?", copied, copied == 1 ? " was" : "s were",
                    note[0] ? " as it was (" : "", note, note[0] ? ")" : "");
    else if (db && copied != PROGRESS_SALVAGE_BUSY) {
        char unfinished[900];
        set_message(unfinished, sizeof unfinished,
                    "%s was damaged%s; it was set aside as %s, and what can be read of it cannot "
                    "be copied into a new one yet (%s%s; each start tries again)",
                    file, why_damaged, aside, room ? "its copy failed: " : "", note);
        free(aside);
        return unrepaired(db, file, unfinished, 1, (long long)status.st_size, options, read_only,
                          message, message_size);
    } else if (db)
        set_message(message, message_size,
                    "progress: %s was damaged%s; it was set aside as %s and nothing could be "
                    "copied from it yet (the next start tries again)",
                    file, why_damaged, aside);
    free(aside);
    return db;
}

static sqlite3 *open_checked(const char *file, const progress_options *options, bool *read_only,
                             char *message, size_t message_size, int attempts);

/* progress_db_open once the folder exists, with `file` resolved (progress_db_real_file()). */
static sqlite3 *open_real(const char *file, const progress_options *options, bool *read_only,
                          char *message, size_t message_size, int attempts)
{
    if (progress_db_refuse(file, true, "progress is not saved", message, message_size)) return NULL;
    char why[512];
    /* A database this process cannot write is read into memory, never opened for writing
     * (SQLite would fail its first write, and the progress in it would not be shown). */
    if (progress_db_cannot_write(file, why, sizeof why)) {
        sqlite3 *copy = open_read_only_copy(file, why, options, message, message_size, NULL, 0);
        *read_only = copy != NULL;
        return copy;
    }
    /* another database's -wal beside it: set aside before it is read as the file's, told
     * first, before what opening then tells */
    char wal_told[PROGRESS_DB_MESSAGE_SIZE] = "";
    bool go_on = progress_wal_check(file, wal_told, sizeof wal_told);
    sqlite3 *db =
        go_on ? open_checked(file, options, read_only, message, message_size, attempts) : NULL;
    if (wal_told[0]) {
        char after[PROGRESS_DB_MESSAGE_SIZE];
        set_message(after, sizeof after, "%s", go_on ? message : "");
        set_message(message, message_size, "%s", wal_told);
        if (after[0])
            progress_db_tell_also(message, message_size, "%s",
                                  strncmp(after, "progress: ", 10) == 0 ? after + 10 : after);
    }
    return db;
}

/* open_real once the files beside `file` were looked at: opens it, and sets it aside when
 * damaged. */
static sqlite3 *open_checked(const char *file, const progress_options *options, bool *read_only,
                             char *message, size_t message_size, int attempts)
{
    char why[512];
    sqlite3 *db = open_connection(file, why, sizeof why);
    if (!db) {
        set_message(message, message_size, "progress: cannot open %s (%s); progress is not saved",
                    file, why);
        return NULL;
    }
    if (sqlite3_db_readonly(db, "main") == 1) { /* SQLite found it read only after all */
        progress_db_close_stale(db);
        sqlite3 *copy = open_read_only_copy(file, "SQLite opens it read only", options, message,
                                            message_size, NULL, 0);
        *read_only = copy != NULL;
        return copy;
    }
    progress_db_identity opened = progress_db_identify(db);
    /* what a file that opens and reads lacks of ours (a table dropped or altered by hand,
     * which would fail every save): damaged too */
    char lacks[320] = "";
    bool full = false;
    if (looks_sound(db)) {
        db = prepare(db, file, options, message, message_size, lacks, sizeof lacks, &full);
        if (full) { /* a full disk: shown from memory, as a file that cannot be written */
            char reason[256];
            snprintf(reason, sizeof reason, "%s", message);
            sqlite3 *copy =
                open_read_only_copy(file, reason, options, message, message_size, NULL, 0);
            *read_only = copy != NULL;
            return copy;
        }
        if (db && !lacks[0] && progress_schema_intact(db, lacks, sizeof lacks)) {
            char unfinished[PROGRESS_DB_MESSAGE_SIZE] = "";
            long long unfinished_bytes = 0;
            int unfinished_count = 0;
            finish_repairs_cut_short(db, file, false, options, message, message_size, unfinished,
                                     sizeof unfinished, &unfinished_bytes, &unfinished_count);
            if (unfinished[0])
                return unrepaired(db, file, unfinished, unfinished_count, unfinished_bytes, options,
                                  read_only, message, message_size);
            return db;
        }
        if (!db) return NULL;
    }
    char why_damaged[330] = "";
    if (lacks[0]) snprintf(why_damaged, sizeof why_damaged, " (%s)", lacks);

    /* Damaged: set it aside and start a new one with what can be read. Its write lock is held
     * from before it is set aside until its rows are copied into the new one: a game playing
     * on it waits for that lock at its next write, then meets the change of file
     * (progress_db_same_file) and writes into the new database on top of the copy; never
     * into the file set aside after the copy, nor into the new one before it (the copy would
     * then keep that game's newer row and drop the older one's other columns). A lock that
     * cannot be had (the damage may hide it) does not stop the setting aside. It is set aside
     * as FILE.repairing-* until the copy is committed: a game killed before that leaves the
     * repair to the next one to open the database. */
    sqlite3 *damaged = db;
    sqlite3_exec(damaged, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    /* Another game that found the same damage may have set the file aside while this one
     * waited for its lock: what is at the path now is that game's new database, with the
     * rows copied, and is opened as it is, never set aside in turn (that would cut off its
     * copy, and tell of two damaged files). */
    if (opened.known && attempts > 1 && !progress_db_same_file(damaged, &opened)) {
        progress_db_close_stale(damaged);
        return open_real(file, options, read_only, message, message_size, attempts - 1);
    }
    return repair(damaged, file, why_damaged, options, read_only, message, message_size);
}

sqlite3 *progress_db_open(const char *directory, const char *file, const progress_options *options,
                          bool *read_only, char *message, size_t message_size)
{
    *read_only = false;
    set_message(message, message_size, "%s", "");
    if (!progress_db_make_directories(directory)) {
        set_message(message, message_size, "progress: cannot create %s (%s); progress is not saved",
                    directory, strerror(errno));
        return NULL;
    }
    char *real = progress_db_real_file(directory, file);
    if (!real) {
        set_message(message, message_size, "progress: cannot open %s (%s); progress is not saved",
                    directory, strerror(errno));
        return NULL;
    }
    progress_options resolved = options ? *options : (progress_options){0};
    if (resolved.long_bytes <= 0) resolved.long_bytes = PROGRESS_LONG_BYTES;
    if (resolved.memory_max <= 0) resolved.memory_max = PROGRESS_MEMORY_MAX;
    sqlite3 *db = open_real(real, &resolved, read_only, message, message_size, OPEN_ATTEMPTS);
    free(real);
    return db;
}

progress_db_identity progress_db_identify(sqlite3 *db)
{
    progress_db_identity identity = {0};
    const char *file = sqlite3_db_filename(db, "main");
    struct stat status;
    if (file && *file && lstat(file, &status) == 0)
        identity = (progress_db_identity){true, status.st_dev, status.st_ino};
    return identity;
}

bool progress_db_same_file(sqlite3 *db, const progress_db_identity *identity)
{
    progress_db_identity now = progress_db_identify(db);
    return now.known && identity->known && now.device == identity->device &&
           now.inode == identity->inode;
}

void progress_db_close_stale(sqlite3 *db)
{
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
    sqlite3_close(db);
}

sqlite3 *progress_db_open_memory(void)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        progress_schema_upgrade(db, NULL, NULL, 0) != PROGRESS_SCHEMA_OK) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}
