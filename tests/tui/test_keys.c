/* test_keys.c - the game's keys as the player reads them (src/tui/keys.c): the help screen,
 * --help's paragraph of keys, the man page's Keys section and the README's table of keys
 * name the same keys. The help screen and --help come from the key table; the man page
 * and the README are written by hand, so they are read here.
 *
 * A key is named by one character ("u", "?", "'") or by a name of NAMES ("Home", "Ctrl-L");
 * "hjkl" and "wasd" are four keys each; other words ("arrows", "mouse click") describe
 * keys, and are not compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>
#include <locale.h>

#include "tui/keys.h"

#define MAN_PAGE TEST_SOURCE_DIR "/../man/sokoban.6"
#define README TEST_SOURCE_DIR "/../README.md"

enum { MAX_KEYS = 128, KEY_TEXT = 16 };

static const char *const NAMES[] = {"Home", "End",    "Tab",    "Esc",       "Enter", "space",
                                    "F1",   "Ctrl-L", "Ctrl-R", "Backspace", "Delete"};

typedef struct key_list {
    char keys[MAX_KEYS][KEY_TEXT];
    int count;
} key_list;

static bool is_key_name(const char *word)
{
    if (strlen(word) == 1) return true;
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++)
        if (strcmp(word, NAMES[i]) == 0) return true;
    return false;
}

static bool has(const key_list *list, const char *key)
{
    for (int i = 0; i < list->count; i++)
        if (strcmp(list->keys[i], key) == 0) return true;
    return false;
}

/* Adds `word` (its first `length` bytes) when it names a key. */
static void add(key_list *list, const char *word, size_t length)
{
    char key[KEY_TEXT];
    if (length == 0 || length >= sizeof key) return;
    memcpy(key, word, length);
    key[length] = 0;
    if (strcmp(key, "hjkl") == 0 || strcmp(key, "wasd") == 0) { /* four keys in a word */
        for (size_t i = 0; i < length; i++) add(list, key + i, 1);
        return;
    }
    if (!is_key_name(key) || has(list, key)) return;
    assert_true(list->count < MAX_KEYS);
    strcpy(list->keys[list->count++], key);
}

/* The keys the help screen names: in its column of keys ("u  U", "space . , End + -"),
 * and the names in what a line says ("also Backspace / Ctrl-R"). */
static key_list help_screen_keys(void)
{
    key_list list = {0};
    int count;
    const keys_help_line *lines = keys_help(&count);
    for (int i = 0; i < count; i++) {
        for (const char *k = lines[i].keys; *k;) {
            size_t length = strcspn(k, " ");
            add(&list, k, length);
            k += length + strspn(k + length, " ");
        }
        for (const char *w = lines[i].what; *w;) {
            size_t length = strcspn(w, " ,;/()");
            if (length > 1) add(&list, w, length);
            w += length ? length : 1;
        }
    }
    return list;
}

/* The keys --help's paragraph names: its words, a word of more than one character cut at
 * the punctuation around it ("(space", "z/x", "stop);"). */
static key_list usage_keys(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    keys_print_usage(out);
    fclose(out);
    key_list list = {0};
    for (char *word = strtok(text, " \n"); word; word = strtok(NULL, " \n")) {
        if (strlen(word) == 1) {
            add(&list, word, 1);
            continue;
        }
        for (char *piece = word; *piece;) {
            size_t length = strcspn(piece, "/();,.");
            add(&list, piece, length);
            piece += length + (piece[length] != 0);
        }
    }
    free(text);
    return list;
}

/* The keys a line of the man page's Keys section names (the line after a .TP, as
 * `.BR space ", " . ", " , ", End, " + ", " \-`): an argument not quoted is one key; a
 * quoted one holds names between commas and spaces. \(aq is ', \- is -, \e is \. */
