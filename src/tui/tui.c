/* tui.c - the terminal game: the terminal, the signals and the main loop.
 *
 * The loop waits in poll() on the keyboard and on the worker's wake fd, with a timeout only
 * while something moves on its own (a replay, the spinner), so it never waits for the solver
 * and answers every key within one frame. The terminal is restored however the game ends:
 * q, Ctrl-C, SIGTERM, SIGHUP (flags the loop reads), a fatal signal (restore and re-raise),
 * or exit() from anywhere (atexit). */
#define _GNU_SOURCE
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assist.h"
#include "draw.h"
#include "keys.h"
#include "levels.h"
#include "play.h"
#include "tui.h"

enum {
    DEFAULT_HINT_SECONDS = 10,
    DEFAULT_SOLVE_SECONDS = 30,
    SPINNER_TICK_MS = 100,
};

void tui_message(tui *t, tui_message_kind kind, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(t->message, sizeof t->message, format, arguments);
    va_end(arguments);
    t->message_kind = kind;
}

/* ---- The terminal ------------------------------------------------------------------- */

/* Signal handlers can only reach globals: these two are the game's only ones. */
static volatile sig_atomic_t stop_signal;   /* SIGINT, SIGTERM or SIGHUP arrived */
static volatile sig_atomic_t curses_active; /* the terminal is in curses mode */

/* Puts the terminal back as it was. Safe to call twice. */
static void restore_terminal(void)
{
    if (!curses_active) return;
    curses_active = 0;
    endwin();
}

static void on_stop_signal(int signal_number)
{
    stop_signal = signal_number;
}

/* A crash: restore the terminal (best effort), then die of the same signal. */
static void on_fatal_signal(int signal_number)
{
    restore_terminal();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

/* Installs the handlers; before initscr(), so curses keeps its hands off these signals. */
static void install_signal_handlers(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_stop_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    action.sa_handler = on_fatal_signal;
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &action, NULL);
    sigaction(SIGBUS, &action, NULL);
    sigaction(SIGFPE, &action, NULL);
    sigaction(SIGABRT, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Enters curses mode. Returns false (with a message on stderr) when the terminal cannot. */
static bool start_terminal(tui *t)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fputs("sokoban: the game needs a terminal (see --help for the other modes)\n", stderr);
        return false;
    }
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (!screen) {
        fprintf(stderr, "sokoban: cannot use the terminal '%s'\n",
                getenv("TERM") ? getenv("TERM") : "(TERM is not set)");
        return false;
    }
    set_term(screen);
    curses_active = 1;
    atexit(restore_terminal);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
    mouseinterval(0);
    draw_init_colors(t);
    return true;
}

/* ---- Collections -------------------------------------------------------------------- */

/* The bundled collection `name` from the installed levels, else the source tree's. */
static char *find_bundled(const char *name)
{
    const char *directories[] = {SOKOBAN_LEVELS_DIR, SOKOBAN_SOURCE_LEVELS_DIR};
    for (size_t i = 0; i < sizeof directories / sizeof directories[0]; i++) {
        char *path;
        if (asprintf(&path, "%s/%s", directories[i], name) < 0) return NULL;
        if (access(path, R_OK) == 0) return path;
        free(path);
    }
    return NULL;
}

/* Loads the files named, or the bundled tutorial and XSokoban. Prints an error and returns
 * false when a file cannot be read or none has a level. */
static bool load_collections(tui *t)
{
    const cli_options *options = t->options;
    const char *bundled[] = {"tutorial.xsb", "xsokoban.xsb"};
    int count = options->file_count ? options->file_count : 2;
    t->collections = calloc((size_t)count, sizeof *t->collections);
    if (!t->collections) {
        fputs("sokoban: out of memory\n", stderr);
        return false;
    }
    for (int i = 0; i < count; i++) {
        char *found = NULL;
        const char *path = options->file_count ? options->files[i] : NULL;
        if (!path) {
            path = found = find_bundled(bundled[i]);
            if (!path) {
                fprintf(stderr, "sokoban: the bundled %s is in neither %s nor %s\n", bundled[i],
                        SOKOBAN_LEVELS_DIR, SOKOBAN_SOURCE_LEVELS_DIR);
                return false;
            }
        }
        level_error error;
        bool loaded = collection_load(path, &t->collections[t->collection_count], &error);
        if (!loaded) fprintf(stderr, "sokoban: %s\n", error.message);
        if (loaded && t->collections[t->collection_count].count == 0) {
            fprintf(stderr, "sokoban: %s: no levels\n", path);
            collection_free(&t->collections[t->collection_count]);
            loaded = false;
        }
        free(found);
        if (!loaded) return false;
        t->collection_count++;
    }
    if (options->level > t->collections[0].count) {
        fprintf(stderr, "sokoban: %s has %d %s, not %d\n", t->collections[0].path,
                t->collections[0].count, tui_plural(t->collections[0].count, "level", "levels"),
                options->level);
        return false;
    }
    return true;
}

