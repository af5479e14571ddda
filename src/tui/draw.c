/* draw.c - the play screen and the help screen. */
#include <assert.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "level/utf8.h"
#include "keys.h"
#include "wrap.h"

/* ---- Glyphs ------------------------------------------------------------------------- */

/* How each kind of square looks, in a given cell width. */
typedef struct glyph_set {
    int width;
    const char *wall, *floor, *goal, *box, *box_on_goal, *player, *player_on_goal;
    const char *dead;                   /* the D overlay on a dead floor square */
    const char *reach;                  /* a square the box picked can be pushed to */
    const char *arrow[DIRECTION_COUNT]; /* the hinted push's direction, in LURD order */
    const char *spinner[10];
    int spinner_count;
} glyph_set;

static const glyph_set glyphs_utf8 = {
    .width = 2,
    .wall = "██",
    .floor = "  ",
    .goal = "··",
    .box = "[]",
    .box_on_goal = "▐▌",
    .player = "◖◗",
    .player_on_goal = "◖◗",
    .dead = "xx",
    .reach = "::",
    .arrow = {"◀◀", "▲▲", "▶▶", "▼▼"},
    .spinner = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"},
    .spinner_count = 10,
};

/* The XSB characters: the C locale, and narrow terminals. */
static const glyph_set glyphs_ascii = {
    .width = 1,
    .wall = "#",
    .floor = " ",
    .goal = ".",
    .box = "$",
    .box_on_goal = "*",
    .player = "@",
    .player_on_goal = "+",
    .dead = "x",
    .reach = ":",
    .arrow = {"<", "^", ">", "v"},
    .spinner = {"|", "/", "-", "\\"},
    .spinner_count = 4,
};

/* ---- Colours ------------------------------------------------------------------------ */

void draw_init_colors(view *v)
{
    v->colors = false;
    if (!has_colors() || start_color() == ERR) return;
    int background = COLOR_BLACK;
    if (use_default_colors() == OK) background = -1;
    init_pair(DRAW_PAIR_WALL, COLOR_BLUE, background);
    init_pair(DRAW_PAIR_GOAL, COLOR_CYAN, background);
    init_pair(DRAW_PAIR_BOX, COLOR_YELLOW, background);
    init_pair(DRAW_PAIR_BOX_ON_GOAL, COLOR_GREEN, background);
    /* The player in the terminal's own colour, so it shows on light and dark backgrounds. */
    init_pair(DRAW_PAIR_PLAYER, background == -1 ? -1 : COLOR_WHITE, background);
    init_pair(DRAW_PAIR_HINT, COLOR_BLACK, COLOR_MAGENTA);
    init_pair(DRAW_PAIR_DEADLOCK, COLOR_WHITE, COLOR_RED);
    init_pair(DRAW_PAIR_DEAD_SQUARE, COLOR_RED, background);
    init_pair(DRAW_PAIR_GOOD, COLOR_GREEN, background);
    init_pair(DRAW_PAIR_WARNING, COLOR_WHITE, COLOR_RED);
    init_pair(DRAW_PAIR_ERROR, COLOR_RED, background);
    init_pair(DRAW_PAIR_TITLE, COLOR_CYAN, background);
    v->colors = true;
}

int draw_attr(const view *v, int pair, int monochrome)
{
    return v->colors ? (int)COLOR_PAIR(pair) : monochrome;
}

/* ---- The board ---------------------------------------------------------------------- */

/* The message line's text: a question asked, or the message. */
static const char *message_text(const play *p)
{
    return p->confirm_restart ? "Restart the level? (y/n)" : p->message;
}

/* Rows under the status line for the message when it takes one line: two when the terminal
 * has room for them beside the whole board, so that the board stays put as messages come. */
static int message_base_rows(const play *p)
{
    return LINES >= p->game.board.height + 4 ? 2 : 1;
}

/* Rows under the status line for the message: as many as it takes wrapped; the board gives
 * way (it scrolls), keeping one row, and a message longer than the rest is cut, marked. */
static int message_rows(const play *p)
{
    const char *text = message_text(p);
    int rows = wrap_count(text, strlen(text), COLS);
    if (rows < message_base_rows(p)) rows = message_base_rows(p);
    if (rows > LINES - 2) rows = LINES - 2;
    return rows > 1 ? rows : 1;
}

/* Rows above the status line, where the board goes. */
static int board_rows(const play *p)
{
    return LINES - 1 - message_rows(p);
}

