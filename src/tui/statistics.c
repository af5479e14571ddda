/* statistics.c - the statistics screen, and solutions in and out for a collection. */
#define _GNU_SOURCE
#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "level/collection.h"
#include "level/utf8.h"
#include "level/utf8_case.h"
#include "rules/solutions.h"
#include "collections.h"
#include "list.h"
#include "statistics.h"
#include "wrap.h"

/* ---- The collections the progress knows ---------------------------------------------- */

/* True when the collection at `path` (as the progress keeps it: absolute) is in play. */
static bool in_play(const play *p, const char *path)
{
    char resolved[PATH_MAX];
    for (int i = 0; i < p->collection_count; i++)
        if (strcmp(p->collections[i].path, path) == 0 ||
            (realpath(p->collections[i].path, resolved) && strcmp(resolved, path) == 0))
            return true;
    return false;
}

/* Reads the collection at `path` (a file, a folder, or the first file of a group of
 * one-level files) into `known`; when it cannot be, keeps why. False when out of memory. */
static bool read_known(const char *path, statistics_known *known)
{
    *known = (statistics_known){0};
    if (strcmp(path, "-") == 0) {
        known->name = strdup("standard input");
        known->problem = strdup("came on standard input: cannot be read again");
        return known->name && known->problem;
    }
    char **group;
    int count = collection_group_files(path, &group);
    const char *one[] = {path};
    collection *list;
    int *numbers, read;
    level_error error;
    if (collection_open_all(count > 0 ? (const char *const *)group : one, count > 0 ? count : 1,
                            &list, &numbers, &read, &error)) {
        known->collection = list[0];
        for (int i = 1; i < read; i++) collection_free(&list[i]);
        free(list);
        free(numbers);
        known->name = strdup(known->collection.name);
    } else {
        const char *slash = strrchr(path, '/');
        known->name = strdup(slash && slash[1] ? slash + 1 : path);
        known->problem = strdup(error.message);
    }
    for (int i = 0; i < count; i++) free(group[i]);
    free(group);
    bool ok = known->name && (known->collection.path || known->problem);
    if (!ok) {
        collection_free(&known->collection);
        free(known->name);
        free(known->problem);
    }
    return ok;
}

/* Forgets the figures counted (an import changed them, or the screen closes). */
static void forget_figures(statistics_screen *s)
{
    free(s->figures);
    free(s->counted);
    s->figures = NULL;
    s->counted = NULL;
}

void statistics_close(statistics_screen *s)
{
    forget_figures(s);
    for (int i = 0; i < s->known_count; i++) {
        collection_free(&s->known[i].collection);
        free(s->known[i].name);
        free(s->known[i].problem);
    }
    free(s->known);
    s->known = NULL;
    s->known_count = 0;
}

/* True when the names `a` and `b` are one (in any case, as the library's names are
 * compared), told by their keys (utf8_case_fold) where there are both. */
static bool same_name(const char *a, const char *key_a, const char *b, const char *key_b)
{
    return key_a && key_b ? strcmp(key_a, key_b) == 0 : utf8_case_equal(a, b);
}

/* True when the name of the known collection `before` is taken by a collection in play or a
 * known one before it. `keys` holds the names folded, those in play then those known (NULL,
 * or a NULL key, where memory ran out). */
static bool name_taken(const statistics_screen *s, const play *p, char *const *keys, int before)
{
    int played = p->collection_count;
    const char *name = s->known[before].name, *key = keys ? keys[played + before] : NULL;
    for (int i = 0; i < played; i++)
        if (same_name(p->collections[i].name, keys ? keys[i] : NULL, name, key)) return true;
    for (int i = 0; i < before; i++)
        if (same_name(s->known[i].name, keys ? keys[played + i] : NULL, name, key)) return true;
    return false;
}

/* A known collection named as another row (Debian's xsokoban beside the bundled one) takes
 * the library's name for it, "xsokoban (cavepacker/maps)", or its folder's in brackets.
 * Each row's name is folded once, not at each of the comparisons (a player may know
 * thousands of collections). */
