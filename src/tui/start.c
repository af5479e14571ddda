/* start.c - what the game opens at its start (see start.h). */
#define _GNU_SOURCE
#include "start.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "level/collection.h"
#include "level/library.h"
#include "level/utf8.h"
#include "level/utf8_case.h"
#include "collections.h"

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

/* The path of the collection played last (a string to free()), or NULL when none is known.
 * A collection that came on standard input cannot be read again: then the last one played
 * from a file, with *from_stdin set. */
static char *last_file_played(play *p, bool *from_stdin)
{
    *from_stdin = false;
    char **paths;
    int count = p->progress ? progress_collections(p->progress, &paths) : -1;
    char *found = NULL;
    for (int i = 0; i < count; i++) {
        if (!found && strcmp(paths[i], "-") == 0)
            *from_stdin = true;
        else if (!found)
            found = paths[i], paths[i] = NULL;
        free(paths[i]);
    }
    if (count >= 0) free(paths);
    return found;
}

/* The files of the collection played last, when `sokoban` is started without any and that
 * collection is not one of the bundled two: the file, or every file of its group of
 * one-level files (NAME_NNNN.sok), or the folder. Returns their count (0: none) and the
 * paths in *files (each and the array to free()). */
static int open_last_played(play *p, game_start *s, char *const bundled[2], char ***files)
{
    *files = NULL;
    bool from_stdin;
    char *last = last_file_played(p, &from_stdin);
    if (!last) {
        if (from_stdin) snprintf(s->resume, sizeof s->resume, "-"); /* none from a file */
        return 0;
    }
    if (from_stdin) snprintf(s->resume, sizeof s->resume, "%s", last);
    int count = 0;
    for (int i = 0; i < 2; i++) {
        char resolved[PATH_MAX];
        if (realpath(bundled[i], resolved) && strcmp(resolved, last) == 0) goto done;
    }
    if (access(last, R_OK) != 0) { /* gone since: the bundled ones it is */
        snprintf(s->note, sizeof s->note,
                 "The collection played last, %s, cannot be played any more (%s): the bundled "
                 "levels instead",
                 last, strerror(errno));
        s->resume[0] = '\0';
        goto done;
    }
    count = collection_group_files(last, files);
    if (count > 0) goto done;
    count = 0;
    *files = malloc(sizeof **files);
    if (*files && ((*files)[0] = strdup(last)))
        count = 1;
    else {
        free(*files);
        *files = NULL;
    }
done:
    free(last);
    return count;
}

/* Keeps the solution sections of the levels' files as imported solutions (a solution that
 * does not solve its level is not kept), once per file (progress_import_collection). What
 * the player is told of it (sections skipped) is added to `message`, after what it holds. */
void start_import_solutions(play *p, char *message, size_t message_size)
{
    if (!p->progress) return;
    for (int c = 0; c < p->collection_count; c++) {
        char skipped[1100];
        progress_import_collection(p->progress, &p->collections[c], skipped, sizeof skipped);
        size_t used = strlen(message);
        /* after what opening the progress told, "; " between (each told, none lost) */
        if (skipped[0] && used + 2 < message_size)
            snprintf(message + used, message_size - used, "%s%s", used ? "; " : "",
                     used && strncmp(skipped, "progress: ", 10) == 0 ? skipped + 10 : skipped);
    }
}

static bool choose_start(const cli_options *options, play *p, game_start *s, const int *numbers);

/* ---- --collection NAME ---------------------------------------------------------------- */

enum { NAMES_SHOWN = 8 }; /* the names a message lists before "and N more" */

/* A list of names for a message: up to NAMES_SHOWN of them, then how many more. */
typedef struct name_list {
    const char *names[NAMES_SHOWN];
    int count;
} name_list;

static void name_list_add(name_list *list, const char *name)
{
    for (int i = 0; i < list->count && i < NAMES_SHOWN; i++)
        if (utf8_case_equal(list->names[i], name)) return;
    if (list->count < NAMES_SHOWN) list->names[list->count] = name;
    list->count++;
}

/* Prints ", "-separated names, then "and N more". */
static void print_names(const name_list *list)
{
    for (int i = 0; i < list->count && i < NAMES_SHOWN; i++) {
        if (i) fputs(", ", stderr);
        utf8_write_shown(stderr, list->names[i], strlen(list->names[i])); /* as on the screen */
    }
    if (list->count > NAMES_SHOWN) fprintf(stderr, " and %d more", list->count - NAMES_SHOWN);
}

/* The collection in play named `name` (case-insensitively, or by the path as given); with
 * `prefix`, every one whose name starts with it goes into `list` and the first is returned. */
static int find_in_play(const play *p, const char *name, bool prefix, name_list *list)
{
    int found = -1;
    for (int i = 0; i < p->collection_count; i++) {
        const char *its = p->collections[i].name;
        bool match = prefix
                         ? utf8_case_starts(its, name)
                         : utf8_case_equal(its, name) || strcmp(p->collections[i].path, name) == 0;
        if (!match) continue;
        if (found < 0) found = i;
        if (!prefix) return i;
        name_list_add(list, its);
    }
    return found;
}

