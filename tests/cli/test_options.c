/* test_options.c - the option table (src/cli/options.c): the man page lists exactly its
 * options with their values, and the parser answers as the table says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <getopt.h>

#include "cli/options.h"

#define MAN_PAGE TEST_SOURCE_DIR "/../man/sokoban.6"
#define MAX_HEADERS 64

/* How --help names a row: "--level N", "--help, -h", "--tiles TILES" (quotes dropped).
 * Only the value's first word: --verify's second (SOL) is an operand, not the option's. */
static void row_label(const cli_option_row *row, char *out, size_t size)
{
    snprintf(out, size, "--%s", row->name);
    if (row->short_name) snprintf(out + strlen(out), size - strlen(out), ", -%c", row->short_name);
    if (row->value) {
        char value[64];
        size_t n = 0;
        for (const char *v = row->value; *v && *v != ' ' && n + 1 < sizeof value; v++)
            if (*v != '"') value[n++] = *v;
        value[n] = 0;
        snprintf(out + strlen(out), size - strlen(out), " %s", value);
    }
}

/* A man page line of a .TP entry (".BI \-\-level " N"), as text: "--level N". Quoted
 * arguments are taken as they are, others joined without space, "\-" is "-". Only the
 * value's first word is kept, as row_label does. */
static void man_label(const char *line, char *out, size_t size)
{
    size_t n = 0;
    const char *p = strchr(line, ' ');
    bool quoted = false;
    for (p = p ? p + 1 : line + strlen(line); *p && *p != '\n' && n + 1 < size; p++) {
        if (*p == '"') {
            quoted = !quoted;
        } else if (*p == '\\' && p[1] == '-') {
            out[n++] = '-';
            p++;
        } else if (*p != ' ' || quoted) {
            out[n++] = *p;
        }
    }
    out[n] = 0;
    /* keep "--name, -x" or "--name WORD": cut at a second space after the name's value */
    char *space = strchr(out, ' ');
    if (space && space[-1] != ',') {
        char *second = strchr(space + 1, ' ');
        if (second) *second = 0;
    }
}

/* The labels of the man page's option entries: a .TP followed by a .B, .BI or .BR line
 * that starts with "\-\-". */
static int man_labels(char labels[][80])
{
    FILE *f = fopen(MAN_PAGE, "r");
    assert_non_null(f);
    char line[512];
    bool after_tp = false;
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        if (after_tp && line[0] == '.' && line[1] == 'B' &&
            strstr(line, " \\-\\-") == line + strcspn(line, " ")) {
            assert_true(count < MAX_HEADERS);
            man_label(line, labels[count++], 80);
        }
        after_tp = strncmp(line, ".TP", 3) == 0;
    }
    fclose(f);
    return count;
}

static void test_man_page_lists_every_option_of_the_table(void **state)
{
    (void)state;
    char labels[MAX_HEADERS][80];
    int count = man_labels(labels);
    for (int i = 0; i < cli_option_count; i++) {
        char label[80];
        row_label(&cli_option_rows[i], label, sizeof label);
        int found = 0;
        for (int j = 0; j < count; j++) found += strcmp(labels[j], label) == 0;
        if (found != 1) fail_msg("the man page has %d entries \"%s\", expected 1", found, label);
    }
}

static void test_man_page_lists_no_option_the_table_lacks(void **state)
{
    (void)state;
    char labels[MAX_HEADERS][80];
    int count = man_labels(labels);
    for (int j = 0; j < count; j++) {
        bool found = false;
        for (int i = 0; i < cli_option_count; i++) {
            char label[80];
            row_label(&cli_option_rows[i], label, sizeof label);
            found |= strcmp(labels[j], label) == 0;
        }
        if (!found)
            fail_msg("the man page lists \"%s\", which is no option of the table", labels[j]);
    }
    assert_int_equal(count, cli_option_count);
}

/* ---- the synopses: --help's usage and the README's command-line block */

#define README TEST_SOURCE_DIR "/../README.md"
enum { MAX_ENTRIES = 16 };

/* A synopsis cut into its commands: one entry from each "sokoban" on, its lines after
 * the first (those that do not name sokoban) joined to it. */
typedef struct synopsis {
    char entries[MAX_ENTRIES][1024];
    int count;
} synopsis;

