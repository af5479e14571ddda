/* levels.c - the level list screen. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "level/utf8.h"
#include "levels.h"
#include "list.h"

enum { HEADER_ROWS = 4, FOOTER_ROWS_MOST = 3 };

void levels_open(level_list *list, const play *p)
{
    list->collection = p->collection_index;
    list->selected = p->level_index;
    list->top = 0;
    list->typed = 0;
    list->note[0] = '\0';
    list->optimizing = false;
}

/* Why the level selected cannot be played, in full, for the rows above the footer (the
 * list's row has room for the start of it only); "" when it can be played. */
static void selected_problem(const level_list *list, const play *p, char *out, size_t size)
{
    const collection *c = &p->collections[list->collection];
    out[0] = '\0';
    if (list->selected < 0 || list->selected >= c->count) return;
    const level *l = &c->levels[list->selected];
    if (!l->error) return;
    const char *file = level_file_name(l); /* in a folder: which of its files */
    snprintf(out, size, " Level %d%s%s%s cannot be played: %s", l->number, file ? " (" : "",
             file ? file : "", file ? ")" : "", l->problem);
}

/* The footer: a note, O's message while O is on, else the keys (40 columns of them under
 * 66). */
static const char *footer_text(const level_list *list, const play *p)
{
    return list->note[0]      ? list->note
           : list->optimizing ? p->message
           : COLS < 66        ? " Enter play  E edit  c library  q back"
                              : " Up/Down or a number: choose  Enter: play  c: library  E: "
                                "edit  Esc q: back";
}

/* The footer's rows: O's message wrapped whole (it names the level, its best and the time),
 * at most FOOTER_ROWS_MOST; one else (a note fits one, or says its reason is above). */
static int footer_rows(const level_list *list, const play *p)
{
    if (list->note[0] || !list->optimizing) return 1;
    int rows = draw_wrapped_rows(p->message);
    return rows < 1 ? 1 : rows > FOOTER_ROWS_MOST ? FOOTER_ROWS_MOST : rows;
}

/* Rows under the list for the selected level's problem: as many as it takes wrapped, at
 * most half the rows the list has. */
static int problem_rows(const level_list *list, const play *p)
{
    char problem[700];
    selected_problem(list, p, problem, sizeof problem);
    int rows = draw_wrapped_rows(problem);
    int most = (LINES - HEADER_ROWS - footer_rows(list, p)) / 2;
    return rows < most ? rows : most > 0 ? most : 0;
}

/* Rows available for levels. */
static int visible_rows(const level_list *list, const play *p)
{
    int rows = LINES - HEADER_ROWS - footer_rows(list, p) - problem_rows(list, p);
    return rows < 1 ? 1 : rows;
}

bool levels_click(level_list *list, const play *p, int y)
{
    int row = list_row_at(y, HEADER_ROWS, list->top, visible_rows(list, p),
                          p->collections[list->collection].count);
    if (row < 0) return false;
    list->typed = 0;
    list->note[0] = '\0';
    list->optimizing = false;
    if (row == list->selected) return true;
    list->selected = row;
    return false;
}

/* The first row: the collection, its counts, and Tab when there are several; shortened
 * by whole pieces to fit (Tab left out, "cannot be played" made "unplayable", the counts
 * "solved/levels"). */
static void draw_header(const level_list *list, const view *v, const play *p, int solved)
{
    const collection *c = &p->collections[list->collection];
    char counts[160], bad[64] = "", header[400];
    snprintf(counts, sizeof counts, " %s: %d %s, %d solved", c->name, c->count,
             play_plural(c->count, "level", "levels"), solved);
    if (c->bad_count) snprintf(bad, sizeof bad, ", %d cannot be played", c->bad_count);
    const char *tab = p->collection_count > 1 ? "  (Tab: next collection)" : "";
    snprintf(header, sizeof header, "%s%s%s", counts, bad, tab);
    if (utf8_width(header) > COLS) snprintf(header, sizeof header, "%s%s", counts, bad);
    if (c->bad_count) snprintf(bad, sizeof bad, ", %d unplayable", c->bad_count);
    if (utf8_width(header) > COLS) snprintf(header, sizeof header, "%s%s", counts, bad);
    if (utf8_width(header) > COLS)
        snprintf(header, sizeof header, " %s: %d/%d solved%s", c->name, solved, c->count, bad);
    attrset(draw_attr(v, DRAW_PAIR_TITLE, 0) | A_BOLD);
    draw_text_fit(v, 0, 0, header, COLS);
    attrset(A_NORMAL);
}

