/* tui.c - the terminal game: the start and the main loop (terminal.c: the terminal).
 *
 * The loop waits in poll() on the keyboard and on the worker's wake fd, with a timeout only
 * while something moves on its own (a replay, the spinner), so it never waits for the solver
 * and answers every key within one frame. The terminal is restored however the game ends:
 * q, any signal whose default action ends a program (signals.h: a flag the loop reads, then
 * the progress is saved and the exit status is 128 + the signal's number), a crash (restore
 * and die of the signal), or exit() from anywhere (atexit). A stop signal also wakes the
 * loop's poll() through a pipe, and the solver's thread blocks them. SIGWINCH (curses makes
 * it KEY_RESIZE) is blocked in every thread but for the loop's wait, ppoll() unblocking it:
 * one that came while the loop drew, or to another thread, found poll() asleep with no
 * timeout and the screen kept its old size until a key.
 *
 * The front-end's layers, each including only those below it:
 *   keys.c, replay.c  the key map; the animated replay of steps on a game
 *   play.c            the play state and its rules (levels, steps, hint and warning on show,
 *                     the message line, saved progress); knows nothing of drawing
 *   assist.c          the solver's help: the one place its answers reach the play state
 *   draw.c            the play and help screens: reads the state, never changes it
 *   mouse.c           the mouse: walking, a box picked and pushed where it is pointed
 *   levels.c          the level list screen
 *   editor.c          the level editor (its drawing in editor_draw.c, its solver editor_solve.c)
 *   start.c           what the game opens at its start (--collection, the last played)
 *   terminal.c        curses mode in, and the terminal put back however the game ends
 *   tui.c             this loop: dispatches keys and the worker's results */
#define _GNU_SOURCE
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "level/collection.h"
#include "assist.h"
#include "draw.h"
#include "editor.h"
#include "keys.h"
#include "collections.h"
#include "levels.h"
#include "mouse.h"
#include "play.h"
#include "signals.h"
#include "snapshots.h"
#include "start.h"
#include "statistics.h"
#include "terminal.h"

enum {
    DEFAULT_HINT_SECONDS = 10,
    DEFAULT_SOLVE_SECONDS = 30,
    DEFAULT_OPTIMIZE_SECONDS = 10,
    SPINNER_TICK_MS = 100,
};

/* The whole game: the play state, the solver's help, the view, the level list, the loop. */
typedef struct tui {
    const cli_options *options;
    play play;
    assist assist;
    view view;
    level_list list;
    collections_screen collections; /* the collection library */
    game_start start;               /* where the game starts, and a note about it */
    snapshot_screen snapshots;
    statistics_screen statistics;
    editor editor;
    mouse mouse; /* a box picked, a drag */
    bool quit;
    FILE *trace; /* SOKOBAN_TRACE: key and redraw timestamps, for bench/hint.sh */
} tui;

/* ---- Keys --------------------------------------------------------------------------- */

/* Keys while a replay runs: its own controls, Esc stops it, a menu or the help holds it, a
 * move or another command of the game takes over, and any other key says which keys work.
 * Returns true when the key was the replay's. */
static bool replay_key(tui *t, key_action action)
{
    switch (action) {
    case KEY_ACTION_PAUSE:
        replay_toggle_pause(&t->play.replay);
        return true;
    case KEY_ACTION_STEP:
        play_replay_steps(&t->play, true);
        return true;
    case KEY_ACTION_STEP_BACK:
        play_replay_back(&t->play);
        return true;
    case KEY_ACTION_TO_END:
        play_replay_finish(&t->play);
        return true;
    case KEY_ACTION_FASTER:
        replay_faster(&t->play.replay);
        return true;
    case KEY_ACTION_SLOWER:
        replay_slower(&t->play.replay);
        return true;
    case KEY_ACTION_ESCAPE:
        replay_stop(&t->play.replay);
        play_message(&t->play, PLAY_MESSAGE_INFO, "Replay stopped: the board is yours");
        return true;
    case KEY_ACTION_HELP:
    case KEY_ACTION_LEVEL_LIST:
    case KEY_ACTION_SNAPSHOTS:
    case KEY_ACTION_STATISTICS:
        return false; /* the screen that opens holds the replay (main_loop) */
    case KEY_ACTION_NONE:
        play_message(&t->play, PLAY_MESSAGE_INFO, "Replaying: %s", KEYS_REPLAY_TEXT);
        return true;
    default:
        /* Anything else takes over from where the replay stands. */
        replay_stop(&t->play.replay);
        return false;
    }
}

