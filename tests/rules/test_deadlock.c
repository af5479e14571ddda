/* test_deadlock.c - the deadlock analysis: dead squares by rule, blocks and frozen boxes on
 * hand-drawn positions, and soundness against an exhaustive search on many positions. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aside.h"
#include "rules/board.h"
#include "rules/deadlock.h"
#include "deadlock_search.h"
#include "level/level.h"
#include "rules/lurd.h"

#ifndef TEST_LEVELS_DIR
#define TEST_LEVELS_DIR "levels"
#endif
/* The reference solutions shipped with CavePacker (XSokoban, Microban), when installed. */
#define SOLUTIONS_DIR "/usr/share/games/cavepacker/maps"

/* The oracle searches the pushes off the Microban solutions on levels with at most this many
 * boxes; fewer under the thread sanitizer, which slows the single-threaded search tenfold. */
#if defined(__SANITIZE_THREAD__)
#define ORACLE_MAX_BOXES 2
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ORACLE_MAX_BOXES 2
#endif
#endif
#ifndef ORACLE_MAX_BOXES
#define ORACLE_MAX_BOXES 3
#endif

/* ------------------------------------------------------------------------------------ */
/* Fixtures                                                                              */
/* ------------------------------------------------------------------------------------ */

typedef struct fixture {
    collection levels;
    board board;
    position start;
    deadlock_table table;
} fixture;

/* Parses one level of XSB text and builds its board and dead-square table. */
static void load(fixture *f, const char *xsb)
{
    level_error error;
    if (!collection_parse(xsb, strlen(xsb), "test", &f->levels, &error))
        fail_msg("level does not parse: %s", error.message);
    assert_true(board_from_level(&f->levels.levels[0], &f->board, &f->start));
    assert_true(deadlock_table_init(&f->table, &f->board));
}

static void unload(fixture *f)
{
    deadlock_table_free(&f->table);
    board_free(&f->board);
    position_free(&f->start);
    collection_free(&f->levels);
}

static int square_at(const board *board, int x, int y)
{
    return y * board->width + x;
}

/* ------------------------------------------------------------------------------------ */
/* Dead squares                                                                          */
/* ------------------------------------------------------------------------------------ */

static void test_corner_without_goal_is_dead_corner(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#####\n"
             "#   #\n"
             "# $.#\n"
             "#@  #\n"
             "#####\n");
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 1, 1)), DEADLOCK_CORNER);
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 3, 3)), DEADLOCK_CORNER);
    unload(&f);
}

static void test_corner_with_goal_is_live(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#####\n"
             "#.  #\n"
             "# $ #\n"
             "#@  #\n"
             "#####\n");
    assert_false(deadlock_square_is_dead(&f.table, square_at(&f.board, 1, 1)));
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 1, 1)), DEADLOCK_NONE);
    unload(&f);
}

static void test_wall_stretch_without_goal_is_dead_wall(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#######\n"
             "#     #\n"
             "#  $  #\n"
             "#  @ .#\n"
             "#######\n");
    for (int x = 2; x <= 4; x++)
        assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, x, 1)),
                         DEADLOCK_DEAD_WALL);
    for (int y = 2; y <= 2; y++)
        assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 1, y)),
                         DEADLOCK_DEAD_WALL);
    unload(&f);
}

static void test_wall_stretch_with_goal_is_live(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#######\n"
             "#    .#\n"
             "#  $  #\n"
             "#  @  #\n"
             "#######\n");
    for (int x = 2; x <= 5; x++)
        assert_false(deadlock_square_is_dead(&f.table, square_at(&f.board, x, 1)));
    /* The other walls have no goal: they stay dead. */
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 2, 3)),
                     DEADLOCK_DEAD_WALL);
    unload(&f);
}

