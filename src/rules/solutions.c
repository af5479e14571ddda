/* solutions.c - solutions in and out: checking, .sol files, SOK solution sections. */
#include "solutions.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "lurd.h"
#include "level/safe_file.h"
#include "level/textfile.h"

#ifndef SOKOBAN_VERSION
#define SOKOBAN_VERSION "unknown"
#endif

enum {
    MAX_SOL_FILE = 16 << 20, /* as --verify's solution files */
    LETTERS_PER_LINE = 70,
};

const char *solution_origin_name(solution_origin origin)
{
    switch (origin) {
    case SOLUTION_OWN:
        return "own";
    case SOLUTION_ASSISTED:
        return "assisted";
    case SOLUTION_IMPORTED:
        return "imported";
    }
    return "?";
}

void solution_entry_free(solution_entry *entry)
{
    free(entry->lurd);
    entry->lurd = NULL;
}

/* ---------------------------------------------------------------- checking */

bool solutions_check(const level *lv, const char *text, solution_entry *out, char *reason,
                     size_t reason_size)
{
    lurd_steps steps;
    lurd_error error;
    memset(out, 0, sizeof *out);
    if (!lurd_parse(text, &steps, &error)) {
        snprintf(reason, reason_size, "%s", error.message);
        return false;
    }
    game g;
    if (!game_init(&g, lv)) {
        lurd_steps_free(&steps);
        snprintf(reason, reason_size, "out of memory");
        return false;
    }
    bool solved = false;
    if (!lurd_apply(&g, &steps, &error)) {
        snprintf(reason, reason_size, "%s", error.message);
    } else if (!game_is_solved(&g)) {
        snprintf(reason, reason_size, "does not solve the level (%d moves, %d pushes played)",
                 g.moves, g.pushes);
    } else if (!(out->lurd = game_lurd(&g))) {
        snprintf(reason, reason_size, "out of memory");
    } else {
        out->moves = g.moves;
        out->pushes = g.pushes;
        out->origin = SOLUTION_IMPORTED;
        solved = true;
    }
    game_free(&g);
    lurd_steps_free(&steps);
    return solved;
}

/* ---------------------------------------------------------------- .sol files */

void solutions_sol_path(const char *level_path, char *sol_path, size_t sol_path_size)
{
    const char *slash = strrchr(level_path, '/');
    const char *dot = strrchr(level_path, '.');
    size_t stem =
        dot && (!slash || dot > slash + 1) ? (size_t)(dot - level_path) : strlen(level_path);
    snprintf(sol_path, sol_path_size, "%.*s.sol", (int)stem, level_path);
}

solutions_sol_status solutions_read_sol(const char *level_path, const level *lv,
                                        solution_entry *out, char *reason, size_t reason_size)
{
    char path[4096], why[256];
    memset(out, 0, sizeof *out);
    solutions_sol_path(level_path, path, sizeof path);
    if (strcmp(path, level_path) == 0 || access(path, F_OK) != 0) return SOLUTIONS_SOL_NONE;
    char *text;
    size_t length;
    if (!textfile_read(path, MAX_SOL_FILE, &text, &length, why, sizeof why)) {
        snprintf(reason, reason_size, "%s: %s", path, why);
        return SOLUTIONS_SOL_BAD;
    }
    bool solved = strlen(text) == length && solutions_check(lv, text, out, why, sizeof why);
    if (strlen(text) != length) snprintf(why, sizeof why, "not a text file");
    free(text);
    if (!solved) {
        snprintf(reason, reason_size, "%s: %s", path, why);
        return SOLUTIONS_SOL_BAD;
    }
    return SOLUTIONS_SOL_FOUND;
}

/* True when the two levels have the same map. */
static bool same_map(const level *a, const level *b)
{
    return !a->error && !b->error && a->width == b->width && a->height == b->height &&
           memcmp(a->squares, b->squares, (size_t)a->width * (size_t)a->height) == 0;
}

/* The folder the .sol files of `c` are looked for in (to free()). */
static char *folder_of(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return strdup(path);
    const char *slash = strrchr(path, '/');
    return slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
}

/* Imports the .sol file `name` in `folder` when a level file beside it holds a level of
 * `c`. */
