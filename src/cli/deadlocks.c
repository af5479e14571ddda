/* deadlocks.c - `sokoban --deadlocks FILE --level N`: the level with its dead squares
 * marked by the rule that makes them dead, a legend, the counts, and whether the start
 * position is already dead. For players who want to see the traps, and for debugging. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/board.h"
#include "cli.h"
#include "rules/deadlock.h"
#include "level/utf8.h"

/* The map letter of each dead-square rule. */
static char rule_mark(deadlock_reason rule)
{
    switch (rule) {
    case DEADLOCK_CORNER:
        return 'x';
    case DEADLOCK_DEAD_WALL:
        return 'w';
    case DEADLOCK_UNREACHABLE:
        return 'u';
    default:
        return ' ';
    }
}

/* The character shown for one square: what stands there, else its dead-square mark. */
static char square_char(const board *board, const position *start, const deadlock_table *table,
                        int square)
{
    bool goal = board_is_goal(board, square);
    if (board_is_wall(board, square)) return '#';
    if (start->boxes[square]) return goal ? '*' : '$';
    if (start->player == square) return goal ? '+' : '@';
    if (goal) return '.';
    if (deadlock_square_is_dead(table, square))
        return rule_mark(deadlock_square_reason(table, square));
    return ' ';
}

static void print_map(const board *board, const position *start, const deadlock_table *table)
{
    char *row = malloc((size_t)board->width + 1);
    if (!row) return;
    for (int y = 0; y < board->height; y++) {
        int length = 0;
        for (int x = 0; x < board->width; x++) {
            row[x] = square_char(board, start, table, y * board->width + x);
            if (row[x] != ' ') length = x + 1;
        }
        row[length] = '\0';
        puts(row);
    }
    free(row);
}

/* One line on the start position: "not dead" as far as the checks know, or the reason
 * and the boxes (as column,row from 1) that make it dead. */
static void print_start_verdict(const board *board, const position *start,
                                const deadlock_table *table)
{
    deadlock_report report;
    if (!deadlock_check_position(table, board, start, -1, &report)) {
        puts("Start position: no deadlock found");
        return;
    }
    printf("Start position: dead (%s:", deadlock_reason_name(report.reason));
    for (int i = 0; i < report.box_count; i++)
        printf(" box at %d,%d", board_x(board, report.boxes[i]) + 1,
               board_y(board, report.boxes[i]) + 1);
    puts(")");
}

int cli_deadlocks(const cli_options *options)
{
    collection levels;
    if (!cli_load_collection(options, &levels)) return CLI_BAD_INPUT;
    const level *level = cli_pick_level(options, &levels);
    if (!level) {
        collection_free(&levels);
        return CLI_BAD_INPUT;
    }
    board board;
    position start;
    deadlock_table table;
    if (!board_from_level(level, &board, &start)) {
        fputs("sokoban: out of memory\n", stderr);
        collection_free(&levels);
        return CLI_BAD_INPUT;
    }
    if (!deadlock_table_init(&table, &board)) {
        fputs("sokoban: out of memory\n", stderr);
        deadlock_table_free(&table);
        board_free(&board);
        position_free(&start);
        collection_free(&levels);
        return CLI_BAD_INPUT;
    }

    /* the collection's name and the level's title as the screen shows them */
    utf8_write_shown(stdout, levels.name, strlen(levels.name));
    printf(", level %d", level->number);
    if (level->title[0]) {
        fputs(" (", stdout);
        utf8_write_shown(stdout, level->title, strlen(level->title));
        fputs(")", stdout);
    }
    printf(": %dx%d, %d box%s\n\n", board.width, board.height, start.box_count,
           start.box_count == 1 ? "" : "es");
    print_map(&board, &start, &table);
    const int *count = table.dead_count;
    printf("\nLegend: # wall  . goal  $ box  * box on goal  @ player\n"
           "        x corner  w dead wall  u unreachable square (a box there can never reach "
           "a goal)\n"
           "Dead squares: %d (corner %d, dead wall %d, unreachable %d)\n",
           count[DEADLOCK_CORNER] + count[DEADLOCK_DEAD_WALL] + count[DEADLOCK_UNREACHABLE],
           count[DEADLOCK_CORNER], count[DEADLOCK_DEAD_WALL], count[DEADLOCK_UNREACHABLE]);
    print_start_verdict(&board, &start, &table);

    deadlock_table_free(&table);
    board_free(&board);
    position_free(&start);
    collection_free(&levels);
    return CLI_OK;
}
