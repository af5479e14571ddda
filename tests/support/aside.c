/* aside.c - cmocka tests run in a child process, beside the rest (aside.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aside.h"

pid_t aside_run(const char *name, const struct CMUnitTest *tests, size_t count)
{
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        exit(1);
    }
    if (child == 0) _exit(_cmocka_run_group_tests(name, tests, count, NULL, NULL));
    return child;
}

int aside_failures(pid_t child)
{
    int status;
    if (waitpid(child, &status, 0) != child) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
