/* fuzz_lurd.c - libFuzzer target for the LURD reader and replay.
 *
 * Reads the input as a LURD string (up to its first NUL) and replays it on a small fixed
 * level. Whatever the bytes: no crash, no hang, no out-of-bounds access. When the text
 * parses, the steps written back by lurd_format (plain and run-length) must parse again
 * to the same steps. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/game.h"
#include "level/level.h"
#include "rules/lurd.h"

static const char fixed_level[] = "#######\n"
                                  "#.  . #\n"
                                  "# $$  #\n"
                                  "#@ #  #\n"
                                  "#######\n";

static bool same_steps(const lurd_steps *a, const lurd_steps *b)
{
    if (a->count != b->count) return false;
    for (int i = 0; i < a->count; i++)
        if (a->steps[i].direction != b->steps[i].direction || a->steps[i].push != b->steps[i].push)
            return false;
    return true;
}

static void check_format(const lurd_steps *steps, bool rle)
{
    char *text = lurd_format(steps->steps, steps->count, rle);
    if (!text) return;
    lurd_steps again;
    lurd_error error;
    if (!lurd_parse(text, &again, &error)) {
        fprintf(stderr, "lurd_format wrote \"%s\", which does not parse: %s\n", text,
                error.message);
        abort();
    }
    if (!same_steps(&again, steps)) {
        fprintf(stderr, "lurd_format wrote \"%s\", which parses to other steps\n", text);
        abort();
    }
    lurd_steps_free(&again);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static collection levels;
    static bool loaded;
    if (!loaded) {
        level_error error;
        if (!collection_parse(fixed_level, sizeof fixed_level - 1, "fixed", &levels, &error)) {
            fprintf(stderr, "%s\n", error.message);
            abort();
        }
        loaded = true;
    }
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    lurd_steps steps;
    lurd_error error;
    if (lurd_parse(text, &steps, &error)) {
        game g;
        if (game_init(&g, &levels.levels[0])) {
            lurd_apply(&g, &steps, &error);
            game_undo_push(&g);
            game_redo(&g);
            game_free(&g);
        }
        check_format(&steps, false);
        check_format(&steps, true);
        lurd_steps_free(&steps);
    }
    free(text);
    return 0;
}