/* The message for a key the play screen does not know: which key lists them. */
static void unknown_key(tui *t, int key)
{
    char name[32];
    keys_name(key, name, sizeof name);
    play_message(&t->play, PLAY_MESSAGE_INFO, "Unknown key %s: ? shows the keys", name);
}

/* Goes to another level (play_go); out of memory ends the game. */
static void go(tui *t, int delta, bool unsolved_only)
{
    if (!play_go(&t->play, delta, unsolved_only)) t->quit = true;
}

/* The keys that move, undo and redo on the play screen; false for any other. */
static bool move_key(tui *t, key_action action)
{
    switch (action) {
    case KEY_ACTION_LEFT:
        play_step(&t->play, DIR_LEFT);
        return true;
    case KEY_ACTION_UP:
        play_step(&t->play, DIR_UP);
        return true;
    case KEY_ACTION_RIGHT:
        play_step(&t->play, DIR_RIGHT);
        return true;
    case KEY_ACTION_DOWN:
        play_step(&t->play, DIR_DOWN);
        return true;
    case KEY_ACTION_UNDO:
        play_undo(&t->play);
        return true;
    case KEY_ACTION_REDO:
        play_redo(&t->play);
        return true;
    case KEY_ACTION_UNDO_PUSH:
        play_undo_push(&t->play);
        return true;
    case KEY_ACTION_REDO_PUSH:
        play_redo_push(&t->play);
        return true;
    case KEY_ACTION_TO_START:
        if (t->play.game.moves == 0)
            play_message(&t->play, PLAY_MESSAGE_INFO, "Nothing to undo");
        else
            play_restart(&t->play);
        return true;
    case KEY_ACTION_TO_END:
        play_redo_all(&t->play);
        return true;
    case KEY_ACTION_RESTART:
        play_restart_or_ask(&t->play);
        return true;
    default:
        return false;
    }
}

/* Esc on the play screen: stops the solver, hides the hint, lets a picked box go; else puts
 * the message away, or says what it stops (a replay's Esc is replay_key()'s). */
static void escape_key(tui *t)
{
    if (assist_busy(&t->assist)) {
        assist_stop(&t->assist, &t->play, "Solver stopped");
    } else if (t->play.hint.shown) { /* and its message, which said H or Enter makes it */
        t->play.hint.shown = false;
        play_message(&t->play, PLAY_MESSAGE_INFO, "Hint hidden: H shows it again");
    } else if (t->play.selection.active) {
        play_drop_selection(&t->play);
        play_message(&t->play, PLAY_MESSAGE_INFO, "%s", "");
    } else if (t->play.message_kind == PLAY_MESSAGE_WARNING) {
        /* a lost position's warning stays true: Esc leaves it */
    } else if (t->play.message[0]) {
        play_message(&t->play, PLAY_MESSAGE_INFO, "%s", ""); /* Esc puts a message away */
    } else {
        play_message(&t->play, PLAY_MESSAGE_INFO,
                     "Nothing to stop: Esc stops a replay, H or S; q quits");
    }
}