enum { SCROLL_MARGIN = 3 }; /* squares kept between the player and the view's edge */

/* The first square shown along one axis: `origin` moved as little as possible so that
 * `focus` keeps `margin` squares to either edge of the `shown` squares, within the board. */
static int follow(int origin, int focus, int shown, int size)
{
    int margin = shown > 4 * SCROLL_MARGIN ? SCROLL_MARGIN : (shown - 1) / 2;
    if (focus - origin < margin) origin = focus - margin;
    if (focus - origin > shown - 1 - margin) origin = focus - (shown - 1 - margin);
    if (origin > size - shown) origin = size - shown;
    if (origin < 0) origin = 0;
    return origin;
}

/* The columns the level's comment is wrapped to under the board. */
static int comment_columns(void)
{
    return COLS > 4 ? COLS - 2 : COLS;
}

/* The rows the level's comment takes, each of its lines wrapped (an empty line: one row). */
static int comment_rows(const play *p)
{
    int rows = 0;
    for (const char *line = play_level(p)->comment; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        int count = wrap_count(line, length, comment_columns());
        rows += count > 0 ? count : 1;
        line = end ? end + 1 : line + length;
    }
    return rows;
}

/* Decides the cell width and where the board goes; sets v->layout. Two columns a square in
 * UTF-8 when the board fits so beside a message of one line (a longer message scrolls the
 * board, not its glyphs), else one column; a board that does not fit is scrolled to follow
 * the player, and the hinted box while a hint is on show. */
static void lay_out(view *v, const play *p, const glyph_set **glyphs)
{
    const board *b = &p->game.board;
    int rows = board_rows(p);
    bool wide = b->width * 2 <= COLS && b->height <= LINES - 1 - message_base_rows(p);
    *glyphs = v->utf8 && wide ? &glyphs_utf8 : &glyphs_ascii;
    int cell = (*glyphs)->width;
    v->layout.cell_width = cell;
    v->layout.too_small = rows < 1 || COLS < cell;
    v->layout.scrolled = b->width * cell > COLS || b->height > rows;
    if (!v->layout.scrolled) {
        v->layout.origin_x = v->layout.origin_y = 0;
        v->layout.shown_width = b->width;
        v->layout.shown_height = b->height;
        v->layout.left = (COLS - b->width * cell) / 2;
        /* the board and the comment under it centred together; the board at the top when
         * the comment does not fit whole */
        int comment = comment_rows(p);
        int total = b->height + (comment ? 1 + comment : 0);
        v->layout.top = total <= rows ? (rows - total) / 2 : 0;
        return;
    }
    int shown_width = COLS / cell < b->width ? COLS / cell : b->width;
    int shown_height = rows < b->height ? rows : b->height;
    int player = p->game.position.player;
    v->layout.origin_x = follow(v->layout.origin_x, player % b->width, shown_width, b->width);
    v->layout.origin_y = follow(v->layout.origin_y, player / b->width, shown_height, b->height);
    if (p->hint.shown) { /* the box the hint names, and so the square it goes to */
        v->layout.origin_x =
            follow(v->layout.origin_x, p->hint.box % b->width, shown_width, b->width);
        v->layout.origin_y =
            follow(v->layout.origin_y, p->hint.box / b->width, shown_height, b->height);
    }
    v->layout.shown_width = shown_width;
    v->layout.shown_height = shown_height;
    v->layout.left = (COLS - shown_width * cell) / 2;
    v->layout.top = (rows - shown_height) / 2;
}

static bool report_has_box(const deadlock_report *report, int square)
{
    for (int i = 0; i < report->box_count; i++)
        if (report->boxes[i] == square) return true;
    return false;
}

/* The hinted box's square after the push: where the arrow goes. */
static int hint_arrow_square(const play *p)
{
    return board_neighbour(&p->game.board, p->hint.box, p->hint.direction);
}

