/* library.h - the collections installed on the system, for the game's collection library.
 *
 * Scans folders for level files (.sok, .xsb, .txt): the packages under /usr/share/games
 * (cavepacker-data's maps, ...), the player's $XDG_DATA_HOME/sokoban/levels and the bundled
 * levels. Each file of many levels is one collection; one-level files that share a name
 * (microban01_0001.sok, microban01_0002.sok, ...) are one collection of them all. Only names
 * and paths: reading the levels is collection.h's. */
#ifndef SOKOBAN_LIBRARY_H
#define SOKOBAN_LIBRARY_H

#include <stdbool.h>

typedef struct library_entry {
    char *name;   /* "microban01", "xsokoban" */
    char *folder; /* where its files are */
    char **files; /* its files, in natural order */
    int file_count;
} library_entry;

typedef struct library {
    library_entry *entries; /* in natural order of name */
    int count;
} library;

/* Scans each of the `count` folders (and the folders in them, two levels down) into `out`.
 * A folder that does not exist is passed over. False only when out of memory. */
bool library_scan(const char *const *folders, int count, library *out);

/* The folders a player's system offers: "/usr/share/games", $XDG_DATA_HOME/sokoban/levels
 * (else ~/.local/share/sokoban/levels), and `bundled` (may be NULL). Writes up to `max`
 * paths (to free()) into `folders`; returns their count. */
int library_default_folders(const char *bundled, char **folders, int max);

void library_free(library *library);

#endif
