/* test_progress.c - saved progress: round trips, best solutions, atomic writes, damaged files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "level.h"
#include "progress.h"

static const char FIRST_LEVEL[] = "#####\n"
                                  "#@$.#\n"
                                  "#####\n";

/* ---- helpers -------------------------------------------------------------------------- */

typedef struct fixture {
    char directory[64];
} fixture;

static int make_directory(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    strcpy(f->directory, "/tmp/test_progress.XXXXXX");
    assert_non_null(mkdtemp(f->directory));
    *state = f;
    return 0;
}

static int remove_directory(void **state)
{
    fixture *f = *state;
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", f->directory);
    assert_int_equal(system(command), 0);
    free(f);
    return 0;
}

static char *path_in(const fixture *f, const char *name)
{
    static char path[256];
    assert_true(strlen(f->directory) + 1 + strlen(name) < sizeof path);
    strcpy(path, f->directory);
    strcat(path, "/");
    strcat(path, name);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    fclose(out);
}

static char *read_text(const char *path)
{
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    static char text[8192];
    size_t length = fread(text, 1, sizeof text - 1, in);
    text[length] = '\0';
    fclose(in);
    return text;
}

/* The names in the directory, sorted, joined by spaces. */
static char *directory_names(const fixture *f)
{
    static char names[1024];
    struct dirent **entries;
    int count = scandir(f->directory, &entries, NULL, alphasort);
    assert_true(count >= 0);
    names[0] = '\0';
    for (int i = 0; i < count; i++) {
        const char *name = entries[i]->d_name;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            if (names[0]) strcat(names, " ");
            strcat(names, name);
        }
        free(entries[i]);
    }
    free(entries);
    return names;
}

static level parse_one(const char *text, collection *holder)
{
    level_error error;
    assert_true(collection_parse(text, strlen(text), "test", holder, &error));
    assert_int_equal(holder->count, 1);
    return holder->levels[0];
}

static progress *open_quietly(const fixture *f)
{
    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_string_equal(message, "");
    return p;
}

static void save_quietly(progress *p)
{
    char message[512];
    assert_true(progress_save(p, message, sizeof message));
    assert_string_equal(message, "");
}

/* ---- keys ----------------------------------------------------------------------------- */

static void test_edited_level_gets_a_different_key(void **state)
{
    (void)state;
    collection original, edited, retitled;
    level a = parse_one(FIRST_LEVEL, &original);
    level b = parse_one("#####\n"
                        "#@ $.#\n"
                        "######\n",
                        &edited);
    level c = parse_one("; Another title\n"
                        "#####\n"
                        "#@$.#\n"
                        "#####\n",
                        &retitled);
    assert_true(progress_level_key(&a) != progress_level_key(&b));
    assert_true(progress_level_key(&a) == progress_level_key(&c));
    collection_free(&original);
    collection_free(&edited);
    collection_free(&retitled);
}

/* ---- round trips ---------------------------------------------------------------------- */

static void test_missing_file_is_empty_progress(void **state)
{
    progress *p = open_quietly(*state);
    assert_null(progress_get(p, 42));
    const char *path;
    int level;
    assert_false(progress_last(p, &path, &level));
    progress_close(p);
}

static void test_records_survive_a_save_and_a_reopen(void **state)
{
    fixture *f = *state;
    progress *p = open_quietly(f);
    assert_true(progress_record_solution(p, 7, "rRdL", 4, 2));
    assert_true(progress_set_unfinished(p, 9, "llUr"));
    assert_true(progress_set_last(p, "/no/such/dir/my levels 100%.xsb", 12));
    save_quietly(p);
    progress_close(p);

    p = open_quietly(f);
    const progress_record *solved = progress_get(p, 7);
    assert_non_null(solved);
    assert_true(solved->solved);
    assert_string_equal(solved->best_moves.lurd, "rRdL");
    assert_int_equal(solved->best_moves.moves, 4);
    assert_int_equal(solved->best_moves.pushes, 2);
    assert_null(solved->unfinished);
    const progress_record *playing = progress_get(p, 9);
    assert_non_null(playing);
    assert_false(playing->solved);
    assert_null(playing->best_moves.lurd);
    assert_string_equal(playing->unfinished, "llUr");
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/no/such/dir/my levels 100%.xsb");
    assert_int_equal(level, 12);
    assert_int_equal(progress_collection_level(p, "/no/such/dir/my levels 100%.xsb"), 12);
    progress_close(p);
}