/* Draws one square with its overlays. */
static void draw_square(const view *v, const play *p, const glyph_set *g, int square, int row,
                        int column)
{
    const board *b = &p->game.board;
    const position *pos = &p->game.position;
    const char *glyph = g->floor;
    int attr = A_NORMAL;
    bool goal = board_is_goal(b, square);
    bool box = pos->boxes[square] != 0;

    if (board_is_wall(b, square)) {
        glyph = g->wall;
        attr = draw_attr(v, DRAW_PAIR_WALL, g->width == 2 ? A_NORMAL : A_BOLD);
    } else if (square == pos->player) {
        glyph = goal ? g->player_on_goal : g->player;
        attr = draw_attr(v, goal ? DRAW_PAIR_GOAL : DRAW_PAIR_PLAYER, 0) | A_BOLD;
        if (goal && g->width == 2 && !v->colors) attr |= A_UNDERLINE;
    } else if (box) {
        glyph = goal ? g->box_on_goal : g->box;
        attr = draw_attr(v, goal ? DRAW_PAIR_BOX_ON_GOAL : DRAW_PAIR_BOX, A_BOLD);
        if (goal) attr |= A_BOLD;
    } else if (goal) {
        glyph = g->goal;
        attr = draw_attr(v, DRAW_PAIR_GOAL, A_NORMAL);
    } else if (v->show_dead_squares && p->dead_ready && board_is_inside(b, square) &&
               deadlock_square_is_dead(&p->dead, square)) {
        glyph = g->dead;
        attr = draw_attr(v, DRAW_PAIR_DEAD_SQUARE, A_DIM);
    }

    /* Overlays: the box picked with the mouse and where it can go, the deadlocked boxes,
     * the hinted box and the arrow of its push. */
    const play_selection *picked = &p->selection;
    if (picked->active && square == picked->box) {
        attr = draw_attr(v, DRAW_PAIR_HINT, A_REVERSE) | A_BOLD;
    } else if (picked->active && !box && square != pos->player && picked->reach[square]) {
        if (!goal) glyph = g->reach;
        attr = draw_attr(v, DRAW_PAIR_HINT, A_REVERSE);
    } else if (box && p->warning.reason != DEADLOCK_NONE && report_has_box(&p->warning, square)) {
        attr = draw_attr(v, DRAW_PAIR_DEADLOCK, A_REVERSE) | A_BOLD;
    } else if (p->hint.shown && box && square == p->hint.box) {
        attr = draw_attr(v, DRAW_PAIR_HINT, A_REVERSE) | A_BOLD;
    } else if (p->hint.shown && !box && square == hint_arrow_square(p)) {
        glyph = g->arrow[p->hint.direction];
        attr = draw_attr(v, DRAW_PAIR_HINT, A_REVERSE) | A_BOLD;
    }
    attrset(attr);
    mvaddstr(row, column, glyph);
    attrset(A_NORMAL);
}

void draw_level_square(const view *v, int row, int column, int cell_width, char square, int marks)
{
    const glyph_set *g = cell_width == 2 && v->utf8 ? &glyphs_utf8 : &glyphs_ascii;
    const char *glyph = g->floor;
    int attr = A_NORMAL;
    bool goal =
        square == LEVEL_GOAL || square == LEVEL_BOX_ON_GOAL || square == LEVEL_PLAYER_ON_GOAL;
    if (square == LEVEL_WALL) {
        glyph = g->wall;
        attr = draw_attr(v, DRAW_PAIR_WALL, g->width == 2 ? A_NORMAL : A_BOLD);
    } else if (square == LEVEL_PLAYER || square == LEVEL_PLAYER_ON_GOAL) {
        glyph = goal ? g->player_on_goal : g->player;
        attr = draw_attr(v, goal ? DRAW_PAIR_GOAL : DRAW_PAIR_PLAYER, 0) | A_BOLD;
        if (goal && g->width == 2 && !v->colors) attr |= A_UNDERLINE;
    } else if (square == LEVEL_BOX || square == LEVEL_BOX_ON_GOAL) {
        glyph = goal ? g->box_on_goal : g->box;
        attr = draw_attr(v, goal ? DRAW_PAIR_BOX_ON_GOAL : DRAW_PAIR_BOX, A_BOLD);
        if (goal) attr |= A_BOLD;
    } else if (goal) {
        glyph = g->goal;
        attr = draw_attr(v, DRAW_PAIR_GOAL, A_NORMAL);
    } else if (marks & DRAW_MARK_DEAD_SQUARE) {
        glyph = g->dead;
        attr = draw_attr(v, DRAW_PAIR_DEAD_SQUARE, A_DIM);
    }
    if (marks & DRAW_MARK_DEADLOCK) attr = draw_attr(v, DRAW_PAIR_DEADLOCK, A_REVERSE) | A_BOLD;
    /* the editor's cursor in reverse; without colours underlined too, or it would look as a
     * box on a dead square does (reverse and bold) */
    if (marks & DRAW_MARK_CURSOR)
        attr = (attr & ~A_COLOR) | A_REVERSE | (v->colors ? A_NORMAL : A_UNDERLINE);
    attrset(attr);
    mvaddstr(row, column, glyph);
    attrset(A_NORMAL);
}

