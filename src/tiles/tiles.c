/* tiles.c - the sliding-tile domain of the IDA* engine: the lower bound (Manhattan
 * distance + linear conflicts, or additive pattern databases), the search. */
#include "tiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiles_board.h"
#include "tiles_pdb.h"

/* The blank's moves (tiles_board.h); a move and its inverse differ in the lowest bit. */
enum { MOVE_COUNT = TILES_MOVE_COUNT, NO_MOVE = TILES_MOVE_COUNT };
/* The codes of a line's contents: TILES_MAX_WIDTH digits in base TILES_MAX_WIDTH + 1. */
enum { LINE_CODES = 625 };

static int board_cells(const tiles_board *board)
{
    return board->width * board->width;
}

/* ------------------------------------------------------------------------------------- */
/* The search state and its lower bound                                                   */
/* ------------------------------------------------------------------------------------- */

/* The pattern databases look at the board twice (Korf & Felner 2002): as it is, and
 * mirrored in the main diagonal, which maps the standard goal to itself and tile t to the
 * tile whose goal is t's mirror image. The mirrored board is just as far from the goal, so
 * its lookup is a lower bound too, and the larger of the two is taken. A view keeps, for
 * each group, the table index, kept up to date move by move, and the entry. */
enum { VIEW_COUNT = 2 };
typedef struct pdb_view {
    uint8_t group[TILES_MAX_CELLS]; /* tile -> the group its image belongs to */
    uint8_t shift[TILES_MAX_CELLS]; /* tile -> 4 x its image's digit in that group */
    int8_t cell[TILES_MAX_CELLS];   /* cell -> its image */
    int32_t index[TILES_PDB_MAX_GROUPS];
    int part[TILES_PDB_MAX_GROUPS];
    int sum;
} pdb_view;

/* Everything the engine's callbacks touch. The lower bound is kept up to date move by
 * move: a move changes one tile's Manhattan distance, the linear conflicts of the two
 * lines the tile leaves and enters, and one pattern database index in each view. */
typedef struct tiles_search {
    int width, cells;
    uint8_t cell[TILES_MAX_CELLS];
    int blank;
    int8_t neighbor[TILES_MAX_CELLS][MOVE_COUNT];
    uint8_t goal[TILES_MAX_CELLS];
    uint8_t goal_row[TILES_MAX_CELLS], goal_column[TILES_MAX_CELLS]; /* of each tile */
    uint8_t distance[TILES_MAX_CELLS][TILES_MAX_CELLS];              /* [tile][cell] */
    /* Linear conflicts of a line, by its code: base width+1 digits, one a square, each the
     * goal place within the line of a tile whose goal is in this line, or width if none. */
    uint8_t line_conflicts[LINE_CODES];
    uint8_t row_conflicts[TILES_MAX_WIDTH], column_conflicts[TILES_MAX_WIDTH];
    int manhattan, conflicts;
    const tiles_pdb *pdb; /* NULL: Manhattan + linear conflicts */
    pdb_view views[VIEW_COUNT];
    uint8_t history[TILES_MAX_SOLUTION + 1];
    int depth;
} tiles_search;

/* Extra moves a line forces (Hansson, Mayer & Yung 1992): among the tiles in their goal
 * line, those out of order must be removed until the rest are increasing, and each removed
 * tile leaves the line and comes back, 2 moves the Manhattan distance does not count. The
 * fewest removals is the count less the longest increasing subsequence. */
static int conflicts_of_code(int code, int width)
{
    int place[TILES_MAX_WIDTH] = {0}, count = 0;
    for (int i = width - 1; i >= 0; i--) {
        int digit = code % (width + 1);
        code /= width + 1;
        place[i] = digit;
    }
    int longest[TILES_MAX_WIDTH], best = 0;
    for (int i = 0; i < width; i++) {
        if (place[i] == width) continue;
        count++;
        longest[i] = 1;
        for (int j = 0; j < i; j++)
            if (place[j] < width && place[j] < place[i] && longest[j] + 1 > longest[i])
                longest[i] = longest[j] + 1;
        if (longest[i] > best) best = longest[i];
    }
    return 2 * (count - best);
}

static int row_conflicts_now(const tiles_search *s, int row)
{
    int code = 0;
    for (int c = row * s->width; c < (row + 1) * s->width; c++) {
        int tile = s->cell[c];
        int digit =
            tile != TILES_BLANK && s->goal_row[tile] == row ? s->goal_column[tile] : s->width;
        code = code * (s->width + 1) + digit;
    }
    return s->line_conflicts[code];
}