/* The play screen's keys. */
static void play_key(tui *t, int key)
{
    key_action action = keys_action(key);
    if (play_restart_answer(&t->play, key)) return;
    if (t->snapshots.naming) {
        snapshots_naming_key(&t->snapshots, &t->play, key);
        return;
    }
    if (t->play.replay.active && replay_key(t, action)) return;
    /* With no room for the board, what is left: the level list, help, quit. */
    if (t->view.layout.too_small && action != KEY_ACTION_QUIT && action != KEY_ACTION_RESIZE &&
        action != KEY_ACTION_LEVEL_LIST && action != KEY_ACTION_HELP)
        return;

    if (move_key(t, action)) return;
    switch (action) {
    case KEY_ACTION_NEXT_LEVEL:
        go(t, +1, false);
        break;
    case KEY_ACTION_PREVIOUS_LEVEL:
        go(t, -1, false);
        break;
    case KEY_ACTION_NEXT_UNSOLVED:
        go(t, +1, true);
        break;
    case KEY_ACTION_PREVIOUS_UNSOLVED:
        go(t, -1, true);
        break;
    case KEY_ACTION_LEVEL_LIST:
        levels_open(&t->list, &t->play);
        t->view.screen = VIEW_SCREEN_LEVELS;
        break;
    case KEY_ACTION_HINT:
        assist_hint(&t->assist, &t->play);
        break;
    case KEY_ACTION_SOLVE:
        assist_solve(&t->assist, &t->play);
        break;
    case KEY_ACTION_REPLAY_BEST:
        assist_replay_best(&t->assist, &t->play);
        break;
    case KEY_ACTION_DEAD_SQUARES: {
        t->view.show_dead_squares = !t->view.show_dead_squares;
        int dead = 0;
        for (int i = 0; t->play.dead_ready && i < t->play.dead.size; i++)
            dead += deadlock_square_is_dead(&t->play.dead, i);
        play_message(&t->play, PLAY_MESSAGE_INFO, "%s",
                     !t->view.show_dead_squares ? "Dead squares hidden"
                     : t->play.dead_ready && dead == 0
                         ? "No dead squares in this level: a box can reach a goal from every square"
                         : "Dead squares shown: a box there is lost (D hides)");
        break;
    }
    case KEY_ACTION_HELP:
        t->view.screen = VIEW_SCREEN_HELP;
        t->view.help_top = 0;
        break;
    case KEY_ACTION_SNAPSHOT_SAVE:
        snapshots_start_naming(&t->snapshots, &t->play);
        break;
    case KEY_ACTION_SNAPSHOTS:
        if (snapshots_open(&t->snapshots, &t->play)) t->view.screen = VIEW_SCREEN_SNAPSHOTS;
        break;
    case KEY_ACTION_STATISTICS:
        statistics_open(&t->statistics, &t->play);
        t->view.screen = VIEW_SCREEN_STATISTICS;
        break;
    case KEY_ACTION_EDIT:
        editor_enter(&t->editor, play_level(&t->play), &t->play, &t->assist, &t->view);
        break;
    case KEY_ACTION_OPTIMIZE:
        assist_optimize_best(&t->assist, &t->play, t->play.collection_index, t->play.level_index);
        break;
    case KEY_ACTION_QUIT:
        t->quit = true;
        break;
    case KEY_ACTION_ENTER:
        if (play_push_hint(&t->play)) break;
        if (assist_take_back(&t->assist, &t->play)) break;
        if (game_is_solved(&t->play.game))
            go(t, +1, false);
        else if (t->play.warning.reason == DEADLOCK_NONE) /* (a deadlock's says what to do) */
            play_message(&t->play, PLAY_MESSAGE_INFO,
                         "Enter makes the hint's push: H shows a hint first");
        break;
    case KEY_ACTION_ESCAPE:
        escape_key(t);
        break;
    case KEY_ACTION_MOUSE:
        mouse_event(&t->mouse, &t->view, &t->play);
        break;
    case KEY_ACTION_NONE:
        unknown_key(t, key);
        break;
    case KEY_ACTION_PAUSE:
    case KEY_ACTION_STEP:
    case KEY_ACTION_STEP_BACK:
    case KEY_ACTION_FASTER:
    case KEY_ACTION_SLOWER:
        play_message(&t->play, PLAY_MESSAGE_INFO,
                     "No replay to control: S or B starts one (then space, . , + -)");
        break;
    default:
        break;
    }
}

static void handle_key(tui *t, int key);

/* A click on screen row `y` of a list: selects its row; true when that row was selected
 * already and opens as Enter opens it. */