static void draw_board(const view *v, const play *p, const glyph_set *g)
{
    const board *b = &p->game.board;
    const view_layout *l = &v->layout;
    for (int y = l->origin_y; y < l->origin_y + l->shown_height; y++) {
        for (int x = l->origin_x; x < l->origin_x + l->shown_width; x++) {
            int square = y * b->width + x;
            /* Outside floor stays blank, so the level's shape shows. */
            if (!board_is_wall(b, square) && !board_is_inside(b, square)) continue;
            draw_square(v, p, g, square, l->top + y - l->origin_y,
                        l->left + (x - l->origin_x) * g->width);
        }
    }
}

/* The note shown when not even one row of the board fits. */
static void draw_too_small(const view *v)
{
    draw_wrapped(v, 0, "Terminal too small: L levels, ? help, q quit", LINES);
}

int draw_square_at(const view *v, const play *p, int row, int column)
{
    if (!p->game_ready || v->layout.too_small || v->screen != VIEW_SCREEN_PLAY) return -1;
    assert(v->layout.cell_width == 1 || v->layout.cell_width == 2);
    const board *b = &p->game.board;
    const view_layout *l = &v->layout;
    int y = row - l->top;
    int x_columns = column - l->left;
    if (y < 0 || y >= l->shown_height || x_columns < 0) return -1;
    int x = x_columns / l->cell_width;
    if (x >= l->shown_width) return -1;
    return (y + l->origin_y) * b->width + x + l->origin_x;
}

/* ---- The status and message lines --------------------------------------------------- */

/* What the solver and the replay are doing, for the right end of the status line; `brief`
 * (a narrow terminal): the same in fewer words ("ahead" for "solver ahead", the replay
 * without its speed, the search without "solver" and "nodes", a hint without "improved"). */
static void solver_state(const view *v, const play *p, const assist *a, const glyph_set *g,
                         bool brief, char *out, size_t size)
{
    if (p->replay.active) {
        if (brief)
            snprintf(out, size, "replay %d/%d%s", p->replay.next, p->replay.count,
                     p->replay.paused ? " paused" : "");
        else
            snprintf(out, size, "replay %d/%d %s%.0f/s", p->replay.next, p->replay.count,
                     p->replay.paused ? "paused " : "", replay_steps_per_second(&p->replay));
        return;
    }
    if (a->request != ASSIST_REQUEST_NONE && a->worker) {
        worker_activity activity;
        worker_progress(a->worker, &activity);
        /* its nodes once it has some to report; until then, that it sets up its tables */
        char nodes[32] = "setting up";
        if (!activity.setting_up) {
            assist_count(nodes, sizeof nodes, activity.nodes);
            if (!brief) strcat(nodes, " nodes");
        }
        snprintf(out, size, "%s%s %s %s", brief ? "" : "solver ",
                 g->spinner[v->spinner % (unsigned)g->spinner_count],
                 activity.looking_back               ? "looking back"
                 : a->request == ASSIST_REQUEST_HINT ? "hint"
                                                     : "solving",
                 nodes);
        return;
    }
    if (optimize_best_running(&a->best)) { /* O at work on a thread of its own */
        snprintf(out, size, "optimizing %s", g->spinner[v->spinner % (unsigned)g->spinner_count]);
        return;
    }
    if (p->hint.shown) {
        snprintf(out, size, "hint (%s%s)", p->hint.mode == SOLVER_OPTIMAL ? "optimal" : "fast",
                 p->hint.improved && !brief ? ", improved" : "");
        return;
    }
    /* Solving ahead, before it is asked (worker.h); at rest, what it knows of the position */
    worker_activity activity = {0};
    if (a->worker) worker_progress(a->worker, &activity);
    static const char *const resting[] = {[ASSIST_RESTING] = "solver idle",
                                          [ASSIST_SOLVED_AHEAD] = "solved ahead",
                                          [ASSIST_NO_SOLUTION] = "no solution",
                                          [ASSIST_GAVE_UP] = "no answer found"};
    static const char *const resting_brief[] = {[ASSIST_RESTING] = "idle",
                                                [ASSIST_SOLVED_AHEAD] = "solved ahead",
                                                [ASSIST_NO_SOLUTION] = "no solution",
                                                [ASSIST_GAVE_UP] = "no answer"};
    snprintf(out, size, "%s",
             activity.improving ? (brief ? "improving" : "solver improving")
             : activity.busy    ? (brief ? "ahead" : "solver ahead")
                                : (brief ? resting_brief : resting)[assist_resting_state(a, p)]);
}

