/* test_play_property.c - the play layer (src/tui/play.c, with the snapshots and the replay)
 * against the progress database, driven by random actions and killed with SIGKILL at random
 * (issue 45's property test).
 *
 * A child process plays: random keys (steps, undo and redo by step and by push, restart,
 * redo to the end), walks, boxes moved with the mouse (one move of several steps), hints
 * shown and followed, the solver's solutions replayed (step
 * by step, back, to the end, stopped), a solution typed by the player himself, snapshots
 * saved and restored, levels changed. SOKOBAN_PROPERTY_TRACE=1 prints each action. After
 * each action it sends what the player was shown (the level, the game's history and how many
 * of its steps are in effect, whether it is solved) and waits; the parent either lets it go
 * on or kills it with SIGKILL there. A model beside the game, kept by the parent across the
 * lives, knows which steps of each level's history the solver or a hint made.
 *
 * After every kill the parent opens the database and checks the two promises:
 *   - nothing acknowledged is lost: each level's unfinished game (moves and redo steps, and
 *     which of them were played as one move) is the one last shown, and a level solved is
 *     recorded solved or assisted; a resumed game or a restored snapshot undoes as one
 *     what was played as one;
 *   - nothing is the player's own that the solver made: a level recorded solved (or with a
 *     best of origin own) was solved, in the model, with none of the solver's or a hint's
 *     steps in effect.
 * and the next life resumes the level from the database (play_open_level), as the game does.
 *
 * Seeded: SOKOBAN_PROPERTY_SEED (default 45) picks every action and every kill; a failure
 * prints the seed and the life, so `SOKOBAN_PROPERTY_SEED=N test_play_property` replays it.
 * Counted, not timed: SOKOBAN_PROPERTY_LIVES (default LIVES) lives, so a run covers the same
 * actions and kills on any machine, fast or slow, with or without sanitizers. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "rules/lurd.h"
#include "solver/solver.h"
#include "tui/play.h"
#include "tui/snapshots.h"

#include "scratch.h"

enum { LEVELS = 2, MAX_HISTORY = 160, MAX_SNAPSHOTS = 8 };

/* The lives of a run by default: 1,274 actions with seed 45; 6.8 s of wall time in `meson
 * test -C build play_property` (2.1 s of CPU) on 2 cores loaded by other work, 21 s under
 * AddressSanitizer and UBSan (`/usr/bin/time build-asan/tests/test_play_property`, 8 s of
 * CPU), 2026-12-06 on 599f6cd. A bound of 8 s ran 153 to 326 lives, as the machine allowed,
 * and some 60 under the sanitizers. */
enum { LIVES = 150 };

static const char levels_text[] = "; Two\n"
                                  "#######\n"
                                  "#.  $ #\n"
                                  "#.  $ #\n"
                                  "#  @  #\n"
                                  "#######\n"
                                  "\n"
                                  "; Rows\n"
                                  "########\n"
                                  "#@ $  .#\n"
                                  "#  $  .#\n"
                                  "########\n";

/* What the model knows of one level: the history shown, which of its steps were helped. */
typedef struct level_model {
    char history[MAX_HISTORY + 1]; /* LURD, moves then redo */
    int moves;
    bool solved_now;            /* the position shown is solved */
    char helped[MAX_HISTORY];   /* 1: the solver's or a hint's step */
    char joined[MAX_HISTORY];   /* 1: played as one move with the step before */
    bool ever_solved, ever_own; /* solved at all; solved with no helped step in effect */
} level_model;

typedef struct snapshot_model {
    char name[16];
    char helped[MAX_HISTORY];
    char joined[MAX_HISTORY];
    int length;
} snapshot_model;

/* What a child sends after each action: the whole model (small). */
typedef struct model {
    int level;
    level_model levels[LEVELS];
    snapshot_model snapshots[LEVELS][MAX_SNAPSHOTS];
    int snapshot_count[LEVELS];
    int action;
    char violation[400]; /* what the child saw go wrong as it happened, or "" */
    bool helped_in_game; /* the game in play holds a helped step: a kill here is worth more */
} model;

static char directory[64], level_path[128];
static unsigned long seed;

/* ---------------------------------------------------------------- the child: playing */

