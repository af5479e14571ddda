/* test_progress_set_aside.c - the progress database set aside or replaced by another game
 * while this one plays or waits for its lock, a repair cut short by a game killed in it, two
 * games finding the same damage (issue 45; games in processes of their own). */
#define _GNU_SOURCE /* unshare() */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "progress/progress.h"
#include "progress_test.h"

/* Overwrites page `page` (1-based, 4 KiB pages) of the database with garbage. */
static void damage_page(const progress_test_dir *f, int page)
{
    int fd = open(progress_test_path(f, "progress.db"), O_WRONLY);
    assert_true(fd >= 0);
    char garbage[4096];
    memset(garbage, 0x5a, sizeof garbage);
    assert_int_equal(pwrite(fd, garbage, sizeof garbage, (off_t)(page - 1) * 4096),
                     (ssize_t)sizeof garbage);
    close(fd);
}

/* A database of 300 unfinished games (keys 1 to 300), 80 pages and more, all in the file,
 * and game -5 (unfinished "uu", 30 seconds played), whose row comes before them. */
static void fill_a_database_to_damage(const progress_test_dir *f)
{
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, (progress_key)-5, "uu"));
    assert_true(progress_add_time(p, (progress_key)-5, 30));
    char *lurd = progress_test_long_lurd(2000);
    for (int i = 1; i <= 300; i++) assert_true(progress_set_unfinished(p, (progress_key)i, lurd));
    progress_close(p); /* the WAL goes into the file */
    free(lurd);
}

/* Issue 45, item 2: game A plays; the database is damaged on disk; game B starts and sets
 * it aside (copying what it can read into a new one); A then saves. A's later changes must
 * reach the new database, not the one set aside, and A's player is told once. Before, A
 * wrote on into progress.db.corrupt-* and nobody knew. */
static void test_a_game_follows_its_database_set_aside_by_another(void **state)
{
    progress_test_dir *f = *state;
    fill_a_database_to_damage(f);

    progress *a = progress_test_open(f);
    assert_true(progress_set_unfinished(a, 0, "u")); /* the first leaf, before the damage */
    assert_null(progress_take_notice(a));
    damage_page(f, 80);
    char message[1024];
    progress *b = progress_open(f->directory, message, sizeof message);
    assert_non_null(strstr(message, "was damaged; it was set aside as"));
    assert_true(progress_set_unfinished(a, 1001, "r"));
    const char *notice = progress_take_notice(a);
    assert_non_null(notice);
    if (!strstr(notice, "set aside or replaced")) fail_msg("notice: '%s'", notice);
    assert_null(strchr(notice, '\n'));
    assert_true(progress_set_unfinished(a, 1002, "d"));
    assert_null(progress_take_notice(a)); /* told once */
    /* B sees A's changes at once: they share the new database */
    assert_non_null(progress_get(b, 1001));
    char why[1024];
    assert_false(progress_unsaved(a, why, sizeof why));
    progress_close(a);
    progress_close(b);

    progress *p = progress_test_open(f);
    assert_string_equal(progress_get(p, 0)->unfinished, "u"); /* from its WAL, copied by B */
    assert_string_equal(progress_get(p, 1001)->unfinished, "r");
    assert_string_equal(progress_get(p, 1002)->unfinished, "d");
    progress_close(p);
}

/* The same when the file is moved away (by hand, or a backup tool): the game starts a new
 * database at its place and saves there; it never writes into the file moved. */
static void test_a_game_follows_its_database_moved_away(void **state)
{
    progress_test_dir *f = *state;
    progress *a = progress_test_open(f);
    assert_true(progress_set_unfinished(a, 1, "u"));
    char moved[600];
    snprintf(moved, sizeof moved, "%s", progress_test_path(f, "moved.db"));
    assert_int_equal(rename(progress_test_path(f, "progress.db"), moved), 0);
    assert_int_equal(unlink(progress_test_path(f, "progress.db-wal")), 0);
    assert_true(progress_set_unfinished(a, 2, "r"));
    assert_non_null(progress_take_notice(a));
    progress_close(a);
    progress *p = progress_test_open(f);
    assert_string_equal(progress_get(p, 2)->unfinished, "r");
    progress_close(p);
}