static void test_each_collection_remembers_its_own_level(void **state)
{
    fixture *f = *state;
    progress *p = open_quietly(f);
    assert_true(progress_set_last(p, "/levels/a.xsb", 3));
    assert_true(progress_set_last(p, "/levels/b.xsb", 8));
    save_quietly(p);
    progress_close(p);

    p = open_quietly(f);
    assert_int_equal(progress_collection_level(p, "/levels/a.xsb"), 3);
    assert_int_equal(progress_collection_level(p, "/levels/b.xsb"), 8);
    assert_int_equal(progress_collection_level(p, "/levels/c.xsb"), 0);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/levels/b.xsb");
    progress_close(p);
}

static void test_best_by_moves_and_best_by_pushes_are_kept_apart(void **state)
{
    progress *p = open_quietly(*state);
    assert_true(progress_record_solution(p, 1, "first", 0, 0) == false); /* not LURD */
    assert_true(progress_record_solution(p, 1, "llllRRRR", 100, 30));
    assert_true(progress_record_solution(p, 1, "lllRRR", 80, 40)); /* fewer moves */
    assert_true(progress_record_solution(p, 1, "llRR", 120, 20));  /* fewer pushes */
    assert_false(progress_record_solution(p, 1, "lR", 90, 35));    /* neither */
    assert_true(progress_record_solution(p, 1, "uuRR", 80, 39));   /* same moves, fewer pushes */
    const progress_record *r = progress_get(p, 1);
    assert_string_equal(r->best_moves.lurd, "uuRR");
    assert_int_equal(r->best_moves.moves, 80);
    assert_int_equal(r->best_moves.pushes, 39);
    assert_string_equal(r->best_pushes.lurd, "llRR");
    assert_int_equal(r->best_pushes.moves, 120);
    assert_int_equal(r->best_pushes.pushes, 20);
    progress_close(p);
}

static void test_solving_forgets_the_unfinished_game(void **state)
{
    progress *p = open_quietly(*state);
    assert_true(progress_set_unfinished(p, 5, "lurd"));
    assert_true(progress_record_solution(p, 5, "LURD", 4, 4));
    assert_null(progress_get(p, 5)->unfinished);
    assert_true(progress_set_unfinished(p, 5, "ll"));
    assert_true(progress_set_unfinished(p, 5, NULL));
    assert_null(progress_get(p, 5)->unfinished);
    assert_true(progress_get(p, 5)->solved);
    progress_close(p);
}

/* ---- atomic writes -------------------------------------------------------------------- */

static void test_save_leaves_only_the_progress_file(void **state)
{
    fixture *f = *state;
    progress *p = open_quietly(f);
    assert_true(progress_record_solution(p, 3, "rR", 2, 1));
    save_quietly(p);
    assert_true(progress_record_solution(p, 4, "lL", 2, 1));
    save_quietly(p);
    progress_close(p);
    assert_string_equal(directory_names(f), "progress.lock progress.txt");
    assert_non_null(strstr(read_text(path_in(f, "progress.txt")), "sokoban-progress 1\n"));
}

static void test_save_creates_missing_directories(void **state)
{
    fixture *f = *state;
    char message[512];
    progress *p = progress_open(path_in(f, "deep/er/sokoban"), message, sizeof message);
    assert_non_null(p);
    assert_true(progress_record_solution(p, 3, "rR", 2, 1));
    assert_true(progress_save(p, message, sizeof message));
    progress_close(p);
    struct stat status;
    assert_int_equal(stat(path_in(f, "deep/er/sokoban/progress.txt"), &status), 0);
}