static void test_wall_with_an_opening_is_not_a_dead_wall(void **state)
{
    (void)state;
    fixture f;
    /* Row 3 has a wall below except at x=4, where a box can be pushed up by the player
     * standing in the pocket; the pocket is reachable only when no box blocks it. */
    load(&f, "#######\n"
             "#.  @ #\n"
             "#  $  #\n"
             "#     #\n"
             "#### ##\n"
             "#######\n");
    /* A box on (4,3) with the player in the pocket below can go up to the goal. */
    assert_false(deadlock_square_is_dead(&f.table, square_at(&f.board, 4, 3)));
    /* Beside it the player can never get below the box: dead, but not by the wall rule. */
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 2, 3)),
                     DEADLOCK_UNREACHABLE);
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 3, 3)),
                     DEADLOCK_UNREACHABLE);
    unload(&f);
}

static void test_unreachable_square_has_no_solution(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#######\n"
             "#.  @ #\n"
             "#     #\n"
             "#  $  #\n"
             "#### ##\n"
             "#######\n");
    assert_int_equal(deadlock_square_reason(&f.table, square_at(&f.board, 3, 3)),
                     DEADLOCK_UNREACHABLE);
    assert_int_equal(deadlock_search_solve(&f.board, &f.start, 100000), DEADLOCK_SEARCH_UNSOLVABLE);
    unload(&f);
}

static void test_goals_and_walls_are_never_dead(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#####\n"
             "#.$ #\n"
             "#  @#\n"
             "#####\n");
    for (int square = 0; square < f.board.size; square++)
        if (board_is_goal(&f.board, square) || board_is_wall(&f.board, square))
            assert_false(deadlock_square_is_dead(&f.table, square));
    unload(&f);
}

static void test_reason_names_are_words(void **state)
{
    (void)state;
    assert_string_equal(deadlock_reason_name(DEADLOCK_CORNER), "corner");
    assert_string_equal(deadlock_reason_name(DEADLOCK_DEAD_WALL), "dead wall");
    assert_string_equal(deadlock_reason_name(DEADLOCK_UNREACHABLE), "unreachable square");
    assert_string_equal(deadlock_reason_name(DEADLOCK_BLOCK_2X2), "2x2 block");
    assert_string_equal(deadlock_reason_name(DEADLOCK_FROZEN), "frozen boxes");
}

/* ------------------------------------------------------------------------------------ */
/* Positions: a table of hand-drawn cases                                                */
/* ------------------------------------------------------------------------------------ */

/* One position with the expected verdict and boxes ("x,y x,y ...", 0-based). The exhaustive
 * search confirms each: dead cases have no solution, alive ones (drawn so) have one. */
typedef struct position_case {
    const char *name;
    const char *xsb;
    deadlock_reason reason;
    const char *boxes;
} position_case;

