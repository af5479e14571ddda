/* tiles_pdb.c - additive pattern databases: the partitions, the backward breadth-first
 * search that fills a table, and the checked cache files. */
#include "tiles_pdb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------- */
/* Partitions                                                                             */
/* ------------------------------------------------------------------------------------- */

typedef struct partition {
    int width;
    int group_count;
    int group_size[TILES_PDB_MAX_GROUPS];
    uint8_t group_tiles[TILES_PDB_MAX_GROUPS][TILES_PDB_MAX_GROUP_SIZE];
} partition;

/* Static partitions for the goal with the blank last. The 4x4 one is a 6-6-3 partition as
 * in Felner, Korf & Hanan: of seven such partitions tried (docs/BENCHMARKS.md), this one
 * needed the fewest nodes on Korf's 100 instances, half as many as two 2x3 blocks and the
 * bottom row. */
static const partition partitions[] = {
    {3, 2, {4, 4}, {{1, 2, 4, 5}, {3, 6, 7, 8}}},
    {4, 3, {6, 6, 3}, {{1, 5, 6, 9, 10, 13}, {7, 8, 11, 12, 14, 15}, {2, 3, 4}}},
};

static const partition *partition_for(int width)
{
    for (size_t i = 0; i < sizeof partitions / sizeof partitions[0]; i++)
        if (partitions[i].width == width) return &partitions[i];
    return NULL;
}

static size_t table_entries(int group_size)
{
    return (size_t)1 << (4 * group_size);
}

/* ------------------------------------------------------------------------------------- */
/* Building a table                                                                       */
/* ------------------------------------------------------------------------------------- */

/* A growable list of abstract states: (placement index << 4) | blank cell. */
typedef struct state_list {
    uint32_t *items;
    size_t count, capacity;
} state_list;

static bool state_list_push(state_list *list, uint32_t state)
{
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 1 << 16;
        uint32_t *items = realloc(list->items, capacity * sizeof *items);
        if (!items) return false;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = state;
    return true;
}

/* Square masks of one board width, for moving sets of squares as bit sets. */
typedef struct board_masks {
    int width, cells;
    uint32_t all, first_column, last_column;
    uint32_t neighbors[TILES_MAX_CELLS];
} board_masks;

static void board_masks_init(board_masks *m, int width)
{
    m->width = width;
    m->cells = width * width;
    m->all = (1u << m->cells) - 1;
    m->first_column = m->last_column = 0;
    for (int r = 0; r < width; r++) {
        m->first_column |= 1u << (r * width);
        m->last_column |= 1u << (r * width + width - 1);
    }
    for (int c = 0; c < m->cells; c++) {
        uint32_t bit = 1u << c, n = 0;
        n |= bit >> width;
        n |= (bit << width) & m->all;
        n |= (bit >> 1) & ~m->last_column;
        n |= (bit << 1) & ~m->first_column & m->all;
        m->neighbors[c] = n;
    }
}

/* The squares the blank reaches from `seed` through the squares in `open`. */
static uint32_t flood(const board_masks *m, uint32_t seed, uint32_t open)
{
    uint32_t region = seed, previous;
    do {
        previous = region;
        uint32_t grown = region | (region >> m->width) | (region << m->width) |
                         ((region >> 1) & ~m->last_column) | ((region << 1) & ~m->first_column);
        region = grown & open & m->all;
    } while (region != previous);
    return region;
}

/* The squares of a set, moved to the "queued" half of a placement's marks. */
static inline uint32_t queued(uint32_t squares)
{
    return squares << 16;
}

/* Fills `table` for one group by breadth-first search backwards from the goal, in layers
 * of equal cost. An abstract state is the group's tile cells and the blank; the other
 * tiles are indistinct, so the blank wanders among them for free: a state stands for the
 * whole region its blank can reach (flood fill), and only moving a group tile into that
 * region costs a move. A placement's entry is the first layer that reaches it.
 * For each placement, `marks` holds two square sets: those whose region has been searched
 * (low 16 bits) and those already queued (high 16 bits), side by side so that one cache
 * miss answers both. Returns false when memory runs out. */
