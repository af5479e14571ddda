/* tiles_pdb.h - additive pattern databases for the sliding-tile puzzles.
 *
 * Felner, Korf & Hanan, "Additive pattern database heuristics" (JAIR 22, 2004): the tiles
 * are split into disjoint groups; for each group a table gives, for every placement of the
 * group's tiles, the fewest moves OF THOSE TILES that bring them home (the other tiles are
 * indistinct and moving them is free). Since no move is counted twice, the sum over the
 * groups is an admissible lower bound, and far stronger than Manhattan distance.
 *
 * Static partitions, goal with the blank last:  4x4 6-6-3:   A C C C     3x3 4-4:  A A B
 *                                                            A A B B               A A B
 *                                                            A A B B               B B _
 *                                                            A B B _
 * A table is indexed by the group's tile cells as base-16 digits (16^6 bytes = 16 MiB for a
 * 6-tile group), so a move updates the index by one addition. The tables are built once
 * by breadth-first search backwards from the goal (seconds) and cached on disk, one file a
 * group with a header and a checksum; a file that does not check out is rebuilt. */
#ifndef SOKOBAN_TILES_PDB_H
#define SOKOBAN_TILES_PDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tiles_board.h"

typedef struct tiles_pdb tiles_pdb;

enum { TILES_PDB_MAX_GROUPS = 3, TILES_PDB_MAX_GROUP_SIZE = 6 };

/* Read-only after tiles_pdb_open; tiles.c reads the fields in its inner loop. */
struct tiles_pdb {
    int width;
    int group_count;
    int group_size[TILES_PDB_MAX_GROUPS];
    uint8_t group_tiles[TILES_PDB_MAX_GROUPS][TILES_PDB_MAX_GROUP_SIZE];
    int8_t group_of[TILES_MAX_CELLS]; /* tile -> its group, -1 for the blank */
    int8_t digit_of[TILES_MAX_CELLS]; /* tile -> its digit in the group's index */
    uint8_t *table[TILES_PDB_MAX_GROUPS];
};

typedef enum tiles_pdb_origin {
    TILES_PDB_LOADED, /* every table came from the cache */
    TILES_PDB_BUILT,  /* at least one table was built (and saved) */
} tiles_pdb_origin;

/* Called before a table is built, which takes a while; may be NULL. */
typedef void tiles_pdb_notice(void *argument, const char *message);

/* The databases for width x width boards (3 or 4), loaded from the files in `cache_dir`,
 * or built and saved there when a file is missing or fails its checks. Returns NULL with
 * the reason in `error` when the directory cannot be created or written (nothing is built
 * then: the caller falls back to Manhattan distance + linear conflicts) or memory runs
 * out. When a table was built but could not be saved, the databases are returned and
 * `error` says why. `cache_dir` NULL builds everything in memory without saving. */
tiles_pdb *tiles_pdb_open(int width, const char *cache_dir, tiles_pdb_notice *notice,
                          void *notice_argument, tiles_pdb_origin *origin, char *error,
                          size_t error_size);
void tiles_pdb_free(tiles_pdb *pdb);

/* The cache file of group `group` of width's partition, written into `path`. */
void tiles_pdb_file_name(int width, int group, const char *cache_dir, char *path, size_t path_size);

/* The sum over the groups for `board` (goal: blank last). */
int tiles_pdb_lower_bound(const tiles_pdb *pdb, const tiles_board *board);

#endif