static void make_names_distinct(statistics_screen *s, const play *p)
{
    int played = p->collection_count;
    char **keys = calloc((size_t)(played + s->known_count) + 1, sizeof *keys);
    for (int i = 0; keys && i < played; i++) keys[i] = utf8_case_fold(p->collections[i].name, true);
    for (int i = 0; keys && i < s->known_count; i++)
        keys[played + i] = utf8_case_fold(s->known[i].name, true);
    library shelf = {0};
    bool scanned = false;
    for (int i = 0; i < s->known_count; i++) {
        statistics_known *k = &s->known[i];
        if (k->problem || !name_taken(s, p, keys, i)) continue;
        if (!scanned) scanned = collections_library(&shelf);
        char wanted[PATH_MAX], resolved[PATH_MAX], *name = NULL;
        bool real = realpath(k->collection.path, wanted) != NULL;
        for (int e = 0; real && !name && e < shelf.count; e++)
            if (realpath(shelf.entries[e].files[0], resolved) && strcmp(resolved, wanted) == 0 &&
                !utf8_case_equal(shelf.entries[e].name, k->name))
                name = strdup(shelf.entries[e].name);
        if (!name) {
            char folder[PATH_MAX];
            snprintf(folder, sizeof folder, "%s", k->collection.path);
            char *slash = strrchr(folder, '/');
            if (slash) *slash = '\0';
            slash = strrchr(folder, '/');
            if (asprintf(&name, "%s (%s)", k->name, slash ? slash + 1 : folder) < 0) name = NULL;
        }
        if (name) {
            free(k->name);
            k->name = name;
            if (keys) {
                free(keys[played + i]);
                keys[played + i] = utf8_case_fold(name, true);
            }
        }
    }
    library_free(&shelf);
    for (int i = 0; keys && i < played + s->known_count; i++) free(keys[i]);
    free(keys);
}

void statistics_open(statistics_screen *s, const play *p)
{
    statistics_close(s);
    s->selected = p->collection_index;
    s->top = 0;
    s->note[0] = 0;
    char **paths;
    int count = p->progress ? progress_collections(p->progress, &paths) : -1;
    if (count > 0 && (s->known = calloc((size_t)count, sizeof *s->known)))
        for (int i = 0; i < count; i++)
            if (!in_play(p, paths[i]) && read_known(paths[i], &s->known[s->known_count]))
                s->known_count++;
    /* those that can be read first, each part in the order last played */
    for (int i = 0, readable = 0; i < s->known_count; i++)
        if (!s->known[i].problem) {
            statistics_known k = s->known[i];
            memmove(&s->known[readable + 1], &s->known[readable],
                    (size_t)(i - readable) * sizeof k);
            s->known[readable++] = k;
        }
    for (int i = 0; i < count; i++) free(paths[i]);
    if (count >= 0) free(paths);
    make_names_distinct(s, p);
}

/* The collection of row `row`, or NULL (with `name` and `problem` set) for a known one that
 * cannot be read. */
static const collection *row_collection(const statistics_screen *s, const play *p, int row,
                                        const char **name, const char **problem)
{
    *problem = NULL;
    if (row < p->collection_count) {
        *name = p->collections[row].name;
        return &p->collections[row];
    }
    const statistics_known *k = &s->known[row - p->collection_count];
    *name = k->name;
    *problem = k->problem;
    return k->problem ? NULL : &k->collection;
}

static int row_count(const statistics_screen *s, const play *p)
{
    return p->collection_count + s->known_count;
}

/* What the table shows of one collection. */
struct collection_figures {
    progress_statistics statistics;
    long long best_moves, best_pushes; /* sums over the levels with a best */
    int with_best;
};
typedef struct collection_figures collection_figures;

static void figures_of(play *p, const collection *c, collection_figures *f)
{
    memset(f, 0, sizeof *f);
    f->statistics.levels = c->count - c->bad_count; /* those that can be played */
    if (!p->progress) return;
    progress_key *keys = malloc((size_t)c->count * sizeof *keys);
    if (!keys) return;
    int known = 0;
    for (int i = 0; i < c->count; i++) {
        if (c->levels[i].error) continue; /* a level that could not be read */
        keys[known] = progress_level_key(&c->levels[i]);
        known++;
        /* read with the level at hand: its bests are replayed before they are summed */
        const progress_record *record = progress_get_level(p->progress, &c->levels[i]);
        if (record && record->best_moves.lurd) {
            f->with_best++;
            f->best_moves += record->best_moves.moves;
            f->best_pushes +=
                record->best_pushes.lurd ? record->best_pushes.pushes : record->best_moves.pushes;
        }
    }
    progress_statistics_of(p->progress, keys, known, &f->statistics); /* levels: `known` */
    free(keys);
}

/* The figures of row `row` (collection `c`), counted once a time the screen opens (each
 * redraw would ask the progress again for every level of every row). */
static void row_figures(statistics_screen *s, play *p, int row, const collection *c,
                        collection_figures *f)
{
    int rows = row_count(s, p);
    if (!s->figures) {
        s->figures = calloc((size_t)rows, sizeof *s->figures);
        s->counted = calloc((size_t)rows, sizeof *s->counted);
        if (!s->figures || !s->counted) forget_figures(s);
    }
    if (!s->figures) {
        figures_of(p, c, f);
        return;
    }
    if (!s->counted[row]) {
        figures_of(p, c, &s->figures[row]);
        s->counted[row] = true;
    }
    *f = s->figures[row];
}