static void synopsis_add_line(synopsis *s, const char *line)
{
    const char *command = strstr(line, "sokoban");
    if (command) {
        assert_true(s->count < MAX_ENTRIES);
        snprintf(s->entries[s->count++], sizeof s->entries[0], "%s", command);
    } else if (s->count > 0) {
        char *entry = s->entries[s->count - 1];
        snprintf(entry + strlen(entry), sizeof s->entries[0] - strlen(entry), " %s", line);
    }
}

/* --help's usage: its lines up to the first blank one. */
static synopsis help_synopsis(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    cli_print_help(out);
    fclose(out);
    synopsis s = {0};
    for (char *line = strtok(text, "\n"); line && line[0]; line = strtok(NULL, "\n")) {
        if (strstr(line, "sokoban") == NULL && line[0] != ' ') break; /* the text after */
        synopsis_add_line(&s, line);
    }
    free(text);
    return s;
}

/* The README's block of commands: the first ``` block after "## Command line". */
static synopsis readme_synopsis(void)
{
    FILE *f = fopen(README, "r");
    assert_non_null(f);
    synopsis s = {0};
    char line[1024];
    int state = 0; /* 0: before the section, 1: in it, 2: in its block */
    while (fgets(line, sizeof line, f) && state < 3) {
        line[strcspn(line, "\n")] = 0;
        if (state == 0 && strcmp(line, "## Command line") == 0)
            state = 1;
        else if (state >= 1 && strncmp(line, "```", 3) == 0)
            state++;
        else if (state == 2)
            synopsis_add_line(&s, line);
    }
    fclose(f);
    assert_true(s.count > 5);
    return s;
}

/* True when `entry` holds the option --NAME as a word of its own ("--time", not the end
 * of "--hint-time"). */
static bool names_option(const char *entry, const char *name)
{
    size_t length = strlen(name);
    for (const char *p = strstr(entry, "--"); p; p = strstr(p + 1, "--")) {
        bool starts = p == entry || p[-1] == ' ' || p[-1] == '[' || p[-1] == '|';
        char after = p[2 + length];
        if (starts && strncmp(p + 2, name, length) == 0 &&
            !(after == '-' || (after >= 'a' && after <= 'z')))
            return true;
    }
    return false;
}

/* The entries of `mode`: the one that names the option starting it, or for the game those
 * that start "sokoban [" and "sokoban --edit". */
static bool entry_is_of_mode(const char *entry, cli_mode mode)
{
    if (mode == CLI_MODE_PLAY)
        return strncmp(entry, "sokoban [", 9) == 0 || strncmp(entry, "sokoban --edit", 14) == 0;
    for (int i = 0; i < cli_option_count; i++)
        if (cli_option_rows[i].starts == mode && names_option(entry, cli_option_rows[i].name))
            return true;
    return false;
}

/* Each option is in the synopsis of every mode that takes it. */
static void check_synopsis(const synopsis *s, const char *where)
{
    for (int i = 0; i < cli_option_count; i++) {
        const cli_option_row *row = &cli_option_rows[i];
        for (int mode = CLI_MODE_PLAY; mode < CLI_MODE_HELP; mode++) {
            if (!(row->taken_by & CLI_TAKEN_BY(mode))) continue;
            bool found = false, mode_found = false;
            for (int e = 0; e < s->count; e++) {
                if (!entry_is_of_mode(s->entries[e], (cli_mode)mode)) continue;
                mode_found = true;
                found |= names_option(s->entries[e], row->name);
            }
            if (!mode_found) fail_msg("%s has no line for mode %d", where, mode);
            if (!found) fail_msg("%s: --%s is missing from mode %d's line", where, row->name, mode);
        }
    }
}

static void test_help_usage_names_each_option_with_every_mode_that_takes_it(void **state)
{
    (void)state;
    synopsis s = help_synopsis();
    check_synopsis(&s, "--help's usage");
}

static void test_readme_command_block_names_each_option_with_every_mode_that_takes_it(void **state)
{
    (void)state;
    synopsis s = readme_synopsis();
    check_synopsis(&s, "the README's command-line block");
}

/* ---- the parser, as the table says */

static int parse(cli_command *command, int argc, const char **argv)
{
    optind = 0; /* getopt starts over */
    return cli_parse(argc, (char **)argv, command);
}

#define PARSE(command, ...)                                                                        \
    parse(command, (int)(sizeof((const char *[]){"sokoban", __VA_ARGS__}) / sizeof(char *)),       \
          (const char *[]){"sokoban", __VA_ARGS__})

