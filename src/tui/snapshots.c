/* snapshots.c - named positions of the level in play: saving, listing, restoring. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "level/utf8.h"
#include "list.h"
#include "snapshots.h"

#define ASSISTED_MARK " (assisted)"

/* The prompt on the message line, with the name typed so far. */
static void show_prompt(const snapshot_screen *s, play *p, const char *note)
{
    play_message(p, PLAY_MESSAGE_INFO, "Snapshot name: %s_  (Enter saves, Esc cancels)%s%s",
                 s->name, note ? "  " : "", note ? note : "");
}

void snapshots_start_naming(snapshot_screen *s, play *p)
{
    s->naming = true;
    s->length = 0;
    s->name[0] = 0;
    typing_start(&s->begun);
    show_prompt(s, p, NULL);
}

/* Saves the position in play under `name`. */
static void save(play *p, const char *typed)
{
    progress_key key = progress_level_key(play_level(p));
    char name[SNAPSHOT_NAME_BYTES + sizeof ASSISTED_MARK];
    if (typed[0]) {
        snprintf(name, sizeof name, "%s", typed);
    } else {
        /* no name typed: the first free number */
        progress_snapshot *items = NULL;
        int count = p->progress ? progress_snapshots(p->progress, key, &items) : 0;
        int number = (count > 0 ? count : 0) + 1;
        for (bool taken = true; taken; number += taken) {
            snprintf(name, sizeof name, "%d", number);
            taken = false;
            for (int i = 0; i < count; i++) taken |= strcmp(items[i].name, name) == 0;
        }
        if (count > 0) progress_snapshots_free(items, count);
    }
    /* help in the game, in effect or among the redo steps, goes into the name and comes
     * back on restore (a solver's step redone after it is still the solver's) */
    bool helped = p->game.length > p->solver_from || p->game.length > p->hint_from;
    if (helped && !strstr(name, ASSISTED_MARK))
        strncat(name, ASSISTED_MARK, sizeof name - strlen(name) - 1);
    char *lurd = NULL, *redo = NULL, *groups = NULL;
    bool saved = p->progress && play_steps_texts(p, &lurd, &redo, &groups) &&
                 progress_snapshot_save(p->progress, key, name, lurd, redo, groups);
    if (saved)
        play_message(p, PLAY_MESSAGE_INFO, "Snapshot '%s' saved (%d %s, %d %s); ' lists them", name,
                     p->game.moves, play_plural(p->game.moves, "move", "moves"), p->game.pushes,
                     play_plural(p->game.pushes, "push", "pushes"));
    else
        play_message(p, PLAY_MESSAGE_ERROR, "The snapshot could not be saved%s",
                     p->progress ? "" : ": progress is not saved");
    free(lurd);
    free(redo);
    free(groups);
}

void snapshots_naming_key(snapshot_screen *s, play *p, int key)
{
    if (key == 27) {
        s->naming = false;
        play_message(p, PLAY_MESSAGE_INFO, "No snapshot saved");
        return;
    }
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        s->naming = false;
        save(p, s->name);
        return;
    }
    const char *note = NULL;
    if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        /* a whole character, and one begun */
        s->length = (int)utf8_drop_last(s->name, (size_t)s->length);
        typing_start(&s->begun);
    } else if (typing_is_text(key)) {
        char character[5];
        bool left_out;
        int bytes = (int)typing_take(&s->begun, key, character, &left_out);
        if (left_out) note = typing_left_out_message();
        int characters = 0;
        for (int i = 0; i < s->length; i++) characters += !utf8_is_continuation(s->name[i]);
        if (bytes > 0 && characters < SNAPSHOT_NAME_MAX &&
            s->length + bytes <= SNAPSHOT_NAME_BYTES) {
            memcpy(s->name + s->length, character, (size_t)bytes + 1);
            s->length += bytes;
        }
    }
    show_prompt(s, p, note);
}

bool snapshots_open(snapshot_screen *s, play *p)
{
    snapshots_close(s);
    if (!p->progress) {
        play_message(p, PLAY_MESSAGE_ERROR, "No snapshots: progress is not saved");
        return false;
    }
    int count = progress_snapshots(p->progress, progress_level_key(play_level(p)), &s->items);
    if (count <= 0) {
        s->items = NULL;
        play_message(p, PLAY_MESSAGE_INFO, "No snapshots of this level: m saves one");
        return false;
    }
    s->count = count;
    s->selected = s->top = 0;
    s->asking = false;
    return true;
}

void snapshots_close(snapshot_screen *s)
{
    if (s->items) progress_snapshots_free(s->items, s->count);
    s->items = NULL;
    s->count = 0;
}