static void test_stale_temporary_files_are_removed_on_open(void **state)
{
    fixture *f = *state;
    write_text(path_in(f, ".progress.txt.Ab12Cd"), "left by a crash\n");
    write_text(path_in(f, ".progress.txt.Xy34Zw"), "being written right now\n");
    /* The crashed game's file is two hours old. */
    struct timespec two_hours_ago[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path_in(f, ".progress.txt.Ab12Cd"), two_hours_ago, 0), 0);
    progress *p = open_quietly(f);
    progress_close(p);
    const char *names = directory_names(f);
    assert_null(strstr(names, ".progress.txt.Ab12Cd"));
    assert_non_null(strstr(names, ".progress.txt.Xy34Zw"));
}

static void test_xdg_data_home_chooses_the_directory(void **state)
{
    fixture *f = *state;
    setenv("XDG_DATA_HOME", f->directory, 1);
    char message[512];
    progress *p = progress_open(NULL, message, sizeof message);
    assert_non_null(p);
    assert_string_equal(progress_file(p), path_in(f, "sokoban/progress.txt"));
    progress_close(p);

    setenv("XDG_DATA_HOME", "relative/ignored", 1);
    setenv("HOME", f->directory, 1);
    p = progress_open(NULL, message, sizeof message);
    assert_non_null(p);
    assert_string_equal(progress_file(p), path_in(f, ".local/share/sokoban/progress.txt"));
    progress_close(p);
    unsetenv("XDG_DATA_HOME");
}

static void test_two_games_at_once_keep_each_others_records(void **state)
{
    fixture *f = *state;
    progress *first = open_quietly(f);
    progress *second = open_quietly(f);
    assert_true(progress_record_solution(first, 1, "rrrR", 4, 1));
    assert_true(progress_record_solution(second, 1, "R", 1, 1));
    assert_true(progress_record_solution(second, 2, "uU", 2, 1));
    assert_true(progress_set_unfinished(first, 3, "ll"));
    assert_true(progress_set_last(first, "/levels/a.xsb", 4));
    assert_true(progress_set_last(second, "/levels/b.xsb", 9));
    save_quietly(first);
    save_quietly(second); /* takes in what the first saved */
    progress_close(first);
    progress_close(second);

    progress *p = open_quietly(f);
    assert_string_equal(progress_get(p, 1)->best_moves.lurd, "R");
    assert_non_null(progress_get(p, 2));
    assert_string_equal(progress_get(p, 3)->unfinished, "ll");
    assert_int_equal(progress_collection_level(p, "/levels/a.xsb"), 4);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/levels/b.xsb"); /* the game that saved last */
    progress_close(p);
}

static void test_idle_game_does_not_undo_newer_work_of_another(void **state)
{
    fixture *f = *state;
    progress *a = open_quietly(f);
    progress *b = open_quietly(f);
    assert_true(progress_set_unfinished(b, 7, "ll"));
    assert_true(progress_set_last(b, "/levels/a.xsb", 3));
    save_quietly(b);
    save_quietly(a); /* takes in "ll" at level 3 */
    assert_true(progress_set_unfinished(b, 7, "llrrrr"));
    assert_true(progress_set_last(b, "/levels/a.xsb", 5));
    save_quietly(b);
    save_quietly(a); /* has changed nothing since, so must not write its old copy back */
    progress_close(a);
    progress_close(b);

    progress *p = open_quietly(f);
    assert_string_equal(progress_get(p, 7)->unfinished, "llrrrr");
    assert_int_equal(progress_collection_level(p, "/levels/a.xsb"), 5);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_int_equal(level, 5);
    progress_close(p);
}

/* Each of SAVERS processes records SAVES levels of its own, one per open-record-save-close,
 * all on the same directory at once; every record must be in the file at the end. */
enum { SAVERS = 4, SAVES = 40 };