static void test_values_go_to_their_fields(void **state)
{
    (void)state;
    cli_command c;
    assert_int_equal(PARSE(&c, "--solve", "a.xsb", "--level", "3", "--time", "2.5", "--nodes",
                           "1000", "--memory", "64", "--mode", "optimal", "--threads", "2"),
                     CLI_OK);
    assert_int_equal(c.mode, CLI_MODE_SOLVE);
    assert_string_equal(c.options.files[0], "a.xsb");
    assert_int_equal(c.options.file_count, 1);
    assert_int_equal(c.options.level, 3);
    assert_true(c.options.time_seconds == 2.5);
    assert_int_equal(c.options.node_limit, 1000);
    assert_int_equal(c.options.memory_bytes, (size_t)64 << 20);
    assert_string_equal(c.options.mode, "optimal");
    assert_int_equal(c.options.threads, 2);
}

static void test_the_game_takes_its_files_and_flags(void **state)
{
    (void)state;
    cli_command c;
    assert_int_equal(PARSE(&c, "--no-solve-ahead", "--hint-time", "3", "x.xsb", "y.xsb"), CLI_OK);
    assert_int_equal(c.mode, CLI_MODE_PLAY);
    assert_true(c.options.no_solve_ahead);
    assert_true(c.options.hint_seconds == 3);
    assert_int_equal(c.options.file_count, 2);
    assert_string_equal(c.options.files[1], "y.xsb");
}

static void test_values_out_of_the_rows_range_are_refused(void **state)
{
    (void)state;
    cli_command c;
    assert_int_equal(PARSE(&c, "--solve", "a", "--threads", "65"), CLI_BAD_INPUT);
    assert_int_equal(PARSE(&c, "--solve", "a", "--threads", "64"), CLI_OK);
    assert_int_equal(PARSE(&c, "--solve", "a", "--level", "0"), CLI_BAD_INPUT);
    assert_int_equal(PARSE(&c, "--solve", "a", "--mode", "opt"), CLI_BAD_INPUT);
    assert_int_equal(PARSE(&c, "--solve", "a", "--mode", "fast"), CLI_OK);
    assert_int_equal(PARSE(&c, "--solve", "a", "--time", "0"), CLI_BAD_INPUT);
}

static void test_an_option_is_taken_only_by_the_modes_its_row_names(void **state)
{
    (void)state;
    cli_command c;
    for (int i = 0; i < cli_option_count; i++) {
        const cli_option_row *row = &cli_option_rows[i];
        if (row->starts != CLI_MODE_PLAY || !row->value) continue;
        char name[64];
        snprintf(name, sizeof name, "--%s", row->name);
        /* a choice's first word ("optimal" of "optimal|fast"), else a number */
        char value[64] = "1";
        if (row->kind == CLI_VALUE_CHOICE)
            snprintf(value, sizeof value, "%.*s", (int)strcspn(row->value, "|"), row->value);
        /* --list takes no option */
        assert_int_equal(PARSE(&c, "--list", "a", name, value), CLI_BAD_INPUT);
        assert_int_equal(PARSE(&c, "--solve", "a", name, value),
                         row->taken_by & CLI_TAKEN_BY(CLI_MODE_SOLVE) ? CLI_OK : CLI_BAD_INPUT);
    }
}

static void test_help_and_version_end_the_parse(void **state)
{
    (void)state;
    cli_command c;
    assert_int_equal(PARSE(&c, "-h", "--level", "0"), CLI_OK);
    assert_int_equal(c.mode, CLI_MODE_HELP);
    assert_int_equal(PARSE(&c, "--version"), CLI_OK);
    assert_int_equal(c.mode, CLI_MODE_VERSION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_man_page_lists_every_option_of_the_table),
        cmocka_unit_test(test_man_page_lists_no_option_the_table_lacks),
        cmocka_unit_test(test_help_usage_names_each_option_with_every_mode_that_takes_it),
        cmocka_unit_test(test_readme_command_block_names_each_option_with_every_mode_that_takes_it),
        cmocka_unit_test(test_values_go_to_their_fields),
        cmocka_unit_test(test_the_game_takes_its_files_and_flags),
        cmocka_unit_test(test_values_out_of_the_rows_range_are_refused),
        cmocka_unit_test(test_an_option_is_taken_only_by_the_modes_its_row_names),
        cmocka_unit_test(test_help_and_version_end_the_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