/* Adds the library's entry to the collections in play: its index, or -1 (said why). */
static int add_entry(play *p, const library_entry *e)
{
    level_error error;
    int index = collections_add(p, e, &error);
    if (index < 0) fprintf(stderr, "sokoban: %s\n", error.message);
    return index;
}

/* The collection --collection `name` names, among those in play and those of the library
 * (the c screen): the one named so (case-insensitively), else the only one whose name
 * starts so; read and added when it is not in play. Its index, or -1 after saying on stderr
 * which names it could be, or which there are. */
static int open_named(const char *name, play *p)
{
    name_list none = {0}, candidates = {0};
    int index = find_in_play(p, name, false, &none);
    if (index >= 0) return index;
    library shelf;
    if (!collections_library(&shelf)) {
        fputs("sokoban: out of memory\n", stderr);
        return -1;
    }
    int matches[NAMES_SHOWN];
    int exact = 0;
    for (int i = 0; i < shelf.count; i++) exact += utf8_case_equal(shelf.entries[i].name, name);
    int found = library_match(&shelf, name, matches, NAMES_SHOWN);
    if (exact == 1) {
        index = add_entry(p, &shelf.entries[matches[0]]);
        library_free(&shelf);
        return index;
    }
    int in_play = find_in_play(p, name, true, &candidates);
    for (int i = 0; i < found && i < NAMES_SHOWN; i++)
        name_list_add(&candidates, shelf.entries[matches[i]].name);
    if (found > NAMES_SHOWN) candidates.count += found - NAMES_SHOWN;
    if (candidates.count == 1) {
        index = in_play >= 0 ? in_play : add_entry(p, &shelf.entries[matches[0]]);
    } else if (candidates.count > 1) {
        fprintf(stderr, "sokoban: --collection %s: which one? ", name);
        print_names(&candidates);
        fputs(" (give more of the name)\n", stderr);
    } else {
        name_list all = {0};
        for (int i = 0; i < p->collection_count; i++) name_list_add(&all, p->collections[i].name);
        for (int i = 0; i < shelf.count; i++) name_list_add(&all, shelf.entries[i].name);
        fprintf(stderr, "sokoban: --collection %s: no such collection; there are ", name);
        print_names(&all);
        fputs(" (c on the level list shows them all)\n", stderr);
    }
    library_free(&shelf);
    return index;
}

/* Where the player left the collection `index` off (its first level that can be played when
 * that is not known or cannot be played). */
static int left_off(play *p, int index)
{
    const collection *c = &p->collections[index];
    int level = p->progress ? progress_collection_level(p->progress, c->path) - 1 : -1;
    if (level >= 0 && level < c->count && !c->levels[level].error) return level;
    for (level = 0; level < c->count && c->levels[level].error; level++) continue;
    return level < c->count ? level : 0;
}

/* The collection played last came on standard input: the game starts in `s->resume`, the
 * one played from a file before it, where it was left off, and says so. */
static void resume_after_stdin(play *p, game_start *s)
{
    if (strcmp(s->resume, "-") == 0) {
        snprintf(s->note, sizeof s->note,
                 "The collection played last came on standard input and cannot be read again: "
                 "the bundled levels instead");
        return;
    }
    char wanted[PATH_MAX], resolved[PATH_MAX];
    if (!realpath(s->resume, wanted)) snprintf(wanted, sizeof wanted, "%s", s->resume);
    for (int i = 0; i < p->collection_count; i++) {
        const char *path = p->collections[i].path;
        if (strcmp(path, wanted) != 0 &&
            !(realpath(path, resolved) && strcmp(resolved, wanted) == 0))
            continue;
        s->collection = i;
        s->level = left_off(p, i);
        snprintf(s->note, sizeof s->note,
                 "The collection played last came on standard input and cannot be read again: "
                 "%s, played before it, instead",
                 p->collections[i].name);
        return;
    }
}

/* Loads the collections named (files, folders, FILE:N, "-"), or the bundled tutorial and
 * XSokoban. Prints an error and returns false when one cannot be read or no level of any
 * can be played. A level that cannot be played stays in its collection, marked. Sets
 * s->collection and s->level when FILE:N or --level chose where to start. */