/* Game A runs in a process of its own, as a second game does, on a VFS that is the system's
 * but for its sleep: SQLite's busy handler sleeps there between two tries at the lock, so a
 * sleep is the moment A waits for the lock. Nothing sleeps for real: at A's first wait the
 * test lets the other games act (A tells the test and blocks until it is told to go on);
 * after that a wait returns at once, and the busy handler counts its tries as if it had
 * slept. */
static sqlite3_vfs waiting_vfs;

static int waits;

static int to_test = -1, from_test = -1; /* A's ends of the pipes, -1: do not stop */

/* One byte on a pipe, and the one expected from it; false when the other end failed. */
static bool tell(int fd, char what)
{
    return write(fd, &what, 1) == 1;
}

static bool heard(int fd, char expected)
{
    char what;
    return read(fd, &what, 1) == 1 && what == expected;
}

static int sleep_without_sleeping(sqlite3_vfs *vfs, int microseconds)
{
    (void)vfs;
    if (waits++ == 0 && to_test >= 0 && (!tell(to_test, 'w') || !heard(from_test, 'd'))) _exit(3);
    return microseconds;
}

/* The games' pipes: the test's ends and A's. */
typedef struct game_pipes {
    int from_game, to_game;
} game_pipes;

/* In A's process: a failed expectation ends it with its line as the exit status. */
#define EXPECT(condition)                                                                          \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            fprintf(stderr, "game A, line %d: %s\n", __LINE__, #condition);                        \
            _exit(__LINE__ % 250 + 4);                                                             \
        }                                                                                          \
    } while (0)

/* In a game's process: SQLite's default VFS made the waiting one (sleep_without_sleeping). */
static void use_waiting_vfs(void)
{
    sqlite3_vfs *system = sqlite3_vfs_find(NULL);
    EXPECT(system);
    waiting_vfs = *system;
    waiting_vfs.zName = "waiting";
    waiting_vfs.xSleep = sleep_without_sleeping;
    EXPECT(sqlite3_vfs_register(&waiting_vfs, 1) == SQLITE_OK);
}

/* Game A: opens the progress (through the waiting VFS) and saves an unfinished game, tells
 * 'r' and waits for 'g'; then saves unfinished game 1001 ("r"), whose write finds the lock
 * held. `waits_through`: the wait is the test's (A stops at it, 'w', until 'd'), else A gives
 * up at its busy timeout, the change is queued, and A tells 'q' and waits for 'd' before it
 * saves again. Either way the change must reach the database now at the path, once told;
 * then A adds 1.5 seconds to game -5. */
static void game_a(const progress_test_dir *f, int to, int from, bool waits_through)
{
    use_waiting_vfs();
    char message[1024], why[1024];
    progress *a = progress_open(f->directory, message, sizeof message);
    EXPECT(a && progress_saving(a) && message[0] == '\0');
    EXPECT(progress_set_unfinished(a, 0, "u"));
    EXPECT(tell(to, 'r') && heard(from, 'g'));
    waits = 0;
    if (waits_through) {
        to_test = to;
        from_test = from;
        EXPECT(progress_set_unfinished(a, 1001, "r"));
        EXPECT(waits > 0);
    } else {
        EXPECT(!progress_set_unfinished(a, 1001, "r")); /* queued */
        EXPECT(waits > 0);
        EXPECT(progress_unsaved(a, why, sizeof why));
        const char *locked = progress_take_notice(a);
        EXPECT(locked && strstr(locked, "another game keeps the database locked"));
        EXPECT(tell(to, 'q') && heard(from, 'd'));
        EXPECT(progress_save(a, message, sizeof message));
    }
    const char *notice = progress_take_notice(a);
    EXPECT(notice && strstr(notice, "set aside or replaced"));
    EXPECT(progress_add_time(a, (progress_key)-5, 1.5)); /* on top of the rows copied */
    EXPECT(!progress_unsaved(a, why, sizeof why));
    progress_close(a);
    _exit(0);
}

