/* tui.c - placeholder until the terminal game lands: lists the levels instead. */
#include <stdio.h>

#include "../cli/cli.h"

int tui_main(const cli_options *options)
{
    (void)options;
    fputs("sokoban: the terminal game is not built yet; try --list levels/tutorial.xsb\n", stderr);
    return CLI_BAD_INPUT;
}