bool start_load(const cli_options *options, play *p, game_start *s)
{
    const char *bundled_names[] = {"tutorial.xsb", "xsokoban.xsb"};
    char *bundled[2] = {NULL, NULL};
    const char *const *arguments = options->files;
    int count = options->file_count;
    char **last_files = NULL; /* the collection played last, when it is not a bundled one */
    int last_count = 0;
    const char **with_last = NULL;
    if (count == 0) {
        for (int i = 0; i < 2; i++) {
            bundled[i] = find_bundled(bundled_names[i]);
            if (!bundled[i]) {
                fprintf(stderr, "sokoban: the bundled %s is in neither %s nor %s\n",
                        bundled_names[i], SOKOBAN_LEVELS_DIR, SOKOBAN_SOURCE_LEVELS_DIR);
                free(bundled[0]);
                return false;
            }
        }
        arguments = (const char *const *)bundled;
        count = 2;
        last_count = open_last_played(p, s, bundled, &last_files);
        with_last = last_count > 0 ? calloc((size_t)(2 + last_count), sizeof *with_last) : NULL;
        if (with_last) {
            with_last[0] = bundled[0];
            with_last[1] = bundled[1];
            for (int i = 0; i < last_count; i++) with_last[2 + i] = last_files[i];
            arguments = with_last;
            count = 2 + last_count;
        }
    }
    /* - on a terminal: the levels are typed there, which a blank screen would not say */
    for (int i = 0; i < options->file_count; i++)
        if (strcmp(options->files[i], "-") == 0 && isatty(STDIN_FILENO))
            fputs("sokoban: -: reading the levels from the terminal; Ctrl-D ends them\n", stderr);
    level_error error;
    int *numbers = NULL;
    bool ok = collection_open_all(arguments, count, &p->collections, &numbers, &p->collection_count,
                                  &error);
    if (!ok && last_count > 0 && with_last) {
        /* The collection played last cannot be read any more (emptied, replaced by a FIFO or
         * a folder without levels, a device): the bundled ones, with a note. Its files were
         * opened without blocking and checked to be regular (textfile.h). */
        snprintf(s->note, sizeof s->note,
                 "The collection played last cannot be played any more (%s): the bundled "
                 "levels instead",
                 error.message);
        ok = collection_open_all((const char *const *)bundled, 2, &p->collections, &numbers,
                                 &p->collection_count, &error);
    }
    free(bundled[0]);
    free(bundled[1]);
    for (int i = 0; i < last_count; i++) free(last_files[i]);
    free(last_files);
    free(with_last);
    if (!ok) {
        fprintf(stderr, "sokoban: %s\n", error.message);
        return false;
    }
    /* standard input was read: the keys come from the terminal */
    for (int i = 0; i < options->file_count; i++)
        if (strcmp(options->files[i], "-") == 0 && !isatty(STDIN_FILENO)) {
            int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
            if (tty < 0 || dup2(tty, STDIN_FILENO) < 0) {
                fputs("sokoban: -: the levels came on standard input, and there is no terminal "
                      "to play them on\n",
                      stderr);
                free(numbers);
                return false;
            }
            close(tty);
        }
    bool started = choose_start(options, p, s, numbers);
    free(numbers);
    if (started && s->collection < 0 && s->resume[0]) resume_after_stdin(p, s);
    return started;
}

/* Where the game starts: the first FILE:N named (`numbers`, per collection: N, or 0), or
 * --collection and --level. Prints an error and returns false when that level does not
 * exist or cannot be played, or when no level of any collection can be played. */
static bool choose_start(const cli_options *options, play *p, game_start *s, const int *numbers)
{
    s->collection = -1;
    for (int i = 0; i < p->collection_count && s->collection < 0; i++)
        if (numbers[i]) {
            s->collection = i;
            s->level = numbers[i] - 1;
        }
    for (int i = 0; i < p->collection_count && options->level && !options->collection; i++)
        if (numbers[i] && numbers[i] != options->level) {
            fprintf(stderr, "sokoban: %s:%d and --level %d name two levels; give one\n",
                    p->collections[i].path, numbers[i], options->level);
            return false;
        }
    if (options->collection) {
        s->collection = open_named(options->collection, p);
        if (s->collection < 0) return false;
        s->level = options->level ? options->level - 1 : left_off(p, s->collection);
    } else if (options->level && s->collection < 0) {
        s->collection = 0;
        s->level = options->level - 1;
    }
    if (s->collection >= 0) {
        const collection *c = &p->collections[s->collection];
        /* named as the player named it: the path typed, or the collection's name */
        const char *named = options->file_count ? c->path : c->name;
        if (s->level >= c->count) {
            fprintf(stderr, "sokoban: %s has %d %s, not %d", named, c->count,
                    play_plural(c->count, "level", "levels"), s->level + 1);
            if (p->collection_count > 1)
                fprintf(stderr, " (another collection: --collection NAME --level N, or FILE:N)");
            fputs("\n", stderr);
            return false;
        }
        if (c->levels[s->level].error && !options->edit) { /* --edit opens it to be mended */
            fprintf(stderr, "sokoban: %s\n", c->levels[s->level].error);
            return false;
        }
    }
    bool playable = false; /* a collection with a level that can be played */
    for (int i = 0; i < p->collection_count; i++)
        playable |= p->collections[i].bad_count < p->collections[i].count;
    if (!playable) {
        const level *bad = collection_first_bad(&p->collections[0]);
        fprintf(stderr, "sokoban: no level can be played%s%s\n", bad ? "; the first: " : "",
                bad ? bad->error : "");
        return false;
    }
    return true;
}
