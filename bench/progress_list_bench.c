/* progress_list_bench.c - what a redraw of the level list reads of the progress for a
 * collection of N levels (100,000 by default), a thousand of them solved: one record a level
 * (progress_get_level, as the list read before issue 45's item 13), or the collection's
 * summaries in one query (progress_summaries), and a second redraw with nothing changed.
 *
 *   build/bench/progress_list_bench DIRECTORY before|after [N]
 *
 * DIRECTORY is a scratch folder for the database (made and filled at each run). Wall and
 * CPU seconds are printed; on a shared machine compare the CPU seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "level/level.h"
#include "progress/progress.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: progress_list_bench DIRECTORY before|after [N]\n");
        return 2;
    }
    int n = argc > 3 ? atoi(argv[3]) : 100000;
    if (n < 1000) n = 1000;
    /* levels: a corridor whose length and the player's place make each distinct */
    size_t cap = (size_t)n * 80;
    char *text = malloc(cap);
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        int width = 5 + i % 300, at = 1 + i / 300 % (width - 4);
        char row[400];
        memset(row, ' ', sizeof row);
        used += (size_t)snprintf(text + used, cap - used, "; L%d\n", i);
        for (int x = 0; x < width; x++) row[x] = '#';
        row[width] = 0;
        used += (size_t)snprintf(text + used, cap - used, "%s\n", row);
        for (int x = 1; x < width - 1; x++) row[x] = ' ';
        row[at] = '@';
        row[at + 1] = '$';
        row[width - 2] = '.';
        used += (size_t)snprintf(text + used, cap - used, "%s\n", row);
        for (int x = 0; x < width; x++) row[x] = '#';
        used += (size_t)snprintf(text + used, cap - used, "%s\n\n", row);
        if (used + 2000 > cap) {
            cap *= 2;
            text = realloc(text, cap);
        }
    }
    collection c;
    level_error error;
    if (!collection_parse(text, used, "big", &c, &error)) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    char message[1200];
    progress *p = progress_open(argv[1], message, sizeof message);
    if (!p) return 1;
    /* a thousand solved: push right to the goal */
    for (int i = 0; i < 1000; i++) {
        const level *lv = &c.levels[i * 97 % n];
        char lurd[400];
        int at = 0, goal = 0;
        for (int x = 0; x < lv->width; x++) {
            if (lv->squares[lv->width + x] == '@') at = x;
            if (lv->squares[lv->width + x] == '.') goal = x;
        }
        int pushes = goal - (at + 1);
        if (pushes <= 0) continue;
        memset(lurd, 'R', (size_t)pushes);
        lurd[pushes] = 0;
        progress_add_solution(p, lv, lurd, PROGRESS_OWN, NULL);
    }
    int solved = 0;
    double t0 = now(), c0 = cpu();
    if (strcmp(argv[2], "before") == 0) {
        /* levels_draw before: one record a level (progress_get_level) for the header's count */
        for (int i = 0; i < n; i++) {
            const progress_record *r = progress_get_level(p, &c.levels[i]);
            solved += r && r->solved;
        }
    } else {
        const progress_summary *s = progress_summaries(p, c.levels, n);
        for (int i = 0; i < n; i++) solved += s[i].solved;
        double t1 = now(), c1 = cpu();
        s = progress_summaries(p, c.levels, n); /* the next redraw, nothing changed */
        printf("cached redraw: %.4f s wall, %.4f s cpu\n", now() - t1, cpu() - c1);
    }
    printf("%s: %d solved of %d; %.3f s wall, %.3f s cpu\n", argv[2], solved, n, now() - t0,
           cpu() - c0);
    progress_close(p);
    collection_free(&c);
    return 0;
}
