/* fuzz_db.c - libFuzzer target for the contents of the progress database.
 *
 * One progress is opened through the store's public face (progress_open) on a directory of
 * its own; a second connection, as another program with the file would, fills the database
 * with the rows the input describes: levels, bests, snapshots, imported solutions,
 * collections and imported files, with random keys, texts (any bytes), numbers and types,
 * within what the schema allows (its constraints and foreign keys decide; a row they refuse
 * is left out). The store is then used as the game uses it on three levels whose keys the
 * rows may name: records read (progress_get_level replays bests), snapshots, imported
 * solutions, the collection played last, statistics, a collection's summaries in one query
 * (progress_summaries, which must agree with the records), then writes of every kind. Whatever the rows:
 *   - no crash, hang or bad memory access (ASan, UBSan);
 *   - a best the store hands out for a level replays to a solved level with the counts it
 *     claims, and its origin is one of the four;
 *   - every write succeeds (the database is valid and nobody else holds it): nothing is left
 *     unsaved;
 *   - a solution just added is then the level's best or beaten by one that is;
 *   - the steps played as one (an unfinished game's, a snapshot's), read as the game reads
 *     them (progress_groups_next), are groups in order within the steps, whatever the text.
 * The input's first three bytes choose the reads and writes; the rest are rows. Every 256th
 * input (and the first) the progress is closed and opened again on the rows,
 * so that opening (quick_check, schema, the legacy import's look) sees them too. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "level/level.h"
#include "progress/progress.h"
#include "rules/game.h"
#include "rules/lurd.h"

/* Three levels: rRR solves the first, R the second, lR... none the third (a lost one). */
static const char LEVELS[] = "; One\n#######\n#@ $ .#\n#######\n\n"
                             "; Two\n#####\n#@$.#\n#####\n\n"
                             "; Three\n#####\n#@$ #\n#. ##\n#####\n";
static const char *const SOLUTIONS[] = {"rRR", "R", NULL};
enum { LEVEL_COUNT = 3 };

static collection levels;
static progress_key keys[LEVEL_COUNT];
static char directory[64];
static char file[128];
static progress *store;
static sqlite3 *raw;
static unsigned long inputs;

/* ---- reading the input --------------------------------------------------------------- */

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static unsigned byte(reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

static uint64_t number(reader *r, int bytes)
{
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++) value = value << 8 | byte(r);
    return value;
}

/* Binds a value the input chooses to parameter `index`: an integer (small, any, negative),
 * a real, a text of input bytes (a known solution, LURD letters, anything), a blob or NULL.
 * `kind` says what the column is for, to make the right values likely: 'k' a level key,
 * 'l' LURD, 'g' the steps played as one (progress_is_groups_text's, sound or damaged), 'n' a
 * count, 'f' a flag, 'o' an origin (one past the last too), 's' a name or path, 'r' a real. */