static int column_conflicts_now(const tiles_search *s, int column)
{
    int code = 0;
    for (int c = column; c < s->cells; c += s->width) {
        int tile = s->cell[c];
        int digit =
            tile != TILES_BLANK && s->goal_column[tile] == column ? s->goal_row[tile] : s->width;
        code = code * (s->width + 1) + digit;
    }
    return s->line_conflicts[code];
}

static int bound_now(const tiles_search *s)
{
    if (!s->pdb) return s->manhattan + s->conflicts;
    return s->views[0].sum > s->views[1].sum ? s->views[0].sum : s->views[1].sum;
}

/* Computes every part of the lower bound from scratch. */
static void recompute_bound(tiles_search *s)
{
    s->manhattan = 0;
    for (int c = 0; c < s->cells; c++)
        if (s->cell[c] != TILES_BLANK) s->manhattan += s->distance[s->cell[c]][c];
    s->conflicts = 0;
    for (int line = 0; line < s->width; line++) {
        s->row_conflicts[line] = (uint8_t)row_conflicts_now(s, line);
        s->column_conflicts[line] = (uint8_t)column_conflicts_now(s, line);
        s->conflicts += s->row_conflicts[line] + s->column_conflicts[line];
    }
    if (!s->pdb) return;
    for (int v = 0; v < VIEW_COUNT; v++) {
        pdb_view *view = &s->views[v];
        memset(view->index, 0, sizeof view->index);
        for (int c = 0; c < s->cells; c++) {
            int tile = s->cell[c];
            if (tile != TILES_BLANK)
                view->index[view->group[tile]] += view->cell[c] << view->shift[tile];
        }
        view->sum = 0;
        for (int g = 0; g < s->pdb->group_count; g++) {
            view->part[g] = s->pdb->table[g][view->index[g]];
            view->sum += view->part[g];
        }
    }
}

/* Slides the blank one square and brings the lower bound up to date. */
static void slide(tiles_search *s, int move)
{
    int from = s->blank, to = s->neighbor[from][move];
    int tile = s->cell[to];
    s->cell[from] = (uint8_t)tile;
    s->cell[to] = TILES_BLANK;
    s->blank = to;
    if (s->pdb) {
        /* the tile goes from `to` to `from`: one digit of one index changes in each view */
        for (int v = 0; v < VIEW_COUNT; v++) {
            pdb_view *view = &s->views[v];
            int g = view->group[tile];
            view->index[g] += (view->cell[from] - view->cell[to]) * (1 << view->shift[tile]);
            int part = s->pdb->table[g][view->index[g]];
            view->sum += part - view->part[g];
            view->part[g] = part;
        }
        return;
    }
    s->manhattan += s->distance[tile][from] - s->distance[tile][to];
    if (move == TILES_UP || move == TILES_DOWN) {
        /* the tile changes rows; the order within its column stays */
        int rows[2] = {from / s->width, to / s->width};
        for (int i = 0; i < 2; i++) {
            int now = row_conflicts_now(s, rows[i]);
            s->conflicts += now - s->row_conflicts[rows[i]];
            s->row_conflicts[rows[i]] = (uint8_t)now;
        }
    } else {
        int columns[2] = {from % s->width, to % s->width};
        for (int i = 0; i < 2; i++) {
            int now = column_conflicts_now(s, columns[i]);
            s->conflicts += now - s->column_conflicts[columns[i]];
            s->column_conflicts[columns[i]] = (uint8_t)now;
        }
    }
}

/* Sets up the search from `start` towards `goal`; the pattern databases are used only when
 * `pdb` is given and `goal` is the standard one of the same width. */