static bool list_click(tui *t, int y)
{
    switch (t->view.screen) {
    case VIEW_SCREEN_LEVELS:
        return levels_click(&t->list, &t->play, y);
    case VIEW_SCREEN_COLLECTIONS:
        return collections_click(&t->collections, y);
    case VIEW_SCREEN_SNAPSHOTS:
        return snapshots_click(&t->snapshots, y);
    case VIEW_SCREEN_STATISTICS:
        statistics_click(&t->statistics, &t->play, y);
        return false;
    default:
        return false;
    }
}

/* The mouse on the lists and the help: the wheel scrolls, three rows a notch (as Up and
 * Down); a click on a row selects it, and a click on the row selected opens it, as Enter
 * does (so a double click opens the row clicked). */
static void list_mouse(tui *t)
{
    MEVENT events[MOUSE_EVENTS_MOST];
    int count = mouse_take(events);
    view_screen screen = t->view.screen;
    for (int e = 0; e < count && t->view.screen == screen; e++) { /* (none after Enter left) */
        mmask_t state = events[e].bstate;
        int arrow = state & BUTTON4_PRESSED ? KEY_UP : state & BUTTON5_PRESSED ? KEY_DOWN : 0;
        if (t->view.screen == VIEW_SCREEN_HELP && draw_help_scroll_limit() <= 0)
            arrow = 0; /* the help whole on the screen: Up and Down would close it */
        for (int i = 0; arrow && i < 3; i++) handle_key(t, arrow);
        if ((state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) && list_click(t, events[e].y))
            handle_key(t, '\n');
    }
}

/* True where Esc throws away what the player made: a line being typed (a snapshot's name,
 * a name sought in the library, the editor's fields) or the editor's offer of a draft. */
static bool escape_throws_away(const tui *t)
{
    switch (t->view.screen) {
    case VIEW_SCREEN_PLAY:
        return t->snapshots.naming;
    case VIEW_SCREEN_COLLECTIONS:
        return t->collections.typing;
    case VIEW_SCREEN_EDITOR:
        return t->editor.mode == EDITOR_TYPING || t->editor.mode == EDITOR_DRAFT;
    default:
        return false;
    }
}

static void handle_key(tui *t, int key)
{
    enum { ESCAPE = 27 };
    if (key == KEY_RESIZE) return; /* the redraw that follows every key re-centres */
    /* Esc and a key read together (keys.h: KEYS_ALT) are Esc then the key, as a player who
     * typed them quickly meant, Alt giving no key a meaning; but where Esc would throw away
     * what was made, a key with Alt held must not: there it stays one key, left out. */
    if ((key & KEYS_ALT) && !escape_throws_away(t)) {
        handle_key(t, ESCAPE);
        if (!t->quit) handle_key(t, key & ~KEYS_ALT);
        return;
    }
    if (keys_action(key) == KEY_ACTION_REDRAW) {
        clearok(curscr, TRUE);
        return;
    }
    if (key == KEY_MOUSE && t->view.screen != VIEW_SCREEN_PLAY &&
        t->view.screen != VIEW_SCREEN_EDITOR) {
        list_mouse(t);
        return;
    }
    switch (t->view.screen) {
    case VIEW_SCREEN_PLAY:
        play_key(t, key);
        break;
    case VIEW_SCREEN_LEVELS:
        switch (levels_key(&t->list, &t->play, key)) {
        case LEVELS_STAY:
            break;
        case LEVELS_OUT_OF_MEMORY:
            t->quit = true;
            /* fall through */
        case LEVELS_BACK:
            t->view.screen = VIEW_SCREEN_PLAY;
            break;
        case LEVELS_COLLECTIONS:
            collections_open(&t->collections, &t->play);
            t->view.screen = VIEW_SCREEN_COLLECTIONS;
            break;
        case LEVELS_EDIT:
            editor_enter(&t->editor, levels_selected(&t->list, &t->play), &t->play, &t->assist,
                         &t->view);
            break;
        case LEVELS_OPTIMIZE:
            assist_optimize_best(&t->assist, &t->play, t->list.collection, t->list.selected);
            break;
        }
        break;
    case VIEW_SCREEN_COLLECTIONS:
        switch (collections_key(&t->collections, &t->play, key)) {
        case COLLECTIONS_STAY:
            break;
        case COLLECTIONS_BACK:
            levels_open(&t->list, &t->play);
            t->view.screen = VIEW_SCREEN_LEVELS;
            break;
        case COLLECTIONS_OUT_OF_MEMORY:
            t->quit = true;
            /* fall through */
        case COLLECTIONS_PLAY:
            t->view.screen = VIEW_SCREEN_PLAY;
            break;
        }
        break;
    case VIEW_SCREEN_HELP: /* on a small terminal the help scrolls */
        if (!draw_help_key(&t->view, key)) t->view.screen = VIEW_SCREEN_PLAY;
        break;
    case VIEW_SCREEN_EDITOR:
        if (editor_key(&t->editor, &t->view, key) == EDITOR_LEAVE) {
            editor_leave(&t->editor, &t->play, &t->assist, &t->view, &t->collections);
            /* sokoban --edit FILE: back to the shell (--edit alone goes on to the game) */
            t->quit |= t->options->edit && t->options->file_count > 0;
        }
        break;
    case VIEW_SCREEN_SNAPSHOTS:
        if (!snapshots_key(&t->snapshots, &t->play, key)) t->view.screen = VIEW_SCREEN_PLAY;
        break;
    case VIEW_SCREEN_STATISTICS:
        if (!statistics_key(&t->statistics, &t->play, key)) t->view.screen = VIEW_SCREEN_PLAY;
        break;
    }
    /* A request about a position the key has left is no longer wanted. */
    assist_follow(&t->assist, &t->play);
}

