/* signals.c - the signals that end the game, taken from the system's own list. */
#define _GNU_SOURCE
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* Signal handlers can only reach globals: these are the module's only ones. */
static volatile sig_atomic_t stop_signal; /* the signal that asked to stop, or 0 */
static int wake_pipe[2] = {-1, -1};
static void (*crash_callback)(void);
static sigset_t stop_set; /* the signals caught as a request to stop */

/* The signals whose default action does not end the process, those that cannot be caught,
 * and SIGPIPE (kept ignored). */
static bool is_left_alone(int number)
{
    static const int alone[] = {SIGCHLD, SIGURG,  SIGWINCH, SIGCONT, SIGTSTP,
                                SIGTTIN, SIGTTOU, SIGKILL,  SIGSTOP, SIGPIPE};
    for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
        if (alone[i] == number) return true;
    return false;
}

/* The signals a fault of the program raises (and abort()). */
static bool is_crash_signal(int number)
{
    return number == SIGSEGV || number == SIGBUS || number == SIGFPE || number == SIGILL ||
           number == SIGTRAP || number == SIGSYS || number == SIGABRT;
}

static void on_signal(int number, siginfo_t *info, void *context)
{
    (void)context;
    /* Sent by a process (kill(), sigqueue()): a request to stop, whatever the signal. Raised
     * by the processor or by abort() (tgkill: SI_TKILL): a crash. */
    bool sent = info && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
    if (is_crash_signal(number) && !sent) {
        if (crash_callback) crash_callback();
        signal(number, SIG_DFL);
        raise(number); /* delivered, with its default action, when the handler returns */
        return;
    }
    stop_signal = number;
    int saved = errno;
    if (wake_pipe[1] >= 0 && write(wake_pipe[1], "", 1) < 0) {
        /* full: the loop has a byte to wake on already */
    }
    errno = saved;
}

void signals_install(void (*on_crash)(void))
{
    crash_callback = on_crash;
    if (pipe2(wake_pipe, O_NONBLOCK | O_CLOEXEC) != 0) wake_pipe[0] = wake_pipe[1] = -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&stop_set);
    for (int number = 1; number <= SIGRTMAX; number++) {
        if (is_left_alone(number)) continue;
        /* the C library's own (glibc's 32 and 33) are refused: passed over */
        if (sigaction(number, &action, NULL) != 0) continue;
        if (!is_crash_signal(number)) sigaddset(&stop_set, number);
    }
    signal(SIGPIPE, SIG_IGN);
}

int signals_stop(void)
{
    return stop_signal;
}

int signals_wake_fd(void)
{
    return wake_pipe[0];
}

void signals_block_stops(sigset_t *old)
{
    pthread_sigmask(SIG_BLOCK, &stop_set, old);
}
