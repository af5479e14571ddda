/* level.h - Sokoban level collections in the standard text (XSB) format.
 *
 * Reads a file that holds one or many levels, with titles, authors and comments, as
 * XSokoban, YASC, JSoko and the Sokoban wiki write them, and checks each level (one
 * player, as many boxes as goals, closed walls, at most LEVEL_MAX_SIDE squares a side).
 * Writes any level back in the same format. Knows nothing of the rules of play. */
#ifndef SOKOBAN_LEVEL_H
#define SOKOBAN_LEVEL_H

#include <stdbool.h>
#include <stddef.h>

enum { LEVEL_MAX_SIDE = 100 };

/* Square characters, as in the file. Outside floor is stored as LEVEL_FLOOR. */
enum {
    LEVEL_WALL = '#',
    LEVEL_FLOOR = ' ',
    LEVEL_GOAL = '.',
    LEVEL_BOX = '$',
    LEVEL_BOX_ON_GOAL = '*',
    LEVEL_PLAYER = '@',
    LEVEL_PLAYER_ON_GOAL = '+',
};

/* One level: a width x height grid of square characters, row by row. */
typedef struct level {
    int number; /* 1-based position in its collection */
    int width;  /* longest row; shorter rows are padded with floor */
    int height;
    char *squares;  /* width * height characters from the set above, no NUL */
    char *title;    /* never NULL; "" when the file gives none */
    char *author;   /* never NULL */
    char *comment;  /* never NULL; lines joined by '\n' */
    int first_line; /* line number (1-based) of the map's first row in the file */
} level;

typedef struct collection {
    char *path; /* as given to collection_load, or the name given to collection_parse */
    char *name; /* the file name without directory and extension */
    level *levels;
    int count;
} collection;

/* A parse error: one line naming file, level, line and reason. */
typedef struct level_error {
    char message[512];
} level_error;

/* Reads every level of the file at `path` into `out`. Returns true on success; on failure
 * fills `error` with "FILE: level N (TITLE), line L: REASON" and leaves `out` empty. */
bool collection_load(const char *path, collection *out, level_error *error);

/* The same, from `length` bytes of text; `name` stands for the file in messages. */
bool collection_parse(const char *text, size_t length, const char *name, collection *out,
                      level_error *error);

void collection_free(collection *collection);

/* The character at column x, row y (0-based). */
static inline char level_square(const level *level, int x, int y)
{
    return level->squares[y * level->width + x];
}

/* Writes the level as XSB text: a "; TITLE" line when it has a title, then Title:/Author:
 * fields as needed, the map rows without trailing floor, one '\n' each. Returns a string
 * to free(), or NULL when out of memory. */
char *level_to_text(const level *level);

#endif
