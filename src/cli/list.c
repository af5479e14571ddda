/* list.c - sokoban --list: one line per level of a collection. */
#include <stdio.h>

#include "board.h"
#include "cli.h"

int cli_list(const cli_options *options)
{
    collection c;
    if (!cli_load_collection(options, &c)) return CLI_BAD_INPUT;
    for (int i = 0; i < c.count; i++) {
        const level *lv = &c.levels[i];
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
        printf("%4d  %-32s %3dx%-3d %3d box%s\n", lv->number, lv->title[0] ? lv->title : "-",
               lv->width, lv->height, boxes, boxes == 1 ? "" : "es");
    }
    collection_free(&c);
    return CLI_OK;
}