/* "1:02:03" */
static void format_time(double seconds, char *out, size_t size)
{
    long total = (long)(seconds + 0.5);
    snprintf(out, size, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
}

/* The note's columns: the screen's but one either side. */
static int note_columns(void)
{
    return COLS > 2 ? COLS - 2 : 1;
}

/* The rows of the note under the table, wrapped at spaces: as many as it takes while one row
 * of the table is left (0 without a note). */
static int note_rows(const statistics_screen *s)
{
    const char *note = s->note + wrap_skip_spaces(s->note, strlen(s->note));
    if (!note[0]) return 0;
    int rows = wrap_count(note, strlen(note), note_columns()), most = LINES - 6;
    return rows < most ? rows : most > 1 ? most : 1;
}

/* The note from `row`, wrapped at spaces (it may name a long path), indented a column; its
 * last row shortened with the mark when the rows run out. */
static void draw_note(const statistics_screen *s, const view *v, int row)
{
    const char *note = s->note + wrap_skip_spaces(s->note, strlen(s->note));
    size_t length = strlen(note);
    for (int drawn = 0, rows = note_rows(s); length > 0 && drawn < rows; drawn++) {
        size_t piece = wrap_line(note, length, note_columns());
        if (drawn == rows - 1 && piece < length) {
            draw_text_fit(v, row + drawn, 1, note, note_columns());
            return;
        }
        draw_text(v, row + drawn, 1, note, piece, note_columns());
        note += piece;
        length -= piece;
        size_t spaces = wrap_skip_spaces(note, length);
        note += spaces;
        length -= spaces;
    }
}

/* Rows available for collections: under the title, a blank and the column heads, above a
 * blank, the note's rows (one at least) and the footer. */
static int visible_rows(const statistics_screen *s)
{
    int note = note_rows(s);
    int rows = LINES - 5 - (note > 1 ? note : 1);
    return rows < 1 ? 1 : rows;
}

void statistics_click(statistics_screen *s, const play *p, int y)
{
    int row = list_row_at(y, 3, s->top, visible_rows(s), row_count(s, p));
    if (row < 0) return;
    s->note[0] = '\0';
    s->selected = row;
}

/* With no note, one about the collection selected when some of its levels cannot be played:
 * the table counts only the others. */
static void note_unplayable(statistics_screen *s, const play *p)
{
    if (s->note[0] || s->selected < 0 || s->selected >= row_count(s, p)) return;
    const char *name, *problem;
    const collection *c = row_collection(s, p, s->selected, &name, &problem);
    if (c && c->bad_count > 0)
        snprintf(s->note, sizeof s->note,
                 "%d %s of %s cannot be played and %s not counted (the level list says why)",
                 c->bad_count, c->bad_count == 1 ? "level" : "levels", name,
                 c->bad_count == 1 ? "is" : "are");
}

void statistics_draw(statistics_screen *s, const view *v, play *p)
{
    erase();
    note_unplayable(s, p);
    list_scroll(s->selected, &s->top, visible_rows(s), row_count(s, p));
    attrset(draw_attr(v, DRAW_PAIR_TITLE, 0) | A_BOLD);
    mvaddnstr(0, 0, " Statistics", COLS);
    /* under 80 columns: the levels, those solved and the time alone */
    bool narrow = COLS < 80;
    /* the names' column: 16 wide, wider for a longer name where the screen has room */
    int name_width = 16;
    for (int i = 0; i < row_count(s, p); i++) {
        const char *name, *problem;
        row_collection(s, p, i, &name, &problem);
        int its = utf8_width(name);
        if (its > name_width) name_width = its;
    }
    if (name_width > 16 + COLS - 80) name_width = COLS > 80 ? 16 + COLS - 80 : 16;
    char heads[200];
    snprintf(heads, sizeof heads,
             "   %-*s  levels  solved  assisted  started  best moves/pushes   time", name_width,
             "collection");
    attrset(A_BOLD);
    mvaddnstr(2, 0, narrow ? "   collection     levels solved     time" : heads, COLS);
    attrset(A_NORMAL);
    int row = 3;
    for (int i = s->top; i < row_count(s, p) && row < 3 + visible_rows(s); i++, row++) {
        const char *name, *problem;
        const collection *c = row_collection(s, p, i, &name, &problem);
        /* the name shortened by words to its column and padded by columns, not bytes */
        int width = narrow ? 14 : name_width;
        char shown[300];
        int used = draw_shorten(v, name, width, shown, sizeof shown);
        char line[600];
        if (c) {
            collection_figures f;
            row_figures(s, p, i, c, &f);
            char time_text[48], bests[48] = "-";
            format_time(f.statistics.seconds, time_text, sizeof time_text);
            if (f.with_best)
                snprintf(bests, sizeof bests, "%lld/%lld", f.best_moves, f.best_pushes);
            const char *mark = i == p->collection_index ? ">" : " ";
            if (narrow)
                snprintf(line, sizeof line, " %s %s%*s %6d %6d %8s", mark, shown, width - used, "",
                         f.statistics.levels, f.statistics.solved, time_text);
            else
                snprintf(line, sizeof line, " %s %s%*s %6d  %6d  %8d  %7d  %-17s %6s", mark, shown,
                         width - used, "", f.statistics.levels, f.statistics.solved,
                         f.statistics.assisted, f.statistics.started, bests, time_text);
        } else {
            snprintf(line, sizeof line, "   %s%*s %s", shown, width - used, "", problem);
        }
        attrset(i == s->selected ? A_REVERSE : A_NORMAL);
        if (i == s->selected) {
            move(row, 0);
            hline(' ', COLS);
        }
        draw_text_fit(v, row, 0, line, COLS);
        attrset(A_NORMAL);
    }
    /* the note, wrapped at spaces to the screen's width (it may name a long path), whole:
     * the table gives way */
    draw_note(s, v, row + 1);
    attrset(A_REVERSE);
    move(LINES - 1, 0);
    hline(' ', COLS);
    mvaddnstr(LINES - 1, 0,
              narrow
                  ? " e: export  i: import  Esc: back"
                  : " Up/Down: choose  e: export its solutions  i: import solutions  Esc q: back",
              COLS);
    attrset(A_NORMAL);
}

/* ---- Solutions in and out ----------------------------------------------------------- */

static solution_origin origin_of(progress_origin origin)
{
    return origin == PROGRESS_ASSISTED || origin == PROGRESS_OPTIMIZED ? SOLUTION_ASSISTED
           : origin == PROGRESS_IMPORTED                               ? SOLUTION_IMPORTED
                                                                       : SOLUTION_OWN;
}

/* The directory the exports go to: solutions/ beside the progress database (made when
 * missing; one that is a symbolic link is refused by solutions_export()). */
static bool export_directory(const play *p, char *out, size_t size)
{
    if (!p->progress || !progress_saving(p->progress)) return false;
    const char *database = progress_file(p->progress);
    const char *slash = strrchr(database, '/');
    if (!slash) return false;
    snprintf(out, size, "%.*s/solutions", (int)(slash - database), database);
    return mkdir(out, 0755) == 0 || errno == EEXIST;
}

bool statistics_export(play *p, const collection *c, char *note, size_t note_size)
{
    char directory[4096], path[4400], reason[4600];
    int playable = c->count - c->bad_count; /* the levels the statistics count */
    if (!export_directory(p, directory, sizeof directory)) {
        snprintf(note, note_size, "Nothing exported: progress is not saved");
        return false;
    }
    solutions_level *levels = calloc((size_t)c->count, sizeof *levels);
    solution_entry *entries = calloc((size_t)c->count * 2, sizeof *entries);
    if (!levels || !entries) {
        free(levels);
        free(entries);
        snprintf(note, note_size, "Nothing exported: out of memory");
        return false;
    }
    int solutions = 0, with = 0;
    for (int i = 0; i < c->count; i++) {
        levels[i].level = &c->levels[i];
        levels[i].solutions = &entries[2 * i];
        if (c->levels[i].error) continue; /* cannot be played: nothing solved */
        progress_record record;
        if (c->levels[i].error || !progress_read_level(p->progress, &c->levels[i], &record))
            continue;
        /* the best by moves, and the best by pushes when it is another solution */
        const progress_solution *best[2] = {&record.best_moves, &record.best_pushes};
        for (int k = 0; k < 2; k++) {
            if (!best[k]->lurd) continue;
            if (k == 1 && levels[i].count == 1 && strcmp(entries[2 * i].lurd, best[k]->lurd) == 0)
                continue;
            solution_entry *e = &entries[2 * i + levels[i].count++];
            e->lurd = strdup(best[k]->lurd);
            e->moves = best[k]->moves;
            e->pushes = best[k]->pushes;
            e->origin = origin_of(best[k]->origin);
            if (!e->lurd) levels[i].count--;
        }
        solutions += levels[i].count;
        with += levels[i].count > 0;
        progress_record_free(&record);
    }
    /* the collection's name comes from its file: made a safe name inside the directory */
    bool written = with > 0 && solutions_export(directory, c->name, levels, c->count, path,
                                                sizeof path, reason, sizeof reason);
    if (with == 0) {
        if (c->count == 1)
            snprintf(note, note_size, "Nothing exported: the one level of %s is not solved yet",
                     c->name);
        else
            snprintf(note, note_size, "Nothing exported: none of the %d levels of %s is solved yet",
                     playable, c->name);
    } else if (written) {
        /* "3 solutions for 2 of its 4 levels", "for all 4 levels", "for its only level" */
        char levels_text[96];
        if (with == playable && with == 1)
            snprintf(levels_text, sizeof levels_text, "for its only level");
        else if (with == playable)
            snprintf(levels_text, sizeof levels_text, "for all %d levels", with);
        else
            snprintf(levels_text, sizeof levels_text, "for %d of its %d levels", with, playable);
        snprintf(note, note_size, "Exported %d %s %s to %s", solutions,
                 play_plural(solutions, "solution", "solutions"), levels_text, path);
    } else {
        snprintf(note, note_size, "Not exported: %s", reason);
    }
    for (int i = 0; i < 2 * c->count; i++) solution_entry_free(&entries[i]);
    free(entries);
    free(levels);
    return written;
}

/* What an import counts, for the note. */
typedef struct import_tally {
    play *play;
    int imported, bests;
} import_tally;

/* Keeps one checked solution as imported (solutions_take). */
static void take_solution(void *argument, const level *lv, const solution_entry *solution,
                          const char *source)
{
    import_tally *tally = argument;
    int flags = 0;
    if (progress_import_solution(tally->play->progress, lv, solution->lurd, source, &flags)) {
        tally->imported++;
        tally->bests += flags != 0;
    }
}

void statistics_import(play *p, const collection *c, char *note, size_t note_size)
{
    if (!p->progress) {
        snprintf(note, note_size, "Nothing imported: progress is not saved");
        return;
    }
    import_tally tally = {.play = p};
    /* the solution sections of the level file itself (SOK), each checked by replay */
    int sections = 0, refused = 0;
    char first_refusal[512] = "";
    for (int i = 0; i < c->count; i++) {
        const level *lv = &c->levels[i];
        for (int k = 0; !lv->error && k < lv->solution_count; k++) {
            solution_entry entry;
            char reason[400];
            sections++;
            if (!solutions_check(lv, lv->solutions[k].moves, &entry, reason, sizeof reason)) {
                refused++;
                if (!first_refusal[0])
                    snprintf(first_refusal, sizeof first_refusal, "level %d: %s", lv->number,
                             reason);
                continue;
            }
            take_solution(&tally, lv, &entry, c->path);
            solution_entry_free(&entry);
        }
    }
    /* the .sol files beside the level files */
    solutions_import_report report;
    solutions_import_sol_files(c, take_solution, &tally, &report);
    refused += report.refused;
    if (!first_refusal[0])
        snprintf(first_refusal, sizeof first_refusal, "%s", report.first_refusal);
    if (sections + report.found == 0)
        snprintf(note, note_size,
                 "No solutions found: no solution sections in %s, no .sol file "
                 "beside it",
                 c->path);
    else
        snprintf(note, note_size, "Imported %d %s (%d new %s) from %d %s and %d .sol %s%s%s",
                 tally.imported, play_plural(tally.imported, "solution", "solutions"), tally.bests,
                 play_plural(tally.bests, "best", "bests"), sections,
                 play_plural(sections, "section", "sections"), report.found,
                 play_plural(report.found, "file", "files"), refused ? "; refused: " : "",
                 first_refusal);
}

bool statistics_key(statistics_screen *s, play *p, int key)
{
    if (key != KEY_RESIZE) s->note[0] = '\0';
    if (list_navigate(key, &s->selected, row_count(s, p), visible_rows(s))) return true;
    const char *name, *problem;
    const collection *c = row_collection(s, p, s->selected, &name, &problem);
    switch (key) {
    case 'e':
    case 'i':
        if (!c)
            snprintf(s->note, sizeof s->note, "%s: %s", name, problem);
        else if (key == 'e')
            statistics_export(p, c, s->note, sizeof s->note);
        else
            statistics_import(p, c, s->note, sizeof s->note);
        forget_figures(s); /* an import may bring new bests */
        return true;
    case 27:
    case 'q':
        statistics_close(s);
        return false;
    default:
        list_unknown_key(key, s->note, sizeof s->note);
        return true;
    }
}