static const position_case position_cases[] = {
    {"box_in_corner_off_goal_is_dead",
     "#####\n"
     "#$  #\n"
     "#  .#\n"
     "# @ #\n"
     "#####\n",
     DEADLOCK_CORNER, "1,1"},
    {"box_in_corner_on_goal_is_alive",
     "#####\n"
     "#*  #\n"
     "#   #\n"
     "# @ #\n"
     "#####\n",
     DEADLOCK_NONE, ""},
    {"box_on_wall_without_goal_is_dead",
     "#######\n"
     "#  $  #\n"
     "#     #\n"
     "#  @ .#\n"
     "#######\n",
     DEADLOCK_DEAD_WALL, "3,1"},
    {"box_on_wall_with_goal_on_the_stretch_is_alive",
     "#######\n"
     "#  $ .#\n"
     "#     #\n"
     "#  @  #\n"
     "#######\n",
     DEADLOCK_NONE, ""},
    {"four_boxes_in_a_square_one_off_goal_is_dead",
     "#######\n"
     "#     #\n"
     "# $$  #\n"
     "# $*  #\n"
     "#  ...#\n"
     "# @   #\n"
     "#######\n",
     DEADLOCK_BLOCK_2X2, "2,2 3,2 2,3 3,3"},
    {"four_boxes_in_a_square_all_on_goals_is_alive",
     "######\n"
     "#    #\n"
     "# ** #\n"
     "# ** #\n"
     "# @  #\n"
     "######\n",
     DEADLOCK_NONE, ""},
    {"two_boxes_side_by_side_on_a_wall_off_goal_is_dead",
     "########\n"
     "#.$$  .#\n"
     "#      #\n"
     "#  @   #\n"
     "########\n",
     DEADLOCK_BLOCK_2X2, "2,1 3,1"},
    {"two_boxes_side_by_side_on_a_wall_on_goals_is_alive",
     "######\n"
     "# ** #\n"
     "#    #\n"
     "# @  #\n"
     "######\n",
     DEADLOCK_NONE, ""},
    {"box_on_goal_in_corner_freezes_its_neighbour_off_goal",
     "######\n"
     "#*$ .#\n"
     "#    #\n"
     "# @  #\n"
     "######\n",
     DEADLOCK_BLOCK_2X2, "1,1 2,1"},
    /* Pushed into its corner goal, the top box froze; it holds the box below it (which a
     * wall holds sideways) off its goal. */
    {"box_frozen_on_its_goal_holds_a_box_off_goal",
     "######\n"
     "##*  #\n"
     "# $# #\n"
     "#  . #\n"
     "# @  #\n"
     "######\n",
     DEADLOCK_FROZEN, "2,1 2,2"},
    {"frozen_chain_off_goal_is_dead",
     "#######\n"
     "# #   #\n"
     "# $$  #\n"
     "#  $# #\n"
     "#...  #\n"
     "#   @ #\n"
     "#######\n",
     DEADLOCK_FROZEN, "2,2 3,2 3,3"},
    {"frozen_chain_on_goals_is_alive",
     "#######\n"
     "# #   #\n"
     "# **  #\n"
     "#  *# #\n"
     "#     #\n"
     "#   @ #\n"
     "#######\n",
     DEADLOCK_NONE, ""},
    {"frozen_chain_held_by_a_box_that_can_move_is_alive",
     "#######\n"
     "# #   #\n"
     "# $$  #\n"
     "#  $  #\n"
     "#...  #\n"
     "#   @ #\n"
     "#######\n",
     DEADLOCK_NONE, ""},
    /* The box can neither go sideways (both squares beside it are dead: the player could
     * never get behind a box there) nor up (the box below it, on its goal, is held by
     * walls). */
    {"box_between_dead_squares_on_a_frozen_box_is_dead",
     "#######\n"
     "###.###\n"
     "# @$  #\n"
     "###*###\n"
     "#######\n",
     DEADLOCK_FROZEN, "3,2 3,3"},
    /* The trap from the MSAMA solver write-up: boxes ring the goals and seem to hold each
     * other, but the player inside the ring can push a box out and open it. */
    {"ring_of_boxes_opened_from_inside_is_alive",
     "#######\n"
     "#     #\n"
     "# *** #\n"
     "# *@$.#\n"
     "# *** #\n"
     "#     #\n"
     "#######\n",
     DEADLOCK_NONE, ""},
};

/* Parses "x,y x,y ..." into squares; returns the count. */
static int parse_boxes(const board *board, const char *text, int *squares)
{
    int count = 0, x, y, used;
    while (sscanf(text, " %d,%d%n", &x, &y, &used) == 2) {
        squares[count++] = square_at(board, x, y);
        text += used;
    }
    return count;
}

