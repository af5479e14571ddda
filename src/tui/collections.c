/* collections.c - the collection library screen. */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "level/collection.h"
#include "level/utf8.h"
#include "level/utf8_case.h"
#include "collections.h"
#include "list.h"

enum { HEADER_ROWS = 3, FOOTER_ROWS = 1 };

bool collections_library(library *out)
{
    char *folders[4];
    const char *bundled =
        access(SOKOBAN_LEVELS_DIR, R_OK) == 0 ? SOKOBAN_LEVELS_DIR : SOKOBAN_SOURCE_LEVELS_DIR;
    int count = library_default_folders(bundled, folders, 4);
    bool ok = library_scan((const char *const *)folders, count, out);
    for (int i = 0; i < count; i++) free(folders[i]);
    return ok;
}

/* Reads the library of the system. */
static void scan(collections_screen *s)
{
    if (!collections_library(&s->library))
        snprintf(s->note, sizeof s->note, " Out of memory reading the library");
}

/* Why no level of the collection `c` can be played (it has none that can): a string to
 * free(), or NULL. */
static char *no_playable_level(const collection *c)
{
    const level *bad = collection_first_bad(c);
    char *why;
    if (asprintf(&why, "no level can be played (%s)",
                 bad ? (bad->problem ? bad->problem : bad->error) : "none in it") < 0)
        return NULL;
    return why;
}

/* Reads every collection of the library once to count its levels and the solved ones, and
 * to find those of which no level can be played. */
static void count_levels(collections_screen *s, const play *p)
{
    int n = s->library.count;
    s->levels = calloc((size_t)(n ? n : 1), sizeof *s->levels);
    s->solved = calloc((size_t)(n ? n : 1), sizeof *s->solved);
    s->problems = calloc((size_t)(n ? n : 1), sizeof *s->problems);
    if (!s->levels || !s->solved || !s->problems) return;
    for (int i = 0; i < n; i++) {
        const library_entry *e = &s->library.entries[i];
        collection *list;
        int *numbers, count;
        level_error error;
        if (!collection_open_all((const char *const *)e->files, e->file_count, &list, &numbers,
                                 &count, &error)) {
            s->levels[i] = -1;
            s->problems[i] = strdup(error.message);
            continue;
        }
        for (int c = 0; c < count; c++) {
            for (int k = 0; k < list[c].count; k++) {
                const level *lv = &list[c].levels[k];
                if (lv->error) continue;
                s->levels[i]++;
                const progress_record *record =
                    p->progress ? progress_get(p->progress, progress_level_key(lv)) : NULL;
                s->solved[i] += record && record->solved;
            }
        }
        if (s->levels[i] == 0 && count > 0) s->problems[i] = no_playable_level(&list[0]);
        for (int c = 0; c < count; c++) collection_free(&list[c]);
        free(list);
        free(numbers);
    }
}

/* Forgets the counts (they are made again when the library opens). */
static void free_counts(collections_screen *s)
{
    for (int i = 0; s->problems && i < s->library.count; i++) free(s->problems[i]);
    free(s->problems);
    free(s->levels);
    free(s->solved);
    s->problems = NULL;
    s->levels = s->solved = NULL;
}

void collections_open(collections_screen *s, const play *p)
{
    s->note[0] = '\0';
    s->typed[0] = '\0';
    s->typing = false;
    free_counts(s); /* counted again: levels may have been solved since */
    if (!s->scanned) {
        s->scanned = true;
        scan(s);
        s->selected = s->top = 0;
    }
    count_levels(s, p);
}

/* The names' column: as wide as the longest name, from 22 to half the screen. */
static int name_columns(const collections_screen *s)
{
    int width = 22;
    for (int i = 0; i < s->library.count; i++) {
        int its = utf8_width(s->library.entries[i].name);
        if (its > width) width = its;
    }
    int widest = COLS / 2 > 12 ? COLS / 2 : 12;
    return width > widest ? widest : width;
}

/* The counts of collection `i` as its row shows them. */
static void row_counts(const collections_screen *s, int i, char *out, size_t size)
{
    snprintf(out, size, "  ?       ?");
    if (s->problems && s->problems[i])
        snprintf(out, size, "     -       -");
    else if (s->levels && s->levels[i] >= 0)
        snprintf(out, size, "%6d  %6d", s->levels[i], s->solved[i]);
}