static void test_games_saving_at_the_same_moment_lose_no_record(void **state)
{
    fixture *f = *state;
    pid_t children[SAVERS];
    for (int saver = 0; saver < SAVERS; saver++) {
        children[saver] = fork();
        assert_true(children[saver] >= 0);
        if (children[saver] > 0) continue;
        /* The child: no cmocka asserts here, only an exit status. */
        int failures = 0;
        for (int i = 0; i < SAVES; i++) {
            char message[512];
            progress *p = progress_open(f->directory, message, sizeof message);
            if (!p) _exit(2);
            progress_key key = (progress_key)(saver * 1000 + i + 1);
            if (!progress_record_solution(p, key, "rR", 2, 1) ||
                !progress_save(p, message, sizeof message))
                failures++;
            progress_close(p);
        }
        _exit(failures == 0 ? 0 : 1);
    }
    for (int saver = 0; saver < SAVERS; saver++) {
        int status;
        assert_int_equal(waitpid(children[saver], &status, 0), children[saver]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    progress *p = open_quietly(f);
    int missing = 0;
    for (int saver = 0; saver < SAVERS; saver++)
        for (int i = 0; i < SAVES; i++)
            missing += progress_get(p, (progress_key)(saver * 1000 + i + 1)) == NULL;
    assert_int_equal(missing, 0);
    progress_close(p);
}

static void test_symlinked_file_stays_a_link_and_its_target_is_written(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(path_in(f, "elsewhere"), 0700), 0);
    assert_int_equal(symlink("elsewhere/saved.txt", path_in(f, "progress.txt")), 0);
    progress *p = open_quietly(f);
    assert_true(progress_record_solution(p, 3, "rR", 2, 1));
    save_quietly(p);
    assert_true(progress_record_solution(p, 4, "lL", 2, 1));
    save_quietly(p);
    progress_close(p);

    struct stat status;
    assert_int_equal(lstat(path_in(f, "progress.txt"), &status), 0);
    assert_true(S_ISLNK(status.st_mode));
    assert_non_null(strstr(read_text(path_in(f, "elsewhere/saved.txt")), "sokoban-progress 1\n"));
    p = open_quietly(f);
    assert_non_null(progress_get(p, 3));
    assert_non_null(progress_get(p, 4));
    progress_close(p);
}

static void test_symlinked_damaged_file_is_set_aside_beside_its_target(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(path_in(f, "elsewhere"), 0700), 0);
    write_text(path_in(f, "elsewhere/saved.txt"), "not progress at all\n");
    assert_int_equal(symlink("elsewhere/saved.txt", path_in(f, "progress.txt")), 0);
    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "set aside"));
    assert_true(progress_record_solution(p, 3, "rR", 2, 1));
    save_quietly(p);
    progress_close(p);

    struct stat status;
    assert_int_equal(lstat(path_in(f, "progress.txt"), &status), 0);
    assert_true(S_ISLNK(status.st_mode));
    assert_non_null(strstr(directory_names(f), "progress.txt")); /* the link, still there */
    p = open_quietly(f);
    assert_non_null(progress_get(p, 3));
    progress_close(p);
    /* The damaged file was renamed beside its target, not the link. */
    char command[256];
    snprintf(command, sizeof command, "ls '%s' | grep -q '^saved.txt.corrupt-'",
             path_in(f, "elsewhere"));
    assert_int_equal(system(command), 0);
}

static void test_newer_file_written_meanwhile_is_not_written_over(void **state)
{
    fixture *f = *state;
    progress *p = open_quietly(f);
    assert_true(progress_record_solution(p, 1, "R", 1, 1));
    write_text(path_in(f, "progress.txt"), "sokoban-progress 2\n");
    char message[512];
    assert_false(progress_save(p, message, sizeof message));
    assert_non_null(strstr(message, "newer"));
    progress_close(p);
    assert_string_equal(read_text(path_in(f, "progress.txt")), "sokoban-progress 2\n");
}

/* ---- damaged files -------------------------------------------------------------------- */