static bool build_table(int width, const uint8_t *tiles, int size, uint8_t *table)
{
    size_t entries = table_entries(size);
    board_masks m;
    board_masks_init(&m, width);
    uint32_t *marks = calloc(entries, sizeof *marks);
    state_list current = {0}, next = {0};
    bool ok = marks != NULL;
    memset(table, 0xff, entries);

    uint32_t goal = 0;
    for (int i = 0; i < size; i++) goal |= (uint32_t)(tiles[i] - 1) << (4 * i);
    int goal_blank = m.cells - 1;
    if (ok) {
        marks[goal] = queued(1u << goal_blank);
        ok = state_list_push(&current, goal << 4 | (uint32_t)goal_blank);
    }
    for (int layer = 0; ok && current.count; layer++) {
        next.count = 0;
        for (size_t k = 0; k < current.count && ok; k++) {
            uint32_t placement = current.items[k] >> 4;
            int blank = (int)(current.items[k] & 15);
            if (marks[placement] & (1u << blank)) continue;
            int cell[TILES_PDB_MAX_GROUP_SIZE];
            uint32_t occupied = 0;
            for (int i = 0; i < size; i++) {
                cell[i] = (int)(placement >> (4 * i)) & 15;
                occupied |= 1u << cell[i];
            }
            uint32_t region = flood(&m, 1u << blank, m.all & ~occupied);
            marks[placement] |= region;
            if (table[placement] == 0xff) table[placement] = (uint8_t)layer;
            for (int i = 0; i < size && ok; i++) {
                uint32_t into = m.neighbors[cell[i]] & region;
                while (into && ok) {
                    int square = __builtin_ctz(into);
                    into &= into - 1;
                    /* tile i moves into `square`; the blank takes its old cell */
                    uint32_t moved = placement + (uint32_t)((square - cell[i]) * (1 << (4 * i)));
                    uint32_t bit = 1u << cell[i];
                    if (marks[moved] & (bit | queued(bit))) continue;
                    marks[moved] |= queued(bit);
                    ok = state_list_push(&next, moved << 4 | (uint32_t)cell[i]);
                }
            }
        }
        state_list swap = current;
        current = next;
        next = swap;
    }
    free(current.items);
    free(next.items);
    free(marks);
    return ok;
}

/* ------------------------------------------------------------------------------------- */
/* Cache files                                                                            */
/* ------------------------------------------------------------------------------------- */

/* A file: this header, then the table's bytes. The checksum covers the table. */
typedef struct file_header {
    char magic[8];
    uint32_t width;
    uint32_t group_size;
    uint8_t tiles[8];
    uint64_t entries;
    uint64_t checksum;
} file_header;

static const char file_magic[8] = {'S', 'K', 'T', 'P', 'D', 'B', '1', '\n'};

/* FNV-1a over 64-bit words (the table's size is a multiple of 8). */
static uint64_t checksum(const uint8_t *data, size_t size)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t word;
        memcpy(&word, data + i, 8);
        hash = (hash ^ word) * 0x100000001b3u;
    }
    return hash;
}

static void make_header(file_header *header, int width, const uint8_t *tiles, int size,
                        const uint8_t *table)
{
    memset(header, 0, sizeof *header);
    memcpy(header->magic, file_magic, sizeof file_magic);
    header->width = (uint32_t)width;
    header->group_size = (uint32_t)size;
    memcpy(header->tiles, tiles, (size_t)size);
    header->entries = table_entries(size);
    header->checksum = table ? checksum(table, table_entries(size)) : 0;
}

void tiles_pdb_file_name(int width, int group, const char *cache_dir, char *path, size_t path_size)
{
    const partition *p = partition_for(width);
    int used = snprintf(path, path_size, "%s/tiles%dx%d", cache_dir, width, width);
    for (int i = 0; p && group < p->group_count && i < p->group_size[group]; i++) {
        if (used < 0 || (size_t)used >= path_size) return;
        used += snprintf(path + used, path_size - (size_t)used, "-%d", p->group_tiles[group][i]);
    }
    if (used >= 0 && (size_t)used < path_size)
        snprintf(path + used, path_size - (size_t)used, ".pdb");
}

