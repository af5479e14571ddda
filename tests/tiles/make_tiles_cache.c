/* make_tiles_cache.c - builds the 15-puzzle's pattern databases once, at build time, into
 * a cache directory the tests read (tests/meson.build: tiles_cache), so that no test
 * spends seconds building them again.
 * Usage: make_tiles_cache CACHE_DIR STAMP_FILE (the stamp is written on success). */
#include <stdio.h>

#include "tiles/tiles_pdb.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: make_tiles_cache CACHE_DIR STAMP_FILE\n");
        return 2;
    }
    char error[4400] = "";
    tiles_pdb *pdb = tiles_pdb_open(4, argv[1], NULL, NULL, NULL, error, sizeof error);
    if (!pdb || error[0]) {
        fprintf(stderr, "make_tiles_cache: %s\n", error);
        tiles_pdb_free(pdb);
        return 1;
    }
    tiles_pdb_free(pdb);
    FILE *stamp = fopen(argv[2], "w");
    if (!stamp || fputs("the 4x4 pattern databases are built\n", stamp) < 0 || fclose(stamp)) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