/* ---- The main loop ------------------------------------------------------------------ */

/* SOKOBAN_TRACE: one line per event, "key MICROSECONDS" or "redraw MICROSECONDS". */
static void trace_event(const tui *t, const char *event, double now_ms)
{
    if (t->trace) fprintf(t->trace, "%s %.0f\n", event, now_ms * 1000.0);
}

/* How long poll() may sleep: until the next replay step or spinner tick, or forever. */
static int loop_timeout_ms(const tui *t)
{
    if (t->view.screen == VIEW_SCREEN_EDITOR) return editor_timeout_ms(&t->editor);
    int timeout = replay_timeout_ms(&t->play.replay, replay_now_ms());
    if (assist_busy(&t->assist) && (timeout < 0 || timeout > SPINNER_TICK_MS))
        timeout = SPINNER_TICK_MS;
    return timeout;
}

static void redraw(tui *t)
{
    if (t->view.screen == VIEW_SCREEN_LEVELS)
        levels_draw(&t->list, &t->view, &t->play);
    else if (t->view.screen == VIEW_SCREEN_COLLECTIONS)
        collections_draw(&t->collections, &t->view, &t->play);
    else if (t->view.screen == VIEW_SCREEN_SNAPSHOTS)
        snapshots_draw(&t->snapshots, &t->view, &t->play);
    else if (t->view.screen == VIEW_SCREEN_STATISTICS)
        statistics_draw(&t->statistics, &t->view, &t->play);
    else if (t->view.screen == VIEW_SCREEN_EDITOR)
        editor_draw(&t->editor, &t->view);
    else
        draw_screen(&t->view, &t->play, &t->assist);
    refresh();
    trace_event(t, "redraw", replay_now_ms());
}