/* ---- Keys --------------------------------------------------------------------------- */

/* A mouse click on the board walks there. */
static void handle_mouse(tui *t)
{
    MEVENT event;
    if (getmouse(&event) != OK) return;
    if (!(event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))) return;
    int square = draw_square_at(t, event.y, event.x);
    if (square >= 0) play_walk_to(t, square);
}

/* Keys while a replay runs: its own controls, Esc stops it, a move takes over. Returns true
 * when the key was the replay's. */
static bool replay_key(tui *t, key_action action)
{
    switch (action) {
    case KEY_ACTION_PAUSE:
        replay_toggle_pause(&t->replay);
        return true;
    case KEY_ACTION_STEP: {
        int first = t->game.moves;
        int played = replay_step(&t->replay, &t->game);
        play_took_steps(t, first, t->replay_by_solver);
        if (played != 0) play_changed(t, -1, t->replay_by_solver);
        if (!t->replay.active) replay_stop(&t->replay);
        return true;
    }
    case KEY_ACTION_FASTER:
        replay_faster(&t->replay);
        return true;
    case KEY_ACTION_SLOWER:
        replay_slower(&t->replay);
        return true;
    case KEY_ACTION_ESCAPE:
        replay_stop(&t->replay);
        tui_message(t, TUI_MESSAGE_INFO, "Replay stopped: the board is yours");
        return true;
    default:
        /* Anything else takes over from where the replay stands. */
        replay_stop(&t->replay);
        return false;
    }
}

/* The play screen's keys. */
static void play_key(tui *t, int key)
{
    key_action action = keys_action(key);
    if (t->confirm_restart) {
        t->confirm_restart = false;
        if (key == 'y' || key == 'Y')
            play_restart(t);
        else
            tui_message(t, TUI_MESSAGE_INFO, "Not restarted");
        return;
    }
    if (t->replay.active && replay_key(t, action)) return;
    if (t->layout.too_small && action != KEY_ACTION_QUIT && action != KEY_ACTION_RESIZE) return;

    switch (action) {
    case KEY_ACTION_LEFT:
        play_step(t, DIR_LEFT);
        break;
    case KEY_ACTION_UP:
        play_step(t, DIR_UP);
        break;
    case KEY_ACTION_RIGHT:
        play_step(t, DIR_RIGHT);
        break;
    case KEY_ACTION_DOWN:
        play_step(t, DIR_DOWN);
        break;
    case KEY_ACTION_UNDO:
        play_undo(t);
        break;
    case KEY_ACTION_REDO:
        play_redo(t);
        break;
    case KEY_ACTION_RESTART:
        if (t->game.moves > 0 && !game_is_solved(&t->game))
            t->confirm_restart = true;
        else
            play_restart(t);
        break;
    case KEY_ACTION_NEXT_LEVEL:
        play_go(t, +1, false);
        break;
    case KEY_ACTION_PREVIOUS_LEVEL:
        play_go(t, -1, false);
        break;
    case KEY_ACTION_NEXT_UNSOLVED:
        play_go(t, +1, true);
        break;
    case KEY_ACTION_PREVIOUS_UNSOLVED:
        play_go(t, -1, true);
        break;
    case KEY_ACTION_LEVEL_LIST:
        levels_open(t);
        break;
    case KEY_ACTION_HINT:
        assist_hint(t);
        break;
    case KEY_ACTION_SOLVE:
        assist_solve(t);
        break;
    case KEY_ACTION_REPLAY_BEST:
        assist_replay_best(t);
        break;
    case KEY_ACTION_DEAD_SQUARES:
        t->show_dead_squares = !t->show_dead_squares;
        tui_message(t, TUI_MESSAGE_INFO,
                    t->show_dead_squares ? "Dead squares shown: a box there is lost (D hides)"
                                         : "Dead squares hidden");
        break;
    case KEY_ACTION_HELP:
        t->screen = TUI_SCREEN_HELP;
        break;
    case KEY_ACTION_QUIT:
        t->quit = true;
        break;
    case KEY_ACTION_ENTER:
        if (assist_hint_push(t)) break;
        if (game_is_solved(&t->game)) play_go(t, +1, false);
        break;
    case KEY_ACTION_ESCAPE:
        if (t->request != TUI_REQUEST_NONE)
            assist_cancel(t, "Solver stopped");
        else if (t->hint.shown)
            t->hint.shown = false;
        break;
    case KEY_ACTION_MOUSE:
        handle_mouse(t);
        break;
    default:
        break;
    }
}