/* True when the row of collection `i` shows all of it: its name, counts and folder (or
 * why no level of it can be played). */
static bool row_whole(const collections_screen *s, int i)
{
    const library_entry *e = &s->library.entries[i];
    const char *problem = s->problems ? s->problems[i] : NULL;
    int width = name_columns(s), name = utf8_width(e->name);
    char counts[32];
    row_counts(s, i, counts, sizeof counts);
    return name <= width &&
           3 + width + 1 + utf8_width(counts) + 2 + utf8_width(problem ? problem : e->folder) <=
               COLS;
}

/* The row of collection `i`: its name shortened by words to its column, its counts, and its
 * folder when it fits whole, or why no level of it can be played shortened by words into
 * what is left (none of it when a word does not fit: the line under the list says it). */
static void collection_row(const collections_screen *s, const view *v, int i, char *line,
                           size_t size)
{
    const library_entry *e = &s->library.entries[i];
    int width = name_columns(s);
    char counts[32];
    row_counts(s, i, counts, sizeof counts);
    const char *problem = s->problems ? s->problems[i] : NULL;
    /* padded by columns, not bytes */
    char shown[300];
    int used = draw_shorten(v, e->name, width, shown, sizeof shown);
    int length = snprintf(line, size, "   %s%*s %s", shown, width - used, "", counts);
    int room = COLS - utf8_width(line) - 2;
    if (length <= 0 || (size_t)length >= size) return;
    if (!problem && utf8_width(e->folder) <= room) {
        snprintf(line + length, size - (size_t)length, "  %s", e->folder);
    } else if (problem && room >= 8) {
        char reason[700];
        draw_shorten(v, problem, room, reason, sizeof reason);
        snprintf(line + length, size - (size_t)length, "  %s", reason);
    }
}

/* What the selected collection's row could not show whole (its name, its folder, or why
 * no level of it can be played), for the rows above the footer; "" when the row showed it. */
static void selected_detail(const collections_screen *s, char *out, size_t size)
{
    out[0] = '\0';
    if (s->selected < 0 || s->selected >= s->library.count || row_whole(s, s->selected)) return;
    const library_entry *e = &s->library.entries[s->selected];
    const char *problem = s->problems ? s->problems[s->selected] : NULL;
    if (problem)
        snprintf(out, size, " %s: %s", e->name, problem);
    else
        snprintf(out, size, " %s: in %s", e->name, e->folder);
}

/* Rows above the footer for the selected collection's detail, at most half the list's. */
static int detail_rows(const collections_screen *s)
{
    char detail[1400];
    selected_detail(s, detail, sizeof detail);
    int rows = detail[0] ? draw_wrapped_rows(detail) : 0;
    int most = (LINES - HEADER_ROWS - FOOTER_ROWS) / 2;
    return rows < most ? rows : most > 0 ? most : 0;
}

static int visible_rows(const collections_screen *s)
{
    int rows = LINES - HEADER_ROWS - FOOTER_ROWS - detail_rows(s);
    return rows < 1 ? 1 : rows;
}

bool collections_click(collections_screen *s, int y)
{
    int row = list_row_at(y, HEADER_ROWS, s->top, visible_rows(s), s->library.count);
    if (row < 0) return false;
    s->note[0] = '\0';
    s->typing = false; /* a name being typed gives way to the row clicked */
    if (row == s->selected) return true;
    s->selected = row;
    return false;
}

