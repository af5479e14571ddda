/* solutions.c - solutions in and out: checking, .sol files, SOK solution sections. */
#include "solutions.h"

#include <assert.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "lurd.h"
#include "textfile.h"

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
    size_t stem = dot && (!slash || dot > slash + 1) ? (size_t)(dot - level_path)
                                                      : strlen(level_path);
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

bool solutions_export(const char *path, const char *collection_name,
                      const solutions_level *levels, int count, char *reason,
                      size_t reason_size)
{
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.XXXXXX", path) >= (int)sizeof temporary) {
        snprintf(reason, reason_size, "%s: name too long", path);
        return false;
    }
    int fd = mkstemp(temporary);
    if (fd >= 0) fchmod(fd, 0644); /* an export is for sharing; mkstemp() made it 0600 */
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    if (!out) {
        snprintf(reason, reason_size, "%s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        if (fd >= 0) unlink(temporary);
        return false;
    }
    bool written = solutions_write_sok(out, collection_name, levels, count);
    int saved_errno = errno;
    if (fsync(fileno(out)) != 0 && written) {
        written = false;
        saved_errno = errno;
    }
    if (fclose(out) != 0 && written) {
        written = false;
        saved_errno = errno;
    }
    if (written && rename(temporary, path) != 0) {
        written = false;
        saved_errno = errno;
    }
    if (!written) {
        unlink(temporary);
        snprintf(reason, reason_size, "%s: %s", path, strerror(saved_errno));
    }
    return written;
}