static void import_one(const collection *c, const char *folder, const char *name,
                       solutions_take *take, void *argument, solutions_import_report *report)
{
    static const char *const extensions[] = {".sok", ".xsb", ".txt", ".SOK", ".XSB"};
    size_t stem = strlen(name) - 4;
    for (size_t e = 0; e < sizeof extensions / sizeof extensions[0]; e++) {
        char level_path[4096], reason[512];
        snprintf(level_path, sizeof level_path, "%s/%.*s%s", folder, (int)stem, name,
                 extensions[e]);
        if (access(level_path, F_OK) != 0) continue;
        collection beside;
        level_error error;
        if (!collection_load(level_path, &beside, &error)) return;
        for (int k = 0; k < beside.count; k++) {
            for (int i = 0; i < c->count; i++) {
                if (!same_map(&beside.levels[k], &c->levels[i])) continue;
                solution_entry entry;
                report->found++;
                if (solutions_read_sol(level_path, &c->levels[i], &entry, reason, sizeof reason) ==
                    SOLUTIONS_SOL_FOUND) {
                    char sol_path[4096];
                    solutions_sol_path(level_path, sol_path, sizeof sol_path);
                    take(argument, &c->levels[i], &entry, sol_path);
                    solution_entry_free(&entry);
                } else {
                    report->refused++;
                    if (!report->first_refusal[0])
                        snprintf(report->first_refusal, sizeof report->first_refusal, "%s", reason);
                }
                k = beside.count; /* a .sol holds one solution: of the file's one level */
                break;
            }
        }
        collection_free(&beside);
        return;
    }
}

void solutions_import_sol_files(const collection *c, solutions_take *take, void *argument,
                                solutions_import_report *report)
{
    memset(report, 0, sizeof *report);
    char *folder = folder_of(c->path);
    DIR *directory = folder ? opendir(folder) : NULL;
    struct dirent *entry;
    while (directory && (entry = readdir(directory))) {
        size_t length = strlen(entry->d_name);
        if (length > 4 && strcmp(entry->d_name + length - 4, ".sol") == 0)
            import_one(c, folder, entry->d_name, take, argument, report);
    }
    if (directory) closedir(directory);
    free(folder);
}

/* ---------------------------------------------------------------- writing SOK */

/* One solution section: title line, the moves in lines of LETTERS_PER_LINE, its notes. */
static void write_section(FILE *out, const solution_entry *s)
{
    fprintf(out, "\nSolution (moves %d, pushes %d)\n", s->moves, s->pushes);
    size_t length = strlen(s->lurd);
    for (size_t i = 0; i < length; i += LETTERS_PER_LINE)
        fprintf(out, "%.*s\n", LETTERS_PER_LINE, s->lurd + i);
    fprintf(out, "Program: sokoban %s\nOrigin: %s\n", SOKOBAN_VERSION,
            solution_origin_name(s->origin));
}

bool solutions_write_sok(FILE *out, const char *collection_name, const solutions_level *levels,
                         int count)
{
    fprintf(out, "Collection: %s\n", collection_name);
    fprintf(out, "Program: sokoban %s\n", SOKOBAN_VERSION);
    fprintf(out, ":: best solutions; Origin: own (played), assisted (with hints or the\n"
                 ":: solver's replay) or imported (read from a file)\n");
    for (int i = 0; i < count; i++) {
        if (levels[i].level->error) continue; /* a level that could not be read */
        char *map = level_to_text(levels[i].level);
        if (!map) {
            errno = ENOMEM;
            return false;
        }
        fprintf(out, "\n%s", map);
        free(map);
        for (int k = 0; k < levels[i].count; k++) {
            assert(levels[i].solutions[k].lurd);
            write_section(out, &levels[i].solutions[k]);
        }
    }
    return fflush(out) == 0 && !ferror(out);
}

bool solutions_export(const char *directory, const char *collection_name,
                      const solutions_level *levels, int count, char *path, size_t path_size,
                      char *reason, size_t reason_size)
{
    safe_file file;
    bool opened =
        safe_file_create(&file, directory, collection_name, ".sok", 0644, reason, reason_size);
    if (path && path_size) snprintf(path, path_size, "%s", file.path);
    if (!opened) return false;
    if (!solutions_write_sok(file.out, collection_name, levels, count)) {
        snprintf(reason, reason_size, "%s: %s", file.path, strerror(errno));
        safe_file_abort(&file);
        return false;
    }
    return safe_file_commit(&file, reason, reason_size);
}