static void main_loop(tui *t)
{
    sigset_t waiting; /* the mask while the loop waits: SIGWINCH let in */
    pthread_sigmask(SIG_BLOCK, NULL, &waiting);
    sigdelset(&waiting, SIGWINCH);
    redraw(t);
    while (!t->quit && !signals_stop()) {
        struct pollfd fds[4] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = -1},
                                {.fd = signals_wake_fd(), .events = POLLIN},
                                {.fd = editor_wake_fd(&t->editor), .events = POLLIN}};
        if (t->assist.worker)
            fds[1] = (struct pollfd){.fd = worker_wake_fd(t->assist.worker), .events = POLLIN};
        int timeout = loop_timeout_ms(t);
        struct timespec until = {.tv_sec = timeout / 1000, .tv_nsec = timeout % 1000 * 1000000L};
        int ready = ppoll(fds, 4, timeout < 0 ? NULL : &until, &waiting);
        if (ready < 0 && errno != EINTR) break;
        if (signals_stop()) break;
        if (ready > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))) break;
        if (ready > 0 && (fds[0].revents & POLLIN)) trace_event(t, "key", replay_now_ms());

        /* Every key waiting, and a resize (curses turns SIGWINCH into KEY_RESIZE). */
        int key;
        while (!t->quit && (key = terminal_read_key()) != ERR) handle_key(t, key);

        /* Take every result that is ready, stale ones too, so the wake fd goes quiet. */
        if (assist_busy(&t->assist) || (t->assist.worker && ready > 0 && fds[1].revents))
            assist_poll(&t->assist, &t->play);
        if (t->editor.open) editor_poll(&t->editor, ready > 0 && fds[3].revents);
        t->view.spinner = (unsigned)(replay_now_ms() / SPINNER_TICK_MS);
        /* a menu or the help over the board holds the replay; it carries on after */
        replay_hold(&t->play.replay, t->view.screen != VIEW_SCREEN_PLAY);
        if (t->play.replay.active) {
            play_replay_steps(&t->play, false);
            assist_follow(&t->assist, &t->play);
        }
        /* A save that failed (told once), a saved best that did not replay */
        const char *notice = t->play.progress ? progress_take_notice(t->play.progress) : NULL;
        if (notice) play_message(&t->play, PLAY_MESSAGE_ERROR, "%s", notice);
        if (!t->quit) redraw(t);
    }
}

/* Frees the game, saving its progress last; false when some of it could not be saved (and
 * says why on stderr: call it after the terminal is restored). */
static bool free_all(tui *t)
{
    editor_close(&t->editor);
    collections_free(&t->collections);
    statistics_close(&t->statistics);
    snapshots_close(&t->snapshots);
    play_close_level(&t->play);
    worker_destroy(t->assist.worker);
    assist_close(&t->assist);
    bool saved = true;
    if (t->play.progress) {
        char why[1100];
        saved = progress_save_final(t->play.progress, why, sizeof why);
        if (!saved) fprintf(stderr, "sokoban: %s\n", why);
        progress_close(t->play.progress);
    }
    for (int i = 0; i < t->play.collection_count; i++) collection_free(&t->play.collections[i]);
    free(t->play.collections);
    replay_stop(&t->play.replay);
    if (t->trace) fclose(t->trace);
    return saved;
}

/* A step of opening the progress that takes long (a migration or a repair of a large
 * database), told on stderr before it: the screen has not started, and the terminal would
 * otherwise stay blank for seconds. */
static void tell_progress_step(const char *line, void *argument)
{
    (void)argument;
    fprintf(stderr, "%s\n", line);
}

