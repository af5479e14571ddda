/* fuzz_level.c - libFuzzer target for the level parser and writer.
 *
 * Parses the input as a level collection. Whatever the bytes, the parser must return
 * (no crash, no hang, no out-of-bounds read: the sanitizers watch). When it accepts the
 * input, each level must survive the round trip: level_to_text, parsed again, gives one
 * level with the same size, squares, title, author and comment. The rules are then built
 * on it, which checks board.h's promise that the player's region is closed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/board.h"
#include "level/level.h"

/* Stops the run with the level's text, so the finding is easy to read. */
static void round_trip_failed(const level *original, const char *text, const char *what)
{
    fprintf(stderr, "round trip of level %d changed its %s; written as:\n%s\n", original->number,
            what, text);
    abort();
}

static void check_round_trip(const level *original)
{
    char *text = level_to_text(original);
    if (!text) return; /* out of memory */
    collection again;
    level_error error;
    if (!collection_parse(text, strlen(text), "round-trip", &again, &error)) {
        fprintf(stderr, "%s\n", error.message);
        round_trip_failed(original, text, "readability");
    }
    if (again.count != 1) round_trip_failed(original, text, "level count");
    const level *copy = &again.levels[0];
    if (copy->width != original->width || copy->height != original->height)
        round_trip_failed(original, text, "size");
    if (memcmp(copy->squares, original->squares,
               (size_t)original->width * (size_t)original->height) != 0)
        round_trip_failed(original, text, "squares");
    if (strcmp(copy->title, original->title) != 0) round_trip_failed(original, text, "title");
    if (strcmp(copy->author, original->author) != 0) round_trip_failed(original, text, "author");
    if (strcmp(copy->comment, original->comment) != 0) round_trip_failed(original, text, "comment");
    collection_free(&again);
    free(text);
}

static void check_board(const level *lv)
{
    board b;
    position start;
    if (!board_from_level(lv, &b, &start)) return;
    uint8_t *reach = malloc((size_t)b.size);
    if (reach) board_reachable(&b, &start, reach);
    free(reach);
    position_free(&start);
    board_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collection c;
    level_error error;
    if (!collection_parse((const char *)data, size, "fuzz", &c, &error)) return 0;
    for (int i = 0; i < c.count; i++) {
        if (c.levels[i].error) continue; /* kept with its reason, never played */
        check_round_trip(&c.levels[i]);
        check_board(&c.levels[i]);
    }
    collection_free(&c);
    return 0;
}