static void search_init(tiles_search *s, const tiles_board *start, const tiles_board *goal,
                        const tiles_pdb *pdb)
{
    memset(s, 0, sizeof *s);
    s->width = start->width;
    s->cells = board_cells(start);
    memcpy(s->cell, start->cell, sizeof s->cell);
    memcpy(s->goal, goal->cell, sizeof s->goal);
    s->blank = tiles_blank_cell(start);
    for (int c = 0; c < s->cells; c++)
        for (int m = 0; m < MOVE_COUNT; m++)
            s->neighbor[c][m] = (int8_t)tiles_neighbor_cell(s->width, c, (tiles_move)m);
    for (int c = 0; c < s->cells; c++) {
        s->goal_row[goal->cell[c]] = (uint8_t)(c / s->width);
        s->goal_column[goal->cell[c]] = (uint8_t)(c % s->width);
    }
    for (int tile = 1; tile < s->cells; tile++)
        for (int c = 0; c < s->cells; c++)
            s->distance[tile][c] = (uint8_t)(abs(c / s->width - s->goal_row[tile]) +
                                             abs(c % s->width - s->goal_column[tile]));
    int codes = 1;
    for (int i = 0; i < s->width; i++) codes *= s->width + 1;
    for (int code = 0; code < codes; code++)
        s->line_conflicts[code] = (uint8_t)conflicts_of_code(code, s->width);
    tiles_board standard;
    tiles_goal(s->width, TILES_GOAL_BLANK_LAST, &standard);
    if (pdb && pdb->width == s->width &&
        memcmp(goal->cell, standard.cell, sizeof standard.cell) == 0)
        s->pdb = pdb;
    if (s->pdb) {
        for (int c = 0; c < s->cells; c++) {
            int row = c / s->width, column = c % s->width;
            int mirror = column * s->width + row;
            int tile = (c + 1) % s->cells, image = (mirror + 1) % s->cells;
            s->views[0].cell[c] = (int8_t)c;
            s->views[1].cell[c] = (int8_t)mirror;
            if (tile == TILES_BLANK) continue;
            s->views[0].group[tile] = (uint8_t)pdb->group_of[tile];
            s->views[0].shift[tile] = (uint8_t)(4 * pdb->digit_of[tile]);
            s->views[1].group[tile] = (uint8_t)pdb->group_of[image];
            s->views[1].shift[tile] = (uint8_t)(4 * pdb->digit_of[image]);
        }
    }
    s->depth = 0;
    recompute_bound(s);
}

/* ------------------------------------------------------------------------------------- */
/* The engine's callbacks                                                                 */
/* ------------------------------------------------------------------------------------- */

static int root_bound(void *context)
{
    tiles_search *s = context;
    recompute_bound(s);
    return bound_now(s);
}

/* The blank's moves, except the one that undoes the previous move. */
static int expand(void *context, ida_move *moves)
{
    tiles_search *s = context;
    int undo = s->depth ? s->history[s->depth - 1] ^ 1 : NO_MOVE;
    int count = 0;
    for (int m = 0; m < MOVE_COUNT; m++) {
        int to = s->neighbor[s->blank][m];
        if (m == undo || to < 0) continue;
        moves[count++] = (ida_move)m;
        if (!s->pdb) continue;
        /* the children's table lookups miss the cache: start them all now */
        int tile = s->cell[to];
        for (int v = 0; v < VIEW_COUNT; v++) {
            const pdb_view *view = &s->views[v];
            int g = view->group[tile];
            int32_t index =
                view->index[g] + (view->cell[s->blank] - view->cell[to]) * (1 << view->shift[tile]);
            __builtin_prefetch(&s->pdb->table[g][index]);
        }
    }
    return count;
}

static int make(void *context, ida_move move, int g, int *cost)
{
    (void)g;
    tiles_search *s = context;
    slide(s, (int)move);
    s->history[s->depth++] = (uint8_t)move;
    *cost = 1;
    return bound_now(s);
}

static void unmake(void *context, ida_move move)
{
    tiles_search *s = context;
    s->depth--;
    slide(s, (int)move ^ 1);
}

static bool is_goal(void *context)
{
    tiles_search *s = context;
    return memcmp(s->cell, s->goal, (size_t)s->cells) == 0;
}

/* ------------------------------------------------------------------------------------- */
/* Solving                                                                                */
/* ------------------------------------------------------------------------------------- */

/* A symmetry of the square together with a renaming of the tiles that turns `goal` into
 * the standard goal (blank last), so that the pattern databases, built for that goal
 * alone, serve any goal with the blank in a corner (Korf's goal has it top left).
 * Flipping rows and columns keeps adjacency, hence solution lengths. */
typedef struct canonical_form {
    int to_canonical[TILES_MAX_CELLS]; /* cell -> cell */
    int from_canonical[TILES_MAX_CELLS];
    uint8_t rename[TILES_MAX_CELLS]; /* tile -> tile */
} canonical_form;

static void canonical_form_init(canonical_form *form, const tiles_board *goal)
{
    memset(form, 0, sizeof *form);
    int width = goal->width, cells = board_cells(goal);
    int blank = tiles_blank_cell(goal), row = blank / width, column = blank % width;
    bool corner = (row == 0 || row == width - 1) && (column == 0 || column == width - 1);
    bool flip_rows = corner && row == 0, flip_columns = corner && column == 0;
    for (int c = 0; c < cells; c++) {
        int r = c / width, k = c % width;
        int image = (flip_rows ? width - 1 - r : r) * width + (flip_columns ? width - 1 - k : k);
        form->to_canonical[c] = image;
        form->from_canonical[image] = c;
    }
    for (int tile = 0; tile < cells; tile++) form->rename[tile] = (uint8_t)tile;
    if (!corner) return;
    for (int c = 0; c < cells; c++)
        form->rename[goal->cell[c]] = (uint8_t)((form->to_canonical[c] + 1) % cells);
}

