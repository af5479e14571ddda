/* test_snapshots.c - a snapshot's name as it is typed (snapshots.h): a byte a key or a
 * character whole, kept within the name's room and whole UTF-8 whatever the bytes; and the
 * steps in play that restoring a snapshot loses (no terminal, no saved progress). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "level/utf8.h"
#include "tui/keys.h"
#include "tui/play.h"
#include "tui/snapshots.h"

#include "level_fixture.h"

static play player; /* the message line is all that naming touches */

/* Starts a name and types `bytes` into it, a byte a key. */
static void type_name(snapshot_screen *s, const char *bytes)
{
    memset(s, 0, sizeof *s);
    snapshots_start_naming(s, &player);
    for (const char *c = bytes; *c; c++) snapshots_naming_key(s, &player, (unsigned char)*c);
}

/* A character's first byte, then more continuation bytes than UTF-8 allows (a Latin-1
 * terminal's U+00A9 is 0xA9, a continuation byte), then letters: the stray bytes are not
 * taken, nor anything past the name's room. */
static void test_name_stays_in_its_room_whatever_the_bytes(void **state)
{
    (void)state;
    char typed[320];
    memset(typed, 'b', 300);
    typed[0] = 'a';
    memset(typed + 1, 0xA9, 200);
    typed[300] = '\0';
    snapshot_screen s;
    type_name(&s, typed);
    assert_int_equal(s.length, SNAPSHOT_NAME_MAX);
    assert_int_equal(strlen(s.name), (size_t)SNAPSHOT_NAME_MAX);
    assert_int_equal(s.name[0], 'a');
    assert_int_equal(s.name[1], 'b');
    assert_non_null(strstr(player.message, s.name));
    snapshots_naming_key(&s, &player, 27);
    assert_false(s.naming);
}

/* Forty characters of four bytes each fill the room exactly: all are taken. */
static void test_forty_characters_of_four_bytes_fit(void **state)
{
    (void)state;
    char typed[4 * (SNAPSHOT_NAME_MAX + 5) + 1] = "";
    for (int i = 0; i < SNAPSHOT_NAME_MAX + 5; i++) strcat(typed, "\xF0\x9F\x98\x80"); /* U+1F600 */
    snapshot_screen s;
    type_name(&s, typed);
    assert_int_equal(s.length, SNAPSHOT_NAME_BYTES);
    assert_true(utf8_valid(s.name, (size_t)s.length));
}

/* The character past the fortieth is refused whole: its continuation bytes do not go on the
 * character before it (the name "...\xE6\xBC\xA2" + 0xAD 0x97, not UTF-8). */
static void test_a_character_refused_leaves_no_bytes(void **state)
{
    (void)state;
    char typed[64];
    memset(typed, 'a', 39);
    snprintf(typed + 39, sizeof typed - 39, "\xE6\xBC\xA2\xE5\xAD\x97 xyz"); /* two CJK */
    snapshot_screen s;
    type_name(&s, typed);
    assert_int_equal(s.length, 39 + 3);
    assert_memory_equal(s.name + 39, "\xE6\xBC\xA2", 4);
    assert_true(utf8_valid(s.name, (size_t)s.length));
}

/* A character the terminal sent whole comes as one key (keys.h: KEYS_CHARACTER) and goes
 * into the name as its UTF-8; with Alt it is no text; a character begun before it and not
 * finished is left out, said so. */
static void test_a_character_read_whole_is_typed(void **state)
{
    (void)state;
    snapshot_screen s;
    type_name(&s, "caf");
    snapshots_naming_key(&s, &player, KEYS_CHARACTER | 0xE9);
    assert_string_equal(s.name, "caf\xC3\xA9");
    snapshots_naming_key(&s, &player, KEYS_ALT | KEYS_CHARACTER | 0xE9);
    snapshots_naming_key(&s, &player, KEYS_ALT | 'u');
    assert_string_equal(s.name, "caf\xC3\xA9");
    assert_true(s.naming);
    snapshots_naming_key(&s, &player, 0xE6); /* a CJK character's first byte, then one whole */
    snapshots_naming_key(&s, &player, KEYS_CHARACTER | 0x6F22);
    assert_string_equal(s.name, "caf\xC3\xA9\xE6\xBC\xA2");
    assert_non_null(strstr(player.message, "Left out"));
}

/* The steps a snapshot lacks among those in play (made, then undone) on a level drawn here:
 * those past the steps both begin with, the undone ones counted apart; none when the
 * snapshot begins with all of them. (The question said "Restore over 6 moves in play?",
 * counting every step in play, those the snapshot shares too.) */
static void test_restoring_loses_the_steps_past_those_shared(void **state)
{
    (void)state;
    collection levels;
    memset(&player, 0, sizeof player);
    level_fixture_open_game(&player.game, &levels,
                            "#########\n"
                            "#@     .#\n"
                            "#   $   #\n"
                            "#########\n");
    progress_snapshot snapshot = {.lurd = "rr", .redo = "d"};
    int undone = -1;
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 0); /* no steps */
    direction steps[] = {DIR_RIGHT, DIR_RIGHT, DIR_RIGHT, DIR_LEFT, DIR_LEFT, DIR_LEFT};
    for (int i = 0; i < 6; i++) game_step_in(&player.game, steps[i]);       /* rrrlll */
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 4); /* rr shared */
    assert_int_equal(undone, 0);
    for (int i = 0; i < 3; i++) game_undo(&player.game); /* rrr made, lll undone */
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 4);
    assert_int_equal(undone, 3);
    for (int i = 0; i < 2; i++) game_undo(&player.game); /* r made, rrlll undone */
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 4);
    assert_int_equal(undone, 4);
    snapshot.redo = "rlll"; /* the snapshot holds every step in play: nothing lost */
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 0);
    snapshot.redo = "rlllrr"; /* and more */
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 0);
    snapshot.redo = "";
    assert_int_equal(snapshots_steps_lost(&player, &snapshot, &undone), 4);
    level_fixture_close_game(&player.game, &levels);
    memset(&player, 0, sizeof player);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_stays_in_its_room_whatever_the_bytes),
        cmocka_unit_test(test_forty_characters_of_four_bytes_fit),
        cmocka_unit_test(test_a_character_refused_leaves_no_bytes),
        cmocka_unit_test(test_a_character_read_whole_is_typed),
        cmocka_unit_test(test_restoring_loses_the_steps_past_those_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
