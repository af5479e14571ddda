/* xsokoban_39.h - test fixture: XSokoban 39 drawn twice, for the solver's tests of a search
 * given an earlier position of its game (solver_options.plan_from): its start, and the
 * position after 360 pushes of its reference solution (a hint the game missed: the race
 * finds none there in 2 million nodes). */
#ifndef SOKOBAN_TEST_XSOKOBAN_39_H
#define SOKOBAN_TEST_XSOKOBAN_39_H

static const char xsokoban_39_start[] = "             ######\n"
                                        " #############....#\n"
                                        "##   ##     ##....#\n"
                                        "#  $$##  $ @##....#\n"
                                        "#      $$ $#  ....#\n"
                                        "#  $ ## $$ # # ...#\n"
                                        "#  $ ## $  #  ....#\n"
                                        "## ##### ### ##.###\n"
                                        "##   $  $ ##   .  #\n"
                                        "# $###  # ##### ###\n"
                                        "#   $   #       #\n"
                                        "#  $ #$ $ $###  #\n"
                                        "# $$$# $   # ####\n"
                                        "#    #  $$ #\n"
                                        "######   ###\n"
                                        "     #####\n";
static const char xsokoban_39_at_push_360[] = "             ######\n"
                                              " #############*.**#\n"
                                              "##   ##     ##*.**#\n"
                                              "#    ##$  $ ##*..*#\n"
                                              "#         $#  ....#\n"
                                              "#    ##    # # .**#\n"
                                              "#  $ ##    # $...*#\n"
                                              "## ##### ### ##.###\n"
                                              "##        ##   .  #\n"
                                              "# @###  # ##### ###\n"
                                              "# $     #       #\n"
                                              "#  $ #     ###  #\n"
                                              "# $$$#$$   # ####\n"
                                              "#    #  $$ #\n"
                                              "######   ###\n"
                                              "     #####\n";

#endif
