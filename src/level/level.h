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

/* A solution (or saved game) that came with the level in its file: imported, never drawn. */
typedef struct level_solution {
    char *title; /* the line above the moves, as "Solution (moves 12, pushes 3)" */
    char *moves; /* LURD, the file's lines joined */
} level_solution;

/* One level: a width x height grid of square characters, row by row. A level that could
 * not be read keeps its place in the collection with `error` set, squares NULL and width
 * and height 0: it is listed, never played. */
typedef struct level {
    int number; /* 1-based position in its collection */
    int width;  /* longest row; shorter rows are padded with floor */
    int height;
    char *squares;  /* width * height characters from the set above, no NUL */
    char *title;    /* never NULL; "" when the file gives none */
    char *author;   /* never NULL */
    char *comment;  /* never NULL; lines joined by '\n' */
    int first_line; /* line number (1-based) of the map's first row in the file */
    char *error;    /* NULL for a level that can be played; else "FILE: level N, line L: WHY" */
    const char *problem;       /* NULL, or the part of `error` from "line L: WHY" on */
    level_solution *solutions; /* the file's solution sections for this level */
    int solution_count;
    char *file; /* the file it was read from when its collection gathers several (a folder,
                 * a group of one-level files); NULL when that is the collection's path */
    /* A level that cannot be played keeps no squares, but its rows as drawn (XSB characters,
     * drawn_width x drawn_height, padded with floor), for the editor to open and mend; NULL
     * for a level that can be played, or one too large to keep. */
    char *drawn;
    int drawn_width, drawn_height;
} level;

/* The name of the file a level was read from, when its collection gathers several files
 * (for "472.sok, line 9: two players"); NULL when the collection is one file. */
static inline const char *level_file_name(const level *lv)
{
    if (!lv->file) return NULL;
    const char *slash = lv->file;
    for (const char *c = lv->file; *c; c++)
        if (*c == '/') slash = c + 1;
    return slash;
}

typedef struct collection {
    char *path;    /* as given to collection_load, or the name given to collection_parse */
    char *name;    /* the header's Collection: (or Title:) field, else the file name without
                    * directory and extension */
    char *author;  /* the header's Author: field, never NULL */
    char *comment; /* the header's notes, never NULL; "::" banner lines are not kept */
    level *levels;
    int count;
    int bad_count; /* levels with `error` set */
} collection;

/* Level files larger than this are refused, not read (named in the man page). */
#define LEVEL_MAX_FILE_BYTES ((size_t)64 << 20)

/* A parse error: one line naming file, level, line and reason. */
typedef struct level_error {
    char message[512];
} level_error;

/* Reads every level of the file at `path` into `out`. A level that cannot be played (no
 * player, an open wall, ...) is kept with its `error` ("FILE: level N (TITLE), line L:
 * REASON") and the others are read on. Returns false, with the reason in `error` and
 * `out` empty, only when the file cannot be read, holds no level at all, or memory runs
 * out. */
bool collection_load(const char *path, collection *out, level_error *error);

/* The same, from `length` bytes of text; `name` stands for the file in messages. */
bool collection_parse(const char *text, size_t length, const char *name, collection *out,
                      level_error *error);

void collection_free(collection *collection);

/* The first level of `c` that cannot be played, or NULL. */
const level *collection_first_bad(const collection *c);

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
