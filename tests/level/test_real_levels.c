/* test_real_levels.c - the foundation on real data: the 90 XSokoban reference solutions
 * shipped by Debian's cavepacker-data verify against our levels/xsokoban.xsb; every
 * Microban level of that package parses, round-trips and is solved by its solution; the
 * bundled tutorial's solutions verify and are optimal (checked by breadth-first search). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "rules/board.h"
#include "rules/game.h"
#include "level/level.h"
#include "level_round_trip.h"
#include "rules/lurd.h"

#ifndef MAPS_DIR
#define MAPS_DIR "/usr/share/games/cavepacker/maps"
#endif

/* ---------------------------------------------------------------- helpers */

/* Fails with the way to install the package when it is missing. */
static void require_cavepacker_data(void)
{
    struct stat info;
    if (stat(MAPS_DIR "/xsokoban0001.sol", &info) != 0 ||
        stat(MAPS_DIR "/microban01_0001.sok", &info) != 0)
        fail_msg("cavepacker-data is not installed (" MAPS_DIR " is missing): the real-data "
                 "tests need it; install it with `apt-get install cavepacker-data` (the "
                 "README's test command does)");
}

/* The whole file as a string to free(); fails the test when it cannot be read. */
static char *read_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) fail_msg("cannot open %s", path);
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    size_t length = fread(text, 1, (size_t)size, file);
    fclose(file);
    text[length] = '\0';
    return text;
}

static void load(const char *path, collection *c)
{
    level_error error;
    if (!collection_load(path, c, &error)) fail_msg("%s", error.message);
}

/* Replays `solution` on `lv`; fails unless it is legal and solves the level. Returns the
 * moves and pushes through the pointers (either may be NULL). */
static void assert_solves(const level *lv, const char *solution, const char *what, int *moves,
                          int *pushes)
{
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(solution, &steps, &error)) fail_msg("%s: %s", what, error.message);
    game g;
    assert_true(game_init(&g, lv));
    if (!lurd_apply(&g, &steps, &error)) fail_msg("%s: illegal %s", what, error.message);
    if (!game_is_solved(&g)) fail_msg("%s: not solved after %d moves", what, g.moves);
    if (moves) *moves = g.moves;
    if (pushes) *pushes = g.pushes;
    game_free(&g);
    lurd_steps_free(&steps);
}


/* ---------------------------------------------------------------- XSokoban */

static void test_every_xsokoban_reference_solution_verifies(void **state)
{
    (void)state;
    require_cavepacker_data();
    collection c;
    load(TEST_LEVELS_DIR "/xsokoban.xsb", &c);
    assert_int_equal(c.count, 90);
    for (int n = 1; n <= 90; n++) {
        char path[256], what[64];
        snprintf(path, sizeof path, MAPS_DIR "/xsokoban%04d.sol", n);
        snprintf(what, sizeof what, "xsokoban level %d", n);
        char *solution = read_file(path);
        assert_solves(&c.levels[n - 1], solution, what, NULL, NULL);
        free(solution);
    }
    collection_free(&c);
}

/* Our bundled file holds the package's levels, square for square. */
static void test_bundled_xsokoban_levels_match_the_package(void **state)
{
    (void)state;
    require_cavepacker_data();
    collection bundled;
    load(TEST_LEVELS_DIR "/xsokoban.xsb", &bundled);
    for (int n = 1; n <= 90; n++) {
        char path[256];
        snprintf(path, sizeof path, MAPS_DIR "/xsokoban%04d.sok", n);
        collection single;
        load(path, &single);
        assert_int_equal(single.count, 1);
        const level *a = &bundled.levels[n - 1], *b = &single.levels[0];
        assert_int_equal(a->width, b->width);
        assert_int_equal(a->height, b->height);
        assert_memory_equal(a->squares, b->squares, (size_t)a->width * (size_t)a->height);
        collection_free(&single);
    }
    collection_free(&bundled);
}

/* ---------------------------------------------------------------- Microban */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks every MAPS_DIR/PREFIX*.sok: it parses to one level, round-trips, and the .sol
 * beside it solves it. Returns the number of levels. */
static int check_collection(const char *prefix)
{
    DIR *dir = opendir(MAPS_DIR);
    assert_non_null(dir);
    char *names[1024];
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        size_t length = strlen(entry->d_name);
        if (strncmp(entry->d_name, prefix, strlen(prefix)) == 0 && length > 4 &&
            strcmp(entry->d_name + length - 4, ".sok") == 0) {
            assert_true(count < 1024);
            names[count++] = strdup(entry->d_name);
        }
    }
    closedir(dir);
    qsort(names, (size_t)count, sizeof names[0], compare_names);
    for (int i = 0; i < count; i++) {
        char path[512];
        snprintf(path, sizeof path, MAPS_DIR "/%s", names[i]);
        collection c;
        load(path, &c);
        assert_int_equal(c.count, 1);
        assert_level_round_trips(&c.levels[0], names[i]);
        size_t length = strlen(path);
        strcpy(path + length - 4, ".sol");
        char *solution = read_file(path);
        assert_solves(&c.levels[0], solution, names[i], NULL, NULL);
        free(solution);
        collection_free(&c);
        free(names[i]);
    }
    return count;
}