static void test_position_case(void **state)
{
    const position_case *c = *state;
    fixture f;
    load(&f, c->xsb);
    deadlock_report report;
    bool dead = deadlock_check_position(&f.table, &f.board, &f.start, -1, &report);
    if (report.reason != c->reason)
        fail_msg("%s: expected %s, got %s", c->name, deadlock_reason_name(c->reason),
                 deadlock_reason_name(report.reason));
    assert_int_equal(dead, c->reason != DEADLOCK_NONE);

    int expected[DEADLOCK_REPORT_MAX_BOXES];
    int count = parse_boxes(&f.board, c->boxes, expected);
    assert_int_equal(report.box_count, count);
    for (int i = 0; i < count; i++) assert_int_equal(report.boxes[i], expected[i]);

    /* The solver's per-push check agrees: dead whichever involved box was the last pushed,
     * never dead when the position is alive. */
    for (int square = 0; square < f.board.size; square++) {
        if (!f.start.boxes[square]) continue;
        bool push_dead = deadlock_check_push(&f.table, &f.board, f.start.boxes, square);
        if (!dead) assert_false(push_dead);
    }
    for (int i = 0; i < count; i++)
        assert_true(deadlock_check_push(&f.table, &f.board, f.start.boxes, expected[i]));
    /* The oracle: dead cases have no solution, alive cases (drawn so) have one. */
    deadlock_search_result truth = deadlock_search_solve(&f.board, &f.start, 1000000);
    assert_int_equal(truth, dead ? DEADLOCK_SEARCH_UNSOLVABLE : DEADLOCK_SEARCH_SOLVABLE);
    unload(&f);
}

static void test_last_pushed_box_is_reported_first(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#######\n"
             "#$   $#\n"
             "#  .  #\n"
             "#  .@ #\n"
             "#######\n");
    deadlock_report report;
    int right = square_at(&f.board, 5, 1);
    assert_true(deadlock_check_position(&f.table, &f.board, &f.start, right, &report));
    assert_int_equal(report.reason, DEADLOCK_CORNER);
    assert_int_equal(report.box_count, 1);
    assert_int_equal(report.boxes[0], right);
    unload(&f);
}

static void test_report_may_be_null(void **state)
{
    (void)state;
    fixture f;
    load(&f, "#####\n"
             "#$  #\n"
             "#  .#\n"
             "# @ #\n"
             "#####\n");
    assert_true(deadlock_check_position(&f.table, &f.board, &f.start, -1, NULL));
    unload(&f);
}

/* ------------------------------------------------------------------------------------ */
/* Soundness                                                                             */
/* ------------------------------------------------------------------------------------ */

/* A small deterministic generator (xorshift), so failures repeat. */
static uint32_t next_random(uint32_t *seed)
{
    uint32_t x = *seed;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *seed = x;
}

/* Small rooms with some walls inside: corners, dead walls, pockets and tunnels. */
static const char *const random_rooms[] = {
    "#######\n"
    "#.    #\n"
    "# #$# #\n"
    "#  .  #\n"
    "## $ ##\n"
    "#  @  #\n"
    "#######\n",
    "########\n"
    "#   #  #\n"
    "# $  . #\n"
    "#.## $ #\n"
    "#   @ .#\n"
    "# $#   #\n"
    "########\n",
    "#######\n"
    "#. .@ #\n"
    "#  $  #\n"
    "#   $ #\n"
    "#### ##\n"
    "#######\n",
    "######\n"
    "#    #\n"
    "# .$ #\n"
    "#  $ #\n"
    "#.@  #\n"
    "######\n",
    " #####\n"
    "##   #\n"
    "#. $ ##\n"
    "# #$  #\n"
    "#  @ .#\n"
    "#######\n",
    "#######\n"
    "#. .  #\n"
    "# $$$ #\n"
    "#  @$ #\n"
    "#.  . #\n"
    "#######\n",
    "########\n"
    "#  .   #\n"
    "# $$#$ #\n"
    "#. @$ .#\n"
    "#   .  #\n"
    "########\n",
};

