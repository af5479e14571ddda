/* verify.c - sokoban --verify: replays a LURD solution and says whether it solves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rules/game.h"
#include "rules/lurd.h"
#include "level/textfile.h"

enum { MAX_SOLUTION_FILE = 16 << 20 };

/* Reads the solution file named after '@'; returns a string to free(), or NULL after
 * printing why. */
static char *read_solution_file(const char *path)
{
    char *text, reason[200];
    size_t length;
    if (!textfile_read(path, MAX_SOLUTION_FILE, &text, &length, reason, sizeof reason)) {
        fprintf(stderr, "sokoban: %s: %s\n", path, reason);
        return NULL;
    }
    if (strlen(text) != length) {
        fprintf(stderr, "sokoban: %s: not a text file\n", path);
        free(text);
        return NULL;
    }
    return text;
}

/* Reads the solution from standard input ("@-"); returns a string to free(), or NULL after
 * printing why. */
static char *read_solution_stdin(void)
{
    size_t length = 0, size = 4096;
    char *text = malloc(size);
    while (text) {
        length += fread(text + length, 1, size - 1 - length, stdin);
        if (length < size - 1) break;
        if (size > MAX_SOLUTION_FILE) {
            fputs("sokoban: standard input: solution too long\n", stderr);
            free(text);
            return NULL;
        }
        char *larger = realloc(text, size * 2);
        if (!larger) free(text);
        text = larger;
        size *= 2;
    }
    if (!text) {
        fputs("sokoban: out of memory\n", stderr);
        return NULL;
    }
    text[length] = 0;
    if (ferror(stdin) || strlen(text) != length) {
        fprintf(stderr, "sokoban: standard input: %s\n",
                ferror(stdin) ? "cannot read" : "not a text file");
        free(text);
        return NULL;
    }
    return text;
}

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
        if (!(text = file_text = read_solution_stdin())) goto done;
    } else if (text[0] == '@' && !(text = file_text = read_solution_file(text + 1))) {
        goto done;
    }

    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(text, &steps, &error)) {
        /* name the solution file, so that the one line says where the fault is */
        if (file_text)
            fprintf(stderr, "sokoban: %s: bad solution: %s\n",
                    strcmp(options->solution, "@-") == 0 ? "standard input" : options->solution + 1,
                    error.message);
        else
            fprintf(stderr, "sokoban: bad solution: %s\n", error.message);
        goto done;
    }
    game g;
    if (!game_init(&g, lv)) {
        fputs("sokoban: out of memory\n", stderr);
        lurd_steps_free(&steps);
        goto done;
    }
    bool legal = lurd_apply(&g, &steps, &error);
    const char *title = lv->title[0] ? lv->title : "-";
    if (!legal) {
        printf("level %d (%s): illegal %s; %d %s, %d %s made before it\n", lv->number, title,
               error.message, g.moves, g.moves == 1 ? "move" : "moves", g.pushes,
               g.pushes == 1 ? "push" : "pushes");
        status = CLI_NO;
    } else if (game_is_solved(&g)) {
        printf("level %d (%s): solved in %d %s, %d %s\n", lv->number, title, g.moves,
               g.moves == 1 ? "move" : "moves", g.pushes, g.pushes == 1 ? "push" : "pushes");
        status = CLI_OK;
    } else {
        printf("level %d (%s): not solved after %d %s, %d %s\n", lv->number, title, g.moves,
               g.moves == 1 ? "move" : "moves", g.pushes, g.pushes == 1 ? "push" : "pushes");
        status = CLI_NO;
    }
    game_free(&g);
    lurd_steps_free(&steps);
done:
    free(file_text);
    collection_free(&c);
    return status;
}
