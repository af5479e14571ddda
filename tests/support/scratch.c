/* scratch.c - scratch folders for the tests (scratch.h). */
#define _GNU_SOURCE /* mkdtemp in a strict mode */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

enum { MAX_FOLDERS = 16, PATH_SIZE = 128 };

/* The folders made and not yet removed, and the process that made them (a child forked by
 * a test inherits the handlers, not the folders). */
static char folders[MAX_FOLDERS][PATH_SIZE];
static pid_t owner;

/* Removes `path` and what it holds, without following links; a folder is made writable and
 * searchable first (tests take those rights away). */
static void remove_tree(const char *path)
{
    struct stat status;
    if (lstat(path, &status) != 0) return;
    if (!S_ISDIR(status.st_mode)) {
        unlink(path);
        return;
    }
    chmod(path, 0700);
    DIR *directory = opendir(path);
    if (directory) {
        struct dirent *entry;
        while ((entry = readdir(directory)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
            char child[4096];
            if ((size_t)snprintf(child, sizeof child, "%s/%s", path, entry->d_name) < sizeof child)
                remove_tree(child);
        }
        closedir(directory);
    }
    rmdir(path);
}

static void remove_all(void)
{
    if (getpid() != owner) return;
    for (int i = 0; i < MAX_FOLDERS; i++)
        if (folders[i][0]) {
            remove_tree(folders[i]);
            folders[i][0] = 0;
        }
}

/* A test stopped by a signal: its folders go, then the signal does what it does. (Not
 * async-signal-safe in the strict sense, opendir allocating: the process ends either way.) */
static void remove_all_and_die(int signal_number)
{
    remove_all();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void watch_once(void)
{
    if (owner == getpid()) return;
    owner = getpid();
    memset(folders, 0, sizeof folders);
    atexit(remove_all);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_all_and_die;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
}

char *scratch_make(const char *name)
{
    watch_once();
    const char *parent = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    int slot = 0;
    while (slot < MAX_FOLDERS && folders[slot][0]) slot++;
    if (slot == MAX_FOLDERS) fail_msg("more than %d scratch folders at once", MAX_FOLDERS);
    char path[PATH_SIZE];
    if ((size_t)snprintf(path, sizeof path, "%s/%s.XXXXXX", parent, name) >= sizeof path)
        fail_msg("scratch folder name too long: %s", name);
    if (!mkdtemp(path)) fail_msg("cannot make a scratch folder %s", path);
    strcpy(folders[slot], path);
    char *copy = strdup(path);
    assert_non_null(copy);
    return copy;
}

void scratch_write(const char *folder, const char *name, const char *text)
{
    char path[512];
    assert_true((size_t)snprintf(path, sizeof path, "%s/%s", folder, name) < sizeof path);
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    assert_int_equal(fclose(file), 0);
}

void scratch_remove(char *folder)
{
    if (!folder) return;
    for (int i = 0; i < MAX_FOLDERS; i++)
        if (strcmp(folders[i], folder) == 0) folders[i][0] = 0;
    remove_tree(folder);
    free(folder);
}