static void test_every_microban_1_level_parses_round_trips_and_is_solved(void **state)
{
    (void)state;
    require_cavepacker_data();
    assert_int_equal(check_collection("microban01_"), 155);
}

static void test_every_microban_2_level_parses_round_trips_and_is_solved(void **state)
{
    (void)state;
    require_cavepacker_data();
    assert_int_equal(check_collection("microban02_"), 135);
}

/* ---------------------------------------------------------------- the tutorial */

/* Solutions found by breadth-first search, with the fewest moves; each also has the fewest
 * pushes, except level 7's, where making room first costs two more pushes but saves two
 * moves: its fewest-push solution is the second string. */
static const struct {
    const char *fewest_moves;
    const char *fewest_pushes; /* NULL: the same solution */
} tutorial_solutions[] = {
    {"rRRR", NULL},
    {"uRdrUU", NULL},
    {"uRR", NULL},
    {"uRRR", NULL},
    {"rruLLLrrruLLL", NULL},
    {"urrdrrRRurDlllllulldRRRRRR", NULL},
    {"uuRlddlluuRRurrDLulD", "lluuRlddrrrruuullDRurD"},
    {"ldlUUUluRddRdrUUddrdrUULdlUrrUruL", NULL},
};
enum { TUTORIAL_LEVELS = 8 };

static int count_uppercase(const char *text)
{
    int n = 0;
    for (; *text; text++) n += *text >= 'A' && *text <= 'Z';
    return n;
}

/* ---- breadth-first search over positions, to check that the solutions are optimal ----
 * A state is the player's square and the box squares, packed into a fixed-size key; a
 * hash set of keys remembers the states seen. Fine for the tutorial's small levels. */

enum { KEY_BYTES = 32, MAX_KEY_SQUARES = (KEY_BYTES - 1) * 8 };

typedef struct state_key {
    uint8_t bytes[KEY_BYTES]; /* [0]: player square; then one bit per square: a box */
} state_key;

typedef struct state_set {
    state_key *keys;
    uint8_t *used;
    size_t capacity, count;
} state_set;

static uint64_t key_hash(const state_key *k)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (int i = 0; i < KEY_BYTES; i++) h = (h ^ k->bytes[i]) * 1099511628211u;
    return h;
}

static void set_init(state_set *s)
{
    s->capacity = 1 << 16;
    s->count = 0;
    s->keys = malloc(s->capacity * sizeof *s->keys);
    s->used = calloc(s->capacity, 1);
    assert_true(s->keys && s->used);
}

static void set_free(state_set *s)
{
    free(s->keys);
    free(s->used);
}

static bool set_insert(state_set *s, const state_key *k);

static void set_grow(state_set *s)
{
    state_set bigger = {.capacity = s->capacity * 2};
    bigger.keys = malloc(bigger.capacity * sizeof *bigger.keys);
    bigger.used = calloc(bigger.capacity, 1);
    assert_true(bigger.keys && bigger.used);
    for (size_t i = 0; i < s->capacity; i++)
        if (s->used[i]) set_insert(&bigger, &s->keys[i]);
    set_free(s);
    *s = bigger;
}

/* Adds the key; false when it was there already. */
static bool set_insert(state_set *s, const state_key *k)
{
    if (2 * (s->count + 1) > s->capacity) set_grow(s);
    size_t i = key_hash(k) & (s->capacity - 1);
    while (s->used[i]) {
        if (memcmp(&s->keys[i], k, sizeof *k) == 0) return false;
        i = (i + 1) & (s->capacity - 1);
    }
    s->used[i] = 1;
    s->keys[i] = *k;
    s->count++;
    return true;
}

static state_key key_of(const board *b, const position *p, int player)
{
    state_key k;
    memset(&k, 0, sizeof k);
    k.bytes[0] = (uint8_t)player;
    for (int s = 0; s < b->size; s++)
        if (p->boxes[s]) k.bytes[1 + s / 8] |= (uint8_t)(1 << (s % 8));
    return k;
}

static void position_of(const board *b, const state_key *k, position *p)
{
    p->player = k->bytes[0];
    for (int s = 0; s < b->size; s++) p->boxes[s] = (k->bytes[1 + s / 8] >> (s % 8)) & 1;
}

/* The player's square in a state of the push search: the first square of the region he
 * can walk to, so that positions differing only by a walk are one state. */
static int normal_player(const board *b, const position *p)
{
    uint8_t reach[MAX_KEY_SQUARES];
    board_reachable(b, p, reach);
    for (int s = 0; s < b->size; s++)
        if (reach[s]) return s;
    return p->player;
}

/* Fewest steps to a solved position. With `pushes_only`, a step is a push from anywhere
 * the player can walk to (walks are free), so the answer is the fewest pushes; otherwise
 * every move counts. Returns -1 when the level cannot be solved. */