/* Columns `text` takes on screen. */
static int text_width(const char *text)
{
    return utf8_width(text);
}

/* The status line: collection, level and title on the left; moves, pushes and the
 * solver's state on the right. On a narrow terminal the right end drops the best, then
 * writes the counts as "moves/pushes" and the state in fewer words (never the state
 * before the collection and level number), and the title loses words from its end. */
static void draw_status(const view *v, const play *p, const assist *a, const glyph_set *g)
{
    const collection *c = &p->collections[p->collection_index];
    const level *l = play_level(p);
    char state[64], brief[64];
    solver_state(v, p, a, g, false, state, sizeof state);
    solver_state(v, p, a, g, true, brief, sizeof brief);
    /* The best saved solution, fewest moves, when the level was solved before. */
    char best[48] = "";
    const progress_record *record = play_record(p, p->collection_index, p->level_index);
    if (record && record->best_moves.lurd)
        snprintf(best, sizeof best, "best %d/%d  ", record->best_moves.moves,
                 record->best_moves.pushes);
    /* The title, unless it only repeats the number (as in XSokoban). */
    char number[16];
    snprintf(number, sizeof number, "%d", l->number);
    bool titled = l->title[0] && strcmp(l->title, number) != 0;
    char left[160];
    snprintf(left, sizeof left, " %s %d/%d", c->name, l->number, c->count);
    /* what `left` holds of it: a name longer than the line (a file's name) is cut here, and
     * shortened by words when drawn; the title then has no room */
    int named = (int)strlen(left);
    int named_width = text_width(left);
    snprintf(left + named, sizeof left - (size_t)named, "%s%s", titled ? ": " : "",
             titled ? l->title : "");
    /* The right end: the widest form beside the whole left end, else the narrowest with the
     * state beside the collection and number (the title then shortened or left out), else
     * the counts alone. The best stays only while it leaves 24 columns to the left end.
     * Room for the two counts (40 characters at most), the best and the state. */
    char forms[4][40 + sizeof best + sizeof state];
    int moves = p->game.moves, pushes = p->game.pushes;
    snprintf(forms[0], sizeof forms[0], " moves %d  pushes %d  %s%s ", moves, pushes, best, state);
    snprintf(forms[1], sizeof forms[1], " moves %d  pushes %d  %s ", moves, pushes, state);
    snprintf(forms[2], sizeof forms[2], " %d/%d  %s ", moves, pushes, state);
    snprintf(forms[3], sizeof forms[3], " %d/%d  %s ", moves, pushes, brief);
    const char *right = NULL;
    int whole = text_width(left);
    for (int i = best[0] ? 0 : 1; i < 4 && !right; i++)
        if (text_width(forms[i]) <= COLS - whole && (i > 0 || text_width(forms[i]) <= COLS - 24))
            right = forms[i];
    for (int i = 2; i < 4 && !right; i++)
        if (text_width(forms[i]) <= COLS - named_width) right = forms[i];
    char counts[40];
    snprintf(counts, sizeof counts, " %d/%d ", moves, pushes);
    if (!right) right = counts;
    int right_width = text_width(right);
    /* the title shortened by whole words, or left out when not one word fits */
    if (whole > COLS - right_width &&
        (int)wrap_shorten(left, strlen(left), COLS - right_width, v->utf8 ? 1 : 3) <= named + 2)
        left[named] = '\0';

    int row = board_rows(p);
    attrset(A_REVERSE);
    move(row, 0);
    hline(' ', COLS);
    int left_room = COLS - right_width;
    if (left_room > 0) draw_text_fit(v, row, 0, left, left_room);
    if (right_width <= COLS) mvaddstr(row, COLS - right_width, right);
    attrset(A_NORMAL);
}

/* The message, wrapped at spaces onto the message rows, its last row marked cut ("...") when
 * it takes more than the screen has (message_rows()). */
