/* solve.c - placeholder until the solve mode lands. */
#include <stdio.h>

#include "cli.h"

int cli_solve(const cli_options *options)
{
    (void)options;
    fputs("sokoban: --solve is not built yet\n", stderr);
    return CLI_BAD_INPUT;
}