static void bind_value(sqlite3_stmt *statement, int index, reader *r, char kind)
{
    unsigned choice = byte(r);
    if (choice < 8) {
        sqlite3_bind_null(statement, index);
    } else if (choice < 16) {
        sqlite3_bind_int64(statement, index, (int64_t)number(r, 8));
    } else if (choice < 24) {
        sqlite3_bind_double(statement, index, (double)(int64_t)number(r, 8) / 7.0);
    } else if (choice < 32) {
        size_t length = byte(r) % 32;
        if (length > r->size - r->at) length = r->size - r->at;
        sqlite3_bind_blob(statement, index, r->data + r->at, (int)length, SQLITE_TRANSIENT);
        r->at += length;
    } else if (kind == 'k') {
        unsigned pick = choice % 5;
        sqlite3_bind_int64(statement, index,
                           pick < LEVEL_COUNT ? (int64_t)keys[pick] : (int64_t)number(r, 2));
    } else if (kind == 'l' && choice < 160) {
        const char *known = SOLUTIONS[choice % 2];
        static const char *const others[] = {"", "rR", "RRR", "rRRl", "3R", "uuuu", "rRRrR"};
        sqlite3_bind_text(statement, index, choice < 96 ? known : others[choice % 7], -1,
                          SQLITE_STATIC);
    } else if (kind == 'g' && choice < 160) {
        static const char *const groups[] = {
            "0-1,3-8",  "3-8,0-1", "5-3",  "0-99999999999999999999",
            "-1-2",     "1-2,2-3", "0-1,", "2147483647-2147483648",
            "0-2,,4-5", "1-1",     "0-3"};
        sqlite3_bind_text(statement, index, groups[choice % 11], -1, SQLITE_STATIC);
    } else if (kind == 'n' || kind == 'f' || kind == 'o') {
        int64_t value = kind == 'f'   ? choice % 3
                        : kind == 'o' ? choice % (PROGRESS_OPTIMIZED + 2)
                                      : (int64_t)(choice % 8) - 1;
        if (choice > 240) value = (int64_t)number(r, 4);
        sqlite3_bind_int64(statement, index, value);
    } else if (kind == 'r') {
        sqlite3_bind_double(statement, index, (double)number(r, 4) / 16.0);
    } else {
        size_t length = byte(r) % 24;
        if (length > r->size - r->at) length = r->size - r->at;
        sqlite3_bind_text(statement, index, (const char *)r->data + r->at, (int)length,
                          SQLITE_TRANSIENT);
        r->at += length;
    }
}

/* The rows the input can make, one statement a table; each letter of `columns` is a value
 * (bind_value's kinds). */
static const struct {
    const char *sql, *columns;
} ROWS[] = {
    {"INSERT OR REPLACE INTO level (key, solved, unfinished, assisted, unfinished_redo, seconds,"
     " unfinished_solver_from, unfinished_hint_from, unfinished_groups) VALUES (?, ?, ?, ?, ?, "
     "?, ?, ?, ?)",
     "kflflrnng"},
    {"INSERT OR REPLACE INTO best (key, kind, lurd, moves, pushes, checked, origin) VALUES "
     "(?, ?, ?, ?, ?, ?, ?)",
     "kflnnfo"},
    {"INSERT OR REPLACE INTO snapshot (key, name, lurd, redo, saved, groups) VALUES (?, ?, ?, ?,"
     " ?, ?)",
     "ksllng"},
    {"INSERT OR REPLACE INTO imported (key, lurd, moves, pushes, source) VALUES (?, ?, ?, ?, ?)",
     "klnns"},
    {"INSERT OR REPLACE INTO collection (path, level, played) VALUES (?, ?, ?)", "snr"},
    {"INSERT OR REPLACE INTO imported_file (path, device, inode, size, modified, imported) "
     "VALUES (?, ?, ?, ?, ?, ?)",
     "snnnnr"},
};
enum { ROW_KINDS = sizeof ROWS / sizeof *ROWS };

/* The other connection's statements, prepared once (SQLite's parser, under ASan's allocator,
 * was the largest cost of an input). */
static sqlite3_stmt *begin, *commit, *empty[6], *insert[ROW_KINDS];

static sqlite3_stmt *prepared(const char *sql)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(raw, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) != SQLITE_OK)
        abort();
    return statement;
}

static void run(sqlite3_stmt *statement)
{
    if (sqlite3_step(statement) != SQLITE_DONE) abort();
    sqlite3_reset(statement);
}

static void prepare_fill(void)
{
    /* children first: the foreign keys are on */
    static const char *const tables[] = {"best",       "snapshot",      "imported",
                                         "collection", "imported_file", "level"};
    begin = prepared("BEGIN IMMEDIATE");
    commit = prepared("COMMIT");
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "DELETE FROM %s", tables[i]);
        empty[i] = prepared(sql);
    }
    for (int i = 0; i < ROW_KINDS; i++) insert[i] = prepared(ROWS[i].sql);
}

/* Empties the tables and fills them with the input's rows, in one transaction of the other
 * connection. */