static void test_unreadable_file_is_set_aside_and_reported_once(void **state)
{
    fixture *f = *state;
    write_text(path_in(f, "progress.txt"), "\x7f"
                                           "ELF garbage\n\x01\x02\x03");
    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "set aside"));
    assert_null(progress_get(p, 1));
    assert_true(progress_record_solution(p, 1, "R", 1, 1));
    save_quietly(p);
    progress_close(p);

    /* The old file waits beside the new one, and opening again says nothing. */
    const char *names = directory_names(f);
    assert_non_null(strstr(names, "progress.txt.corrupt-"));
    assert_non_null(strstr(names, "progress.txt "));
    p = open_quietly(f);
    assert_non_null(progress_get(p, 1));
    progress_close(p);
}

static void test_one_damaged_line_keeps_the_others(void **state)
{
    fixture *f = *state;
    progress *p = open_quietly(f);
    assert_true(progress_record_solution(p, 0x10, "rR", 2, 1));
    assert_true(progress_record_solution(p, 0x20, "uU", 2, 1));
    assert_true(progress_record_solution(p, 0x30, "dD", 2, 1));
    save_quietly(p);
    progress_close(p);

    /* Change one letter of the middle record: its checksum no longer matches. */
    char *text = read_text(path_in(f, "progress.txt"));
    char *middle = strstr(text, " uU ");
    assert_non_null(middle);
    middle[1] = 'd';
    write_text(path_in(f, "progress.txt"), text);

    char message[512];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "1 damaged record"));
    assert_non_null(progress_get(p, 0x10));
    assert_null(progress_get(p, 0x20));
    assert_non_null(progress_get(p, 0x30));
    progress_close(p);

    /* The good records were written back at once; the damaged file was kept aside. */
    p = open_quietly(f);
    assert_non_null(progress_get(p, 0x10));
    assert_non_null(progress_get(p, 0x30));
    progress_close(p);
    assert_non_null(strstr(directory_names(f), "progress.txt.corrupt-"));
}

static void test_truncated_last_line_keeps_the_others(void **state)
{
    fixture *f = *state;
    progress *p = open_quietly(f);
    assert_true(progress_record_solution(p, 0x10, "rR", 2, 1));
    assert_true(progress_record_solution(p, 0x20, "uUUUUUUUUU", 10, 9));
    save_quietly(p);
    progress_close(p);

    char *text = read_text(path_in(f, "progress.txt"));
    text[strlen(text) - 5] = '\0'; /* a crash in the middle of a write by another program */
    write_text(path_in(f, "progress.txt"), text);

    char message[512];
    p = progress_open(f->directory, message, sizeof message);
    assert_non_null(strstr(message, "damaged"));
    assert_non_null(progress_get(p, 0x10));
    assert_null(progress_get(p, 0x20));
    progress_close(p);
}

/* A line as progress.c writes it: the FNV-1a sum of the body, a space, the body. */
static void append_line(char *text, const char *body)
{
    uint32_t sum = 2166136261u;
    for (const char *c = body; *c; c++) {
        sum ^= (unsigned char)*c;
        sum *= 16777619u;
    }
    sprintf(text + strlen(text), "%08x %s\n", (unsigned)sum, body);
}

static void test_records_with_a_good_sum_but_bad_fields_are_skipped(void **state)
{
    fixture *f = *state;
    static const char *const bad[] = {
        "level 0000000000000001 1 2 1 rR 2 1 rR",             /* a field short */
        "level 0000000000000001 1 2 1 rR 2 1 rR - extra",     /* a field too many */
        "level 00000000000000g1 1 2 1 rR 2 1 rR -",           /* key not hex */
        "level 001 1 2 1 rR 2 1 rR -",                        /* key too short */
        "level 0000000000000001 2 2 1 rR 2 1 rR -",           /* solved is 0 or 1 */
        "level 0000000000000001 1 -2 1 rR 2 1 rR -",          /* negative count */
        "level 0000000000000001 1 2 1 rX 2 1 rR -",           /* not LURD */
        "level 0000000000000001 1 2  1 rR 2 1 rR -",          /* an empty field */
        "level 0000000000000001 1 99999999999 1 rR 2 1 rR -", /* a count too large */
        "last 0 /levels/a.xsb",                               /* levels count from 1 */
        "last 3 /levels/%G1.xsb",                             /* a bad escape */
        "last 3 /levels/%00.xsb",                             /* a NUL */
        "collection 3",                                       /* no path */
        "goal 1 2 3",                                         /* an unknown record */
        "",                                                   /* only a sum */
    };
    static char text[4096];
    strcpy(text, "sokoban-progress 1\n");
    append_line(text, "level 0000000000000002 1 2 1 rR 2 1 rR -");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) append_line(text, bad[i]);
    strcat(text, "no sum at all\n");
    write_text(path_in(f, "progress.txt"), text);

    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "16 damaged records"));
    assert_null(progress_get(p, 1));
    assert_non_null(progress_get(p, 2));
    const char *path;
    int level;
    assert_false(progress_last(p, &path, &level));
    progress_close(p);
}