typedef struct soundness_counts {
    int positions;                        /* positions checked */
    int dead;                             /* called dead by the module */
    int by_reason[DEADLOCK_REASON_COUNT]; /* the dead ones by the full check's reason */
    int proven;                           /* of the dead, proven unsolvable by the oracle */
    int unknown;                          /* of the dead, too big for the oracle */
} soundness_counts;

/* Checks one position both ways (full check, and per-push check on each box). When the
 * module says dead, the oracle must not find a solution. The per-push check never finds
 * more than the full check, which looks around every box. */
static void check_soundness(fixture *f, const position *p, int oracle_limit,
                            soundness_counts *counts)
{
    deadlock_report report;
    bool dead = deadlock_check_position(&f->table, &f->board, p, -1, &report);
    for (int square = 0; square < f->board.size; square++) {
        if (p->boxes[square] && deadlock_check_push(&f->table, &f->board, p->boxes, square) &&
            !dead) {
            char *text = position_to_text(&f->board, p);
            fail_msg("the per-push check on (%d,%d) finds more than the full check:\n%s",
                     board_x(&f->board, square), board_y(&f->board, square), text ? text : "?");
        }
    }
    counts->positions++;
    if (!dead) return;
    counts->dead++;
    counts->by_reason[report.reason]++;
    deadlock_search_result truth = deadlock_search_solve(&f->board, p, oracle_limit);
    if (truth == DEADLOCK_SEARCH_SOLVABLE) {
        char *text = position_to_text(&f->board, p);
        fail_msg("called dead (%s) but solvable:\n%s", deadlock_reason_name(report.reason),
                 text ? text : "?");
    }
    if (truth == DEADLOCK_SEARCH_UNSOLVABLE)
        counts->proven++;
    else
        counts->unknown++;
}

static void print_counts(const char *what, const soundness_counts *counts)
{
    print_message("%s: %d positions, %d called dead (corner %d, dead wall %d, unreachable %d, "
                  "2x2 %d, frozen %d), %d proven by the oracle, %d too big for it\n",
                  what, counts->positions, counts->dead, counts->by_reason[DEADLOCK_CORNER],
                  counts->by_reason[DEADLOCK_DEAD_WALL], counts->by_reason[DEADLOCK_UNREACHABLE],
                  counts->by_reason[DEADLOCK_BLOCK_2X2], counts->by_reason[DEADLOCK_FROZEN],
                  counts->proven, counts->unknown);
}

/* Random boxes and player in small rooms. Half the positions take their boxes from the live
 * squares only, so that the blocks and frozen boxes get tested, not just dead squares. */
static void test_random_positions_called_dead_have_no_solution(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    soundness_counts counts = {0};
    for (size_t r = 0; r < sizeof random_rooms / sizeof *random_rooms; r++) {
        fixture f;
        load(&f, random_rooms[r]);
        int floor[LEVEL_MAX_SIDE * LEVEL_MAX_SIDE], floor_count = 0;
        int live[LEVEL_MAX_SIDE * LEVEL_MAX_SIDE], live_count = 0;
        for (int square = 0; square < f.board.size; square++) {
            if (!board_is_inside(&f.board, square) || board_is_wall(&f.board, square)) continue;
            floor[floor_count++] = square;
            if (!deadlock_square_is_dead(&f.table, square)) live[live_count++] = square;
        }
        assert_true(live_count >= f.board.goal_count);
        position p;
        assert_true(position_init(&p, &f.board));
        for (int trial = 0; trial < 1500; trial++) {
            const int *squares = trial % 2 ? live : floor;
            int count = trial % 2 ? live_count : floor_count;
            memset(p.boxes, 0, (size_t)f.board.size);
            p.box_count = 0;
            while (p.box_count < f.board.goal_count) {
                int square = squares[next_random(&seed) % (uint32_t)count];
                if (!p.boxes[square]) {
                    p.boxes[square] = 1;
                    p.box_count++;
                }
            }
            do p.player = floor[next_random(&seed) % (uint32_t)floor_count];
            while (p.boxes[p.player]);
            check_soundness(&f, &p, 2000000, &counts);
        }
        position_free(&p);
        unload(&f);
    }
    print_counts("random positions", &counts);
    /* The test must bite: every reason seen, and every dead verdict proven. */
    for (int reason = DEADLOCK_CORNER; reason < DEADLOCK_REASON_COUNT; reason++)
        assert_true(counts.by_reason[reason] > 0);
    assert_int_equal(counts.unknown, 0);
}