static void canonical_board(const canonical_form *form, const tiles_board *in, tiles_board *out)
{
    *out = *in;
    for (int c = 0; c < board_cells(in); c++)
        out->cell[form->to_canonical[c]] = form->rename[in->cell[c]];
}

int tiles_lower_bound(const tiles_board *board, const tiles_board *goal, const tiles_pdb *pdb)
{
    tiles_board standard, start, target;
    if (!goal) {
        tiles_goal(board->width, TILES_GOAL_BLANK_LAST, &standard);
        goal = &standard;
    }
    if (!tiles_boards_match(board, goal)) return 0;
    canonical_form form;
    canonical_form_init(&form, goal);
    canonical_board(&form, board, &start);
    canonical_board(&form, goal, &target);
    tiles_search *s = malloc(sizeof *s);
    if (!s) return 0;
    search_init(s, &start, &target, pdb);
    int h = bound_now(s);
    free(s);
    return h;
}

/* Writes the canonical solution's moves as the blank's moves on the original board. */
static bool moves_to_text(const canonical_form *form, const tiles_board *canonical_start,
                          const ida_move *path, int length, tiles_solution *solution)
{
    solution->moves = malloc((size_t)length + 1);
    if (!solution->moves) return false;
    int width = canonical_start->width;
    int blank = tiles_blank_cell(canonical_start);
    if (blank < 0) return false;
    for (int i = 0; i < length; i++) {
        int next = tiles_neighbor_cell(width, blank, (tiles_move)path[i]);
        if (next < 0) return false; /* not a path from this start: cannot happen */
        int from = form->from_canonical[blank], to = form->from_canonical[next];
        char letter = to == from - width   ? 'u'
                      : to == from + width ? 'd'
                      : to == from - 1     ? 'l'
                                           : 'r';
        solution->moves[i] = letter;
        blank = next;
    }
    solution->moves[length] = 0;
    solution->length = length;
    return true;
}

ida_status tiles_solve(const tiles_board *start, const tiles_board *goal, const tiles_pdb *pdb,
                       const ida_limits *limits, tiles_solution *solution)
{
    *solution = (tiles_solution){.status = IDA_UNSOLVABLE};
    tiles_board standard;
    if (!goal) {
        tiles_goal(start->width, TILES_GOAL_BLANK_LAST, &standard);
        goal = &standard;
    }
    double begin = ida_clock();
    if (!tiles_is_solvable(start, goal)) {
        solution->seconds = ida_clock() - begin;
        return solution->status;
    }
    canonical_form form;
    canonical_form_init(&form, goal);
    tiles_board canonical_start, canonical_goal;
    canonical_board(&form, start, &canonical_start);
    canonical_board(&form, goal, &canonical_goal);

    tiles_search *s = malloc(sizeof *s);
    if (!s) return solution->status = IDA_NO_MEMORY;
    search_init(s, &canonical_start, &canonical_goal, pdb);
    solution->heuristic = s->pdb ? "pattern databases" : "manhattan+linear conflicts";

    ida_domain domain = {
        .context = s,
        .max_moves = MOVE_COUNT,
        .root_bound = root_bound,
        .expand = expand,
        .make = make,
        .unmake = unmake,
        .is_goal = is_goal,
    };
    /* the history has room for TILES_MAX_SOLUTION moves; no optimal solution is longer */
    ida_limits bounded = limits ? *limits : (ida_limits){0};
    if (bounded.max_depth <= 0 || bounded.max_depth > TILES_MAX_SOLUTION)
        bounded.max_depth = TILES_MAX_SOLUTION;
    ida_result result;
    ida_search(&domain, &bounded, &result);
    solution->status = result.status;
    solution->nodes = result.nodes;
    if (result.status == IDA_SOLVED &&
        !moves_to_text(&form, &canonical_start, result.path, result.length, solution))
        solution->status = IDA_NO_MEMORY;
    ida_result_free(&result);
    free(s);
    solution->seconds = ida_clock() - begin;
    return solution->status;
}

void tiles_solution_free(tiles_solution *solution)
{
    free(solution->moves);
    solution->moves = NULL;
    solution->length = 0;
}