/* The row of level `i` of the collection listed. */
static void level_row(const level_list *list, const view *v, const play *p,
                      const progress_summary *records, int i, char *line, size_t size)
{
    const collection *c = &p->collections[list->collection];
    const level *l = &c->levels[i];
    const progress_summary *record = l->error || !records ? NULL : &records[i];
    bool narrow = COLS < 66;
    char moves[24] = "", pushes[24] = "";
    /* a best that is not the player's own says whose it is: a assisted, i imported,
     * o the optimizer's (O) */
    static const char *const origin_mark[] = {"", " a", " i", " o"};
    if (record && record->best_moves.kept)
        snprintf(moves, sizeof moves, "%d/%d%s", record->best_moves.moves,
                 record->best_moves.pushes, origin_mark[record->best_moves.origin % 4]);
    if (record && record->best_pushes.kept)
        snprintf(pushes, sizeof pushes, "%d/%d%s", record->best_pushes.moves,
                 record->best_pushes.pushes, origin_mark[record->best_pushes.origin % 4]);
    const char *check = v->utf8 ? "\xe2\x9c\x93" : "*";
    const char *cross = v->utf8 ? "\xe2\x9c\x97" : "x";
    const char *file = level_file_name(l); /* in a folder: which of its files */
    const char *mark = record && record->solved ? check : record && record->assisted ? "a" : " ";
    const char *in_play =
        i == p->level_index && list->collection == p->collection_index ? ">" : " ";
    /* a level that cannot be played: its reason when it fits whole (else it is under the
     * list, whole, while the level is selected) */
    if (l->error && narrow) {
        snprintf(line, size, " %s %4d %s %s%scannot be played: %s%s%s", " ", l->number, cross,
                 l->title, l->title[0] ? ": " : "", file ? file : "", file ? ", " : "", l->problem);
        if (utf8_width(line) > COLS)
            snprintf(line, size, " %s %4d %s %s%scannot be played", " ", l->number, cross, l->title,
                     l->title[0] ? ": " : "");
    } else if (l->error) {
        /* the title first: the reason loses its last words when it does not fit */
        snprintf(line, size, " %s %4d    %s    %s%scannot be played: %s%s%s", " ", l->number, cross,
                 l->title, l->title[0] ? ": " : "", file ? file : "", file ? ", " : "", l->problem);
    } else if (narrow)
        snprintf(line, size, " %s %4d %s %-10s %s", in_play, l->number, mark, moves, l->title);
    else
        snprintf(line, size, " %s %4d    %s    %-12s  %-12s   %s", in_play, l->number, mark, moves,
                 pushes, l->title);
}

void levels_draw(level_list *list, const view *v, const play *p)
{
    const collection *c = &p->collections[list->collection];
    erase();
    int rows = visible_rows(list, p);
    list_scroll(list->selected, &list->top, rows, c->count);

    /* the records of the whole collection in one query (kept while nothing changes) */
    const progress_summary *records =
        p->progress ? progress_summaries(p->progress, c->levels, c->count) : NULL;
    int solved = 0;
    for (int i = 0; records && i < c->count; i++) solved += records[i].solved;
    draw_header(list, v, p, solved);
    /* the author of the level selected (or of the collection) */
    const level *chosen =
        list->selected >= 0 && list->selected < c->count ? &c->levels[list->selected] : NULL;
    const char *author = chosen && chosen->author[0] ? chosen->author : c->author;
    if (author && author[0]) {
        char by[300];
        snprintf(by, sizeof by, " by %s", author);
        draw_text_fit(v, 1, 0, by, COLS);
    }
    /* under 66 columns: the number, the mark, the fewest moves and the title, and a footer
     * that fits 40 columns, so that nothing a player needs is cut */
    bool narrow = COLS < 66;
    attrset(A_BOLD);
    mvaddnstr(2, 0,
              narrow ? "     #   fewest     title"
                     : "     #  solved  fewest moves  fewest pushes  title",
              COLS);
    attrset(A_DIM);
    mvaddnstr(
        3, 0,
        narrow ? "         moves/pushes"
               : "                moves/pushes  moves/pushes   (a help, o optimizer, i imported)",
        COLS);
    attrset(A_NORMAL);

    for (int row = 0; row < rows && list->top + row < c->count; row++) {
        int i = list->top + row;
        char line[600];
        level_row(list, v, p, records, i, line, sizeof line);
        int attr = c->levels[i].error ? draw_attr(v, DRAW_PAIR_ERROR, (int)A_DIM) : (int)A_NORMAL;
        attrset(i == list->selected ? (int)A_REVERSE : attr);
        if (i == list->selected) {
            move(HEADER_ROWS + row, 0);
            hline(' ', COLS);
        }
        draw_text_fit(v, HEADER_ROWS + row, 0, line, COLS);
        attrset(A_NORMAL);
    }
    char problem[700];
    selected_problem(list, p, problem, sizeof problem);
    if (problem[0]) {
        attrset(draw_attr(v, DRAW_PAIR_ERROR, 0) | A_BOLD);
        draw_wrapped(v, LINES - footer_rows(list, p) - problem_rows(list, p), problem,
                     problem_rows(list, p));
        attrset(A_NORMAL);
    }
    attrset(A_REVERSE);
    int footer = footer_rows(list, p);
    for (int row = LINES - footer; row < LINES; row++) {
        move(row, 0);
        hline(' ', COLS);
    }
    if (footer == 1)
        draw_text_fit(v, LINES - 1, 0, footer_text(list, p), COLS);
    else
        draw_wrapped(v, LINES - footer, footer_text(list, p), footer);
    attrset(A_NORMAL);
}