static void draw_message(const view *v, const play *p)
{
    int attr = A_NORMAL;
    switch (p->message_kind) {
    case PLAY_MESSAGE_INFO:
        break;
    case PLAY_MESSAGE_GOOD:
        attr = draw_attr(v, DRAW_PAIR_GOOD, 0) | A_BOLD;
        break;
    case PLAY_MESSAGE_WARNING:
        attr = draw_attr(v, DRAW_PAIR_WARNING, A_REVERSE) | A_BOLD;
        break;
    case PLAY_MESSAGE_ERROR:
        attr = draw_attr(v, DRAW_PAIR_ERROR, 0) | A_BOLD;
        break;
    }
    attrset(p->confirm_restart ? (int)A_BOLD : attr);
    draw_wrapped(v, board_rows(p) + 1, message_text(p), LINES - 1 - board_rows(p));
    attrset(A_NORMAL);
}

/* ---- Text by display width ---------------------------------------------------------- */

void draw_text(const view *v, int row, int column, const char *text, size_t length, int columns)
{
    move(row, column);
    size_t i = 0;
    int used = 0;
    while (i < length && text[i]) {
        unsigned code;
        int bytes = utf8_decode(text + i, &code);
        int width = utf8_char_width(code);
        if (used + width > columns) break;
        unsigned shown = utf8_shown_as(code); /* curses would act on a control character */
        if (shown != code)
            for (int column = 0; column < width; column++) addch((chtype)shown); /* a tab */
        else if (v->utf8 && code != 0xFFFD)
            addnstr(text + i, bytes);
        else /* the C locale: marked, not mangled */
            for (int column = 0; column < width; column++) addch(code < 0x80 ? (chtype)code : '?');
        used += width;
        i += (size_t)bytes;
    }
}

void draw_text_fit(const view *v, int row, int column, const char *text, int columns)
{
    size_t length = strlen(text);
    const char *mark = v->utf8 ? "\xe2\x80\xa6" : "...";
    size_t keep = wrap_shorten(text, length, columns, v->utf8 ? 1 : 3);
    draw_text(v, row, column, text, keep, columns);
    if (keep < length && columns >= (v->utf8 ? 1 : 3)) addstr(mark);
}

int draw_shorten(const view *v, const char *text, int columns, char *out, size_t size)
{
    size_t length = strlen(text);
    size_t keep = wrap_shorten(text, length, columns, v->utf8 ? 1 : 3);
    snprintf(out, size, "%.*s%s", (int)keep, text,
             keep >= length ? ""
             : v->utf8      ? "\xe2\x80\xa6"
                            : "...");
    return utf8_width(out);
}

int draw_wrapped_rows(const char *text)
{
    size_t length = strlen(text), spaces = wrap_skip_spaces(text, length);
    return wrap_count(text + spaces, length - spaces, COLS);
}

int draw_wrapped(const view *v, int row, const char *text, int rows)
{
    size_t length = strlen(text);
    int drawn = 0;
    text += wrap_skip_spaces(text, length);
    length = strlen(text);
    while (length > 0 && drawn < rows) {
        size_t piece = wrap_line(text, length, COLS);
        if (drawn == rows - 1 && piece < length) {
            draw_text_fit(v, row + drawn, 0, text, COLS); /* the last row: what is left */
            return rows;
        }
        draw_text(v, row + drawn, 0, text, piece, COLS);
        drawn++;
        text += piece;
        length -= piece;
        size_t spaces = wrap_skip_spaces(text, length);
        text += spaces;
        length -= spaces;
    }
    return drawn;
}

/* The comment's last row when the rows run out before its end: the rest of it, its lines
 * joined (wrap_join_lines), shortened by words with the mark, centred. */
static void draw_comment_rest(const view *v, int row, const char *rest)
{
    char joined[1024], shown[1024];
    wrap_join_lines(rest, joined, sizeof joined);
    int width = draw_shorten(v, joined, comment_columns(), shown, sizeof shown);
    draw_text(v, row, (COLS - (width < COLS ? width : COLS)) / 2, shown, strlen(shown), COLS);
}

/* The level's comment (the tutorial's lessons), under the board when there is room:
 * each line wrapped at a space to the terminal's width, into lines of even length (no word
 * left alone on the last), and centred. Without room for it whole it comes up to the board's
 * last row, and a last row that cannot hold the rest says so with the mark. */