/* Reads a whole file into a string to free(), or NULL. */
static char *read_text(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    char *text = NULL;
    size_t length = 0, capacity = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) {
        if (length + got + 1 > capacity) {
            capacity = 2 * (length + got + 1);
            char *bigger = realloc(text, capacity);
            if (!bigger) break;
            text = bigger;
        }
        memcpy(text + length, chunk, got);
        length += got;
    }
    fclose(file);
    if (text) text[length] = '\0';
    return text;
}

/* Replays the reference solution of `lv` from `solution_path`. After every push checks that
 * neither check calls the position dead; when `off_path_limit` > 0, also tries every other
 * push from each position on the path and checks the module's "dead" against the oracle.
 * Returns the number of pushes replayed, or -1 when the solution file is missing. */
static int check_solution_path(const level *lv, const char *solution_path, int off_path_limit,
                               soundness_counts *off_path)
{
    char *text = read_text(solution_path);
    if (!text) return -1;
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(text, &steps, &error)) fail_msg("%s: %s", solution_path, error.message);
    free(text);

    fixture f;
    assert_true(board_from_level(lv, &f.board, &f.start));
    assert_true(deadlock_table_init(&f.table, &f.board));
    position p, trial;
    assert_true(position_copy(&p, &f.start, &f.board));
    assert_true(position_copy(&trial, &f.start, &f.board));
    int pushes = 0;
    assert_false(deadlock_check_position(&f.table, &f.board, &p, -1, NULL));
    for (int i = 0; i < steps.count; i++) {
        direction d = steps.steps[i].direction;
        if (off_path_limit > 0 && board_try_step(&f.board, &p, d) == STEP_PUSHED) {
            /* Every push possible here other than the solution's own. */
            uint8_t *reach = malloc((size_t)f.board.size);
            assert_non_null(reach);
            board_reachable(&f.board, &p, reach);
            for (int box = 0; box < f.board.size; box++) {
                if (!p.boxes[box]) continue;
                for (int e = 0; e < DIRECTION_COUNT; e++) {
                    int from = box - f.board.delta[e], to = box + f.board.delta[e];
                    if (!reach[from] || board_is_wall(&f.board, to) || p.boxes[to]) continue;
                    if (box == p.player + f.board.delta[d] && (direction)e == d) continue;
                    memcpy(trial.boxes, p.boxes, (size_t)f.board.size);
                    trial.boxes[box] = 0;
                    trial.boxes[to] = 1;
                    trial.player = box;
                    check_soundness(&f, &trial, off_path_limit, off_path);
                }
            }
            free(reach);
        }
        step_result result = board_step(&f.board, &p, d);
        if (result == STEP_BLOCKED) fail_msg("%s: step %d is blocked", solution_path, i + 1);
        if (result != STEP_PUSHED) continue;
        pushes++;
        int box = p.player + f.board.delta[d];
        deadlock_report report;
        if (deadlock_check_push(&f.table, &f.board, p.boxes, box) ||
            deadlock_check_position(&f.table, &f.board, &p, -1, &report)) {
            char *map = position_to_text(&f.board, &p);
            fail_msg("%s: push %d called dead (%s) on the solution path:\n%s", solution_path,
                     pushes, deadlock_reason_name(report.reason), map ? map : "?");
        }
    }
    assert_true(position_is_solved(&p, &f.board));
    position_free(&p);
    position_free(&trial);
    lurd_steps_free(&steps);
    deadlock_table_free(&f.table);
    board_free(&f.board);
    position_free(&f.start);
    return pushes;
}

