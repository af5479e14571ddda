/* solver_team.c - the optimal mode on several threads (solver_team.h). */
#include "solver_team.h"

#include <pthread.h>
#include <stdlib.h>

#include "solver_memory.h"
#include "solver_table.h"
#include "solver_threads.h"

typedef struct member {
    solver_options options;
    solver_team_member run;
    void *argument;
    ida_team *team;
    pthread_t thread;
} member;

int solver_team_size_for(int threads, int cores)
{
    int size = threads > 0 ? threads : cores > 0 ? cores : 1;
    return size < IDA_TEAM_MOST ? size : IDA_TEAM_MOST;
}

int solver_team_size(const solver_options *options)
{
    return solver_team_size_for(options->threads, solver_threads_cores());
}

int solver_team_fit(const solver_options *options, bool pairs_shared, size_t *table_bytes)
{
    size_t search = solver_search_bytes(options), own = solver_member_bytes(options, pairs_shared);
    int size = solver_team_size(options);
    while (size > 1 && (size_t)size * own > search / 2) size--;
    /* the first member's own tables as one search alone's: its below table out of the table */
    *table_bytes = search - solver_below_bytes_for(options) - (size_t)(size - 1) * own;
    return size;
}

static void *member_main(void *argument)
{
    member *m = argument;
    m->run(m->argument, &m->options);
    /* one that never searched (a limit or no memory in its set-up) must not hold the rest */
    ida_team_quit(m->team);
    return NULL;
}

/* The team's hooks (ida.h): the table shared, asked whether it is half full, grown. */
static void share_table(void *argument)
{
    solver_table_share(argument);
}

static bool table_full(void *argument)
{
    return solver_table_full(argument);
}

/* The growth shared by the members (solver_table_grow_begin): begun when the table is still
 * half full (a member may have asked after another's growth), moved by every member that
 * paused between two nodes, ended by one. */
static void grow_begin(void *argument)
{
    if (solver_table_full(argument)) solver_table_grow_begin(argument);
}

static void grow_part(void *argument)
{
    solver_table_grow_part(argument);
}

static void grow_end(void *argument)
{
    solver_table_grow_end(argument);
}

int solver_team_run(int size, const solver_options *options, size_t table_bytes,
                    solver_team_member run, void *argument, bool *ran)
{
    *ran = false;
    solver_table table;
    if (!solver_table_init(&table, table_bytes)) return -1;
    ida_team_hooks hooks = {.argument = &table,
                            .share = share_table,
                            .pause_wanted = table_full,
                            .pause = grow_begin,
                            .pause_part = grow_part,
                            .pause_end = grow_end};
    ida_team *team = ida_team_new(size, SOLVER_TEAM_PARALLEL_AFTER, &hooks);
    member *members = calloc((size_t)size, sizeof *members);
    if (!team || !members) {
        ida_team_free(team);
        free(members);
        solver_table_free(&table);
        return -1;
    }
    for (int i = 0; i < size; i++) {
        members[i] = (member){.options = *options, .run = run, .argument = argument, .team = team};
        members[i].options.team = team;
        members[i].options.team_member = i;
        members[i].options.shared_table = &table;
    }
    /* a thread that cannot start leaves the team before the others wait for it */
    bool *started = calloc((size_t)size, sizeof *started);
    for (int i = 1; i < size; i++) {
        if (started)
            started[i] = pthread_create(&members[i].thread, NULL, member_main, &members[i]) == 0;
        if (!started || !started[i]) ida_team_quit(team);
    }
    member_main(&members[0]);
    for (int i = 1; i < size; i++)
        if (started && started[i]) pthread_join(members[i].thread, NULL);
    int finder = ida_team_finder(team);
    *ran = true;
    free(started);
    free(members);
    ida_team_free(team);
    solver_table_free(&table);
    return finder;
}
