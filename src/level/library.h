/* library.h - the collections installed on the system, for the game's collection library
 * and --collection NAME.
 *
 * Scans folders for level files (.sok, .xsb, .txt): the bundled levels, the player's
 * $XDG_DATA_HOME/sokoban/levels and the packages under /usr/share/games (cavepacker-data's
 * maps, ...). Each file of many levels is one collection, named as the game names it (its
 * Collection: or Title: field, else its file name without the extension); one-level files
 * that share a name (microban01_0001.sok, microban01_0002.sok, ...) are one collection of
 * them all, named by that name. Names are unique but for case (utf8_case.h: "Été" and "été"
 * are one name): when two collections share one, the one from the earlier folder keeps it
 * and each other gets its folder in brackets, "xsokoban (cavepacker/maps)". Names and paths
 * only: reading the levels is collection.h's. */
#ifndef SOKOBAN_LIBRARY_H
#define SOKOBAN_LIBRARY_H

#include <stdbool.h>

typedef struct library_entry {
    char *name;   /* "microban01", "xsokoban", "xsokoban (cavepacker/maps)" */
    char *folder; /* where its files are */
    char **files; /* its files, in natural order */
    int file_count;
    int root; /* the index of the folder scanned that it was found under */
} library_entry;

typedef struct library {
    /* in natural order of name, as a reader orders it: case and accents aside first
     * ("Élan" among the e's, "ecole 2" before "École 10"), then accents, then bytes */
    library_entry *entries;
    int count;
} library;

/* Scans each of the `count` folders (and the folders in them, two levels down) into `out`;
 * a collection of an earlier folder keeps its name before one of a later folder. A folder
 * that does not exist is passed over. False only when out of memory. */
bool library_scan(const char *const *folders, int count, library *out);

/* The entries a player's `name` may mean: those named so but for case (utf8_case.h: "ÉLAN"
 * is "élan", "STRASSE" "Straße"), else those whose name starts with it.
 * Writes up to `max` indexes into `matches`; returns how many entries match (which may be
 * more than `max`). */
int library_match(const library *library, const char *name, int *matches, int max);

/* The folders a player's system offers, the first keeping its names before the next:
 * `bundled` (may be NULL), $XDG_DATA_HOME/sokoban/levels (else ~/.local/share/sokoban/levels)
 * and "/usr/share/games". Writes up to `max` paths (to free()) into `folders`; returns their
 * count. */
int library_default_folders(const char *bundled, char **folders, int max);

void library_free(library *library);

#endif