/* A solution from the position in play (the optimal mode: the same answer every run), or
 * false. */
static bool solve_here(const play *p, solver_result *result)
{
    solver_options options = {
        .mode = SOLVER_OPTIMAL, .max_nodes = 20000, .memory_bytes = (size_t)8 << 20, .threads = 1};
    memset(result, 0, sizeof *result);
    return solver_solve(&p->game.board, &p->game.position, &options, result) == SOLVER_SOLVED &&
           result->moves > 0;
}

/* Shows the first push of the solution from here as the hint, as assist.c does. */
static void show_hint(play *p)
{
    solver_result result;
    if (!solve_here(p, &result)) {
        solver_result_free(&result);
        return;
    }
    const board *b = &p->game.board;
    position pos;
    if (position_copy(&pos, &p->game.position, b)) {
        for (int i = 0; i < result.moves; i++) {
            direction d = result.steps[i].direction;
            int stand = pos.player;
            step_result step = board_step(b, &pos, d);
            if (step == STEP_BLOCKED) break;
            if (step == STEP_PUSHED) {
                p->hint = (play_hint){.shown = true,
                                      .box = board_neighbour(b, stand, d),
                                      .direction = d,
                                      .stand = stand,
                                      .mode = SOLVER_OPTIMAL,
                                      .moves_at = p->game.moves};
                break;
            }
        }
        position_free(&pos);
    }
    solver_result_free(&result);
}

/* Starts the solver's replay of a solution from here, as assist.c does. */
static void start_solver_replay(play *p)
{
    solver_result result;
    if (solve_here(p, &result) &&
        replay_start_steps(&p->replay, result.steps, result.moves, "the solver's solution"))
        p->replay_by_solver = true;
    solver_result_free(&result);
}

/* The model's level after the game changed: the steps from `first` on are new (the history
 * after them dropped), helped or not. */
static void note_new_steps(level_model *m, const play *p, int first, bool helped)
{
    for (int i = first; i < p->game.moves && i < MAX_HISTORY; i++) m->helped[i] = helped;
}

/* The model's level as the game shows it; a solve is noted, own when no helped step is in
 * effect, and one with a helped step must be told (and recorded) as assisted. */
static void observe(model *whole, level_model *m, const play *p)
{
    int length = p->game.length < MAX_HISTORY ? p->game.length : MAX_HISTORY;
    for (int i = 0; i < length; i++) {
        m->history[i] = direction_letter(p->game.history[i].direction, p->game.history[i].push);
        m->joined[i] = p->game.history[i].joined;
    }
    m->history[length] = 0;
    m->moves = p->game.moves;
    bool solved = game_is_solved(&p->game) && p->game.moves > 0;
    if (solved && !m->solved_now) {
        bool helped = false;
        for (int i = 0; i < p->game.moves; i++) helped |= m->helped[i] != 0;
        m->ever_solved = true;
        m->ever_own |= !helped;
        /* (a snapshot restored at a solved position records nothing, and says so) */
        if (helped && strstr(p->message, "Solved") && !strstr(p->message, "as assisted") &&
            !whole->violation[0])
            snprintf(whole->violation, sizeof whole->violation,
                     "level %d solved with the solver's or a hint's steps in effect, told as: "
                     "%.200s",
                     p->level_index + 1, p->message);
    }
    m->solved_now = solved;
}

static int pick(int n)
{
    return (int)((unsigned long)rand() % (unsigned long)n);
}