/* Reads exactly `size` bytes; false on an error or a short read. */
static bool read_fully(int fd, void *data, size_t size)
{
    uint8_t *at = data;
    while (size) {
        ssize_t n = read(fd, at, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += n;
        size -= (size_t)n;
    }
    return true;
}

/* Reads a table from `path` into `table`; false when the file is missing, of the wrong
 * size or kind, or its checksum does not match (the table is then not to be trusted).
 * The file is opened once and checked after opening: a symbolic link is not followed
 * (O_NOFOLLOW), a FIFO or a device does not block (O_NONBLOCK), and only a regular file
 * of the right size is read (fstat). Anything else reads as missing, and the table is
 * built again and saved in its place. */
static bool load_table(const char *path, int width, const uint8_t *tiles, int size, uint8_t *table)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    file_header expected, found;
    make_header(&expected, width, tiles, size, NULL);
    size_t entries = table_entries(size);
    struct stat info;
    bool ok = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
              (uint64_t)info.st_size == sizeof found + entries &&
              read_fully(fd, &found, sizeof found) &&
              memcmp(found.magic, expected.magic, sizeof found.magic) == 0 &&
              found.width == expected.width && found.group_size == expected.group_size &&
              memcmp(found.tiles, expected.tiles, sizeof found.tiles) == 0 &&
              found.entries == expected.entries && read_fully(fd, table, entries) &&
              checksum(table, entries) == found.checksum;
    close(fd);
    return ok;
}

/* Creates `dir` and its missing parents. */
static bool make_directories(const char *dir, char *error, size_t error_size)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(error, error_size, "cache directory name too long");
        return false;
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p) continue;
        char saved = *p;
        *p = 0;
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            snprintf(error, error_size, "cannot create %s: %s", path, strerror(errno));
            return false;
        }
        *p = saved;
        if (!saved) break;
    }
    return true;
}