int tui_main(const cli_options *options)
{
    tui t;
    memset(&t, 0, sizeof t);
    t.options = options;
    t.mouse.pressed = -1;
    t.assist.hint_seconds =
        options->hint_seconds > 0 ? options->hint_seconds : DEFAULT_HINT_SECONDS;
    t.assist.solve_seconds =
        options->time_seconds > 0 ? options->time_seconds : DEFAULT_SOLVE_SECONDS;
    /* S never has less time than a hint (the man page's PLAYING section says so). */
    if (t.assist.solve_seconds < t.assist.hint_seconds)
        t.assist.solve_seconds = t.assist.hint_seconds;
    /* O: by moves unless --by pushes, for --optimize-time seconds */
    t.assist.best.metric = cli_optimizer_metric(options);
    t.assist.best.seconds =
        options->optimize_time > 0 ? options->optimize_time : DEFAULT_OPTIMIZE_SECONDS;
    replay_init(&t.play.replay);

    setlocale(LC_ALL, "");
    t.view.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    t.play.utf8 = t.view.utf8;
    /* the progress first: `sokoban` alone reopens the collection played last */
    char progress_message[PROGRESS_MESSAGE_SIZE] = "";
    progress_options opening = {.before_long = tell_progress_step};
    t.play.progress = progress_open_with(NULL, &opening, progress_message, sizeof progress_message);
    /* NULL only when memory ran out: the game plays, saying it saves nothing */
    bool progress_lost = !t.play.progress;
    if (progress_lost)
        snprintf(progress_message, sizeof progress_message,
                 "progress: out of memory, so progress is not saved");
    if (!start_load(options, &t.play, &t.start)) {
        free_all(&t);
        return CLI_BAD_INPUT;
    }
    start_import_solutions(&t.play, progress_message, sizeof progress_message);
    const char *trace_path = getenv("SOKOBAN_TRACE");
    if (trace_path && *trace_path) t.trace = fopen(trace_path, "w");

    signals_install(terminal_restore);
    if (!terminal_start(&t.view)) {
        free_all(&t);
        return CLI_BAD_INPUT;
    }
    /* SIGWINCH comes only while the loop waits (main_loop), in this thread: blocked here, and
     * so in every thread started from here on. */
    sigset_t resize;
    sigemptyset(&resize);
    sigaddset(&resize, SIGWINCH);
    pthread_sigmask(SIG_BLOCK, &resize, NULL);
    /* The solver's thread (and the threads it starts) leave the stop signals to this one. */
    sigset_t old_mask;
    signals_block_stops(&old_mask);
    worker_options solver_thread = {.no_solve_ahead = options->no_solve_ahead};
    t.assist.worker = worker_create_with(&solver_thread);
    t.assist.ahead = !options->no_solve_ahead;
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);

    int status = CLI_OK;
    /* a start that cannot be played is one --edit opens to be mended (start.c) */
    bool start_bad = t.start.collection >= 0 &&
                     t.play.collections[t.start.collection].levels[t.start.level].error;
    bool opened = t.start.collection >= 0 && !start_bad
                      ? play_open_level(&t.play, t.start.collection, t.start.level)
                      : play_open_first(&t.play, 0, options->file_count > 0);
    if (!opened) {
        status = CLI_BAD_INPUT;
    } else {
        if (progress_message[0])
            play_message(&t.play, PLAY_MESSAGE_ERROR, "%s", progress_message);
        else if (t.start.note[0])
            play_message(&t.play, PLAY_MESSAGE_INFO, "%s", t.start.note);
        else if (!t.assist.worker)
            play_message(&t.play, PLAY_MESSAGE_ERROR,
                         "The solver thread could not start: no hints");
        else if (!t.play.message[0])
            play_message(&t.play, PLAY_MESSAGE_INFO,
                         "Push every box onto a goal. ? shows the keys");
        assist_follow(&t.assist, &t.play); /* solving ahead starts with the level */
        /* --edit FILE:N: that level, even one that cannot be played (the game plays the
         * first that can) */
        const level *named = t.start.collection >= 0
                                 ? &t.play.collections[t.start.collection].levels[t.start.level]
                             : options->file_count ? play_level(&t.play)
                                                   : NULL;
        if (options->edit) editor_enter(&t.editor, named, &t.play, &t.assist, &t.view);
        main_loop(&t);
    }
    if (t.assist.worker) worker_cancel(t.assist.worker);
    terminal_restore();
    if (status != CLI_OK) fputs("sokoban: out of memory\n", stderr);
    /* What the start said of the progress, whole on the shell's screen, where a terminal too
     * small for it showed what fits (draw.c). */
    if (opened && progress_message[0] && !progress_lost)
        fprintf(stderr, "sokoban: %s\n", progress_message);
    /* ended in the editor (a signal, a closed terminal): a drawing not saved is kept */
    char note[800];
    if (editor_draft_keep(&t.editor, note, sizeof note)) fprintf(stderr, "sokoban: %s\n", note);
    if (!free_all(&t) && status == CLI_OK) status = CLI_UNSAVED;
    if (progress_lost) {
        fputs("sokoban: progress was not saved: out of memory when it was opened\n", stderr);
        if (status == CLI_OK) status = CLI_UNSAVED;
    }
    return signals_stop() ? 128 + signals_stop() : status;
}
