/* editor_draft.c - the editor's drafts: a drawing not saved kept aside when the game ends
 * without leaving the editor, and offered back when the editor opens its level again
 * (editor.h; the file is level_draft.h's). The draft is written after the main loop has
 * ended, as the progress is: a signal handler only sets a flag (signals.h). */
#include "editor.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mouse.h"

enum { ESCAPE = 27 };

void editor_draft_offer(editor *e)
{
    char *folder = level_draft_folder();
    time_t when = 0;
    if (folder && e->draft_key[0] &&
        level_draft_read(folder, e->draft_key, e->saved_text, &e->draft, &when)) {
        char date[64];
        struct tm local;
        if (!localtime_r(&when, &local) || !strftime(date, sizeof date, "%Y-%m-%d %H:%M", &local))
            snprintf(date, sizeof date, "before");
        e->mode = EDITOR_DRAFT;
        snprintf(e->message, sizeof e->message,
                 "A draft from %s was kept: Enter restores it, Esc discards it", date);
        e->message_kind = PLAY_MESSAGE_INFO;
    }
    free(folder);
}

/* The draft goes, restored or not. */
static void forget(editor *e)
{
    char *folder = level_draft_folder();
    if (folder) level_draft_remove(folder, e->draft_key);
    free(folder);
    e->mode = EDITOR_DRAWING;
}

void editor_draft_key(editor *e, int key)
{
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        level_edit_free(&e->edit);
        e->edit = e->draft;
        memset(&e->draft, 0, sizeof e->draft);
        /* not the level as saved: leaving asks, and it is kept again if the game ends */
        e->edit.changes = e->saved_changes + 1;
        e->line_start = e->edit.cursor % EDIT_CANVAS_SIDE;
        forget(e);
        snprintf(e->message, sizeof e->message, "Draft restored: w saves it");
    } else if (key == ESCAPE) {
        level_edit_free(&e->draft);
        forget(e);
        snprintf(e->message, sizeof e->message, "Draft discarded");
    } else {
        if (key == KEY_MOUSE) {
            MEVENT events[MOUSE_EVENTS_MOST];
            mouse_take(events); /* taken, so the next reports come */
        }
        return; /* the offer stays on the message line */
    }
    e->message_kind = PLAY_MESSAGE_INFO;
}

bool editor_draft_keep(editor *e, char *note, size_t size)
{
    /* an offer not answered: the draft offered is still in its file */
    if (!e->open || e->mode == EDITOR_DRAFT || !e->draft_key[0]) return false;
    char *text = level_edit_text(&e->edit);
    bool differs =
        (text || e->saved_text) && (!text || !e->saved_text || strcmp(text, e->saved_text) != 0);
    free(text);
    if (!differs) return false;
    if (strcmp(e->draft_key, LEVEL_DRAFT_STDIN) == 0) {
        snprintf(note, size,
                 "the drawing not saved was not kept: a level read from standard input cannot "
                 "be known again (w saves it into your levels)");
        return true;
    }
    char *folder = level_draft_folder();
    char why[600];
    bool kept =
        folder && level_draft_write(folder, e->draft_key, e->saved_text, &e->edit, why, sizeof why);
    if (kept)
        snprintf(note, size,
                 "the drawing not saved was kept: the editor offers it back on that level");
    else
        snprintf(note, size, "the drawing not saved was lost: %s",
                 folder ? why : "neither XDG_DATA_HOME nor HOME is set");
    free(folder);
    return true;
}