static void test_xsokoban_solution_paths_are_never_dead(void **state)
{
    (void)state;
    collection levels;
    level_error error;
    if (!collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &levels, &error))
        fail_msg("%s", error.message);
    int checked = 0, pushes = 0;
    for (int i = 0; i < levels.count; i++) {
        char path[512];
        snprintf(path, sizeof path, SOLUTIONS_DIR "/xsokoban%04d.sol", i + 1);
        soundness_counts unused = {0};
        int n = check_solution_path(&levels.levels[i], path, 0, &unused);
        if (n < 0) continue;
        checked++;
        pushes += n;
    }
    collection_free(&levels);
    if (checked == 0) skip();
    print_message("xsokoban: %d solutions, %d pushes, none called dead\n", checked, pushes);
}

static int count_boxes(const level *lv)
{
    int count = 0;
    for (int i = 0; i < lv->width * lv->height; i++)
        count += lv->squares[i] == LEVEL_BOX || lv->squares[i] == LEVEL_BOX_ON_GOAL;
    return count;
}

/* Microban I and II: every position on the reference solutions is alive, and every other
 * push from them that the module calls dead is proven dead by the oracle. */
static void check_microban(const char *prefix, int count)
{
    int checked = 0, pushes = 0;
    soundness_counts off_path = {0};
    for (int i = 1; i <= count; i++) {
        char level_path[512], solution_path[512];
        snprintf(level_path, sizeof level_path, SOLUTIONS_DIR "/%s_%04d.sok", prefix, i);
        snprintf(solution_path, sizeof solution_path, SOLUTIONS_DIR "/%s_%04d.sol", prefix, i);
        collection levels;
        level_error error;
        if (!collection_load(level_path, &levels, &error)) continue;
        /* The oracle only on levels small enough to search through quickly; a deeper run:
         * DEADLOCK_ORACLE_BOXES=5 DEADLOCK_ORACLE_LIMIT=100000 (minutes). */
        const char *boxes_text = getenv("DEADLOCK_ORACLE_BOXES");
        const char *limit_text = getenv("DEADLOCK_ORACLE_LIMIT");
        int max_boxes = boxes_text ? atoi(boxes_text) : ORACLE_MAX_BOXES;
        int oracle_limit = limit_text ? atoi(limit_text) : 10000;
        int n = check_solution_path(&levels.levels[0], solution_path,
                                    count_boxes(&levels.levels[0]) <= max_boxes ? oracle_limit : 0,
                                    &off_path);
        collection_free(&levels);
        if (n < 0) continue;
        checked++;
        pushes += n;
    }
    if (checked == 0) skip();
    print_message("%s: %d solutions, %d pushes, none called dead\n", prefix, checked, pushes);
    print_counts("  pushes off the solution paths", &off_path);
    assert_true(off_path.proven > 0);
}

static void test_microban1_solution_paths_are_never_dead(void **state)
{
    (void)state;
    check_microban("microban01", 155);
}

static void test_microban2_solution_paths_are_never_dead(void **state)
{
    (void)state;
    check_microban("microban02", 135);
}

/* ------------------------------------------------------------------------------------ */
/* Threads                                                                               */
/* ------------------------------------------------------------------------------------ */

/* Every box of every position along a push sequence on one shared table. */
typedef struct thread_work {
    const deadlock_table *table;
    const board *board;
    uint8_t *const *positions; /* box arrays, read only */
    int position_count;
    long dead; /* out: how many checks said dead */
} thread_work;

static void *check_all_boxes(void *argument)
{
    thread_work *work = argument;
    work->dead = 0;
    for (int round = 0; round < 20; round++)
        for (int i = 0; i < work->position_count; i++)
            for (int square = 0; square < work->board->size; square++)
                if (work->positions[i][square])
                    work->dead +=
                        deadlock_check_push(work->table, work->board, work->positions[i], square);
    return NULL;
}