/* One random action on the play state; the model follows. */
static void act(play *p, model *m, snapshot_screen *s)
{
    level_model *l = &m->levels[m->level];
    int first = p->game.moves;
    bool hint_here = p->hint.shown && p->hint.moves_at == p->game.moves;
    int action = pick(22);
    m->action = action;
    if (p->game.length >= MAX_HISTORY - 40 && action < 6) action = 7; /* keep it short */
    if (p->replay.active && action < 12) {
        /* the replay goes on (one step, back, the end) or the key takes over */
        int how = pick(4);
        if (how == 0) {
            play_replay_steps(p, true);
            note_new_steps(l, p, first, p->replay_by_solver);
        } else if (how == 1) {
            play_replay_back(p);
        } else if (how == 2) {
            play_replay_finish(p);
            note_new_steps(l, p, first, p->replay_by_solver);
        } else {
            replay_stop(&p->replay);
        }
        observe(m, l, p);
        return;
    }
    replay_stop(&p->replay);
    switch (action) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
        play_step(p, (direction)pick(4));
        note_new_steps(l, p, first, hint_here);
        break;
    case 6:
        play_undo(p);
        break;
    case 7:
        if (pick(2))
            play_undo_push(p);
        else
            play_restart(p);
        break;
    case 8:
        play_redo(p);
        break;
    case 9:
        if (pick(2))
            play_redo_push(p);
        else
            play_redo_all(p);
        break;
    case 10:
        play_walk_to(p, pick(p->game.board.width * p->game.board.height));
        note_new_steps(l, p, first, hint_here);
        break;
    case 11:
        if (hint_here) {
            play_push_hint(p);
            note_new_steps(l, p, first, true);
        } else {
            show_hint(p);
        }
        break;
    case 12:
    case 13:
        start_solver_replay(p);
        break;
    case 14: {
        if (m->snapshot_count[m->level] >= MAX_SNAPSHOTS) break;
        snapshot_model *sm = &m->snapshots[m->level][m->snapshot_count[m->level]];
        snapshots_start_naming(s, p);
        snprintf(sm->name, sizeof sm->name, "s%d", m->snapshot_count[m->level]);
        for (const char *c = sm->name; *c; c++) snapshots_naming_key(s, p, *c);
        snapshots_naming_key(s, p, '\n');
        memcpy(sm->helped, l->helped, sizeof sm->helped);
        memcpy(sm->joined, l->joined, sizeof sm->joined);
        sm->length = p->game.length;
        m->snapshot_count[m->level]++;
        break;
    }
    case 15: {
        /* restore a snapshot, picked from the model: the list is newest first, and two saved
         * in the same second stand in the order the clock gives them */
        if (!m->snapshot_count[m->level] || !snapshots_open(s, p)) break;
        const snapshot_model *sm = &m->snapshots[m->level][pick(m->snapshot_count[m->level])];
        size_t length = strlen(sm->name);
        s->selected = -1;
        for (int i = 0; i < s->count; i++) {
            const char *name = s->items[i].name; /* "s3", or "s3 (assisted)" */
            if (strncmp(name, sm->name, length) == 0 && (!name[length] || name[length] == ' '))
                s->selected = i;
        }
        if (s->selected < 0) fail_msg("seed %lu: snapshot '%s' is not in the list", seed, sm->name);
        /* (y when it asks whether to restore over moves in play) */
        if (snapshots_key(s, p, '\n') && s->asking) snapshots_key(s, p, 'y');
        memcpy(l->helped, sm->helped, sizeof l->helped);
        for (int i = 0; i < sm->length && i < p->game.length; i++)
            if (p->game.history[i].joined != sm->joined[i] && !m->violation[0])
                snprintf(m->violation, sizeof m->violation,
                         "snapshot %s restored with step %d %s the one before", sm->name, i,
                         sm->joined[i] ? "apart from" : "joined to");
        break;
    }
    case 16:
        if (!play_go(p, pick(2) ? 1 : -1, false)) fail_msg("out of memory");
        m->level = p->level_index;
        break;
    case 17: {
        /* the player types a solution from here himself, key by key (his own steps) */
        solver_result result;
        if (solve_here(p, &result))
            for (int i = 0; i < result.moves; i++) {
                int at = p->game.moves;
                bool hinted = p->hint.shown && p->hint.moves_at == p->game.moves;
                play_step(p, result.steps[i].direction);
                note_new_steps(l, p, at, hinted);
            }
        solver_result_free(&result);
        break;
    }
    case 18: {
        /* a box moved with the mouse: a box picked, a square clicked (mostly one marked, now
         * and then any: no way there) */
        const board *b = &p->game.board;
        int box = -1, target = pick(b->size);
        for (int tries = 0; tries < 50 && box < 0; tries++) {
            int square = pick(b->size);
            if (p->game.position.boxes[square]) box = square;
        }
        if (box >= 0 && play_select_box(p, box)) {
            int marked = 0;
            for (int i = 0; i < b->size; i++) marked += p->selection.reach[i] != 0;
            if (marked > 0 && pick(4) > 0)
                for (int i = 0, left = pick(marked); i < b->size; i++)
                    if (p->selection.reach[i] && left-- == 0) target = i;
            play_move_box(p, box, target);
            note_new_steps(l, p, first, hint_here);
        }
        break;
    }
    default:
        play_step(p, (direction)pick(4));
        note_new_steps(l, p, first, hint_here);
        break;
    }
    observe(m, &m->levels[m->level], p);
    if (getenv("SOKOBAN_PROPERTY_TRACE"))
        fprintf(stderr, "action %2d: level %d, moves %d of %d, solver_from %d, hint_from %d: %s\n",
                action, m->level + 1, p->game.moves, p->game.length,
                p->solver_from == PLAY_NO_SOLVER_STEP ? -1 : p->solver_from,
                p->hint_from == PLAY_NO_SOLVER_STEP ? -1 : p->hint_from, p->message);
}

