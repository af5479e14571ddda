/* test_snapshots.c - a snapshot's name as it is typed (snapshots.h): a byte a key, kept within
 * the name's room and whole UTF-8 whatever the bytes (no terminal, no saved progress). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "level/utf8.h"
#include "tui/play.h"
#include "tui/snapshots.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_stays_in_its_room_whatever_the_bytes),
        cmocka_unit_test(test_forty_characters_of_four_bytes_fit),
        cmocka_unit_test(test_a_character_refused_leaves_no_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
