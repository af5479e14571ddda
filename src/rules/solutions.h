/* solutions.h - solutions in and out: checking a solution found elsewhere, reading the .sol
 * files that sit beside level files, and writing a collection's best solutions as SOK
 * solution sections.
 *
 * A solution from outside (a .sol file, a SOK solution section) is never trusted: it is
 * replayed on the level and kept only when it solves it, written back with pushes in
 * capitals. The writer gives each level its map (as level.h writes it) followed by one
 * section a solution:
 *
 *     Solution (moves 230, pushes 97)
 *     uuulDLLulDDDrrr...           (70 letters a line)
 *     Program: sokoban 0.1.0
 *     Origin: own                  (own, assisted or imported)
 *
 * which YASC and JSoko read as a solution with its notes. Knows nothing of saved progress
 * or the terminal: the caller says which solutions to write. */
#ifndef SOKOBAN_SOLUTIONS_H
#define SOKOBAN_SOLUTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "level/level.h"

/* Where a solution came from: played without help, played with hints or the solver's
 * replay, or read from a file. */
typedef enum solution_origin {
    SOLUTION_OWN,
    SOLUTION_ASSISTED,
    SOLUTION_IMPORTED,
} solution_origin;

/* "own", "assisted", "imported". */
const char *solution_origin_name(solution_origin origin);

typedef struct solution_entry {
    char *lurd; /* pushes in capitals */
    int moves;
    int pushes;
    solution_origin origin;
} solution_entry;

/* One level to export and its solutions (none, one, or several such as the best by moves
 * and the best by pushes). */
typedef struct solutions_level {
    const level *level;
    const solution_entry *solutions;
    int count;
} solutions_level;

/* Replays the LURD `text` on `lv`. When it solves the level, fills `out` (origin
 * SOLUTION_IMPORTED, `lurd` to free()) and returns true; else returns false with the reason
 * ("step 12 (u): walks into a wall", "does not solve the level: 3 of 6 boxes on goals"...). */
bool solutions_check(const level *lv, const char *text, solution_entry *out, char *reason,
                     size_t reason_size);

typedef enum solutions_sol_status {
    SOLUTIONS_SOL_NONE,  /* no .sol file beside the level file */
    SOLUTIONS_SOL_FOUND, /* read and checked: it solves the level */
    SOLUTIONS_SOL_BAD,   /* there is one, and it cannot be read or does not solve the level */
} solutions_sol_status;

/* The .sol file beside the level file `level_path`: the same name with ".sol" for its
 * extension (cavepacker-data ships xsokoban0001.sol beside xsokoban0001.sok). Writes its
 * path into `sol_path`. */
void solutions_sol_path(const char *level_path, char *sol_path, size_t sol_path_size);

/* Reads the .sol file beside `level_path` and checks it on `lv`; on SOLUTIONS_SOL_FOUND
 * fills `out` as solutions_check() does, on SOLUTIONS_SOL_BAD writes "FILE: REASON" into
 * `reason`. */
solutions_sol_status solutions_read_sol(const char *level_path, const level *lv,
                                        solution_entry *out, char *reason, size_t reason_size);

/* What an import of .sol files found. */
typedef struct solutions_import_report {
    int found;   /* .sol files that belong to a level of the collection */
    int refused; /* of those, the ones that cannot be read or do not solve their level */
    char first_refusal[512];
} solutions_import_report;

/* Called for each solution found and checked: `lv` is the collection's level it solves. */
typedef void solutions_take(void *argument, const level *lv, const solution_entry *solution,
                            const char *source);

/* Looks for the .sol files that belong to the levels of `c`: in its folder (`c->path` when
 * that is a folder, else the folder of the file), every NAME.sol beside a level file NAME.sok,
 * NAME.xsb or NAME.txt whose level has the same map as one of `c`'s (so a collection grouped
 * from one-level files, or a folder, finds each level's own). Each good one is checked and
 * handed to `take`; `report` counts what was found. */
void solutions_import_sol_files(const collection *c, solutions_take *take, void *argument,
                                solutions_import_report *report);

/* Writes a SOK file of the levels, each followed by its solution sections, under a header
 * naming the collection and the program. Returns false when writing failed (errno says
 * why). */
bool solutions_write_sok(FILE *out, const char *collection_name, const solutions_level *levels,
                         int count);

/* Writes the SOK file into `directory`, named after the collection (made a safe file name,
 * ".sok" added: level/safe_file.h, so no name writes outside the directory, and a directory
 * that is a symbolic link is refused), through a temporary file renamed over it. The file's
 * path goes into `path` (may be NULL); false with the reason when it could not be written. */
bool solutions_export(const char *directory, const char *collection_name,
                      const solutions_level *levels, int count, char *path, size_t path_size,
                      char *reason, size_t reason_size);

void solution_entry_free(solution_entry *entry);

#endif