/* The moves and pushes of a LURD text: its letters, and its capitals. */
static void count_steps(const char *lurd, int *moves, int *pushes)
{
    *moves = *pushes = 0;
    for (const char *c = lurd; c && *c; c++) {
        if (strchr("lurd", *c)) ++*moves;
        if (strchr("LURD", *c)) ++*moves, ++*pushes;
    }
}

/* Rows available for snapshots: under the title, a blank and the column heads, above the
 * footer. */
static int visible_rows(void)
{
    int rows = LINES - 4;
    return rows < 1 ? 1 : rows;
}

bool snapshots_click(snapshot_screen *s, int y)
{
    int row = list_row_at(y, 3, s->top, visible_rows(), s->count);
    if (row < 0) return false;
    s->note[0] = s->deleted[0] = '\0';
    s->asking = false;
    if (row == s->selected) return true;
    s->selected = row;
    return false;
}

void snapshots_draw(snapshot_screen *s, const view *v, const play *p)
{
    erase();
    list_scroll(s->selected, &s->top, visible_rows(), s->count);
    char header[160];
    snprintf(header, sizeof header, " Snapshots of %s %d: %s",
             p->collections[p->collection_index].name, play_level(p)->number, play_level(p)->title);
    attrset(draw_attr(v, DRAW_PAIR_TITLE, 0) | A_BOLD);
    draw_text_fit(v, 0, 0, header, COLS);
    /* under 70 columns: the name, moves/pushes and the date without its year; the name
     * shortened by words to its column */
    bool narrow = COLS < 70;
    int name_width = narrow ? (COLS - 26 > 8 ? COLS - 26 : 8) : 38;
    attrset(A_BOLD);
    if (narrow)
        mvprintw(2, 0, "   %-*s %9s  %s", name_width, "name", "m/p", "saved");
    else
        mvaddnstr(2, 0, "   name                                   moves  pushes  redo  saved",
                  COLS);
    attrset(A_NORMAL);
    for (int row = 3, i = s->top; i < s->count && row < LINES - 1; i++, row++) {
        int moves, pushes, redo_moves, redo_pushes;
        count_steps(s->items[i].lurd, &moves, &pushes);
        count_steps(s->items[i].redo, &redo_moves, &redo_pushes);
        char when[32] = "";
        time_t saved = (time_t)s->items[i].saved;
        struct tm local;
        if (localtime_r(&saved, &local))
            strftime(when, sizeof when, narrow ? "%m-%d %H:%M" : "%Y-%m-%d %H:%M", &local);
        /* the name, shortened by whole words to its column, with a mark when shortened */
        char shown[SNAPSHOT_NAME_BYTES + 32];
        int used = draw_shorten(v, s->items[i].name, name_width, shown, sizeof shown);
        char line[256], counts[32];
        snprintf(counts, sizeof counts, "%d/%d", moves, pushes);
        if (narrow)
            snprintf(line, sizeof line, "   %s%*s %9s  %s", shown,
                     name_width > used ? name_width - used : 0, "", counts, when);
        else
            snprintf(line, sizeof line, "   %s%*s %6d  %6d  %4d  %s", shown,
                     name_width > used ? name_width - used : 0, "", moves, pushes, redo_moves,
                     when);
        attrset(i == s->selected ? A_REVERSE : A_NORMAL);
        if (i == s->selected) {
            move(row, 0);
            hline(' ', COLS);
        }
        draw_text(v, row, 0, line, strlen(line), COLS);
        attrset(A_NORMAL);
    }
    attrset(A_REVERSE);
    move(LINES - 1, 0);
    hline(' ', COLS);
    /* a snapshot deleted: its name shortened, the word that says what happened kept */
    char name[sizeof s->deleted + 8], deleted[sizeof name + 16];
    draw_shorten(v, s->deleted, COLS - 12 > 1 ? COLS - 12 : 1, name, sizeof name);
    snprintf(deleted, sizeof deleted, " Deleted '%s'", name);
    /* Enter's question, shortened where it is too wide, its (y/n) kept */
    const char *note = s->note;
    char question[64];
    snprintf(question, sizeof question, " Lose %d %s? (y/n)", s->lost,
             play_plural(s->lost, "move", "moves"));
    if (s->asking && utf8_width(note) > COLS)
        note = utf8_width(question) <= COLS ? question : " Restore? (y/n)";
    draw_text_fit(v, LINES - 1, 0,
                  s->deleted[0] ? deleted
                  : note[0]     ? note
                  : COLS < 56   ? " Enter: restore  d: delete  q: back"
                                : " Up/Down: choose  Enter: restore  d: delete  Esc q: back",
                  COLS);
    attrset(A_NORMAL);
}