static void draw_comment(const view *v, const play *p)
{
    const char *comment = play_level(p)->comment;
    int row = v->layout.top + p->game.board.height + 1;
    int last = board_rows(p) - 1;
    if (comment_rows(p) > last - row + 1) row--; /* no blank row above it */
    int columns = comment_columns();
    attrset(A_DIM);
    while (*comment && row <= last) {
        const char *end = strchr(comment, '\n');
        size_t length = end ? (size_t)(end - comment) : strlen(comment);
        const char *line = comment;
        int even = wrap_balanced(line, length, columns);
        do {
            size_t piece = wrap_line(line, length, even);
            bool more = piece < length || (end && end[1]);
            if (row == last && more) {
                draw_comment_rest(v, row++, line);
                break;
            }
            char copy[1024];
            snprintf(copy, sizeof copy, "%.*s", (int)piece, line);
            int width = utf8_width(copy);
            draw_text(v, row++, (COLS - (width < COLS ? width : COLS)) / 2, line, piece, COLS);
            line += piece;
            length -= piece;
            while (length > 0 && *line == ' ') line++, length--;
        } while (length > 0 && row <= last);
        comment = end ? end + 1 : comment + strlen(comment);
    }
    attrset(A_NORMAL);
}

/* ---- The help screen ---------------------------------------------------------------- */

enum { HELP_WIDTH = 70, HELP_KEYS_WIDTH = 20 }; /* the help's width; its keys' column */

/* The help's first column: the help centred when the terminal is wider than it. */
static int help_left(void)
{
    return COLS > HELP_WIDTH ? (COLS - HELP_WIDTH) / 2 : 0;
}

/* Where the help is being laid out: its rows are numbered from 0 (the title); those from
 * `skip` on are drawn at screen row `top` + their number - `skip`, down to row `last`, and
 * none when `v` is NULL (counting only). */
typedef struct help_cursor {
    const view *v;
    int row, skip, top, last;
} help_cursor;

/* The screen row of the cursor's row, or -1 when it is not drawn. */
static int help_screen_row(const help_cursor *c)
{
    int row = c->top + c->row - c->skip;
    return c->v && c->row >= c->skip && row <= c->last ? row : -1;
}

/* The bytes of the legend's first line in `width` columns: up to the last double space that
 * fits (between two glyphs and their words), else wrapped at a space. */
static size_t legend_line(const char *text, size_t length, int width)
{
    size_t fit = utf8_fit(text, width, NULL);
    if (fit >= length) return length;
    for (size_t i = fit; i > 0; i--)
        if (text[i] == ' ' && text[i - 1] == ' ') return i - 1;
    return wrap_line(text, length, width);
}

/* Writes `text` from `column`, wrapped to `width` columns, a row a line (the legend broken
 * at its double spaces). */
static void help_text(help_cursor *c, int column, int width, const char *text, bool legend)
{
    size_t length = strlen(text);
    do {
        size_t piece = legend ? legend_line(text, length, width) : wrap_line(text, length, width);
        int row = help_screen_row(c);
        if (row >= 0) draw_text(c->v, row, column, text, piece, width);
        c->row++;
        text += piece;
        length -= piece;
        size_t spaces = wrap_skip_spaces(text, length);
        text += spaces;
        length -= spaces;
    } while (length > 0);
}

/* Lays the help screen out and draws it through the cursor `c`: the title, the legend, the
 * keys with their text wrapped in its column, how to go back; nothing is cut. Returns the
 * rows it takes. */
