/* progress_options.h - how the progress database is opened: how large a database may be
 * held in memory, and whom to tell before a step of opening that takes long (the game's
 * screen has not started yet).
 *
 * Part of progress.h's public face (it includes this), kept apart so that progress_db.h,
 * which progress.c is built on, takes it too (types only). */
#ifndef SOKOBAN_PROGRESS_OPTIONS_H
#define SOKOBAN_PROGRESS_OPTIONS_H

/* The size from which a step of opening is long: bringing a database of an older schema up
 * to date takes about a second at 32 MiB (8.4 s at 300 MB), and so does a repair. */
#define PROGRESS_LONG_BYTES (32LL << 20)

/* The largest database held whole in memory: a player's progress is a few megabytes. */
#define PROGRESS_MEMORY_MAX (64LL << 20)

typedef struct progress_options {
    /* Told one line (no newline: "progress: bringing FILE up to date (N MiB)...") before a
     * step of opening of a database over `long_bytes`: bringing an older schema up to date,
     * repairing a damaged one (or finishing a repair cut short), reading one that cannot be
     * written into memory. Never at a start that only opens the database, nor once the game
     * plays (a database replaced under it is opened again without a word here). NULL:
     * nothing is told. */
    void (*before_long)(const char *line, void *argument);
    void *argument; /* before_long's */
    /* The size from which a step is long, in bytes; 0: PROGRESS_LONG_BYTES. */
    long long long_bytes;
    /* The largest database, in bytes, that is held whole in memory (0: PROGRESS_MEMORY_MAX):
     * one of an older schema set aside as damaged is migrated in memory up to it, and on
     * disk beside it over it; one that cannot be written is read into memory and shown up
     * to it, and refused over it. */
    long long memory_max;
    /* The bytes free for this process in `folder` (the database's), -1 when it cannot be
     * told; NULL: statvfs's f_bavail. Asked before a repair copies a file set aside into the
     * new database (twice its size wanted: progress_salvage.c, COPY_ROOM) and before it migrates
     * one on disk (four times: progress_salvage.h). Tests set it to report a full disk. */
    long long (*free_bytes)(const char *folder);
} progress_options;

#endif
