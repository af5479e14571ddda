/* tiles_board.c - the sliding-tile boards: reading, writing, goals, moves, parity. */
#include "tiles_board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char move_letters[TILES_MOVE_COUNT] = {'u', 'd', 'l', 'r'};

static int board_cells(const tiles_board *board)
{
    return board->width * board->width;
}

int tiles_blank_cell(const tiles_board *board)
{
    for (int c = 0; c < board_cells(board); c++)
        if (board->cell[c] == TILES_BLANK) return c;
    return -1;
}

bool tiles_parse(const char *text, tiles_board *board, char *error, size_t error_size)
{
    int values[TILES_MAX_CELLS + 1];
    int count = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') p++;
        int length = (int)(p - start);
        int value = 0;
        if (length == 1 && (*start == 'x' || *start == 'X')) {
            value = TILES_BLANK;
        } else {
            bool digits = length <= 3;
            for (const char *q = start; q < p && digits; q++) digits = *q >= '0' && *q <= '9';
            if (!digits) {
                snprintf(error, error_size,
                         "'%.*s' is not a tile (numbers from 1, and x or 0 for the blank)",
                         length > 20 ? 20 : length, start);
                return false;
            }
            for (const char *q = start; q < p; q++) value = value * 10 + (*q - '0');
        }
        if (count == TILES_MAX_CELLS) {
            snprintf(error, error_size, "too many tiles: want 9 (3x3) or 16 (4x4)");
            return false;
        }
        values[count++] = value;
    }
    int width = count == 9 ? 3 : count == 16 ? 4 : 0;
    if (!width) {
        snprintf(error, error_size, "%d tiles given: want 9 (3x3) or 16 (4x4)", count);
        return false;
    }
    /* With the right count, a tile out of range or repeated means another is missing:
     * name both. */
    int seen[TILES_MAX_CELLS] = {0};
    for (int i = 0; i < count; i++)
        if (values[i] < count) seen[values[i]]++;
    int missing = -1;
    for (int tile = count - 1; tile >= 0; tile--)
        if (!seen[tile]) missing = tile;
    char missing_text[40] = "";
    if (missing == TILES_BLANK)
        snprintf(missing_text, sizeof missing_text, " and the blank is missing");
    else if (missing > 0)
        snprintf(missing_text, sizeof missing_text, " and tile %d is missing", missing);
    for (int i = 0; i < count; i++) {
        if (values[i] >= count) {
            snprintf(error, error_size, "tile %d is out of range (a %dx%d board has tiles 1..%d)%s",
                     values[i], width, width, count - 1, missing_text);
            return false;
        }
        if (seen[values[i]] > 1) {
            if (values[i] == TILES_BLANK)
                snprintf(error, error_size, "more than one blank (x or 0)%s", missing_text);
            else
                snprintf(error, error_size, "tile %d appears twice%s", values[i], missing_text);
            return false;
        }
    }
    board->width = width;
    memset(board->cell, 0, sizeof board->cell);
    for (int i = 0; i < count; i++) board->cell[i] = (uint8_t)values[i];
    return true;
}

void tiles_format(const tiles_board *board, char *text, size_t text_size)
{
    size_t used = 0;
    if (text_size) text[0] = 0;
    for (int c = 0; c < board_cells(board) && used < text_size; c++) {
        int n;
        if (board->cell[c] == TILES_BLANK)
            n = snprintf(text + used, text_size - used, "%sx", c ? " " : "");
        else
            n = snprintf(text + used, text_size - used, "%s%d", c ? " " : "", board->cell[c]);
        if (n < 0) return;
        used += (size_t)n;
    }
}

void tiles_goal(int width, tiles_goal_kind kind, tiles_board *goal)
{
    int cells = width * width;
    goal->width = width;
    memset(goal->cell, 0, sizeof goal->cell);
    for (int c = 0; c < cells; c++)
        goal->cell[c] = (uint8_t)(kind == TILES_GOAL_BLANK_FIRST ? c : (c + 1) % cells);
}

int tiles_neighbor_cell(int width, int cell, tiles_move move)
{
    int row = cell / width, column = cell % width;
    switch (move) {
    case TILES_UP:
        return row > 0 ? cell - width : -1;
    case TILES_DOWN:
        return row < width - 1 ? cell + width : -1;
    case TILES_LEFT:
        return column > 0 ? cell - 1 : -1;
    case TILES_RIGHT:
        return column < width - 1 ? cell + 1 : -1;
    case TILES_MOVE_COUNT:
        break;
    }
    return -1;
}

bool tiles_apply(tiles_board *board, const char *moves)
{
    int blank = tiles_blank_cell(board);
    if (blank < 0) return false;
    for (const char *m = moves; *m; m++) {
        const char *letter = memchr(move_letters, *m, TILES_MOVE_COUNT);
        if (!letter) return false;
        int next = tiles_neighbor_cell(board->width, blank, (tiles_move)(letter - move_letters));
        if (next < 0) return false;
        board->cell[blank] = board->cell[next];
        board->cell[next] = TILES_BLANK;
        blank = next;
    }
    return true;
}

bool tiles_boards_match(const tiles_board *a, const tiles_board *b)
{
    if (a->width != b->width || a->width < TILES_MIN_WIDTH || a->width > TILES_MAX_WIDTH)
        return false;
    int cells = board_cells(a);
    int seen_a[TILES_MAX_CELLS] = {0}, seen_b[TILES_MAX_CELLS] = {0};
    for (int c = 0; c < cells; c++) {
        if (a->cell[c] >= cells || b->cell[c] >= cells) return false;
        if (seen_a[a->cell[c]]++ || seen_b[b->cell[c]]++) return false;
    }
    return true;
}

/* Solvability by parity (Johnson & Story 1879). Every move swaps the blank with a tile: it
 * flips the parity of the permutation that takes the start to the goal (the blank counted
 * as a tile) and changes the blank's Manhattan distance to its goal cell by one. So the
 * two parities agree in every position reachable from the goal, and the classic theorem
 * says the converse holds too. For the standard goal this is the familiar rule: inversion
 * count even on odd widths; inversions plus the blank's row from the bottom odd on even
 * widths. */
bool tiles_is_solvable(const tiles_board *start, const tiles_board *goal)
{
    if (!tiles_boards_match(start, goal)) return false;
    int cells = board_cells(start), width = start->width;
    int goal_cell[TILES_MAX_CELLS] = {0};
    for (int c = 0; c < cells; c++) goal_cell[goal->cell[c]] = c;
    bool visited[TILES_MAX_CELLS] = {false};
    int cycles = 0;
    for (int c = 0; c < cells; c++) {
        if (visited[c]) continue;
        cycles++;
        for (int d = c; !visited[d]; d = goal_cell[start->cell[d]]) visited[d] = true;
    }
    int permutation_parity = (cells - cycles) % 2;
    int from = tiles_blank_cell(start), to = goal_cell[TILES_BLANK];
    int distance = abs(from / width - to / width) + abs(from % width - to % width);
    return permutation_parity == distance % 2;
}