/* The solver thread and the game share one read-only table: two threads checking the same
 * positions at once get the answers one thread gets (and the thread sanitizer stays quiet). */
static void test_check_push_is_thread_safe_with_a_shared_table(void **state)
{
    (void)state;
    fixture f;
    load(&f, random_rooms[5]);
    enum { POSITIONS = 200 };
    uint8_t *positions[POSITIONS];
    uint32_t seed = 99;
    for (int i = 0; i < POSITIONS; i++) {
        positions[i] = calloc((size_t)f.board.size, 1);
        assert_non_null(positions[i]);
        for (int placed = 0; placed < f.board.goal_count;) {
            int square = (int)(next_random(&seed) % (uint32_t)f.board.size);
            if (board_is_inside(&f.board, square) && !board_is_wall(&f.board, square) &&
                !positions[i][square]) {
                positions[i][square] = 1;
                placed++;
            }
        }
    }
    thread_work alone = {&f.table, &f.board, positions, POSITIONS, 0};
    check_all_boxes(&alone);
    thread_work first = alone, second = alone;
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, check_all_boxes, &first), 0);
    check_all_boxes(&second);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_true(alone.dead > 0);
    assert_int_equal(first.dead, alone.dead);
    assert_int_equal(second.dead, alone.dead);
    for (int i = 0; i < POSITIONS; i++) free(positions[i]);
    unload(&f);
}

/* ------------------------------------------------------------------------------------ */

int main(void)
{
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_corner_without_goal_is_dead_corner),
        cmocka_unit_test(test_corner_with_goal_is_live),
        cmocka_unit_test(test_wall_stretch_without_goal_is_dead_wall),
        cmocka_unit_test(test_wall_stretch_with_goal_is_live),
        cmocka_unit_test(test_wall_with_an_opening_is_not_a_dead_wall),
        cmocka_unit_test(test_unreachable_square_has_no_solution),
        cmocka_unit_test(test_goals_and_walls_are_never_dead),
        cmocka_unit_test(test_reason_names_are_words),
        cmocka_unit_test(test_last_pushed_box_is_reported_first),
        cmocka_unit_test(test_report_may_be_null),
        cmocka_unit_test(test_xsokoban_solution_paths_are_never_dead),
        cmocka_unit_test(test_check_push_is_thread_safe_with_a_shared_table),
    };
    /* The three longest (a second of CPU each), each in a process beside the rest: cores the
     * suite's other tests leave free take them. */
    const struct CMUnitTest random_positions[] = {
        cmocka_unit_test(test_random_positions_called_dead_have_no_solution)};
    const struct CMUnitTest microban1[] = {
        cmocka_unit_test(test_microban1_solution_paths_are_never_dead)};
    const struct CMUnitTest microban2[] = {
        cmocka_unit_test(test_microban2_solution_paths_are_never_dead)};
    pid_t aside[] = {aside_run("random_positions", random_positions, 1),
                     aside_run("microban1", microban1, 1), aside_run("microban2", microban2, 1)};
    enum { CASES = sizeof position_cases / sizeof *position_cases };
    enum { FIXED = sizeof fixed / sizeof *fixed };
    struct CMUnitTest tests[CASES + FIXED];
    for (int i = 0; i < CASES; i++) {
        tests[i] = (struct CMUnitTest){.name = position_cases[i].name,
                                       .test_func = test_position_case,
                                       .initial_state = (void *)&position_cases[i]};
    }
    memcpy(tests + CASES, fixed, sizeof fixed);
    int failed = cmocka_run_group_tests_name("deadlock", tests, NULL, NULL);
    for (size_t i = 0; i < sizeof aside / sizeof *aside; i++) failed += aside_failures(aside[i]);
    return failed;
}