/* Opens the collection and the progress, as the game does. */
static void open_play(play *p)
{
    memset(p, 0, sizeof *p);
    replay_init(&p->replay);
    level_error error;
    p->collections = calloc(1, sizeof *p->collections);
    assert_non_null(p->collections);
    if (!collection_load(level_path, &p->collections[0], &error)) fail_msg("%s", error.message);
    p->collection_count = 1;
    char message[1100];
    p->progress = progress_open(directory, message, sizeof message);
    assert_non_null(p->progress);
}

static void close_play(play *p)
{
    play_close_level(p);
    progress_close(p->progress);
    collection_free(&p->collections[0]);
    free(p->collections);
    replay_stop(&p->replay);
}

/* A child's life: resume the level, act, tell, wait; until killed. */
static void live(model *m, int to_parent, int from_parent, unsigned life_seed)
{
    srand(life_seed);
    play p;
    open_play(&p);
    if (!play_open_level(&p, 0, m->level)) _exit(3);
    if (getenv("SOKOBAN_PROPERTY_TRACE"))
        fprintf(stderr, "life: level %d resumed, moves %d of %d, solver_from %d, hint_from %d\n",
                m->level + 1, p.game.moves, p.game.length,
                p.solver_from == PLAY_NO_SOLVER_STEP ? -1 : p.solver_from,
                p.hint_from == PLAY_NO_SOLVER_STEP ? -1 : p.hint_from);
    /* what was played as one move is one move again */
    const level_model *before = &m->levels[m->level];
    for (int i = 0; i < p.game.length && i < MAX_HISTORY && !before->solved_now; i++)
        if (p.game.history[i].joined != before->joined[i] && !m->violation[0])
            snprintf(m->violation, sizeof m->violation,
                     "level %d resumed with step %d %s the one before", m->level + 1, i,
                     before->joined[i] ? "apart from" : "joined to");
    observe(m, &m->levels[m->level], &p);
    snapshot_screen s;
    memset(&s, 0, sizeof s);
    for (;;) {
        act(&p, m, &s);
        /* from the model, not from play.c's marks: the kills must not depend on the code
         * under test */
        m->helped_in_game = false;
        for (int i = 0; i < p.game.length && i < MAX_HISTORY; i++)
            m->helped_in_game |= m->levels[m->level].helped[i] != 0;
        if (write(to_parent, m, sizeof *m) != (ssize_t)sizeof *m) _exit(4);
        char go;
        if (read(from_parent, &go, 1) != 1) _exit(5);
        if (go == 'q') break;
    }
    snapshots_close(&s);
    close_play(&p);
    _exit(0);
}

/* ---------------------------------------------------------------- the parent: checking */

/* The history of a model's level split as the progress keeps it: the moves, the redo. */
static void expected_game(const level_model *l, char *moves, char *redo)
{
    moves[0] = redo[0] = 0;
    size_t length = strlen(l->history);
    if (length == 0 || l->solved_now) return;
    memcpy(moves, l->history, (size_t)l->moves);
    moves[l->moves] = 0;
    strcpy(redo, l->history + l->moves);
}