void collections_draw(collections_screen *s, const view *v, const play *p)
{
    (void)p;
    erase();
    int rows = visible_rows(s);
    list_scroll(s->selected, &s->top, rows, s->library.count);
    char header[160];
    snprintf(header, sizeof header, " Collection library: %d collection%s", s->library.count,
             s->library.count == 1 ? "" : "s");
    attrset(draw_attr(v, DRAW_PAIR_TITLE, 0) | A_BOLD);
    mvaddnstr(0, 0, header, COLS);
    attrset(A_BOLD);
    int width = name_columns(s);
    char heads[200];
    snprintf(heads, sizeof heads, "   %-*s levels  solved  folder", width, "collection");
    if (utf8_width(heads) > COLS)
        snprintf(heads, sizeof heads, "   %-*s levels  solved", width, "collection");
    mvaddnstr(2, 0, heads, COLS);
    attrset(A_NORMAL);
    for (int row = 0; row < rows && s->top + row < s->library.count; row++) {
        int i = s->top + row;
        char line[1200];
        collection_row(s, v, i, line, sizeof line);
        attrset(i == s->selected ? A_REVERSE : A_NORMAL);
        if (i == s->selected) {
            move(HEADER_ROWS + row, 0);
            hline(' ', COLS);
        }
        draw_text_fit(v, HEADER_ROWS + row, 0, line, COLS);
        attrset(A_NORMAL);
    }
    char detail[1400];
    selected_detail(s, detail, sizeof detail);
    if (detail[0]) {
        attrset(s->problems && s->problems[s->selected] ? draw_attr(v, DRAW_PAIR_ERROR, 0) | A_BOLD
                                                        : A_NORMAL);
        draw_wrapped(v, LINES - FOOTER_ROWS - detail_rows(s), detail, detail_rows(s));
        attrset(A_NORMAL);
    }
    if (s->library.count == 0)
        mvaddnstr(HEADER_ROWS, 0,
                  "   No level files in /usr/share/games or the sokoban levels "
                  "folder of your data directory.",
                  COLS);
    attrset(A_REVERSE);
    move(LINES - 1, 0);
    hline(' ', COLS);
    char typed[700];
    bool narrow = COLS < 76;
    const char *footer = s->note[0] ? s->note
                         : narrow   ? " / or a name  Enter: play  Esc: back"
                                    : " Up/Down PgUp/PgDn Home/End, / or a name: choose  "
                                      "Enter: play  Esc q: back";
    if (s->typing) {
        snprintf(typed, sizeof typed, " Name: %s_  %s", s->typed,
                 s->note[0] ? s->note
                 : narrow   ? "Backspace: erase"
                            : "Backspace: erase  Enter: play  Esc: back");
        footer = typed;
    }
    draw_text_fit(v, LINES - 1, 0, footer, COLS);
    attrset(A_NORMAL);
}

/* The collection in play whose path is `path` (as given, or the same file), or -1. */
static int find_in_play(const play *p, const char *path)
{
    char wanted[PATH_MAX], resolved[PATH_MAX];
    bool real = realpath(path, wanted) != NULL;
    for (int i = 0; i < p->collection_count; i++) {
        if (strcmp(p->collections[i].path, path) == 0) return i;
        if (real && realpath(p->collections[i].path, resolved) && strcmp(resolved, wanted) == 0)
            return i;
    }
    return -1;
}

int collections_add(play *p, const library_entry *e, level_error *error)
{
    int index = find_in_play(p, e->files[0]);
    if (index >= 0) return index;
    collection *list;
    int *numbers, count;
    if (!collection_open_all((const char *const *)e->files, e->file_count, &list, &numbers, &count,
                             error))
        return -1;
    free(numbers);
    collection *grown =
        realloc(p->collections, (size_t)(p->collection_count + count) * sizeof *grown);
    if (!grown) {
        for (int c = 0; c < count; c++) collection_free(&list[c]);
        free(list);
        snprintf(error->message, sizeof error->message, "%s: out of memory", e->name);
        return -1;
    }
    p->collections = grown;
    index = p->collection_count;
    memcpy(p->collections + index, list, (size_t)count * sizeof *list);
    p->collection_count += count;
    free(list);
    return index;
}

/* Opens entry `i`: the collection in play when it is there, else read and added. */
static collections_outcome play_entry(collections_screen *s, play *p, int i)
{
    if (s->problems && s->problems[i]) {
        snprintf(s->note, sizeof s->note, " %s: %s", s->library.entries[i].name, s->problems[i]);
        return COLLECTIONS_STAY;
    }
    level_error error;
    int index = collections_add(p, &s->library.entries[i], &error);
    if (index < 0) {
        snprintf(s->note, sizeof s->note, " %s", error.message);
        return COLLECTIONS_STAY;
    }
    const collection *c = &p->collections[index];
    int level = 0;
    if (p->progress) {
        level = progress_collection_level(p->progress, c->path) - 1;
        if (level < 0 || level >= c->count) level = 0;
    }
    while (level < c->count && c->levels[level].error) level++;
    if (level == c->count) {
        snprintf(s->note, sizeof s->note, " No level of %s can be played", c->name);
        return COLLECTIONS_STAY;
    }
    return play_open_level(p, index, level) ? COLLECTIONS_PLAY : COLLECTIONS_OUT_OF_MEMORY;
}