static void man_line_keys(key_list *list, const char *line)
{
    const char *p = line + strcspn(line, " ");
    while (*p) {
        p += strspn(p, " \n");
        if (!*p) break;
        bool quoted = *p == '"';
        char argument[64];
        size_t n = 0;
        if (quoted) p++;
        while (*p && *p != '\n' && (quoted ? *p != '"' : *p != ' ') && n + 1 < sizeof argument) {
            if (strncmp(p, "\\(aq", 4) == 0) {
                argument[n++] = '\'';
                p += 4;
            } else if (p[0] == '\\' && (p[1] == '-' || p[1] == 'e')) {
                argument[n++] = p[1] == '-' ? '-' : '\\';
                p += 2;
            } else {
                argument[n++] = *p++;
            }
        }
        if (quoted && *p == '"') p++;
        argument[n] = 0;
        if (!quoted) {
            add(list, argument, n);
            continue;
        }
        for (const char *a = argument; *a;) {
            size_t length = strcspn(a, ", ()");
            add(list, a, length);
            a += length + strspn(a + length, ", ()");
        }
    }
}

/* The keys of the man page's section that starts with the line `heading` (".SS Keys"). */
static key_list man_keys(const char *heading)
{
    FILE *f = fopen(MAN_PAGE, "r");
    assert_non_null(f);
    key_list list = {0};
    char line[512];
    bool in_keys = false, after_tp = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, ".SS", 3) == 0 || strncmp(line, ".SH", 3) == 0)
            in_keys = strncmp(line, heading, strlen(heading)) == 0;
        else if (in_keys && after_tp)
            man_line_keys(&list, line);
        after_tp = strncmp(line, ".TP", 3) == 0;
    }
    fclose(f);
    assert_true(list.count > 10); /* the section was found */
    return list;
}

/* The keys of the README's table of keys number `table` (0: the game's, 1: the level
 * editor's; each after a "| Keys |" line): in its first column, what is between
 * backquotes, and the names of NAMES outside them. */
static key_list readme_keys(int table)
{
    FILE *f = fopen(README, "r");
    assert_non_null(f);
    key_list list = {0};
    char line[4096];
    int tables = 0;
    bool in_table = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "| Keys |", 8) == 0) in_table = tables++ == table;
        if (!in_table) continue;
        if (line[0] != '|') break;
        char *cell = line + 1, *end = strchr(cell, '|');
        if (!end) continue;
        *end = 0;
        for (char *p = cell; *p;) {
            if (*p == '`') {
                char *close = strchr(p + 1, '`');
                if (!close) break;
                add(&list, p + 1, (size_t)(close - p - 1));
                p = close + 1;
            } else {
                size_t length = strcspn(p, " ,/`()");
                if (length > 1) add(&list, p, length);
                p += length ? length : 1;
            }
        }
    }
    fclose(f);
    assert_true(list.count > 10); /* the table was found */
    return list;
}

static void assert_all_in(const key_list *keys, const key_list *in, const char *from,
                          const char *where)
{
    for (int i = 0; i < keys->count; i++)
        if (!has(in, keys->keys[i]))
            fail_msg("%s names the key \"%s\", %s does not", from, keys->keys[i], where);
}

/* ---------------------------------------------------------------- tests */

static void test_every_key_of_the_help_screen_is_in_help_man_page_and_readme(void **state)
{
    (void)state;
    key_list screen = help_screen_keys(), usage = usage_keys(), man = man_keys(".SS Keys"),
             readme = readme_keys(0);
    assert_all_in(&screen, &usage, "the help screen", "--help");
    assert_all_in(&screen, &man, "the help screen", "the man page's Keys section");
    assert_all_in(&screen, &readme, "the help screen", "the README's table of keys");
}

static void test_every_key_of_the_man_page_is_on_the_help_screen(void **state)
{
    (void)state;
    key_list screen = help_screen_keys(), man = man_keys(".SS Keys");
    assert_all_in(&man, &screen, "the man page's Keys section", "the help screen");
}

/* The level editor's keys: its own list (? in the editor) is drawn by src/tui/editor_draw.c;
 * the man page and the README tell the same keys. */
static void test_the_editors_keys_are_the_same_in_man_page_and_readme(void **state)
{
    (void)state;
    key_list man = man_keys(".SH THE LEVEL EDITOR"), readme = readme_keys(1);
    assert_all_in(&man, &readme, "the man page's THE LEVEL EDITOR", "the README's editor keys");
    assert_all_in(&readme, &man, "the README's editor keys", "the man page's THE LEVEL EDITOR");
}

/* The name a player would give `key`, or NULL for a key that is no key of a keyboard's own
 * (a mouse event, a resize). */