static int help_lay_out(help_cursor *c)
{
    int left = help_left(), width = COLS - left, text_left = left + HELP_KEYS_WIDTH;
    if (width < 1) return 0;
    int row = help_screen_row(c);
    /* how to go back: at the right of the title's row when it fits there (the whole help then
     * fits 80x24), else under the keys */
    const char *back = "Any key goes back to the game."; /* 30 columns */
    int right = width < HELP_WIDTH ? width : HELP_WIDTH;
    bool back_on_title = 36 + 2 + 30 <= right; /* the title's 36 columns, two, and it */
    if (row >= 0) {
        attrset(draw_attr(c->v, DRAW_PAIR_TITLE, 0) | A_BOLD);
        mvaddnstr(row, left, "Sokoban: push every box onto a goal.", width);
        attrset(A_NORMAL);
        if (back_on_title) mvaddstr(row, left + right - 30, back);
    }
    c->row++;
    /* the glyphs the board was drawn with last (a level drawn one column a square in UTF-8
     * shows the XSB characters), and the player on a goal when it has a glyph of its own */
    const glyph_set *g =
        c->v && c->v->utf8 && c->v->layout.cell_width == 2 ? &glyphs_utf8 : &glyphs_ascii;
    char legend[200], on_goal[48] = "";
    if (strcmp(g->player, g->player_on_goal) != 0)
        snprintf(on_goal, sizeof on_goal, "  %s you on a goal", g->player_on_goal);
    snprintf(legend, sizeof legend, "%s you%s  %s box  %s box on a goal  %s goal  %s wall",
             g->player, on_goal, g->box, g->box_on_goal, g->goal, g->wall);
    help_text(c, left, width, legend, true);
    c->row++; /* a blank */
    int count;
    const keys_help_line *lines = keys_help(&count);
    for (int i = 0; i < count; i++) {
        if ((row = help_screen_row(c)) >= 0) {
            attrset(A_BOLD);
            mvaddnstr(row, left, lines[i].keys, width);
            attrset(A_NORMAL);
        }
        if (COLS > text_left)
            help_text(c, text_left, COLS - text_left, lines[i].what, false);
        else
            c->row++;
    }
    c->row += !back_on_title;                                   /* a blank, */
    if (!back_on_title) help_text(c, left, width, back, false); /* and how to go back */
    return c->row;
}

int draw_help_rows(void)
{
    help_cursor count = {0};
    return help_lay_out(&count);
}

int draw_help_scroll_limit(void)
{
    int limit = draw_help_rows() - (LINES - 1);
    return limit > 0 ? limit : 0;
}

bool draw_help_key(view *v, int key)
{
    int limit = draw_help_scroll_limit(), *top = &v->help_top;
    if (limit > 0 && (key == KEY_DOWN || key == 'j'))
        *top = *top < limit ? *top + 1 : limit;
    else if (limit > 0 && (key == KEY_UP || key == 'k'))
        *top = *top > 0 ? *top - 1 : 0;
    else if (limit > 0 && (key == KEY_NPAGE || (key == ' ' && *top < limit)))
        *top = *top + LINES - 2 < limit ? *top + LINES - 2 : limit;
    else if (limit > 0 && key == KEY_PPAGE)
        *top = *top - (LINES - 2) > 0 ? *top - (LINES - 2) : 0;
    else if (key != KEY_MOUSE && key != KEY_RESIZE)
        return false;
    return true;
}

/* The help screen: centred when it fits; on a smaller terminal its rows scroll from
 * v->help_top, with a footer saying how (shorter on a narrow terminal). */
static void draw_help(const view *v)
{
    int total = draw_help_rows();
    bool scrolls = total > LINES;
    int skip = 0;
    if (scrolls) {
        skip = v->help_top < draw_help_scroll_limit() ? v->help_top : draw_help_scroll_limit();
        if (skip < 0) skip = 0;
    }
    help_cursor at = {.v = v,
                      .skip = skip,
                      .top = scrolls ? 0 : (LINES - total) / 2,
                      .last = scrolls ? LINES - 2 : LINES - 1};
    help_lay_out(&at);
    if (scrolls) {
        static const char *const footers[] = {
            " Up/Down PgUp/PgDn Space: scroll (rows %d-%d of %d)  any other key: back",
            " Up/Down PgUp/PgDn: scroll (rows %d-%d of %d)  other: back",
            " Up/Down: rows %d-%d of %d; other: back"}; /* the longest that fits */
        char footer[120];
        int first = skip + 1, shown = skip + LINES - 1 < total ? skip + LINES - 1 : total;
        for (int i = 0; i < 3 && (i == 0 || text_width(footer) > COLS); i++)
            snprintf(footer, sizeof footer, footers[i], first, shown, total);
        attrset(A_REVERSE);
        move(LINES - 1, 0);
        hline(' ', COLS);
        mvaddnstr(LINES - 1, 0, footer, COLS);
        attrset(A_NORMAL);
    }
}

void draw_screen(view *v, const play *p, const assist *a)
{
    erase();
    if (v->screen == VIEW_SCREEN_HELP) {
        draw_help(v);
        return;
    }
    if (!p->game_ready || LINES < 3) {
        draw_too_small(v);
        v->layout.too_small = true;
        return;
    }
    const glyph_set *g;
    lay_out(v, p, &g);
    if (v->layout.too_small) {
        draw_too_small(v);
    } else {
        draw_board(v, p, g);
        if (!v->layout.scrolled) draw_comment(v, p);
    }
    draw_status(v, p, a, g);
    draw_message(v, p);
}
