/* main.c - the sokoban command: parses the options (options.c) and hands over to one mode. */
#include <stdio.h>

#include "cli.h"
#include "options.h"

int main(int argc, char **argv)
{
    cli_command command;
    int status = cli_parse(argc, argv, &command);
    if (status != CLI_OK) return status;
    const cli_options *options = &command.options;
    switch (command.mode) {
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