static void handle_key(tui *t, int key)
{
    if (key == KEY_RESIZE) return; /* the redraw that follows every key re-centres */
    if (keys_action(key) == KEY_ACTION_REDRAW) {
        clearok(curscr, TRUE);
        return;
    }
    switch (t->screen) {
    case TUI_SCREEN_PLAY:
        play_key(t, key);
        break;
    case TUI_SCREEN_LEVELS:
        levels_key(t, key);
        break;
    case TUI_SCREEN_HELP:
        if (key != KEY_MOUSE) t->screen = TUI_SCREEN_PLAY;
        break;
    }
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
    int timeout = replay_timeout_ms(&t->replay, replay_now_ms());
    if (t->request != TUI_REQUEST_NONE && (timeout < 0 || timeout > SPINNER_TICK_MS))
        timeout = SPINNER_TICK_MS;
    return timeout;
}

static void redraw(tui *t)
{
    if (t->screen == TUI_SCREEN_LEVELS)
        levels_draw(t);
    else
        draw_screen(t);
    refresh();
    trace_event(t, "redraw", replay_now_ms());
}

static void main_loop(tui *t)
{
    redraw(t);
    while (!t->quit && !stop_signal) {
        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = -1}};
        if (t->worker) fds[1] = (struct pollfd){.fd = worker_wake_fd(t->worker), .events = POLLIN};
        int ready = poll(fds, 2, loop_timeout_ms(t));
        if (ready < 0 && errno != EINTR) break;
        if (stop_signal) break;
        if (ready > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))) break;
        if (ready > 0 && (fds[0].revents & POLLIN)) trace_event(t, "key", replay_now_ms());

        /* Every key waiting, and a resize (curses turns SIGWINCH into KEY_RESIZE). */
        int key;
        while (!t->quit && (key = getch()) != ERR) handle_key(t, key);

        /* Take every result that is ready, stale ones too, so the wake fd goes quiet. */
        if (t->worker && (t->request != TUI_REQUEST_NONE || (ready > 0 && fds[1].revents)))
            assist_poll(t);
        t->spinner = (unsigned)(replay_now_ms() / SPINNER_TICK_MS);
        if (t->replay.active) {
            int first = t->game.moves;
            int played = replay_tick(&t->replay, &t->game, replay_now_ms());
            if (played < 0)
                tui_message(t, TUI_MESSAGE_ERROR, "The replay stopped at a step the rules refuse");
            play_took_steps(t, first, t->replay_by_solver);
            if (played != 0) play_changed(t, -1, t->replay_by_solver);
            if (!t->replay.active) replay_stop(&t->replay);
        }
        if (!t->quit) redraw(t);
    }
}

static void free_all(tui *t)
{
    play_close_level(t);
    worker_destroy(t->worker);
    if (t->progress) {
        char message[256];
        progress_save(t->progress, message, sizeof message);
        progress_close(t->progress);
    }
    for (int i = 0; i < t->collection_count; i++) collection_free(&t->collections[i]);
    free(t->collections);
    replay_stop(&t->replay);
    if (t->trace) fclose(t->trace);
}

int tui_main(const cli_options *options)
{
    tui t;
    memset(&t, 0, sizeof t);
    t.options = options;
    t.hint_seconds = options->hint_time > 0 ? options->hint_time : DEFAULT_HINT_SECONDS;
    t.solve_seconds = options->time_limit > 0 ? options->time_limit : DEFAULT_SOLVE_SECONDS;
    /* S never has less time than a hint (the man page's PLAYING section says so). */
    if (t.solve_seconds < t.hint_seconds) t.solve_seconds = t.hint_seconds;
    replay_init(&t.replay);

    setlocale(LC_ALL, "");
    t.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    if (!load_collections(&t)) {
        free_all(&t);
        return CLI_BAD_INPUT;
    }
    char progress_message[256] = "";
    t.progress = progress_open(NULL, progress_message, sizeof progress_message);
    const char *trace_path = getenv("SOKOBAN_TRACE");
    if (trace_path && *trace_path) t.trace = fopen(trace_path, "w");

    install_signal_handlers();
    if (!start_terminal(&t)) {
        free_all(&t);
        return CLI_BAD_INPUT;
    }
    t.worker = worker_create();

    int status = CLI_OK;
    if (!play_open_first(&t)) {
        status = CLI_BAD_INPUT;
    } else {
        if (progress_message[0])
            tui_message(&t, TUI_MESSAGE_ERROR, "%s", progress_message);
        else if (!t.worker)
            tui_message(&t, TUI_MESSAGE_ERROR, "The solver thread could not start: no hints");
        else if (!t.message[0])
            tui_message(&t, TUI_MESSAGE_INFO, "Push every box onto a goal. ? shows the keys");
        main_loop(&t);
    }
    if (t.worker) worker_cancel(t.worker);
    restore_terminal();
    if (status != CLI_OK) fputs("sokoban: out of memory\n", stderr);
    free_all(&t);
    return status;
}
