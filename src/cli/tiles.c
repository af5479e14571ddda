/* tiles.c - placeholder until the sliding-tile mode lands. */
#include <stdio.h>

#include "cli.h"

int cli_tiles(const cli_options *options)
{
    (void)options;
    fputs("sokoban: --tiles is not built yet\n", stderr);
    return CLI_BAD_INPUT;
}

int cli_tiles_file(const cli_options *options)
{
    (void)options;
    fputs("sokoban: --tiles-file is not built yet\n", stderr);
    return CLI_BAD_INPUT;
}