/* The first entry whose name starts with `text`, else the first whose name holds it; -1
 * when none does. */
static int find_typed(const collections_screen *s, const char *text)
{
    for (int i = 0; i < s->library.count; i++)
        if (utf8_case_starts(s->library.entries[i].name, text)) return i;
    for (int i = 0; i < s->library.count; i++)
        if (utf8_case_holds(s->library.entries[i].name, text)) return i;
    return -1;
}

/* True when some entry's name will hold `text` once the marks on its last letter are typed
 * ("e" then U+0301 for "é"). */
static bool may_be_typed(const collections_screen *s, const char *text)
{
    for (int i = 0; i < s->library.count; i++)
        if (utf8_case_may_hold(s->library.entries[i].name, text)) return true;
    return false;
}

/* A key while a name is typed: true when it was the name's (a character, Backspace). */
static bool typing_key(collections_screen *s, int key)
{
    size_t length = strlen(s->typed);
    if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        /* a whole character, and one begun */
        length = utf8_drop_last(s->typed, length);
        typing_start(&s->begun);
        if (length == 0) s->typing = false;
        int found = s->typed[0] ? find_typed(s, s->typed) : -1;
        if (found >= 0) s->selected = found;
        return true;
    }
    if (!typing_is_text(key) || key == '/') return false;
    char character[5];
    bool left_out;
    size_t bytes = typing_take(&s->begun, key, character, &left_out);
    if (left_out) snprintf(s->note, sizeof s->note, "%s", typing_left_out_message());
    if (bytes == 0 || length + bytes >= sizeof s->typed) return true; /* whole or left out */
    char longer[sizeof s->typed];
    snprintf(longer, sizeof longer, "%s%s", s->typed, character);
    int found = find_typed(s, longer);
    if (found < 0 && may_be_typed(s, longer)) { /* matched once its marks are typed */
        snprintf(s->typed, sizeof s->typed, "%s", longer);
        return true;
    }
    if (found < 0) { /* not taken: the letters before it still match */
        snprintf(s->note, sizeof s->note, "no name holds \"%s\"", longer);
        return true;
    }
    snprintf(s->typed, sizeof s->typed, "%s", longer);
    s->selected = found;
    return true;
}

collections_outcome collections_key(collections_screen *s, play *p, int key)
{
    s->note[0] = '\0';
    if (s->typing && typing_key(s, key)) return COLLECTIONS_STAY;
    /* a name starts with a letter that is no key of the list, or with / */
    bool name_key = (key < 128 && (isalnum(key) || key == '_' || key == '-')) ||
                    (key >= 0x80 && typing_is_text(key)); /* a character past ASCII */
    if (!s->typing && (key == '/' || (name_key && !strchr("jkgGqc", key)))) {
        s->typing = true;
        s->typed[0] = '\0';
        typing_start(&s->begun);
        if (key != '/') typing_key(s, key);
        return COLLECTIONS_STAY;
    }
    int last = s->library.count - 1;
    if (list_navigate(key, &s->selected, s->library.count, visible_rows(s)))
        return COLLECTIONS_STAY;
    switch (key) {
    case '\n':
    case '\r':
    case KEY_ENTER:
        s->typing = false;
        if (last < 0) return COLLECTIONS_BACK;
        return play_entry(s, p, s->selected);
    case 27:
    case 'q':
    case 'c':
        return COLLECTIONS_BACK;
    default:
        list_unknown_key(key, s->note, sizeof s->note);
        return COLLECTIONS_STAY;
    }
}

void collections_free(collections_screen *s)
{
    free_counts(s);
    library_free(&s->library);
    *s = (collections_screen){0};
}

void collections_rescan(collections_screen *s)
{
    free_counts(s);
    library_free(&s->library);
    s->scanned = false;
}