/* Forks a game's process with a pipe each way, as fork() does: in the child 0, with the
 * child's ends in `to` (to the test) and `from` (from it); in the test the child's pid,
 * with the test's ends in `pipes`. */
static pid_t fork_game(game_pipes *pipes, int *to, int *from)
{
    int up[2], down[2];
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(up[0]);
        close(down[1]);
        *to = up[1];
        *from = down[0];
        return 0;
    }
    close(up[1]);
    close(down[0]);
    *pipes = (game_pipes){up[0], down[1]};
    return child;
}

/* Starts game A (game_a) in a child process; its pid. */
static pid_t start_game_a(const progress_test_dir *f, game_pipes *pipes, bool waits_through)
{
    int to, from;
    pid_t child = fork_game(pipes, &to, &from);
    if (child == 0) game_a(f, to, from, waits_through);
    return child;
}

/* Waits for a game's process to end: it must have met every expectation. */
static void game_ends_well(pid_t child, game_pipes *pipes)
{
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    close(pipes->from_game);
    close(pipes->to_game);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Another game, H, holding the write lock (a transaction begun, nothing written). */
static sqlite3 *hold_the_lock(const progress_test_dir *f)
{
    sqlite3 *h = NULL;
    assert_int_equal(
        sqlite3_open_v2(progress_test_path(f, "progress.db"), &h, SQLITE_OPEN_READWRITE, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    return h;
}

static void let_the_lock_go(sqlite3 *h)
{
    assert_int_equal(sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

/* Game B starts on the damaged database and sets it aside; then it saves game 2000. */
static progress *game_b_sets_it_aside(const progress_test_dir *f)
{
    char message[1024];
    progress *b = progress_open(f->directory, message, sizeof message);
    assert_non_null(b);
    if (!strstr(message, "was damaged; it was set aside as")) fail_msg("B: '%s'", message);
    assert_true(progress_set_unfinished(b, 2000, "l"));
    return b;
}

/* Game `key`'s unfinished game, in the database at the path ("" for none). */
static void unfinished_is(progress *p, progress_key key, const char *expected)
{
    const progress_record *record = progress_get(p, key);
    const char *unfinished = record && record->unfinished ? record->unfinished : "";
    if (strcmp(unfinished, expected) != 0)
        fail_msg("game %lld: '%s', not '%s'", (long long)key, unfinished, expected);
}

/* After the games: the database at the path has A's games (the one of before the damage,
 * copied by B, and the one saved after), B's, and game -5 whole: its unfinished game of
 * before the damage and its time, A's 1.5 seconds added. */
static void the_new_database_has_every_game(const progress_test_dir *f)
{
    progress *p = progress_test_open(f);
    unfinished_is(p, 0, "u");
    unfinished_is(p, 1001, "r");
    unfinished_is(p, 2000, "l");
    unfinished_is(p, (progress_key)-5, "uu");
    assert_float_equal(progress_get(p, (progress_key)-5)->seconds, 31.5, 1e-9);
    progress_close(p);
}

/* Issue 45, item 2, while waiting: game A's write waits for the lock another game (H) holds;
 * during that wait H lets go and game B sets the damaged database aside. When A's wait ends
 * A holds the lock of the file set aside: its change must go to the new database (A opens
 * it, and its player is told), never into the file set aside after B copied it. */
static void test_a_game_waiting_for_the_lock_follows_its_database_set_aside(void **state)
{
    progress_test_dir *f = *state;
    fill_a_database_to_damage(f);
    game_pipes pipes;
    pid_t a = start_game_a(f, &pipes, true);
    assert_true(heard(pipes.from_game, 'r'));
    sqlite3 *h = hold_the_lock(f);
    damage_page(f, 80);
    assert_true(tell(pipes.to_game, 'g'));
    assert_true(heard(pipes.from_game, 'w')); /* A waits for the lock */
    let_the_lock_go(h);
    progress *b = game_b_sets_it_aside(f);
    assert_true(tell(pipes.to_game, 'd'));
    game_ends_well(a, &pipes);
    const progress_record *seen = progress_get(b, 1001); /* at once: they share the new one */
    assert_non_null(seen);
    assert_string_equal(seen->unfinished, "r");
    progress_close(b);
    the_new_database_has_every_game(f);
}

/* The same when A's wait ends at its busy timeout before the database is set aside: A's
 * change is queued, and written into the new database at A's next save. */
static void test_a_change_queued_for_the_lock_reaches_the_database_set_aside(void **state)
{
    progress_test_dir *f = *state;
    fill_a_database_to_damage(f);
    game_pipes pipes;
    pid_t a = start_game_a(f, &pipes, false);
    assert_true(heard(pipes.from_game, 'r'));
    sqlite3 *h = hold_the_lock(f);
    damage_page(f, 80);
    assert_true(tell(pipes.to_game, 'g'));
    assert_true(heard(pipes.from_game, 'q')); /* A gave up waiting: its change is queued */
    let_the_lock_go(h);
    progress *b = game_b_sets_it_aside(f);
    assert_true(tell(pipes.to_game, 'd'));
    game_ends_well(a, &pipes);
    assert_non_null(progress_get(b, 1001));
    progress_close(b);
    the_new_database_has_every_game(f);
}

/* Game B runs in a process of its own on a VFS that is the system's but for its opening of a
 * file: the first file B opens under a name with ".repairing-" is the database it set aside,
 * opened to copy what it can read (the new database is made at the path by then). There B
 * tells 's' and waits for 'd', so the test can let game A act in between. */
static sqlite3_vfs pausing_vfs;

static int (*system_open)(sqlite3_vfs *, const char *, sqlite3_file *, int, int *);

static int pausing_to = -1, pausing_from = -1, pauses;

static int open_pausing(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags,
                        int *out_flags)
{
    if (name && strstr(name, ".repairing-") && pauses++ == 0 &&
        (!tell(pausing_to, 's') || !heard(pausing_from, 'd')))
        _exit(3);
    return system_open(vfs, name, file, flags, out_flags);
}

/* Makes the default VFS (in this child process) the system's but for its opening of a file,
 * which `open` does (it calls system_open for the system's). */
static void use_vfs_opening_by(const char *name,
                               int (*open)(sqlite3_vfs *, const char *, sqlite3_file *, int, int *))
{
    sqlite3_vfs *system = sqlite3_vfs_find(NULL);
    EXPECT(system);
    pausing_vfs = *system;
    pausing_vfs.zName = name;
    system_open = system->xOpen;
    pausing_vfs.xOpen = open;
    EXPECT(sqlite3_vfs_register(&pausing_vfs, 1) == SQLITE_OK);
}

/* Game B: opens the damaged database (it must set it aside, stopping before the copy as
 * above), saves game 2000 ("l") and ends. */
static void game_b(const progress_test_dir *f, int to, int from)
{
    use_vfs_opening_by("pausing", open_pausing);
    pausing_to = to;
    pausing_from = from;
    char message[1024], why[1024];
    progress *b = progress_open(f->directory, message, sizeof message);
    EXPECT(b && progress_saving(b) && strstr(message, "was damaged; it was set aside as"));
    EXPECT(pauses > 0);
    EXPECT(progress_set_unfinished(b, 2000, "l"));
    EXPECT(!progress_unsaved(b, why, sizeof why));
    progress_close(b);
    _exit(0);
}

/* Starts game B (game_b) in a child process; its pid. */
static pid_t start_game_b(const progress_test_dir *f, game_pipes *pipes)
{
    int to, from;
    pid_t child = fork_game(pipes, &to, &from);
    if (child == 0) game_b(f, to, from);
    return child;
}

/* Issue 45, item 2, the lock held through the copy: game B finds the database damaged, sets
 * it aside and makes a new one; before B has copied the old rows into it, game A saves. A
 * must wait for the lock until the copy is in, then write into the new database on top of
 * it: game 1001 saved, and 1.5 seconds added to game -5's 30 with its unfinished game kept.
 * Before, B's look at the files it set aside (open and close) dropped its lock: A wrote into
 * the new database first, and the copy (INSERT OR IGNORE) kept A's row of game -5 alone,
 * its unfinished game lost. */
static void test_a_game_waiting_while_the_rows_are_copied_writes_on_top_of_them(void **state)
{
    progress_test_dir *f = *state;
    fill_a_database_to_damage(f);
    game_pipes a_pipes, b_pipes;
    pid_t a = start_game_a(f, &a_pipes, true);
    assert_true(heard(a_pipes.from_game, 'r'));
    damage_page(f, 80);
    pid_t b = start_game_b(f, &b_pipes);
    assert_true(heard(b_pipes.from_game, 's')); /* set aside, the new one made, no copy yet */
    assert_true(tell(a_pipes.to_game, 'g'));
    assert_true(heard(a_pipes.from_game, 'w')); /* A waits for B's lock */
    assert_true(tell(b_pipes.to_game, 'd'));
    game_ends_well(b, &b_pipes); /* B copied, let the lock go, saved and ended */
    assert_true(tell(a_pipes.to_game, 'd'));
    game_ends_well(a, &a_pipes);
    the_new_database_has_every_game(f);
}

/* Game B in a process of its own, killed (as by SIGKILL: no clean-up runs) when it opens the
 * database it set aside to copy its rows: the new database is made by then, empty. */
static int open_and_die(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags,
                        int *out_flags)
{
    if (name && strstr(name, ".repairing-")) _exit(9);
    return system_open(vfs, name, file, flags, out_flags);
}

static void game_b_killed_in_the_repair(const progress_test_dir *f)
{
    use_vfs_opening_by("dying", open_and_die);
    char message[1024];
    progress_open(f->directory, message, sizeof message);
    _exit(0); /* not reached: the copy's open ends the process */
}

/* The databases in the test's folder whose names start with `prefix` (not their -wal and
 * -shm files). */
static int names_starting(const progress_test_dir *f, const char *prefix)
{
    DIR *directory = opendir(f->directory);
    assert_non_null(directory);
    int count = 0;
    for (struct dirent *entry; (entry = readdir(directory)) != NULL;) {
        size_t length = strlen(entry->d_name);
        bool scratch = length > 4 && (strcmp(entry->d_name + length - 4, "-wal") == 0 ||
                                      strcmp(entry->d_name + length - 4, "-shm") == 0);
        count += !scratch && strncmp(entry->d_name, prefix, strlen(prefix)) == 0;
    }
    closedir(directory);
    return count;
}

/* A game killed while it repairs a damaged database (set aside, the new one made, its rows
 * not yet copied) leaves the records in the file set aside as progress.db.repairing-*: the
 * next game to open the database finishes the repair (and says so in one line), so no
 * record is lost to the kill. Before, the next game found a sound, empty database and the
 * records stayed in the file set aside, never read again. */
static void test_a_repair_cut_short_is_finished_by_the_next_game(void **state)
{
    progress_test_dir *f = *state;
    fill_a_database_to_damage(f);
    damage_page(f, 80);
    pid_t b = fork();
    assert_true(b >= 0);
    if (b == 0) game_b_killed_in_the_repair(f);
    int status;
    assert_int_equal(waitpid(b, &status, 0), b);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 9); /* killed in the copy */
    assert_int_equal(names_starting(f, "progress.db.repairing-"), 1);

    char message[1024];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, "was cut short; it was finished from")) fail_msg("'%s'", message);
    assert_null(strchr(message, '\n'));
    unfinished_is(p, (progress_key)-5, "uu");
    assert_float_equal(progress_get(p, (progress_key)-5)->seconds, 30, 1e-9);
    assert_non_null(progress_get(p, 1)); /* before the damaged page */
    progress_close(p);
    assert_int_equal(names_starting(f, "progress.db.repairing-"), 0);
    assert_int_equal(names_starting(f, "progress.db.corrupt-"), 1);

    p = progress_open(f->directory, message, sizeof message); /* once only */
    assert_string_equal(message, "");
    unfinished_is(p, (progress_key)-5, "uu");
    progress_close(p);
}

/* A game killed while it migrated a large file set aside leaves its scratch database
 * beside it (FILE.repairing-STAMP-migrating): the next game finishes the repair from the
 * file set aside alone, never taking the scratch for a repair cut short of its own (its
 * rows would be copied, a half-migrated copy, and it renamed a corrupt file). Review5
 * finding 9: deleting that exclusion failed no test. */
static void test_a_stale_migrating_scratch_is_not_a_repair(void **state)
{
    progress_test_dir *f = *state;
    char repairing[256], scratch[300];
    snprintf(repairing, sizeof repairing, "%s",
             progress_test_path(f, "progress.db.repairing-20260101-000000"));
    snprintf(scratch, sizeof scratch, "%s-migrating", repairing);
    char held[256];
    snprintf(held, sizeof held, "%s", progress_test_path(f, "held.db"));
    progress *p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 1, "l"));
    progress_close(p);
    assert_int_equal(rename(progress_test_path(f, "progress.db"), held), 0);
    p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 4, "d"));
    progress_close(p);
    assert_int_equal(rename(progress_test_path(f, "progress.db"), scratch), 0);
    p = progress_test_open(f);
    assert_true(progress_set_unfinished(p, 3, "u"));
    progress_close(p);
    assert_int_equal(rename(progress_test_path(f, "progress.db"), repairing), 0);
    assert_int_equal(rename(held, progress_test_path(f, "progress.db")), 0);

    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, "was cut short; it was finished from")) fail_msg("'%s'", message);
    unfinished_is(p, 3, "u");
    unfinished_is(p, 1, "l");
    assert_null(progress_get(p, 4));
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(scratch, &status), 0);
    assert_int_equal(names_starting(f, "progress.db.corrupt-"), 1);
}