static void fill(reader *r)
{
    run(begin);
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) run(empty[i]);
    for (int rows = 0; rows < 64 && r->at < r->size; rows++) {
        unsigned which = byte(r) % ROW_KINDS;
        for (int c = 0; ROWS[which].columns[c]; c++)
            bind_value(insert[which], c + 1, r, ROWS[which].columns[c]);
        sqlite3_step(insert[which]); /* a row the schema refuses is left out */
        sqlite3_reset(insert[which]);
        sqlite3_clear_bindings(insert[which]);
    }
    run(commit);
}

/* ---- the store, as the game uses it ------------------------------------------------------ */

static void open_store(void)
{
    char message[1200];
    store = progress_open(directory, message, sizeof message);
    if (!store || !progress_saving(store)) {
        fprintf(stderr, "progress_open: %s\n", message);
        abort();
    }
}

/* A best handed out must solve its level with the counts it claims: replayed here with the
 * rules themselves, not the store's own replay. */
/* At exit: the scratch folder and what the store made in it (the database, its journal, a
 * damaged file set aside) go; nothing the fuzzer made outlives it. */
static void remove_directory(void)
{
    DIR *folder = opendir(directory);
    if (!folder) return;
    struct dirent *entry;
    char path[sizeof directory + 256];
    while ((entry = readdir(folder)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        unlink(path);
    }
    closedir(folder);
    rmdir(directory);
}

static void check_best(const level *lv, const progress_solution *best)
{
    if (!best->lurd) return;
    if (best->origin < PROGRESS_OWN || best->origin > PROGRESS_OPTIMIZED) abort();
    lurd_steps steps;
    lurd_error error;
    bool holds = false;
    if (lurd_parse(best->lurd, &steps, &error)) {
        game g;
        if (game_init(&g, lv)) {
            holds = lurd_apply(&g, &steps, &error) && game_is_solved(&g) &&
                    g.moves == best->moves && g.pushes == best->pushes;
            game_free(&g);
        }
        lurd_steps_free(&steps);
    }
    if (!holds) {
        fprintf(stderr, "a best that does not hold: '%s' %d/%d\n", best->lurd, best->moves,
                best->pushes);
        abort();
    }
}

/* A groups text read back, read as the game reads it against `lurd` and `redo`'s steps (at
 * most their length in characters): groups in order, each of two steps or more, within the
 * steps. */
static void check_groups(const char *groups, const char *lurd, const char *redo)
{
    int steps = (int)((lurd ? strlen(lurd) : 0) + (redo ? strlen(redo) : 0));
    int first, last = -1, after = -1;
    for (const char *at = groups; progress_groups_next(&at, steps, &first, &last); after = last)
        if (first <= after || last <= first || last >= steps) {
            fprintf(stderr, "groups '%s' read as %d-%d of %d steps\n", groups, first, last, steps);
            abort();
        }
}

/* Reads what the game reads; `what` (an input byte) chooses the calls beyond the records. */
static void read_some(unsigned what)
{
    for (int i = 0; i < LEVEL_COUNT; i++) {
        const level *lv = &levels.levels[i];
        const progress_record *record = progress_get_level(store, lv);
        if (record) {
            check_groups(record->unfinished_groups, record->unfinished, record->unfinished_redo);
            check_best(lv, &record->best_moves);
            check_best(lv, &record->best_pushes);
        }
        if (what & 1) progress_get(store, keys[i]);
        if (what & 2) {
            progress_snapshot *snapshots;
            int count = progress_snapshots(store, keys[i], &snapshots);
            if (count < 0) abort();
            for (int s = 0; s < count; s++)
                check_groups(snapshots[s].groups, snapshots[s].lurd, snapshots[s].redo);
            progress_snapshots_free(snapshots, count);
        }
        if (what & 4) {
            progress_imported *imported;
            int count = progress_imported_solutions(store, keys[i], &imported);
            if (count < 0) abort();
            progress_imported_free(imported, count);
        }
    }
    if (what & 32) {
        /* the level list's one query says what the records say */
        const progress_summary *summaries = progress_summaries(store, levels.levels, LEVEL_COUNT);
        if (!summaries) abort();
        for (int i = 0; i < LEVEL_COUNT; i++) {
            const progress_record *record = progress_get_level(store, &levels.levels[i]);
            summaries = progress_summaries(store, levels.levels, LEVEL_COUNT);
            if (!summaries) abort();
            const progress_best_counts *kept[] = {&summaries[i].best_moves,
                                                  &summaries[i].best_pushes};
            const progress_solution *read[] = {record ? &record->best_moves : NULL,
                                               record ? &record->best_pushes : NULL};
            for (int kind = 0; kind < 2; kind++) {
                if (!kept[kind]->kept) continue;
                if (!read[kind] || !read[kind]->lurd || read[kind]->moves != kept[kind]->moves ||
                    read[kind]->pushes != kept[kind]->pushes)
                    abort();
            }
        }
    }
    if (what & 8) {
        const char *path;
        int number;
        if (progress_last(store, &path, &number) && !path) abort();
        progress_collection_level(store, "/levels/a.xsb");
    }
    if (what & 16) {
        progress_statistics statistics;
        if (!progress_statistics_of(store, keys, LEVEL_COUNT, &statistics)) abort();
        if (statistics.solved + statistics.assisted > LEVEL_COUNT) abort();
    }
}

/* One write of each kind the input chooses (`what`), then nothing may be left unsaved. */
static void write_some(unsigned what, unsigned choice)
{
    int which = (int)(choice % 2);
    const level *lv = &levels.levels[which];
    if (what & 1) {
        progress_origin origin = (progress_origin)(choice / 2 % (PROGRESS_OPTIMIZED + 1));
        progress_add_solution(store, lv, SOLUTIONS[which], origin, NULL);
        const progress_record *record = progress_get_level(store, lv);
        if (!record || !record->best_moves.lurd || !record->best_pushes.lurd) abort();
        check_best(lv, &record->best_moves);
        check_best(lv, &record->best_pushes);
    }
    if (what & 2)
        progress_set_game_helped(store, keys[2], choice & 1 ? "rd" : "", choice & 2 ? "u" : NULL,
                                 choice & 4 ? "0-2" : NULL, PROGRESS_NO_HELP, PROGRESS_NO_HELP);
    if (what & 4) progress_add_time(store, keys[choice % 3], 1.5);
    if (what & 8) progress_snapshot_save(store, keys[choice % 3], "fuzz", "rd", "", "0-1");
    if (what & 16) progress_snapshot_delete(store, keys[(choice + 1) % 3], "fuzz");
    if (what & 32) progress_set_last(store, "/levels/a.xsb", (int)(choice % 7));
    char why[1200];
    if (progress_unsaved(store, why, sizeof why)) {
        fprintf(stderr, "unsaved: %s\n", why);
        abort();
    }
    progress_take_notice(store); /* a best dropped is told: fine */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!levels.count) {
        /* one thread, no memory statistics: SQLite's mutexes off its every malloc */
        if (sqlite3_config(SQLITE_CONFIG_SINGLETHREAD) != SQLITE_OK ||
            sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK)
            abort();
        level_error error;
        if (!collection_parse(LEVELS, sizeof LEVELS - 1, "fuzz", &levels, &error)) abort();
        for (int i = 0; i < LEVEL_COUNT; i++) keys[i] = progress_level_key(&levels.levels[i]);
        snprintf(directory, sizeof directory, "%s/fuzz_db.XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(directory)) abort();
        atexit(remove_directory);
        snprintf(file, sizeof file, "%s/progress.db", directory);
        open_store();
        if (sqlite3_open(file, &raw) != SQLITE_OK) abort();
        sqlite3_busy_timeout(raw, 2000);
        sqlite3_exec(raw, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
        prepare_fill();
    }
    reader r = {data, size, 0};
    unsigned reads = byte(&r), writes = byte(&r), choice = byte(&r);
    fill(&r);
    if (inputs++ % 256 == 0) {
        progress_close(store);
        open_store();
    }
    read_some(reads);
    write_some(writes, choice);
    return 0;
}