levels_outcome levels_key(level_list *list, play *p, int key)
{
    const collection *c = &p->collections[list->collection];
    int page = visible_rows(list, p);
    /* Digits type a level number and select it as they come. A digit that would make a
     * number beyond the collection starts a new number; one that makes no level at all (0,
     * or 9 in a collection of 8) is ignored and selects nothing. */
    if (key >= '0' && key <= '9') {
        int typed = list->typed * 10 + (key - '0');
        if (typed > c->count) typed = key - '0';
        if (typed > c->count) typed = 0;
        list->typed = typed;
        if (typed > 0) list->selected = typed - 1;
        return LEVELS_STAY;
    }
    list->typed = 0;
    list->note[0] = '\0';
    list->optimizing = false;
    if (list_navigate(key, &list->selected, c->count, page)) return LEVELS_STAY;
    switch (key) {
    case '\t':
    case KEY_RIGHT:
    case KEY_LEFT:
    case KEY_BTAB: {
        if (p->collection_count == 1) {
            snprintf(list->note, sizeof list->note, " No other collection; c: the library");
            return LEVELS_STAY;
        }
        int step = key == KEY_LEFT || key == KEY_BTAB ? -1 : 1;
        list->collection = (list->collection + step + p->collection_count) % p->collection_count;
        list->selected = list->collection == p->collection_index ? p->level_index : 0;
        list->top = 0;
        return LEVELS_STAY;
    }
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (list->selected < 0 || list->selected >= c->count) return LEVELS_BACK;
        if (c->levels[list->selected].error) {
            /* the reason on the footer when it fits, else above it (where it is whole) */
            const level *l = &c->levels[list->selected];
            snprintf(list->note, sizeof list->note, " Level %d cannot be played: %s", l->number,
                     l->problem);
            if (utf8_width(list->note) > COLS)
                snprintf(list->note, sizeof list->note, " Level %d cannot be played (why: above)",
                         l->number);
            return LEVELS_STAY;
        }
        if (list->collection != p->collection_index || list->selected != p->level_index)
            if (!play_open_level(p, list->collection, list->selected)) return LEVELS_OUT_OF_MEMORY;
        return LEVELS_BACK;
    case 27:
    case 'q':
    case 'L':
        return LEVELS_BACK;
    case 'c':
    case 'C':
        return LEVELS_COLLECTIONS;
    case 'E':
        return list->selected >= 0 && list->selected < c->count ? LEVELS_EDIT : LEVELS_STAY;
    case 'O':
        if (list->selected < 0 || list->selected >= c->count) return LEVELS_STAY;
        list->optimizing = true;
        return LEVELS_OPTIMIZE;
    default:
        list_unknown_key(key, list->note, sizeof list->note);
        return LEVELS_STAY;
    }
}

const level *levels_selected(const level_list *list, const play *p)
{
    return &p->collections[list->collection].levels[list->selected];
}
