/* start.h - what the game opens at its start: the collections named on the command line
 * (files, folders, FILE:N, "-"), else the bundled tutorial and XSokoban with the collection
 * played last; where it starts in them (FILE:N, --collection NAME, --level N).
 *
 * Every problem is one line on stderr (the terminal is not yet in curses mode); a note for
 * the message line (the collection played last cannot be played any more) goes into the
 * start's `note`. */
#ifndef SOKOBAN_TUI_START_H
#define SOKOBAN_TUI_START_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "play.h"

typedef struct game_start {
    int collection, level; /* where to start (FILE:N, --collection, --level); collection -1:
                            * none, the game chooses */
    char note[1200];       /* said on the message line at the start, or "" */
    char resume[4096];     /* the collection played before one that came on standard input
                            * ("-": none from a file), or "" */
} game_start;

/* Loads the collections the options name into the play state (p->collections), and where
 * to start into `start`. A level that cannot be played stays in its collection, marked.
 * Prints an error and returns false when a collection cannot be read, the start names no
 * level that can be played, or no level of any collection can be played. */
bool start_load(const cli_options *options, play *p, game_start *start);

/* Keeps the solution sections of the levels' files as imported solutions (a solution that
 * does not solve its level is not kept), once per file (progress_import_collection). What
 * the player is told of it (sections skipped) is added to `message`, after what it holds
 * ("; " between). */
void start_import_solutions(play *p, char *message, size_t message_size);

#endif