static void test_line_too_long_is_skipped_and_reading_goes_on(void **state)
{
    fixture *f = *state;
    static char text[4096];
    strcpy(text, "sokoban-progress 1\n");
    append_line(text, "level 0000000000000001 1 2 1 rR 2 1 rR -");
    FILE *out = fopen(path_in(f, "progress.txt"), "w");
    assert_non_null(out);
    fputs(text, out);
    /* A record with a good sum but an unfinished game of 2 MiB: more than any line may hold. */
    enum { LONG_MOVES = 2 << 20 };
    char *body = malloc(LONG_MOVES + 64);
    assert_non_null(body);
    strcpy(body, "level 0000000000000002 0 0 0 - 0 0 - ");
    size_t start = strlen(body);
    memset(body + start, 'l', LONG_MOVES);
    body[start + LONG_MOVES] = '\0';
    text[0] = '\0';
    uint32_t sum = 2166136261u;
    for (const char *c = body; *c; c++) {
        sum ^= (unsigned char)*c;
        sum *= 16777619u;
    }
    fprintf(out, "%08x %s\n", (unsigned)sum, body);
    free(body);
    append_line(text, "level 0000000000000003 1 2 1 rR 2 1 rR -");
    fputs(text, out);
    fclose(out);

    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "1 damaged record"));
    assert_non_null(progress_get(p, 1));
    assert_null(progress_get(p, 2));
    assert_non_null(progress_get(p, 3));
    progress_close(p);
}

static void test_moves_too_long_for_a_line_are_refused(void **state)
{
    progress *p = open_quietly(*state);
    enum { LONG_MOVES = 1 << 20 };
    char *moves = malloc(LONG_MOVES + 1);
    assert_non_null(moves);
    memset(moves, 'r', LONG_MOVES);
    moves[LONG_MOVES] = '\0';
    assert_false(progress_set_unfinished(p, 1, moves));
    assert_false(progress_record_solution(p, 1, moves, LONG_MOVES, 0));
    assert_null(progress_get(p, 1));
    free(moves);
    progress_close(p);
}

static void test_file_from_a_newer_version_is_not_written_over(void **state)
{
    fixture *f = *state;
    write_text(path_in(f, "progress.txt"), "sokoban-progress 9\nwhatever comes next\n");
    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "newer"));
    assert_true(progress_record_solution(p, 1, "R", 1, 1));
    assert_false(progress_save(p, message, sizeof message));
    assert_string_equal(message, ""); /* already reported by progress_open */
    progress_close(p);
    assert_string_equal(read_text(path_in(f, "progress.txt")),
                        "sokoban-progress 9\nwhatever comes next\n");
}

static void test_unreadable_directory_is_reported_not_fatal(void **state)
{
    fixture *f = *state;
    /* A file where the directory should be: neither readable nor writable, even for root. */
    write_text(path_in(f, "blocker"), "not a directory\n");
    char message[512];
    progress *p = progress_open(path_in(f, "blocker/sokoban"), message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "cannot read"));
    assert_true(progress_record_solution(p, 1, "R", 1, 1));
    assert_false(progress_save(p, message, sizeof message));
    assert_false(progress_save(p, message, sizeof message));
    assert_string_equal(message, ""); /* a repeated failure is not reported again */
    assert_non_null(progress_get(p, 1));
    progress_close(p);
}