static int fewest_steps(const level *lv, bool pushes_only)
{
    board b;
    position start, p;
    assert_true(board_from_level(lv, &b, &start));
    assert_true(b.size <= MAX_KEY_SQUARES);
    assert_true(position_init(&p, &b));
    state_set seen;
    set_init(&seen);
    size_t capacity = 1 << 16, head = 0, tail = 0;
    state_key *queue = malloc(capacity * sizeof *queue);
    int *depth = malloc(capacity * sizeof *depth);
    int start_player = pushes_only ? normal_player(&b, &start) : start.player;
    queue[tail] = key_of(&b, &start, start_player);
    depth[tail++] = 0;
    set_insert(&seen, &queue[0]);
    int answer = -1;
    uint8_t reach[MAX_KEY_SQUARES];
    while (head < tail && answer < 0) {
        state_key k = queue[head];
        int d = depth[head++];
        position_of(&b, &k, &p);
        if (position_is_solved(&p, &b)) {
            answer = d;
            break;
        }
        if (pushes_only) {
            board_reachable(&b, &p, reach);
        } else {
            memset(reach, 0, sizeof reach);
            reach[p.player] = 1;
        }
        for (int from = 0; from < b.size; from++) {
            if (!reach[from]) continue;
            for (int dir = 0; dir < DIRECTION_COUNT; dir++) {
                p.player = from;
                step_result r = board_step(&b, &p, (direction)dir);
                if (r == STEP_BLOCKED || (pushes_only && r != STEP_PUSHED)) {
                    if (r != STEP_BLOCKED) board_unstep(&b, &p, (direction)dir, r);
                    continue;
                }
                state_key next = key_of(&b, &p, pushes_only ? normal_player(&b, &p) : p.player);
                board_unstep(&b, &p, (direction)dir, r);
                if (!set_insert(&seen, &next)) continue;
                if (tail == capacity) {
                    capacity *= 2;
                    queue = realloc(queue, capacity * sizeof *queue);
                    depth = realloc(depth, capacity * sizeof *depth);
                    assert_true(queue && depth);
                }
                queue[tail] = next;
                depth[tail++] = d + 1;
            }
        }
    }
    free(queue);
    free(depth);
    set_free(&seen);
    position_free(&p);
    position_free(&start);
    board_free(&b);
    return answer;
}

static const char *fewest_pushes_solution(int i)
{
    return tutorial_solutions[i].fewest_pushes ? tutorial_solutions[i].fewest_pushes
                                               : tutorial_solutions[i].fewest_moves;
}

static void test_every_tutorial_solution_verifies(void **state)
{
    (void)state;
    collection c;
    load(TEST_LEVELS_DIR "/tutorial.xsb", &c);
    assert_int_equal(c.count, TUTORIAL_LEVELS);
    for (int i = 0; i < TUTORIAL_LEVELS; i++) {
        const char *solutions[2] = {tutorial_solutions[i].fewest_moves, fewest_pushes_solution(i)};
        for (int k = 0; k < 2; k++) {
            char what[64];
            snprintf(what, sizeof what, "tutorial level %d", i + 1);
            int moves, pushes;
            assert_solves(&c.levels[i], solutions[k], what, &moves, &pushes);
            assert_int_equal(moves, (int)strlen(solutions[k]));
            assert_int_equal(pushes, count_uppercase(solutions[k]));
        }
    }
    collection_free(&c);
}

static void test_tutorial_solutions_are_move_optimal(void **state)
{
    (void)state;
    collection c;
    load(TEST_LEVELS_DIR "/tutorial.xsb", &c);
    for (int i = 0; i < TUTORIAL_LEVELS; i++) {
        int best = fewest_steps(&c.levels[i], false);
        int moves = (int)strlen(tutorial_solutions[i].fewest_moves);
        if (best != moves)
            fail_msg("tutorial level %d: the fewest moves are %d, the solution has %d", i + 1, best,
                     moves);
    }
    collection_free(&c);
}

static void test_tutorial_solutions_are_push_optimal(void **state)
{
    (void)state;
    collection c;
    load(TEST_LEVELS_DIR "/tutorial.xsb", &c);
    for (int i = 0; i < TUTORIAL_LEVELS; i++) {
        int best = fewest_steps(&c.levels[i], true);
        int pushes = count_uppercase(fewest_pushes_solution(i));
        if (best != pushes)
            fail_msg("tutorial level %d: the fewest pushes are %d, the solution has %d", i + 1,
                     best, pushes);
    }
    collection_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_xsokoban_reference_solution_verifies),
        cmocka_unit_test(test_bundled_xsokoban_levels_match_the_package),
        cmocka_unit_test(test_every_microban_1_level_parses_round_trips_and_is_solved),
        cmocka_unit_test(test_every_microban_2_level_parses_round_trips_and_is_solved),
        cmocka_unit_test(test_every_tutorial_solution_verifies),
        cmocka_unit_test(test_tutorial_solutions_are_move_optimal),
        cmocka_unit_test(test_tutorial_solutions_are_push_optimal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