static const char *key_text(int key, char *out, size_t size)
{
    if (key == '\n') return "Enter";
    if (key == '\t') return "Tab";
    if (key == 27) return "Esc";
    if (key == ' ') return "space";
    if (key == ('L' & 0x1f)) return "Ctrl-L";
    if (key == KEY_HOME) return "Home";
    if (key == KEY_END) return "End";
    if (key >= KEY_F(1) && key <= KEY_F(12)) {
        snprintf(out, size, "F%d", key - KEY_F0);
        return out;
    }
    if (key > ' ' && key < 127) {
        snprintf(out, size, "%c", key);
        return out;
    }
    return NULL;
}

/* Every key the game answers is named on the help screen, or is told there in words (the
 * moves: arrows, hjkl, wasd, and W A J K for Caps Lock; Backspace and Ctrl-R beside u and
 * U), or is another spelling of a key named, which the man page and the README tell (Z X Q
 * for Caps Lock; = and _, the keys + and - are on; the carriage return of Enter). */
static void test_every_key_the_game_answers_is_named_on_the_help_screen(void **state)
{
    (void)state;
    static const int told_in_words[] = {
        KEY_LEFT,   KEY_UP,     KEY_RIGHT, KEY_DOWN, 'h', 'j', 'k', 'l',           'w',
        'a',        's',        'd',       'W',      'A', 'J', 'K', KEY_BACKSPACE, 127,
        'H' & 0x1f, 'R' & 0x1f, 'Z',       'X',      'Q', '=', '_', '\r',          KEY_ENTER};
    key_list screen = help_screen_keys();
    for (int key = 1; key < KEY_MAX; key++) {
        if (keys_action(key) == KEY_ACTION_NONE) continue;
        bool told = false;
        for (size_t i = 0; i < sizeof told_in_words / sizeof *told_in_words; i++)
            told |= told_in_words[i] == key;
        char buffer[KEY_TEXT];
        const char *name = key_text(key, buffer, sizeof buffer);
        if (told || !name) continue;
        if (!has(&screen, name))
            fail_msg("the game answers the key \"%s\", the help screen does not name it", name);
    }
}

/* A key with modifiers is named as the player reads it, not by its curses name. */
static void test_keys_with_modifiers_are_named_as_written(void **state)
{
    (void)state;
    char out[32] = "";
    assert_true(keys_modified_name("kLFT5", out, sizeof out));
    assert_string_equal(out, "Ctrl-Left");
    assert_true(keys_modified_name("kUP3", out, sizeof out));
    assert_string_equal(out, "Alt-Up");
    assert_true(keys_modified_name("kNXT2", out, sizeof out));
    assert_string_equal(out, "Shift-PgDn");
    assert_true(keys_modified_name("kDC8", out, sizeof out));
    assert_string_equal(out, "Shift-Alt-Ctrl-Delete");
    assert_false(keys_modified_name("kLFT", out, sizeof out)); /* no modifier */
    assert_false(keys_modified_name("kLFT9", out, sizeof out));
    assert_false(keys_modified_name("kxIN", out, sizeof out));
    assert_false(keys_modified_name("KEY_F(5)", out, sizeof out));
}

/* Shift with an arrow, Home, End, PgUp, PgDn, Insert or Delete has a key code of curses'
 * own (KEY_SLEFT... from the terminal's kLFT, kri, kind...; no kLFT2), named as the player
 * reads it: it said "Unknown key SLEFT", "SR" for Shift-Up, "SF" for Shift-Down. */
static void test_shifted_keys_are_named_as_written(void **state)
{
    (void)state;
    static const struct {
        int key;
        const char *name;
    } shifted[] = {{KEY_SLEFT, "Shift-Left"},
                   {KEY_SRIGHT, "Shift-Right"},
                   {KEY_SR, "Shift-Up"},
                   {KEY_SF, "Shift-Down"},
                   {KEY_SHOME, "Shift-Home"},
                   {KEY_SEND, "Shift-End"},
                   {KEY_SPREVIOUS, "Shift-PgUp"},
                   {KEY_SNEXT, "Shift-PgDn"},
                   {KEY_SIC, "Shift-Insert"},
                   {KEY_SDC, "Shift-Delete"},
                   {KEY_SLEFT | KEYS_ALT, "Alt-Shift-Left"}};
    for (size_t i = 0; i < sizeof shifted / sizeof shifted[0]; i++) {
        char out[32] = "";
        keys_name(shifted[i].key, out, sizeof out);
        assert_string_equal(out, shifted[i].name);
    }
}