/* The steps of a model's level played as one move, as the progress keeps them
 * ("FIRST-LAST,..."; "" when none or when nothing is kept). */
static void expected_groups(const level_model *l, char *out, size_t size)
{
    out[0] = 0;
    int length = (int)strlen(l->history);
    if (length == 0 || l->solved_now) return;
    size_t used = 0;
    for (int first = 0, last; first < length; first = last + 1) {
        for (last = first; last + 1 < length && l->joined[last + 1];) last++;
        if (last > first)
            used +=
                (size_t)snprintf(out + used, size - used, "%s%d-%d", used ? "," : "", first, last);
    }
}

static void check_database(const model *m, int life)
{
    play p;
    open_play(&p);
    for (int i = 0; i < LEVELS; i++) {
        const level_model *l = &m->levels[i];
        const level *lv = &p.collections[0].levels[i];
        progress_record record;
        bool found = progress_read_level(p.progress, lv, &record);
        char moves[MAX_HISTORY + 1], redo[MAX_HISTORY + 1];
        expected_game(l, moves, redo);
        const char *kept = found && record.unfinished ? record.unfinished : "";
        const char *kept_redo = found && record.unfinished_redo ? record.unfinished_redo : "";
        /* the progress keeps LURD with run lengths normalised away: compare as steps */
        lurd_steps a, b;
        lurd_error e;
        char *kept_plain = NULL, *kept_redo_plain = NULL;
        if (*kept && lurd_parse(kept, &a, &e)) {
            kept_plain = lurd_format(a.steps, a.count, false);
            lurd_steps_free(&a);
        }
        if (*kept_redo && lurd_parse(kept_redo, &b, &e)) {
            kept_redo_plain = lurd_format(b.steps, b.count, false);
            lurd_steps_free(&b);
        }
        if (strcmp(kept_plain ? kept_plain : "", moves) != 0 ||
            strcmp(kept_redo_plain ? kept_redo_plain : "", redo) != 0)
            fail_msg("seed %lu, life %d, level %d: shown moves '%s' redo '%s', kept '%s' '%s'",
                     seed, life, i + 1, moves, redo, kept, kept_redo);
        char groups[MAX_HISTORY * 8];
        expected_groups(l, groups, sizeof groups);
        const char *kept_groups = found && record.unfinished_groups ? record.unfinished_groups : "";
        if (strcmp(kept_groups, groups) != 0)
            fail_msg("seed %lu, life %d, level %d: shown moves as one '%s', kept '%s'", seed, life,
                     i + 1, groups, kept_groups);
        if (l->ever_solved && !(record.solved || record.assisted))
            fail_msg("seed %lu, life %d, level %d: solved, and not recorded", seed, life, i + 1);
        bool own_best = (record.best_moves.lurd && record.best_moves.origin == PROGRESS_OWN) ||
                        (record.best_pushes.lurd && record.best_pushes.origin == PROGRESS_OWN);
        if ((record.solved || own_best) && !l->ever_own)
            fail_msg("seed %lu, life %d, level %d: recorded as the player's own, but every "
                     "solve had the solver's or a hint's steps in effect",
                     seed, life, i + 1);
        free(kept_plain);
        free(kept_redo_plain);
        progress_record_free(&record);
    }
    close_play(&p);
}

/* Reads the whole of what a child sent after an action (a model is larger than a pipe's
 * atomic write: it may come in pieces); false when the child sent no more. */
