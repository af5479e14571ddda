/* list.c - sokoban --list: one line per level of a collection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level/collection.h"
#include "rules/board.h"
#include "cli.h"
#include "level/utf8.h"

enum { TITLE_COLUMNS = 32 };

/* Prints the title padded (or cut) to TITLE_COLUMNS columns of the terminal, counted by
 * display width, not bytes; its control characters (a tab) are left out, as on the screen. */
static void print_title(const char *title)
{
    int used;
    size_t bytes = utf8_fit(title, TITLE_COLUMNS, &used);
    utf8_write_shown(stdout, title, bytes);
    printf("%*s", TITLE_COLUMNS - used, "");
}

int cli_list(const cli_options *options)
{
    /* FILE:N names a level, as --level does, which --list refuses: it lists a whole file */
    char *file = NULL;
    int named = options->file_count > 0 ? collection_split_level(options->files[0], &file) : 0;
    free(file);
    if (named > 0) {
        cli_say("%s names level %d: --list lists a whole file; give FILE", options->files[0],
                named);
        return CLI_BAD_INPUT;
    }
    collection c;
    if (!cli_load_collection(options, &c)) return CLI_BAD_INPUT;
    if (c.bad_count == c.count) {
        /* nothing to list: every level's reason, one line each */
        for (int i = 0; i < c.count; i++) cli_say("%s", c.levels[i].error);
        collection_free(&c);
        return CLI_BAD_INPUT;
    }
    for (int i = 0; i < c.count; i++) {
        const level *lv = &c.levels[i];
        printf("%4d  ", lv->number);
        print_title(lv->title[0] ? lv->title : "-");
        if (lv->error) {
            const char *file = level_file_name(lv);
            fputs(" cannot be played: ", stdout);
            if (file) {
                utf8_write_shown(stdout, file, strlen(file));
                fputs(", ", stdout);
            }
            printf("%s\n", lv->problem);
            continue;
        }
        /* the boxes in play: a '*' drawn outside the walls is decoration */
        board b;
        position start;
        if (!board_from_level(lv, &b, &start)) {
            fputs("sokoban: out of memory\n", stderr);
            collection_free(&c);
            return CLI_BAD_INPUT;
        }
        int boxes = start.box_count;
        position_free(&start);
        board_free(&b);
        printf(" %3dx%-3d %3d box%s\n", lv->width, lv->height, boxes, boxes == 1 ? "" : "es");
    }
    collection_free(&c);
    return CLI_OK;
}
