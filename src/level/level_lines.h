/* level_lines.h - a level file cut into lines, and what each line is (the parser's lexer).
 *
 * Used by level.c only. The text is split once, in time and memory linear in its size: a
 * run of blank lines is kept as one line (a file of newlines costs one entry), each line
 * costs 16 bytes and keeps a pointer into the text, its length and its number in the file.
 * Each line is classified once (map row, damaged map row, blank, "::" banner, text); the
 * questions the parser asks about fields are answered here, and the growing buffers and
 * string helpers the parser and the writer share live here too. */
#ifndef SOKOBAN_LEVEL_LINES_H
#define SOKOBAN_LEVEL_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum line_kind {
    LINE_TEXT,    /* a title, a field, a comment, a solution's moves */
    LINE_BLANK,   /* one or more blank lines in a row */
    LINE_MAP,     /* a map row */
    LINE_BAD_MAP, /* looks like a map row with a bad character in it */
    LINE_BANNER,  /* a "::" line of the SOK format: for a person reading the file only */
} line_kind;

typedef struct line {
    const char *text;     /* not NUL-terminated; trailing white space and CR removed */
    uint32_t length;      /* the file is at most LEVEL_MAX_FILE_BYTES */
    uint32_t number : 28; /* 1-based number of the (first) line in the file */
    uint32_t kind : 4;    /* a line_kind */
} line;

/* The lines of a text and how many blank lines each entry stands for. */
typedef struct line_list {
    line *lines;
    int count;
    int total_lines; /* lines in the file, counting every blank line */
} line_list;

/* Splits the text into lines, dropping a byte-order mark, the CR of CRLF ends and trailing
 * white space, and classifies them. Returns false when out of memory. */
bool lines_split(const char *text, size_t length, line_list *out);
void lines_free(line_list *list);

/* How many file lines entry `i` stands for (more than one for a run of blank lines). */
int lines_span(const line_list *list, int i);

/* True for a character of a map row: # space - _ . $ * @ + */
bool line_is_map_char(char c);

/* If the line is "Key: value" for the given key (any case), returns the value's start
 * and sets *length; else NULL. */
const char *line_field(const line *l, const char *key, size_t *length);

/* True for a field the format knows: Title, Author, Comment, Comment-End, Date,
 * Collection, Level. */
bool line_is_field(const line *l);

/* True for any "Key: value" line (a word, then a colon). */
bool line_is_key_value(const line *l);

/* True for "Comment-End:" (or "Comment_End:"). */
bool line_is_comment_end(const line *l);

/* True for a line that opens a solution or saved game of the SOK format: "Solution",
 * "Solution (moves 12, pushes 3)", "Solution/Moves", "Save", ... */
bool line_opens_solution(const line *l);

/* True for a line of moves: l u r d L U R D, counts and parentheses only. */
bool line_is_moves(const line *l);

/* The end (exclusive) of a section that opens as a solution at lines[opener] but holds no
 * moves: the text under the opener up to a blank line or a field, and the fields after it.
 * `opener` when there is no text, or when the text runs straight into the map at `to` (then
 * the opener is the next level's title). `count` is the number of lines. */
int line_bad_solution_end(const line *lines, int opener, int to, int count);

/* The text of a ';' comment line without the ';' and the blanks after it. */
const char *line_comment_text(const line *l, size_t *length);

/* A growing string: data (NUL-terminated once anything is appended), its length and the
 * bytes allocated. Grows by doubling. */
typedef struct text_buffer {
    char *data;
    size_t length, capacity;
} text_buffer;

bool buffer_reserve(text_buffer *b, size_t extra);
bool buffer_append(text_buffer *b, const char *text, size_t length);
bool buffer_append_string(text_buffer *b, const char *text);

/* A NUL-terminated copy of `length` bytes, to free(); NULL when out of memory. */
char *string_copy(const char *text, size_t length);

/* True when the bytes are text: no NUL and no control characters other than tab, line
 * ends and form feed. */
bool text_is_text(const char *text, size_t length);

/* The file name without directory and extension, its control characters (a line end, an
 * escape: a file's name may hold any byte but '/') left out: to free(); NULL when out of
 * memory. */
char *name_from_path(const char *path);

#endif
