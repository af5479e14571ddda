/* common.c - what the command-line modes share: loading the collection, picking a level,
 * reading a solution's text. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "level/collection.h"
#include "level/textfile.h"
#include "level/utf8.h"

#include "cli.h"

bool cli_load_collection(const cli_options *options, collection *out)
{
    if (options->file_count < 1) {
        fputs("sokoban: no level file given\n", stderr);
        return false;
    }
    level_error error;
    char *file;
    int number = collection_split_level(options->files[0], &file);
    bool loaded = number >= 0 && collection_open(file ? file : options->files[0], out, &error);
    if (number == COLLECTION_LEVEL_ZERO || number == COLLECTION_LEVEL_TOO_LARGE)
        collection_split_level_error(options->files[0], number, &error);
    else if (number < 0)
        snprintf(error.message, sizeof error.message, "out of memory");
    free(file);
    if (!loaded) {
        cli_say("%s", error.message);
        return false;
    }
    return true;
}

const level *cli_pick_level(const cli_options *options, const collection *c)
{
    char *file;
    int from_file = collection_split_level(options->files[0], &file); /* FILE:N */
    free(file);
    if (from_file > 0 && options->level && options->level != from_file) {
        cli_say("%s and --level %d name two levels; give one", options->files[0], options->level);
        return NULL;
    }
    int number = options->level ? options->level : from_file > 0 ? from_file : 1;
    if (number > c->count) {
        struct stat info;
        bool folder = stat(c->path, &info) == 0 && S_ISDIR(info.st_mode);
        cli_say("%s: no level %d (the %s has %d level%s)", c->path, number,
                folder ? "folder" : "file", c->count, c->count == 1 ? "" : "s");
        return NULL;
    }
    const level *lv = &c->levels[number - 1];
    if (lv->error) {
        cli_say("%s", lv->error);
        return NULL;
    }
    return lv;
}

enum { MAX_SOLUTION_FILE = 16 << 20 };

char *cli_read_text_file(const char *path)
{
    char *text, reason[200];
    size_t length;
    if (!textfile_read(path, MAX_SOLUTION_FILE, &text, &length, reason, sizeof reason)) {
        cli_say("%s: %s", path, reason);
        return NULL;
    }
    if (strlen(text) != length) {
        cli_say("%s: not a text file", path);
        free(text);
        return NULL;
    }
    return text;
}

char *cli_read_stdin(void)
{
    char *text, reason[200];
    size_t length;
    if (!textfile_read_stream(STDIN_FILENO, MAX_SOLUTION_FILE, &text, &length, reason,
                              sizeof reason)) {
        cli_say("standard input: %s", reason); /* "cannot read: Is a directory" */
        return NULL;
    }
    if (strlen(text) != length) {
        cli_say("standard input: not a text file");
        free(text);
        return NULL;
    }
    return text;
}

/* The errno of the first flush of standard output that failed, 0 while none did. */
static int flush_error;

void cli_flush(void)
{
    if (fflush(stdout) != 0 && flush_error == 0) flush_error = errno;
}

int cli_flush_error(void)
{
    return flush_error;
}

void cli_say(const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    char *message;
    int length = vasprintf(&message, format, arguments);
    va_end(arguments);
    if (length < 0) {
        fputs("sokoban: out of memory\n", stderr);
        return;
    }
    utf8_drop_controls(message);
    fprintf(stderr, "sokoban: %s\n", message);
    free(message);
}