static bool read_model(int from_child, model *out)
{
    model got;
    size_t have = 0;
    while (have < sizeof got) {
        ssize_t n = read(from_child, (char *)&got + have, sizeof got - have);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        have += (size_t)n;
    }
    *out = got;
    return true;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void test_killed_games_keep_what_was_shown_and_never_own_the_solvers_steps(void **state)
{
    (void)state;
    const char *seed_text = getenv("SOKOBAN_PROPERTY_SEED");
    const char *lives_text = getenv("SOKOBAN_PROPERTY_LIVES");
    seed = seed_text ? strtoul(seed_text, NULL, 10) : 45;
    int wanted = lives_text ? atoi(lives_text) : LIVES;
    srand((unsigned)seed);
    char *folder = scratch_make("sokoban-property");
    assert_true(strlen(folder) < sizeof directory);
    strcpy(directory, folder);
    snprintf(level_path, sizeof level_path, "%s/levels.xsb", directory);
    FILE *f = fopen(level_path, "w");
    assert_non_null(f);
    fputs(levels_text, f);
    fclose(f);

    model m;
    memset(&m, 0, sizeof m);
    double start = now_seconds();
    int lives = 0, actions = 0;
    while (lives < wanted) {
        int down[2], up[2];
        assert_int_equal(pipe(down), 0);
        assert_int_equal(pipe(up), 0);
        unsigned life_seed = (unsigned)rand();
        int length = 1 + rand() % 40; /* actions before the kill */
        fflush(NULL);
        pid_t child = fork();
        assert_true(child >= 0);
        if (child == 0) {
            close(down[1]);
            close(up[0]);
            live(&m, up[1], down[0], life_seed);
        }
        close(down[0]);
        close(up[1]);
        model acknowledged = m;
        for (int i = 0; i < length; i++) {
            if (!read_model(up[0], &acknowledged)) break;
            actions++;
            if (acknowledged.violation[0]) {
                kill(child, SIGKILL);
                fail_msg("seed %lu, life %d: %s", seed, lives, acknowledged.violation);
            }
            /* a game with the solver's or a hint's steps in it is killed more often */
            if (acknowledged.helped_in_game && rand() % 4 == 0) break;
            if (i + 1 < length && write(down[1], "g", 1) != 1) break;
        }
        /* killed where it waits: everything it told was acknowledged */
        kill(child, SIGKILL);
        int status;
        waitpid(child, &status, 0);
        close(down[1]);
        close(up[0]);
        if (!WIFSIGNALED(status))
            fail_msg("seed %lu, life %d: the child ended by itself (status %d)", seed, lives,
                     WEXITSTATUS(status));
        m = acknowledged;
        check_database(&m, lives);
        lives++;
    }
    printf("seed %lu: %d lives, %d actions, %.1f s; levels solved: %d %d, own: %d %d\n", seed,
           lives, actions, now_seconds() - start, m.levels[0].ever_solved, m.levels[1].ever_solved,
           m.levels[0].ever_own, m.levels[1].ever_own);
    scratch_remove(folder);
}

/* A saved game whose groups text is damaged (a database another program wrote) resumes
 * with all its moves and redo steps, the groups before the damage joined and nothing after
 * it; a group past the steps joins up to the last step. */
static void test_a_damaged_groups_text_still_resumes_the_game(void **state)
{
    (void)state;
    static const struct {
        const char *groups, *joined; /* joined: one character a step, 'j' joined */
    } cases[] = {
        {"0-1,1-3", ".j...."},                /* overlapping: the second ignored */
        {"0-1,5-3", ".j...."},                /* reversed */
        {"2-99999999999999999999", "...jjj"}, /* past the steps, and past a long */
        {"99999999999999999999-1", "......"},
        {"1-3,,4-5", "..jj.."},
    };
    char *folder = scratch_make("sokoban-groups");
    assert_true(strlen(folder) < sizeof directory);
    strcpy(directory, folder);
    snprintf(level_path, sizeof level_path, "%s/levels.xsb", directory);
    scratch_write(folder, "levels.xsb", levels_text);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        play p;
        open_play(&p);
        progress_key key = progress_level_key(&p.collections[0].levels[0]);
        assert_true(progress_set_game_helped(p.progress, key, "llrr", "ll", cases[c].groups,
                                             PROGRESS_NO_HELP, PROGRESS_NO_HELP));
        assert_true(play_open_level(&p, 0, 0));
        assert_int_equal(p.game.moves, 4);
        assert_int_equal(p.game.length, 6);
        char joined[8] = "";
        for (int i = 0; i < p.game.length; i++) joined[i] = p.game.history[i].joined ? 'j' : '.';
        assert_string_equal(joined, cases[c].joined);
        close_play(&p);
    }
    scratch_remove(folder);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_damaged_groups_text_still_resumes_the_game),
        cmocka_unit_test(test_killed_games_keep_what_was_shown_and_never_own_the_solvers_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
