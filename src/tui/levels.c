/* levels.c - the level list screen. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "levels.h"
#include "play.h"

enum { HEADER_ROWS = 3, FOOTER_ROWS = 1 };

void levels_open(tui *t)
{
    t->screen = TUI_SCREEN_LEVELS;
    t->list.collection = t->collection_index;
    t->list.selected = t->level_index;
    t->list.top = 0;
    t->list.typed = 0;
}

/* Rows available for levels. */
static int visible_rows(void)
{
    int rows = LINES - HEADER_ROWS - FOOTER_ROWS;
    return rows < 1 ? 1 : rows;
}

/* Keeps the selection on screen. */
static void scroll_to_selection(tui *t)
{
    int rows = visible_rows();
    if (t->list.selected < t->list.top) t->list.top = t->list.selected;
    if (t->list.selected >= t->list.top + rows) t->list.top = t->list.selected - rows + 1;
    if (t->list.top < 0) t->list.top = 0;
}

void levels_draw(tui *t)
{
    const collection *c = &t->collections[t->list.collection];
    erase();
    scroll_to_selection(t);

    int solved = 0;
    for (int i = 0; i < c->count; i++) {
        const progress_record *record = play_record(t, t->list.collection, i);
        if (record && record->solved) solved++;
    }
    char header[160];
    snprintf(header, sizeof header, " %s: %d %s, %d solved%s", c->name, c->count,
             tui_plural(c->count, "level", "levels"), solved,
             t->collection_count > 1 ? "  (Tab: next collection)" : "");
    attrset(draw_attr(t, DRAW_PAIR_TITLE, 0) | A_BOLD);
    mvaddnstr(0, 0, header, COLS);
    attrset(A_BOLD);
    mvaddnstr(2, 0, "     #  solved  best moves   best pushes   title", COLS);
    attrset(A_NORMAL);

    const char *check = t->utf8 ? "\xe2\x9c\x93" : "*";
    int rows = visible_rows();
    for (int row = 0; row < rows && t->list.top + row < c->count; row++) {
        int i = t->list.top + row;
        const level *l = &c->levels[i];
        const progress_record *record = play_record(t, t->list.collection, i);
        char moves[24] = "", pushes[24] = "";
        if (record && record->best_moves.lurd)
            snprintf(moves, sizeof moves, "%d/%d", record->best_moves.moves,
                     record->best_moves.pushes);
        if (record && record->best_pushes.lurd)
            snprintf(pushes, sizeof pushes, "%d/%d", record->best_pushes.moves,
                     record->best_pushes.pushes);
        char line[256];
        snprintf(line, sizeof line, " %s %4d    %s    %-12s %-12s  %s",
                 i == t->level_index && t->list.collection == t->collection_index ? ">" : " ",
                 l->number, record && record->solved ? check : " ", moves, pushes, l->title);
        attrset(i == t->list.selected ? A_REVERSE : A_NORMAL);
        if (i == t->list.selected) {
            move(HEADER_ROWS + row, 0);
            hline(' ', COLS);
        }
        mvaddnstr(HEADER_ROWS + row, 0, line, COLS);
        attrset(A_NORMAL);
    }
    attrset(A_REVERSE);
    move(LINES - 1, 0);
    hline(' ', COLS);
    mvaddnstr(LINES - 1, 0,
              " Up/Down j/k PgUp/PgDn Home/End or a number: choose  Enter: play  Esc q: back",
              COLS);
    attrset(A_NORMAL);
}

void levels_key(tui *t, int key)
{
    const collection *c = &t->collections[t->list.collection];
    int page = visible_rows();
    /* Digits type a level number and select it as they come. A digit that would make a
     * number beyond the collection starts a new number; one that makes no level at all (0,
     * or 9 in a collection of 8) is ignored and selects nothing. */
    if (key >= '0' && key <= '9') {
        int typed = t->list.typed * 10 + (key - '0');
        if (typed > c->count) typed = key - '0';
        if (typed > c->count) typed = 0;
        t->list.typed = typed;
        if (typed > 0) t->list.selected = typed - 1;
        return;
    }
    t->list.typed = 0;
    switch (key) {
    case KEY_UP:
    case 'k':
    case 'w':
        t->list.selected--;
        break;
    case KEY_DOWN:
    case 'j':
    case 's':
        t->list.selected++;
        break;
    case KEY_PPAGE:
        t->list.selected -= page;
        break;
    case KEY_NPAGE:
    case ' ':
        t->list.selected += page;
        break;
    case KEY_HOME:
    case 'g':
        t->list.selected = 0;
        break;
    case KEY_END:
    case 'G':
        t->list.selected = c->count - 1;
        break;
    case '\t':
    case KEY_RIGHT:
    case KEY_LEFT:
    case KEY_BTAB: {
        int step = key == KEY_LEFT || key == KEY_BTAB ? -1 : 1;
        t->list.collection =
            (t->list.collection + step + t->collection_count) % t->collection_count;
        t->list.selected = t->list.collection == t->collection_index ? t->level_index : 0;
        t->list.top = 0;
        return;
    }
    case '\n':
    case '\r':
    case KEY_ENTER:
        t->screen = TUI_SCREEN_PLAY;
        if (t->list.selected < 0 || t->list.selected >= c->count) return;
        if (t->list.collection != t->collection_index || t->list.selected != t->level_index)
            if (!play_open_level(t, t->list.collection, t->list.selected)) t->quit = true;
        return;
    case 27:
    case 'q':
    case 'L':
        t->screen = TUI_SCREEN_PLAY;
        return;
    default:
        return;
    }
    if (t->list.selected < 0) t->list.selected = 0;
    if (t->list.selected >= c->count) t->list.selected = c->count - 1;
}
