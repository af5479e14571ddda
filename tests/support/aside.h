/* aside.h - cmocka tests run in a child process, beside the rest of their executable: a
 * test that mostly waits, or a long one that the cores left free by the suite's other
 * tests can take, does not hold up the tests after it. The child runs its tests as a group
 * of their own (their output marked by `name`) and ends with _exit: the parent's atexit
 * handlers (scratch folders) are not run twice. */
#ifndef SOKOBAN_TESTS_ASIDE_H
#define SOKOBAN_TESTS_ASIDE_H

#include <stddef.h>
#include <sys/types.h>

struct CMUnitTest;

/* Starts the `count` tests in a child process; its id, for aside_failures(). Exits the
 * process when it cannot fork. */
pid_t aside_run(const char *name, const struct CMUnitTest *tests, size_t count);

/* Waits for the child and returns its failures (1 when it did not end by itself). */
int aside_failures(pid_t child);

#endif