/* Restores the selected snapshot with its undo and redo history. */
static void restore(snapshot_screen *s, play *p)
{
    const progress_snapshot *snapshot = &s->items[s->selected];
    replay_stop(&p->replay);
    if (!play_restore_steps(p, snapshot->lurd, snapshot->redo, snapshot->groups)) {
        play_message(p, PLAY_MESSAGE_ERROR, "Snapshot '%s' does not replay on this level",
                     snapshot->name);
        play_changed(p, -1, false);
        return;
    }
    /* the restored steps are the player's, unless the snapshot was taken with help */
    p->solver_from = PLAY_NO_SOLVER_STEP;
    p->hint_from = strstr(snapshot->name, ASSISTED_MARK) ? 0 : PLAY_NO_SOLVER_STEP;
    p->solved_recorded = game_is_solved(&p->game);
    play_changed(p, -1, false);
    play_message(p, PLAY_MESSAGE_INFO, "Snapshot '%s' restored (%d %s)%s", snapshot->name,
                 p->game.moves, play_plural(p->game.moves, "move", "moves"),
                 p->game.length > p->game.moves ? "; U redoes what followed" : "");
}

/* The character `i` of the text `first` then `second` (0 past its end). */
static char char_of_two(const char *first, size_t first_length, const char *second, size_t i)
{
    return i < first_length ? first[i] : second[i - first_length];
}

int snapshots_steps_lost(const play *p, const progress_snapshot *snapshot, int *undone)
{
    char *lurd, *redo, *groups;
    *undone = 0;
    if (p->game.length == 0 || !play_steps_texts(p, &lurd, &redo, &groups)) return 0;
    size_t moves = strlen(lurd), length = moves + strlen(redo);
    size_t its_moves = strlen(snapshot->lurd), its_length = its_moves + strlen(snapshot->redo);
    size_t shared = 0; /* the steps both begin with */
    while (shared < length && shared < its_length &&
           char_of_two(lurd, moves, redo, shared) ==
               char_of_two(snapshot->lurd, its_moves, snapshot->redo, shared))
        shared++;
    free(lurd);
    free(redo);
    free(groups);
    if (shared == length) return 0; /* all its own: undo and redo find them again */
    *undone = (int)(length - (moves > shared ? moves : shared));
    return (int)(length - shared);
}

/* d: deletes the selected snapshot and says so on the list's footer, the selection staying
 * on its row (the next snapshot) and the rows shown where they were; false when none is left
 * (said on the play screen). */
static bool delete_selected(snapshot_screen *s, play *p)
{
    int row = s->selected, top = s->top;
    char name[SNAPSHOT_NAME_BYTES + sizeof ASSISTED_MARK];
    snprintf(name, sizeof name, "%s", s->items[row].name);
    if (!progress_snapshot_delete(p->progress, progress_level_key(play_level(p)), name)) {
        snprintf(s->note, sizeof s->note, " Snapshot '%s' could not be deleted", name);
        return true;
    }
    if (!snapshots_open(s, p)) {
        play_message(p, PLAY_MESSAGE_INFO, "Snapshot '%s' deleted; none left: m saves one", name);
        return false;
    }
    s->selected = row < s->count ? row : s->count - 1;
    s->top = top; /* (list_scroll takes it up where it would leave a blank row) */
    snprintf(s->deleted, sizeof s->deleted, "%s", name);
    return true;
}

bool snapshots_key(snapshot_screen *s, play *p, int key)
{
    s->note[0] = s->deleted[0] = '\0';
    if (s->asking) { /* y restores over the steps in play; any other key keeps them */
        s->asking = false;
        if (key != 'y' && key != 'Y') {
            snprintf(s->note, sizeof s->note, " Not restored");
            return true;
        }
        restore(s, p);
        snapshots_close(s);
        return false;
    }
    if (list_navigate(key, &s->selected, s->count, visible_rows())) return true;
    switch (key) {
    case '\n':
    case '\r':
    case KEY_ENTER:
        s->lost = snapshots_steps_lost(p, &s->items[s->selected], &s->lost_undone);
        if (s->lost > 0) {
            s->asking = true;
            int lost = s->lost, undone = s->lost_undone;
            char undone_part[32] = "";
            if (undone > 0 && undone < lost)
                snprintf(undone_part, sizeof undone_part, " (%d undone)", undone);
            snprintf(s->note, sizeof s->note,
                     " Restore, losing %d %s%s not in the snapshot%s? (y/n)", lost,
                     undone == lost ? "undone " : "", play_plural(lost, "move", "moves"),
                     undone_part);
            return true;
        }
        restore(s, p);
        snapshots_close(s);
        return false;
    case 'd':
    case KEY_DC:
        return delete_selected(s, p);
    case 27:
    case 'q':
    case '\'':
        snapshots_close(s);
        return false;
    default:
        list_unknown_key(key, s->note, sizeof s->note);
        return true;
    }
}