/* The same, when another game played on in the new database between the kill and the next
 * start (a game playing on the damaged one follows it to the new one): its newer rows are
 * kept, merged with the old ones, so that a level solved stays solved, the time played adds
 * up and the better best stays. Before the merge the copy kept the newer row alone. */
static void test_a_repair_finished_late_merges_with_what_was_played_since(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_true(progress_record_solution(p, 7, "RRRR", 10, 4));
    assert_true(progress_add_time(p, 7, 40));
    progress_close(p);
    fill_a_database_to_damage(f);
    damage_page(f, 80);
    pid_t b = fork();
    assert_true(b >= 0);
    if (b == 0) game_b_killed_in_the_repair(f);
    int status;
    assert_int_equal(waitpid(b, &status, 0), b);
    assert_int_equal(WEXITSTATUS(status), 9);

    /* another game saves into the new, empty database: level 7 unfinished, a worse best */
    sqlite3 *other = NULL;
    assert_int_equal(
        sqlite3_open_v2(progress_test_path(f, "progress.db"), &other, SQLITE_OPEN_READWRITE, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_exec(other,
                                  "INSERT INTO level (key, unfinished, seconds) VALUES (7, 'l', 2);"
                                  "INSERT INTO best (key, kind, lurd, moves, pushes) VALUES"
                                  " (7, 0, 'RRRRRR', 20, 6);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_close(other), SQLITE_OK);

    char message[1024];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    if (!strstr(message, "was cut short; it was finished from")) fail_msg("'%s'", message);
    const progress_record *seven = progress_get(p, 7);
    assert_non_null(seven);
    assert_true(seven->solved);
    assert_int_equal(seven->best_moves.moves, 10);
    assert_float_equal(seven->seconds, 42, 1e-9);
    unfinished_is(p, 7, "l");
    unfinished_is(p, (progress_key)-5, "uu");
    progress_close(p);
}

/* Game C: opens the damaged database through the waiting VFS, stopping at its first wait
 * for the lock ('w', until 'd'); by then another game has set the database aside and
 * copied it. C must open that game's new database as it is (nothing to tell), its games
 * there, and save game 3000. */
static void game_c(const progress_test_dir *f, int to, int from)
{
    use_waiting_vfs();
    waits = 0;
    to_test = to;
    from_test = from;
    char message[1024], why[1024];
    progress *c = progress_open(f->directory, message, sizeof message);
    EXPECT(c && progress_saving(c) && waits > 0);
    if (message[0]) fprintf(stderr, "game C: '%s'\n", message);
    EXPECT(message[0] == '\0');
    const progress_record *record = progress_get(c, 2000);
    EXPECT(record && record->unfinished && strcmp(record->unfinished, "l") == 0);
    EXPECT(progress_set_unfinished(c, 3000, "d"));
    EXPECT(!progress_unsaved(c, why, sizeof why));
    progress_close(c);
    _exit(0);
}

/* Two games find the database damaged at once: C first, which waits for the lock another
 * game (H) holds; then B, which sets it aside and copies it as H lets go. When C has the
 * lock (of the file set aside), the file at the path is B's new database: C opens it.
 * Before, C set B's new database aside in turn ("was damaged" said twice, two corrupt-
 * files), and where B's copy had not been committed yet, C's new database lacked its rows
 * (a driver starting two games on one damaged file: 7 rounds in 10). */
static void test_two_games_finding_the_same_damage_set_it_aside_once(void **state)
{
    progress_test_dir *f = *state;
    fill_a_database_to_damage(f);
    damage_page(f, 80);
    sqlite3 *h = hold_the_lock(f);
    game_pipes pipes;
    int to, from;
    pid_t c = fork_game(&pipes, &to, &from);
    if (c == 0) game_c(f, to, from);
    assert_true(heard(pipes.from_game, 'w')); /* C found the damage and waits for the lock */
    let_the_lock_go(h);
    progress *b = game_b_sets_it_aside(f);
    progress_close(b);
    assert_true(tell(pipes.to_game, 'd'));
    game_ends_well(c, &pipes);
    assert_int_equal(names_starting(f, "progress.db.corrupt-"), 1);
    assert_int_equal(names_starting(f, "progress.db.repairing-"), 0);
    progress *p = progress_test_open(f);
    unfinished_is(p, (progress_key)-5, "uu");
    unfinished_is(p, 2000, "l");
    unfinished_is(p, 3000, "d");
    progress_close(p);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_a_game_follows_its_database_set_aside_by_another),
        WITH_DIRECTORY(test_a_game_follows_its_database_moved_away),
        WITH_DIRECTORY(test_a_game_waiting_for_the_lock_follows_its_database_set_aside),
        WITH_DIRECTORY(test_a_change_queued_for_the_lock_reaches_the_database_set_aside),
        WITH_DIRECTORY(test_a_game_waiting_while_the_rows_are_copied_writes_on_top_of_them),
        WITH_DIRECTORY(test_two_games_finding_the_same_damage_set_it_aside_once),
        WITH_DIRECTORY(test_a_repair_cut_short_is_finished_by_the_next_game),
        WITH_DIRECTORY(test_a_stale_migrating_scratch_is_not_a_repair),
        WITH_DIRECTORY(test_a_repair_finished_late_merges_with_what_was_played_since),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
