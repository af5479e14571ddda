/* collections.c - the collection library screen. */
#define _GNU_SOURCE
#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "level/collection.h"
#include "collections.h"
#include "list.h"

enum { HEADER_ROWS = 3, FOOTER_ROWS = 1 };

/* The folders to scan: the system's, the player's, the bundled levels. */
static void scan(collections_screen *s)
{
    char *folders[4];
    const char *bundled =
        access(SOKOBAN_LEVELS_DIR, R_OK) == 0 ? SOKOBAN_LEVELS_DIR : SOKOBAN_SOURCE_LEVELS_DIR;
    int count = library_default_folders(bundled, folders, 4);
    if (!library_scan((const char *const *)folders, count, &s->library))
        snprintf(s->note, sizeof s->note, " Out of memory reading the library");
    for (int i = 0; i < count; i++) free(folders[i]);
}

/* Reads every collection of the library once to count its levels and the solved ones. */
static void count_levels(collections_screen *s, const play *p)
{
    int n = s->library.count;
    s->levels = calloc((size_t)(n ? n : 1), sizeof *s->levels);
    s->solved = calloc((size_t)(n ? n : 1), sizeof *s->solved);
    if (!s->levels || !s->solved) return;
    for (int i = 0; i < n; i++) {
        const library_entry *e = &s->library.entries[i];
        collection *list;
        int *numbers, count;
        level_error error;
        if (!collection_open_all((const char *const *)e->files, e->file_count, &list, &numbers,
                                 &count, &error)) {
            s->levels[i] = -1;
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
            collection_free(&list[c]);
        }
        free(list);
        free(numbers);
    }
}

void collections_open(collections_screen *s, const play *p)
{
    s->note[0] = '\0';
    s->typed[0] = '\0';
    if (!s->scanned) {
        s->scanned = true;
        scan(s);
        s->selected = s->top = 0;
    }
    free(s->levels); /* counted again: levels may have been solved since */
    free(s->solved);
    count_levels(s, p);
}

static int visible_rows(void)
{
    int rows = LINES - HEADER_ROWS - FOOTER_ROWS;
    return rows < 1 ? 1 : rows;
}

void collections_draw(collections_screen *s, const view *v, const play *p)
{
    (void)p;
    erase();
    int rows = visible_rows();
    list_scroll(s->selected, &s->top, rows);
    char header[160];
    snprintf(header, sizeof header, " Collection library: %d collection%s on this system",
             s->library.count, s->library.count == 1 ? "" : "s");
    attrset(draw_attr(v, DRAW_PAIR_TITLE, 0) | A_BOLD);
    mvaddnstr(0, 0, header, COLS);
    attrset(A_BOLD);
    mvaddnstr(2, 0, "   collection              levels  solved  folder", COLS);
    attrset(A_NORMAL);
    for (int row = 0; row < rows && s->top + row < s->library.count; row++) {
        int i = s->top + row;
        const library_entry *e = &s->library.entries[i];
        char counts[32] = "  ?       ?";
        if (s->levels && s->levels[i] >= 0)
            snprintf(counts, sizeof counts, "%6d  %6d", s->levels[i], s->solved[i]);
        char line[600];
        snprintf(line, sizeof line, "   %-22s %s  %s", e->name, counts, e->folder);
        attrset(i == s->selected ? A_REVERSE : A_NORMAL);
        if (i == s->selected) {
            move(HEADER_ROWS + row, 0);
            hline(' ', COLS);
        }
        draw_text(v, HEADER_ROWS + row, 0, line, strlen(line), COLS);
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
    const char *footer = s->note[0] ? s->note
                                    : " Up/Down PgUp/PgDn Home/End or a name: choose  "
                                      "Enter: play  Esc q: back";
    mvaddnstr(LINES - 1, 0, footer, COLS);
    attrset(A_NORMAL);
}

/* The collection in play whose first file is `path`, or -1. */
static int find_in_play(const play *p, const char *path)
{
    for (int i = 0; i < p->collection_count; i++)
        if (strcmp(p->collections[i].path, path) == 0) return i;
    return -1;
}

/* Opens entry `i`: the collection in play when it is there, else read and added. */
static collections_outcome play_entry(collections_screen *s, play *p, int i)
{
    const library_entry *e = &s->library.entries[i];
    int index = find_in_play(p, e->files[0]);
    if (index < 0) {
        collection *list;
        int *numbers, count;
        level_error error;
        if (!collection_open_all((const char *const *)e->files, e->file_count, &list, &numbers,
                                 &count, &error)) {
            snprintf(s->note, sizeof s->note, " %s", error.message);
            return COLLECTIONS_STAY;
        }
        free(numbers);
        collection *grown =
            realloc(p->collections, (size_t)(p->collection_count + count) * sizeof *grown);
        if (!grown) {
            for (int c = 0; c < count; c++) collection_free(&list[c]);
            free(list);
            return COLLECTIONS_OUT_OF_MEMORY;
        }
        p->collections = grown;
        index = p->collection_count;
        memcpy(p->collections + index, list, (size_t)count * sizeof *list);
        p->collection_count += count;
        free(list);
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

collections_outcome collections_key(collections_screen *s, play *p, int key)
{
    s->note[0] = '\0';
    bool name_key = key < 128 && (isalnum(key) || key == '_' || key == '-');
    /* a name being typed takes every letter; the first letter may not be a key's */
    if (name_key && (s->typed[0] || !strchr("jkgGqc", key))) {
        size_t length = strlen(s->typed);
        if (length + 1 < sizeof s->typed) {
            s->typed[length] = (char)key;
            s->typed[length + 1] = '\0';
        }
        for (int i = 0; i < s->library.count; i++)
            if (strncasecmp(s->library.entries[i].name, s->typed, strlen(s->typed)) == 0) {
                s->selected = i;
                break;
            }
        return COLLECTIONS_STAY;
    }
    s->typed[0] = '\0';
    int last = s->library.count - 1;
    if (list_navigate(key, &s->selected, s->library.count, visible_rows()))
        return COLLECTIONS_STAY;
    switch (key) {
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (last < 0) return COLLECTIONS_BACK;
        return play_entry(s, p, s->selected);
    case 27:
    case 'q':
    case 'c':
        return COLLECTIONS_BACK;
    default:
        return COLLECTIONS_STAY;
    }
}

void collections_free(collections_screen *s)
{
    library_free(&s->library);
    free(s->levels);
    free(s->solved);
    *s = (collections_screen){0};
}

void collections_rescan(collections_screen *s)
{
    library_free(&s->library);
    s->scanned = false;
}