static void test_save_failure_is_reported_once(void **state)
{
    fixture *f = *state;
    char message[512];
    progress *p = progress_open(path_in(f, "later"), message, sizeof message);
    assert_string_equal(message, "");
    write_text(path_in(f, "later"), "now a file is in the way\n");
    assert_false(progress_save(p, message, sizeof message));
    assert_non_null(strstr(message, "progress not saved"));
    assert_false(progress_save(p, message, sizeof message));
    assert_string_equal(message, "");
    unlink(path_in(f, "later"));
    assert_true(progress_save(p, message, sizeof message));
    progress_close(p);
}

static void test_file_that_is_a_directory_is_reported(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir(path_in(f, "progress.txt"), 0700), 0);
    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_true(message[0] != '\0');
    assert_false(progress_save(p, message, sizeof message));
    progress_close(p);
}

static void test_fifo_in_place_of_the_file_is_reported_not_waited_on(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkfifo(path_in(f, "progress.txt"), 0600), 0);
    char message[512];
    progress *p = progress_open(f->directory, message, sizeof message);
    assert_non_null(p);
    assert_non_null(strstr(message, "not a regular file"));
    assert_true(progress_record_solution(p, 1, "R", 1, 1));
    assert_false(progress_save(p, message, sizeof message));
    assert_string_equal(message, ""); /* already reported by progress_open */
    progress_close(p);
    struct stat status;
    assert_int_equal(lstat(path_in(f, "progress.txt"), &status), 0);
    assert_true(S_ISFIFO(status.st_mode));
}

#define WITH_DIRECTORY(test) cmocka_unit_test_setup_teardown(test, make_directory, remove_directory)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edited_level_gets_a_different_key),
        WITH_DIRECTORY(test_missing_file_is_empty_progress),
        WITH_DIRECTORY(test_records_survive_a_save_and_a_reopen),
        WITH_DIRECTORY(test_each_collection_remembers_its_own_level),
        WITH_DIRECTORY(test_best_by_moves_and_best_by_pushes_are_kept_apart),
        WITH_DIRECTORY(test_solving_forgets_the_unfinished_game),
        WITH_DIRECTORY(test_save_leaves_only_the_progress_file),
        WITH_DIRECTORY(test_save_creates_missing_directories),
        WITH_DIRECTORY(test_stale_temporary_files_are_removed_on_open),
        WITH_DIRECTORY(test_two_games_at_once_keep_each_others_records),
        WITH_DIRECTORY(test_idle_game_does_not_undo_newer_work_of_another),
        WITH_DIRECTORY(test_games_saving_at_the_same_moment_lose_no_record),
        WITH_DIRECTORY(test_symlinked_file_stays_a_link_and_its_target_is_written),
        WITH_DIRECTORY(test_symlinked_damaged_file_is_set_aside_beside_its_target),
        WITH_DIRECTORY(test_newer_file_written_meanwhile_is_not_written_over),
        WITH_DIRECTORY(test_xdg_data_home_chooses_the_directory),
        WITH_DIRECTORY(test_unreadable_file_is_set_aside_and_reported_once),
        WITH_DIRECTORY(test_one_damaged_line_keeps_the_others),
        WITH_DIRECTORY(test_truncated_last_line_keeps_the_others),
        WITH_DIRECTORY(test_records_with_a_good_sum_but_bad_fields_are_skipped),
        WITH_DIRECTORY(test_line_too_long_is_skipped_and_reading_goes_on),
        WITH_DIRECTORY(test_moves_too_long_for_a_line_are_refused),
        WITH_DIRECTORY(test_file_from_a_newer_version_is_not_written_over),
        WITH_DIRECTORY(test_unreadable_directory_is_reported_not_fatal),
        WITH_DIRECTORY(test_save_failure_is_reported_once),
        WITH_DIRECTORY(test_file_that_is_a_directory_is_reported),
        WITH_DIRECTORY(test_fifo_in_place_of_the_file_is_reported_not_waited_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
