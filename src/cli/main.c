/* main.c - the sokoban command: parses the options (options.c) and hands over to one mode. */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* Runs the mode the command line named; returns its exit status. */
static int run_mode(const cli_command *command)
{
    const cli_options *options = &command->options;
    switch (command->mode) {
    case CLI_MODE_PLAY:
        return tui_main(options);
    case CLI_MODE_LIST:
        return cli_list(options);
    case CLI_MODE_VERIFY:
        return cli_verify(options);
    case CLI_MODE_DEADLOCKS:
        return cli_deadlocks(options);
    case CLI_MODE_SOLVE:
        return cli_solve(options);
    case CLI_MODE_HINT:
        return cli_hint(options);
    case CLI_MODE_OPTIMIZE:
        return cli_optimize(options);
    case CLI_MODE_TILES:
        return cli_tiles(options);
    case CLI_MODE_TILES_FILE:
        return cli_tiles_file(options);
    case CLI_MODE_HELP:
        cli_print_help(stdout);
        return CLI_OK;
    case CLI_MODE_VERSION:
        cli_print_version(stdout);
        return CLI_OK;
    }
    return CLI_BAD_INPUT;
}

/* Writes what standard output still holds and closes it. The lines a mode printed are its
 * answer: when they did not all arrive (a full disk, a closed standard output) that is said
 * in one line, with the reason of the write that failed first, and the status is
 * CLI_BAD_INPUT, never a success or a verdict nobody read. A closed standard output that was
 * never written to loses nothing. */
static int finish_output(int status)
{
    bool pending = __fpending(stdout) > 0, failed = ferror(stdout) != 0;
    errno = 0;
    if (fclose(stdout) != 0 && (pending || errno != EBADF)) failed = true;
    if (!failed) return status;
    /* the first write that failed says why; a flush before the end left the close nothing
     * to write and no reason */
    int reason = cli_flush_error() ? cli_flush_error() : errno;
    fprintf(stderr, "sokoban: standard output: cannot write%s%s\n", reason ? ": " : "",
            reason ? strerror(reason) : "");
    return CLI_BAD_INPUT;
}

int main(int argc, char **argv)
{
    cli_command command;
    int status = cli_parse(argc, argv, &command);
    if (status != CLI_OK) return status;
    status = run_mode(&command);
    /* the game draws through curses and says its own last words */
    return command.mode == CLI_MODE_PLAY ? status : finish_output(status);
}