/* Enter, Tab and Backspace (with Alt: Esc and the key at once) are named as written on the
 * keys: it said "Alt-Ctrl-M", "Alt-Ctrl-I" and "Alt-BACKSPACE". */
static void test_enter_tab_and_backspace_are_named_as_written(void **state)
{
    (void)state;
    static const struct {
        int key;
        const char *name;
    } keys[] = {{'\r' | KEYS_ALT, "Alt-Enter"},
                {'\n' | KEYS_ALT, "Alt-Enter"},
                {KEY_ENTER, "Enter"},
                {'\t' | KEYS_ALT, "Alt-Tab"},
                {KEY_BACKSPACE | KEYS_ALT, "Alt-Backspace"},
                {127, "Backspace"},
                {'L' - 64, "Ctrl-L"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char out[32] = "";
        keys_name(keys[i].key, out, sizeof out);
        assert_string_equal(out, keys[i].name);
    }
}

/* The name of `key` in the locale `locale` (the game's names follow the locale it set). */
static void assert_named(const char *locale, int key, const char *expected)
{
    assert_non_null(setlocale(LC_ALL, locale));
    char out[32] = "";
    keys_name(key, out, sizeof out);
    setlocale(LC_ALL, "C");
    assert_string_equal(out, expected);
}

/* A character past ASCII, read whole (KEYS_CHARACTER), is named as itself where the screen
 * shows UTF-8, with Alt too; it said "M-)", curses' name of its last byte 0xA9, and with Alt
 * "Alt-M-C" then "M-)". */
static void test_a_character_past_ascii_is_named_itself(void **state)
{
    (void)state;
    assert_named("C.UTF-8", KEYS_CHARACTER | 0xE9, "'é'");
    assert_named("C.UTF-8", KEYS_ALT | KEYS_CHARACTER | 0xE9, "Alt-é");
    assert_named("C.UTF-8", KEYS_CHARACTER | 0x6F22, "'漢'"); /* two columns */
    assert_named("C.UTF-8", KEYS_CHARACTER | 0x1F600, "'\xF0\x9F\x98\x80'");
}

/* Where the screen cannot show it (the C locale shows '?' for any character past ASCII), and
 * for a character that takes no column (a combining mark) or is never shown (a control),
 * the name is its code point, never its bytes. */
static void test_a_character_not_shown_is_named_by_its_code_point(void **state)
{
    (void)state;
    assert_named("C", KEYS_CHARACTER | 0xE9, "U+00E9");
    assert_named("C", KEYS_ALT | KEYS_CHARACTER | 0xE9, "Alt-U+00E9");
    assert_named("C", KEYS_CHARACTER | 0x1F600, "U+1F600");
    assert_named("C.UTF-8", KEYS_CHARACTER | 0x301, "U+0301");  /* combining acute */
    assert_named("C.UTF-8", KEYS_CHARACTER | 0x202E, "U+202E"); /* right-to-left override */
}

/* A byte that is no whole character (a stray continuation byte, a Latin-1 byte where UTF-8
 * is read) is named as a byte, never written raw nor as curses' "M-)". */
static void test_a_byte_alone_is_named_as_a_byte(void **state)
{
    (void)state;
    assert_named("C.UTF-8", 0xA9, "byte A9");
    assert_named("C", 0xC3, "byte C3");
    assert_named("C.UTF-8", KEYS_ALT | 0xE9, "Alt-byte E9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key_of_the_help_screen_is_in_help_man_page_and_readme),
        cmocka_unit_test(test_every_key_of_the_man_page_is_on_the_help_screen),
        cmocka_unit_test(test_every_key_the_game_answers_is_named_on_the_help_screen),
        cmocka_unit_test(test_the_editors_keys_are_the_same_in_man_page_and_readme),
        cmocka_unit_test(test_keys_with_modifiers_are_named_as_written),
        cmocka_unit_test(test_shifted_keys_are_named_as_written),
        cmocka_unit_test(test_enter_tab_and_backspace_are_named_as_written),
        cmocka_unit_test(test_a_character_past_ascii_is_named_itself),
        cmocka_unit_test(test_a_character_not_shown_is_named_by_its_code_point),
        cmocka_unit_test(test_a_byte_alone_is_named_as_a_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