/* Writes `size` bytes; false on an error. */
static bool write_fully(int fd, const void *data, size_t size)
{
    const uint8_t *at = data;
    while (size) {
        ssize_t n = write(fd, at, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += n;
        size -= (size_t)n;
    }
    return true;
}

/* Writes the table to a new temporary file beside `path` and renames it into place, so
 * that a reader never sees half a file. The temporary file is made by mkstemp (a name no
 * one can guess, created with O_EXCL: a link planted in the directory is never written
 * through), and rename replaces whatever stood at `path` (a link itself, never its
 * target). */
static bool save_table(const char *path, int width, const uint8_t *tiles, int size,
                       const uint8_t *table, char *error, size_t error_size)
{
    char temporary[4300];
    int length = snprintf(temporary, sizeof temporary, "%s.XXXXXX", path);
    if (length < 0 || (size_t)length >= sizeof temporary) {
        snprintf(error, error_size, "cache file name too long");
        return false;
    }
    int fd = mkstemp(temporary);
    if (fd < 0) {
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    file_header header;
    make_header(&header, width, tiles, size, table);
    bool ok = fchmod(fd, 0644) == 0 && write_fully(fd, &header, sizeof header) &&
              write_fully(fd, table, table_entries(size));
    ok = close(fd) == 0 && ok;
    if (ok) ok = rename(temporary, path) == 0;
    if (!ok) {
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
        unlink(temporary);
    }
    return ok;
}

/* True when a file can be created in `dir` (checked before minutes of building): a
 * probe made by mkstemp and removed at once. */
static bool directory_writable(const char *dir, char *error, size_t error_size)
{
    if (!make_directories(dir, error, error_size)) return false;
    char probe[4300];
    int length = snprintf(probe, sizeof probe, "%s/.probe.XXXXXX", dir);
    if (length < 0 || (size_t)length >= sizeof probe) {
        snprintf(error, error_size, "cache directory name too long");
        return false;
    }
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(error, error_size, "cannot write in %s: %s", dir, strerror(errno));
        return false;
    }
    close(fd);
    unlink(probe);
    return true;
}

/* ------------------------------------------------------------------------------------- */
/* The public face                                                                        */
/* ------------------------------------------------------------------------------------- */

tiles_pdb *tiles_pdb_open(int width, const char *cache_dir, tiles_pdb_notice *notice,
                          void *notice_argument, tiles_pdb_origin *origin, char *error,
                          size_t error_size)
{
    const partition *p = partition_for(width);
    if (!p) {
        snprintf(error, error_size, "no pattern databases for %dx%d boards", width, width);
        return NULL;
    }
    tiles_pdb *pdb = calloc(1, sizeof *pdb);
    if (!pdb) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    pdb->width = width;
    pdb->group_count = p->group_count;
    memset(pdb->group_of, -1, sizeof pdb->group_of);
    bool missing[TILES_PDB_MAX_GROUPS] = {false};
    bool any_missing = false;
    for (int g = 0; g < p->group_count; g++) {
        pdb->group_size[g] = p->group_size[g];
        memcpy(pdb->group_tiles[g], p->group_tiles[g], sizeof pdb->group_tiles[g]);
        for (int i = 0; i < p->group_size[g]; i++) {
            pdb->group_of[p->group_tiles[g][i]] = (int8_t)g;
            pdb->digit_of[p->group_tiles[g][i]] = (int8_t)i;
        }
        pdb->table[g] = malloc(table_entries(p->group_size[g]));
        if (!pdb->table[g]) {
            snprintf(error, error_size, "out of memory");
            tiles_pdb_free(pdb);
            return NULL;
        }
        char path[4200];
        if (cache_dir) tiles_pdb_file_name(width, g, cache_dir, path, sizeof path);
        missing[g] = !cache_dir ||
                     !load_table(path, width, p->group_tiles[g], p->group_size[g], pdb->table[g]);
        any_missing |= missing[g];
    }
    if (origin) *origin = any_missing ? TILES_PDB_BUILT : TILES_PDB_LOADED;
    if (any_missing && cache_dir && !directory_writable(cache_dir, error, error_size)) {
        tiles_pdb_free(pdb);
        return NULL;
    }
    for (int g = 0; g < p->group_count; g++) {
        if (!missing[g]) continue;
        if (notice) {
            char message[200];
            int used = snprintf(message, sizeof message,
                                "building the %dx%d pattern database of tiles", width, width);
            for (int i = 0; i < p->group_size[g] && used > 0 && (size_t)used < sizeof message; i++)
                used += snprintf(message + used, sizeof message - (size_t)used, " %d",
                                 p->group_tiles[g][i]);
            notice(notice_argument, message);
        }
        if (!build_table(width, p->group_tiles[g], p->group_size[g], pdb->table[g])) {
            snprintf(error, error_size, "out of memory");
            tiles_pdb_free(pdb);
            return NULL;
        }
        if (cache_dir) {
            char path[4200];
            tiles_pdb_file_name(width, g, cache_dir, path, sizeof path);
            /* a failed save only costs a rebuild next time; the table is good */
            save_table(path, width, p->group_tiles[g], p->group_size[g], pdb->table[g], error,
                       error_size);
        }
    }
    return pdb;
}

void tiles_pdb_free(tiles_pdb *pdb)
{
    if (!pdb) return;
    for (int g = 0; g < TILES_PDB_MAX_GROUPS; g++) free(pdb->table[g]);
    free(pdb);
}

int tiles_pdb_lower_bound(const tiles_pdb *pdb, const tiles_board *board)
{
    int32_t index[TILES_PDB_MAX_GROUPS] = {0};
    for (int c = 0; c < board->width * board->width; c++) {
        int tile = board->cell[c];
        if (tile != TILES_BLANK) index[pdb->group_of[tile]] += c << (4 * pdb->digit_of[tile]);
    }
    int sum = 0;
    for (int g = 0; g < pdb->group_count; g++) sum += pdb->table[g][index[g]];
    return sum;
}
