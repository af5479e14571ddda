/* verify.c - sokoban --verify: replays a LURD solution and says whether it solves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "level/utf8.h"
#include "rules/game.h"
#include "rules/lurd.h"

int cli_verify(const cli_options *options)
{
    collection c;
    if (!cli_load_collection(options, &c)) return CLI_BAD_INPUT;
    const level *lv = cli_pick_level(options, &c);
    char *file_text = NULL;
    const char *text = options->solution;
    int status = CLI_BAD_INPUT;
    if (!lv) goto done;
    /* "-": no steps, as --solve and --hint print the rest of a position already solved */
    if (strcmp(text, "-") == 0) {
        text = "";
    } else if (strcmp(text, "@-") == 0) {
        if (!(text = file_text = cli_read_stdin())) goto done;
    } else if (text[0] == '@' && !(text = file_text = cli_read_text_file(text + 1))) {
        goto done;
    }

    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(text, &steps, &error)) {
        /* name the solution file, so that the one line says where the fault is */
        if (file_text)
            cli_say("%s: bad solution: %s",
                    strcmp(options->solution, "@-") == 0 ? "standard input" : options->solution + 1,
                    error.message);
        else
            cli_say("bad solution: %s", error.message);
        goto done;
    }
    game g;
    if (!game_init(&g, lv)) {
        fputs("sokoban: out of memory\n", stderr);
        lurd_steps_free(&steps);
        goto done;
    }
    bool legal = lurd_apply(&g, &steps, &error);
    /* the title as the screen shows it: without control characters */
    const char *title = lv->title[0] ? lv->title : "-";
    printf("level %d (", lv->number);
    utf8_write_shown(stdout, title, strlen(title));
    fputs("): ", stdout);
    if (!legal) {
        printf("illegal %s; %d %s, %d %s made before it\n", error.message, g.moves,
               g.moves == 1 ? "move" : "moves", g.pushes, g.pushes == 1 ? "push" : "pushes");
        status = CLI_NO;
    } else if (game_is_solved(&g)) {
        printf("solved in %d %s, %d %s\n", g.moves, g.moves == 1 ? "move" : "moves", g.pushes,
               g.pushes == 1 ? "push" : "pushes");
        status = CLI_OK;
    } else {
        printf("not solved after %d %s, %d %s\n", g.moves, g.moves == 1 ? "move" : "moves",
               g.pushes, g.pushes == 1 ? "push" : "pushes");
        status = CLI_NO;
    }
    game_free(&g);
    lurd_steps_free(&steps);
done:
    free(file_text);
    collection_free(&c);
    return status;
}
