/* solver_domain.c - the Sokoban search domain (both modes): the player's reach, move
 * generation and ordering, making and taking back pushes, pruning. */
#include "solver_domain.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver_below.h"
#include "solver_corral.h"
#include "solver_corral_deadlock.h"
#include "solver_frozen.h"
#include "solver_learned.h"
#include "solver_macro.h"
#include "solver_pair_rows.h"
#include "solver_pairs.h"
#include "solver_penalty.h"
#include "solver_reach.h"

static inline bool reaches(const solver_search *s, int square)
{
    return solver_search_reaches(s, square);
}

static inline uint64_t state_key(const solver_search *s)
{
    return s->box_key ^ s->zobrist.player[s->region];
}

/* The key in the optimal mode's table: the player's part leaves the bits that choose the
 * bucket alone, so the bucket depends on the boxes only and is fetched into the cache as
 * soon as a push is made, while the deadlock checks and the player's reach are worked out
 * (a cache miss a push was the table's whole cost). */
static inline uint64_t table_key(const solver_search *s)
{
    return s->box_key ^ (s->zobrist.player[s->region] & ~solver_table_spot_mask(s->table));
}

/* Which row of distances each box's bound uses. A box the player can reach from some side
 * uses the distances with the player on that side (or any side he can walk to round the
 * box): while the box stands still he can never get to the others, walls alone keep him
 * out. A box he cannot reach now may be freed by others, so it gets the least over all
 * sides. Admissible either way; it sees, for example, a box whose only useful side is a
 * dead end the box itself closes. Writes the boxes whose row changed (and `moved`, always)
 * to `changed` and returns how many. */
static int refresh_rows(solver_search *s, int moved, int *changed)
{
    const board *b = s->board;
    int count = 0;
    for (int i = 0; i < s->box_count; i++) {
        int square = s->box_square[i], side = -1;
        if (s->use_rows) {
            side = solver_rows_first_side(&s->rows, s->rows.reach, square);
        } else {
            for (int k = 0; k < DIRECTION_COUNT && side < 0; k++)
                if (reaches(s, square + b->delta[k])) side = k;
        }
        const uint16_t *row = solver_distance_row(s->distances, square, side);
        if (row != s->box_row[i] || i == moved) {
            s->box_row[i] = row;
            changed[count++] = i;
        }
    }
    return count;
}

bool solver_search_pair_lost(const solver_search *s, int square)
{
    if (!s->pairs) return false;
    if (s->pair_rows) {
        if (solver_pair_rows_lost(s->pair_rows, s->boxes, square, s->player)) return true;
        return s->triples && solver_triples_lost(s->triples, s->pairs, s->boxes, square, s->player);
    }
    if (solver_pairs_lost_among(s->pairs, square, s->box_square, s->box_count, s->player))
        return true;
    return s->triples && solver_triples_lost(s->triples, s->pairs, s->boxes, square, s->player);
}

/* True when a box of the current state is frozen off a goal (solver_frozen_off_goal()); on a
 * start a block of boxes can be frozen whole, where a push freezes a few at a time. */
static bool frozen_off_goal(const solver_search *s)
{
    uint8_t *frozen = calloc((size_t)s->board->size, 1);
    if (!frozen) return false; /* no proof: the search finds out */
    bool lost =
        solver_frozen_off_goal(s->board, s->distances, s->box_square, s->box_count, frozen);
    free(frozen);
    return lost;
}

bool solver_search_start_lost(solver_search *s)
{
    if (s->start_freeze && frozen_off_goal(s)) {
        s->counters.frozen++;
        return true;
    }
    if (!s->reach_valid) solver_reach_flood(s);
    for (int i = 0; s->pairs && i < s->box_count; i++) {
        if (solver_search_pair_lost(s, s->box_square[i])) {
            s->counters.pair++;
            return true;
        }
    }
    if (s->corral_deadlocks && solver_corral_deadlock_each_touching(s->corral_deadlocks, s)) {
        s->counters.corral_deadlock++;
        return true;
    }
    return false;
}

/* ---- changing the boxes ---------------------------------------------------------------- */

static void move_box(solver_search *s, int from, int to)
{
    const board *b = s->board;
    int box = s->box_at[from];
    assert(box >= 0 && s->box_square[box] == from && s->boxes[from]);
    assert(!s->boxes[to] && board_is_inside(b, to));
    s->box_at[from] = -1;
    s->box_at[to] = box;
    s->boxes[from] = 0;
    s->boxes[to] = 1;
    s->blocked[from] = 0;
    s->blocked[to] = 1;
    if (s->use_rows) {
        solver_rows_set_box(&s->rows, from, false);
        solver_rows_set_box(&s->rows, to, true);
    }
    s->box_square[box] = to;
    s->box_key ^= s->zobrist.box[from] ^ s->zobrist.box[to];
    s->on_goal += (board_is_goal(b, to) ? 1 : 0) - (board_is_goal(b, from) ? 1 : 0);
}

static bool ensure_depth(solver_search *s)
{
    if (s->depth < s->capacity) return true;
    int capacity = s->capacity ? s->capacity * 2 : 256;
    solver_undo *undo = realloc(s->undo, (size_t)capacity * sizeof *undo);
    if (!undo) return false;
    s->undo = undo;
    size_t width = (size_t)solver_matching_state_size(&s->matching);
    int *states = realloc(s->matching_states, (size_t)capacity * width * sizeof *states);
    if (!states) return false;
    s->matching_states = states;
    size_t boxes = (size_t)(s->box_count > 0 ? s->box_count : 1);
    const uint16_t **rows = realloc(s->row_states, (size_t)capacity * boxes * sizeof *rows);
    if (!rows) return false;
    s->row_states = rows;
    s->capacity = capacity;
    return true;
}

/* Checked builds (meson -Dchecked=true: SOKOBAN_CHECKED) recompute the state from scratch
 * after every make() and unmake(): the box count, the box map against the box list, the
 * boxes on goals, and the incremental key against a fresh one. O(board) a push: left out of
 * ordinary builds, whose asserts stay O(1) in the hot loop. */
static void check_state(const solver_search *s)
{
#ifdef SOKOBAN_CHECKED
    const board *b = s->board;
    int boxes = 0, on_goal = 0;
    uint64_t key = 0;
    for (int square = 0; square < b->size; square++) {
        if (!s->boxes[square]) continue;
        boxes++;
        on_goal += board_is_goal(b, square);
        key ^= s->zobrist.box[square];
        assert(s->box_square[s->box_at[square]] == square);
    }
    assert(boxes == s->box_count && on_goal == s->on_goal && key == s->box_key);
#endif
    assert(!s->boxes[s->player] && !board_is_wall(s->board, s->player));
}

/* ---- the engine's callbacks ------------------------------------------------------------ */

/* The matching's bound h of the current state, its reach computed, raised by the pair
 * penalties of its boxes near each other when the search has them (solver_penalty.h). */
static int with_penalties(solver_search *s, int h)
{
    if (!s->penalties || h >= IDA_INFINITY) return h;
    return h + solver_penalties_at(s->penalties, s->depth, s->box_key, s->box_key, -1,
                                   s->box_square, s->box_at, s->box_count, s->region);
}

/* with_penalties() after a push of `box` from `from`: the parent's pairs with a penalty kept,
 * only the moved box's asked again. */
static int with_penalties_after(solver_search *s, int h, int box, int from)
{
    if (!s->penalties || h >= IDA_INFINITY) return h;
    int to = s->box_square[box];
    uint64_t parent_key = s->box_key ^ s->zobrist.box[from] ^ s->zobrist.box[to];
    return h + solver_penalties_at(s->penalties, s->depth, s->box_key, parent_key, box,
                                   s->box_square, s->box_at, s->box_count, s->region);
}

/* A lower bound on what with_penalties_after() adds, without asking a pair: the parent's
 * pairs with a penalty that leave the moved box out (solver_penalties_kept). */
static int kept_penalties(solver_search *s, int box, int from)
{
    if (!s->penalties) return 0;
    int to = s->box_square[box];
    uint64_t parent_key = s->box_key ^ s->zobrist.box[from] ^ s->zobrist.box[to];
    return solver_penalties_kept(s->penalties, s->depth, parent_key, box, s->region);
}

static int root_bound(void *context)
{
    solver_search *s = context;
    solver_reach_flood(s);
    /* the pushes check the box they move; the root's boxes are checked here, and first: a
     * lost start needs neither the matching nor the penalties' scan of every pair */
    if (solver_search_start_lost(s)) return IDA_INFINITY;
    return with_penalties(s, solver_search_bound(s));
}

static void begin_iteration(void *context, int threshold)
{
    solver_search *s = context;
    s->threshold = threshold;
    s->iteration++;
    s->last_box = -1;
    solver_reach_flood(s);
    if (s->below && !solver_below_enter(s->below, 0, SOLVER_BELOW_NONE)) s->no_memory = true;
    if (s->table) solver_table_enter(s->table, table_key(s), 0, s->iteration);
}

/* The pushes in `moves` ordered by the least bound the last iteration met below the box
 * set each leads to (solver_below.h), ties kept in their order; the box sets it did not
 * meet last. */
static void order_by_below(const solver_search *s, ida_move *moves, int count)
{
    const board *b = s->board;
    const uint8_t *doors = s->room ? s->room->is_door : NULL;
    int least[4 * 64];
    uint64_t keys[4 * 64];
    for (int j = 0; j < count; j++) {
        int square = solver_move_square(moves[j]);
        direction dir = solver_move_direction(moves[j]);
        int pushes = s->tunnels
                         ? solver_macro_tunnel_length(b, s->boxes, s->distances, square, dir, doors)
                         : 1;
        keys[j] =
            s->box_key ^ s->zobrist.box[square] ^ s->zobrist.box[square + pushes * b->delta[dir]];
        solver_below_prefetch(s->below, keys[j]);
    }
    for (int j = 0; j < count; j++) least[j] = solver_below_get(s->below, keys[j]);
    for (int j = 1; j < count; j++) {
        ida_move move = moves[j];
        int value = least[j], at = j;
        for (; at > 0 && least[at - 1] > value; at--) {
            moves[at] = moves[at - 1];
            least[at] = least[at - 1];
        }
        moves[at] = move;
        least[at] = value;
    }
}

/* Move ordering: the box pushed last goes on first ("inertia", from the S4 solver and
 * Rolling Stone: solutions push one box several times in a row), then pushes that bring a
 * box nearer to a goal, then the rest. Three buckets, kept in generation order. */
static int expand(void *context, ida_move *moves)
{
    solver_search *s = context;
    const board *b = s->board;
    const solver_distances *d = s->distances;
    if (s->no_memory) return 0;
    if (!s->reach_valid) solver_reach_flood(s);
    ida_move buckets[3][4 * 64];
    ida_move *bucket[3];
    int count[3] = {0, 0, 0};
    /* Beyond 64 boxes the buckets go straight into `moves`, unordered. */
    bool ordered = s->ordering && s->box_count <= 64;
    int total = 0;
    for (int k = 0; k < 3; k++) bucket[k] = buckets[k];
    for (int i = 0; i < s->box_count; i++) {
        int square = s->box_square[i];
        for (int dir = 0; dir < DIRECTION_COUNT; dir++) {
            int to = square + b->delta[dir];
            int from = square - b->delta[dir];
            if (!reaches(s, from) || s->boxes[to] || !board_is_inside(b, to)) continue;
            if (solver_square_is_dead(d, to)) {
                s->counters.dead_square++;
                continue;
            }
            ida_move move = solver_move(square, (direction)dir);
            if (!ordered) {
                moves[total++] = move;
                continue;
            }
            int k = i == s->last_box ? 0 : d->nearest[to] < d->nearest[square] ? 1 : 2;
            bucket[k][count[k]++] = move;
        }
    }
    if (ordered)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < count[k]; j++) moves[total++] = bucket[k][j];
    if (ordered && s->below && s->iteration > 1) order_by_below(s, moves, total);
    if (s->corrals && total > 0) {
        int corral = solver_corral_find(s);
        if (corral >= 0) {
            int kept = 0;
            for (int j = 0; j < total; j++) {
                int to = solver_move_square(moves[j]) + b->delta[solver_move_direction(moves[j])];
                if (solver_corral_contains(s, corral, to)) moves[kept++] = moves[j];
            }
            s->counters.corral_cut += (uint64_t)(total - kept);
            total = kept;
        }
    }
    /* the children's buckets, fetched at once rather than one by one as each is made */
    if (s->table && !(s->room && s->room->is_door))
        for (int j = 0; j < total; j++) {
            int square = solver_move_square(moves[j]);
            int to = square + b->delta[solver_move_direction(moves[j])];
            solver_table_prefetch(s->table,
                                  s->box_key ^ s->zobrist.box[square] ^ s->zobrist.box[to]);
        }
    return total;
}

/* Keeps the state just made, reached at `cost`, in the table; false when another thread
 * entered it meanwhile and it is to be cut after all. */
static bool enter_table(solver_search *s, int cost)
{
    solver_undo *undo = &s->undo[s->depth - 1];
    uint64_t key = table_key(s);
    solver_table_answer answer = solver_table_visit(s->table, key, cost, s->iteration);
    s->helping = answer == SOLVER_TABLE_HELPING;
    if (answer == SOLVER_TABLE_CUT) return false;
    undo->entered_cost = cost;
    undo->entered_key = key;
    return true;
}

/* Saves the matching and its rows as they were before the push make() made last, for
 * unmake() to put back, unless they were already: called before either changes. A push
 * cut before its bound (a dead square, a deadlock, a pair, a state seen) saves nothing. */
static void keep_matching(solver_search *s)
{
    if (s->depth == 0) return;
    solver_undo *undo = &s->undo[s->depth - 1];
    if (undo->matching_kept) return;
    undo->matching_kept = true;
    solver_matching_save(&s->matching,
                         s->matching_states + (size_t)(s->depth - 1) *
                                                  (size_t)solver_matching_state_size(&s->matching));
    memcpy(s->row_states + (size_t)(s->depth - 1) * (size_t)s->box_count, s->box_row,
           (size_t)s->box_count * sizeof *s->box_row);
}

/* The bound of the state a push of `box` from `from` made, reached at cost `g` by `pushes`
 * pushes, or IDA_PRUNE: the matching repaired, then the checks and the pairs' penalties. */
static int bound_after_push(solver_search *s, int box, int from, int g, int pushes)
{
    keep_matching(s);
    int changed = refresh_rows(s, box, s->changed);
    int h = solver_matching_update(&s->matching, s->changed, changed);
    if (h < IDA_INFINITY && s->threshold < IDA_INFINITY) {
        /* A state beyond the threshold is not expanded: a bound that shows it is enough, so
         * the frozen check, the moved box's pairs and the corrals wait for an iteration that
         * would expand it. Its f (a lower bound still, of the parity of every f) only
         * lowers the next threshold, which stays the least f over the states beyond: one
         * this check would have cut, or whose full bound is higher, can only make it come
         * sooner, never skip an optimum. */
        int least = h + kept_penalties(s, box, from);
        if (g + pushes + least > s->threshold) {
            s->counters.beyond++;
            if (s->below) s->below->path[s->depth] = (uint16_t)least;
            return least;
        }
    }
    if (s->frozen_deadlocks && s->on_goal > 0 && solver_frozen_lost(s->frozen_deadlocks, s)) {
        s->counters.frozen++;
        return IDA_PRUNE;
    }
    h = with_penalties_after(s, h, box, from);
    if (h >= IDA_INFINITY) {
        s->counters.infinite++;
    } else if (s->corrals_within && s->corral_deadlocks && g + pushes + h <= s->threshold &&
               solver_corral_deadlock_anywhere(s->corral_deadlocks, s)) {
        /* a state beyond the threshold is not expanded: its check waits for an iteration
         * that would (a lost one only lowers the next threshold meanwhile) */
        s->counters.corral_deadlock++;
        return IDA_PRUNE;
    }
    if (s->below && h < IDA_INFINITY) s->below->path[s->depth] = (uint16_t)h;
    return h;
}

static int make(void *context, ida_move move, int g, int *cost)
{
    solver_search *s = context;
    const board *b = s->board;
    if (!ensure_depth(s)) {
        /* Nothing was changed: unmake() must change nothing either. */
        s->no_memory = s->skip_unmake = true;
        return IDA_PRUNE;
    }
    int square = solver_move_square(move);
    direction dir = solver_move_direction(move);
    int box = s->box_at[square];
    bool from_kept = solver_reach_keep(s); /* the first push from a state keeps it */
    solver_undo *undo = &s->undo[s->depth];
    s->depth++;
    if (s->below && !solver_below_enter(s->below, s->depth, SOLVER_BELOW_NONE)) {
        s->no_memory = true;
        s->depth--;
        s->skip_unmake = true;
        return IDA_PRUNE;
    }
    undo->player = s->player;
    undo->last_box = s->last_box;
    undo->entered_cost = -1;
    undo->matching_kept = false;

    int pushes = 1;
    int to = square + b->delta[dir];
    const uint8_t *doors = s->room ? s->room->is_door : NULL;
    if (s->tunnels)
        pushes = solver_macro_tunnel_length(b, s->boxes, s->distances, square, dir, doors);
    for (int i = 1; i < pushes; i++) to += b->delta[dir];
    move_box(s, square, to);
    s->player = to - b->delta[dir];
    if (s->table && !doors) solver_table_prefetch(s->table, s->box_key);
    if (s->below) solver_below_prefetch(s->below, s->box_key);
    if (doors && doors[to]) {
        int count = solver_goal_room_macro(s->room, b, s->distances, s->boxes, square, to, dir,
                                           s->macro, 4 * b->size);
        if (count > 0) {
            ida_move last = s->macro[count - 1];
            int end = solver_move_square(last) + b->delta[solver_move_direction(last)];
            move_box(s, to, end);
            s->player = solver_move_square(last);
            to = end;
            pushes += count;
            s->counters.goal_room++;
        }
    }
    undo->box_to = to;
    s->last_box = box;
    check_state(s);
    s->reach_valid = false;
    *cost = pushes;
    if (pushes > 1) s->counters.tunnel++;

    if (pushes > 1 && solver_square_is_dead(s->distances, to)) {
        s->counters.dead_square++;
        return IDA_PRUNE;
    }
    if (s->deadlocks && deadlock_check_push(s->deadlocks, b, s->boxes, to)) {
        s->counters.deadlock++;
        return IDA_PRUNE;
    }
    if (s->pairs && solver_search_pair_lost(s, to)) {
        s->counters.pair++;
        return IDA_PRUNE;
    }
    if (!(from_kept && pushes == 1 && solver_reach_after_push(s, square, to))) solver_reach_flood(s);
    /* Kept whether or not its bound shows it within the threshold: the states beyond, kept
     * at their least cost, cut the paths that reach them again at a higher cost in the next
     * iteration, the one that may be the last (docs/SOLVER.md, section 6). */
    if (s->table && !enter_table(s, g + pushes)) {
        s->counters.transposition++;
        return IDA_PRUNE;
    }
    if (s->seen && s->seen(s->seen_context, state_key(s))) {
        s->counters.transposition++;
        return IDA_PRUNE;
    }
    if (s->corrals_at_push && !s->corrals_within && s->corral_deadlocks &&
        solver_corral_deadlock(s->corral_deadlocks, s, to)) {
        s->counters.corral_deadlock++;
        return IDA_PRUNE;
    }
    return bound_after_push(s, box, square, g, pushes);
}

static void unmake(void *context, ida_move move)
{
    solver_search *s = context;
    if (s->skip_unmake) {
        s->skip_unmake = false;
        return;
    }
    assert(s->depth > 0);
    if (s->below) solver_below_leave(s->below, s->depth, s->box_key);
    s->depth--;
    const solver_undo *undo = &s->undo[s->depth];
    if (undo->entered_cost >= 0 && s->table->shared)
        solver_table_leave(s->table, undo->entered_key, undo->entered_cost, s->iteration);
    move_box(s, undo->box_to, solver_move_square(move));
    s->player = undo->player;
    s->last_box = undo->last_box;
    s->reach_valid = false;
    check_state(s);
    if (!undo->matching_kept) return;
    solver_matching_restore(
        &s->matching,
        s->matching_states + (size_t)s->depth * (size_t)solver_matching_state_size(&s->matching));
    /* the rows go back with the matching built on them: refresh_rows() compares with them */
    memcpy(s->box_row, s->row_states + (size_t)s->depth * (size_t)s->box_count,
           (size_t)s->box_count * sizeof *s->box_row);
}

/* In a team: the state just made is one another thread is below (ida.h). */
static bool shared(void *context)
{
    const solver_search *s = context;
    return s->helping;
}

static bool is_goal(void *context)
{
    const solver_search *s = context;
    return s->on_goal == s->box_count;
}

/* Out of memory (a table of its own could not grow), or a bound given up at a limit. */
static ida_status failed(void *context)
{
    const solver_search *s = context;
    return s->no_memory ? IDA_NO_MEMORY : s->matching.stopped ? IDA_LIMIT : IDA_SOLVED;
}

void solver_search_domain(solver_search *s, ida_domain *domain)
{
    *domain = (ida_domain){
        .context = s,
        .max_moves = 4 * s->box_count,
        .root_bound = root_bound,
        .begin_iteration = begin_iteration,
        .expand = expand,
        .make = make,
        .unmake = unmake,
        .shared = shared,
        .is_goal = is_goal,
        .failed = failed,
    };
}

/* ---- setting up ------------------------------------------------------------------------ */

void solver_search_set(solver_search *s, const uint16_t *squares, int player)
{
    /* Only the boxes that stand elsewhere are moved: the fast mode sets states a few pushes
     * apart, most boxes where they stood. All of them are lifted before any is put down, so
     * a box may go where another left. */
    for (int i = 0; i < s->box_count; i++) {
        int square = s->box_square[i];
        if (square == squares[i]) continue;
        s->boxes[square] = 0;
        s->blocked[square] = 0;
        s->box_at[square] = -1;
        if (s->use_rows) solver_rows_set_box(&s->rows, square, false);
        s->box_key ^= s->zobrist.box[square];
        if (board_is_goal(s->board, square)) s->on_goal--;
    }
    for (int i = 0; i < s->box_count; i++) {
        int square = squares[i];
        if (s->box_square[i] == square) continue;
        assert(board_is_inside(s->board, square) && !s->boxes[square]); /* no two on one */
        s->box_square[i] = square;
        s->box_at[square] = i;
        s->boxes[square] = 1;
        s->blocked[square] = 1;
        if (s->use_rows) solver_rows_set_box(&s->rows, square, true);
        s->box_key ^= s->zobrist.box[square];
        if (board_is_goal(s->board, square)) s->on_goal++;
    }
    s->player = player;
    s->last_box = -1;
    s->reach_valid = false;
    s->depth = 0;
    check_state(s);
}

int solver_search_bound(solver_search *s)
{
    if (!s->reach_valid) solver_reach_flood(s);
    /* The matching always holds an optimal assignment for the rows in box_row (make() and
     * unmake() keep the two together), so a new state is repaired from the last one's rows,
     * as after a push: the fast mode sets states of one tree, a few pushes apart, and even
     * with most rows changed the repair costs less than a solve (measured: docs/SOLVER.md).
     * Only the first state, with no rows yet, is solved from scratch. */
    keep_matching(s);
    int changed = refresh_rows(s, -1, s->changed);
    if (changed < s->box_count) return solver_matching_update(&s->matching, s->changed, changed);
    return solver_matching_solve(&s->matching);
}

uint64_t solver_search_key(solver_search *s)
{
    if (!s->reach_valid) solver_reach_flood(s);
    return state_key(s);
}

bool solver_search_is_goal(const solver_search *s)
{
    return s->on_goal == s->box_count;
}

/* The corral deadlock checks, with a table of learned corrals of their own unless one is
 * shared (solver_search_share_learned). */
static bool start_corral_deadlocks(solver_search *s)
{
    solver_corral_deadlocks *c = malloc(sizeof *c);
    if (!c ||
        !solver_corral_deadlocks_init(c, s->board, s->distances, s->deadlocks, s->zobrist, NULL)) {
        free(c);
        return false;
    }
    c->use_rows &= s->use_rows; /* rows where the search has them (SOLVER_NO_ROWS) */
    s->corral_deadlocks = c;
    return true;
}

bool solver_search_init(solver_search *s, const board *b, const position *start,
                        const solver_distances *distances, const deadlock_table *deadlocks,
                        solver_table *table, solver_goal_room *room, const solver_options *options)
{
    unsigned off = options->disable;
    *s = (solver_search){
        .board = b,
        .distances = distances,
        .deadlocks = off & SOLVER_NO_DEADLOCKS ? NULL : deadlocks,
        .table = off & SOLVER_NO_TABLE ? NULL : table,
        .room = room,
        .mode = options->mode,
        .known = options->mode == SOLVER_FAST ? options->known : NULL,
        .known_argument = options->known_argument,
        .tunnels = !(off & SOLVER_NO_TUNNELS),
        .corrals = !(off & SOLVER_NO_CORRALS),
        .start_freeze = !(off & SOLVER_NO_DEADLOCKS),
        .corrals_at_push = true,
        .corrals_within = options->mode == SOLVER_OPTIMAL,
        .threshold = IDA_INFINITY,
        .ordering = !(off & SOLVER_NO_INERTIA),
        .pull_home = !(off & SOLVER_NO_PULL_HOME),
        .parking = !(off & SOLVER_NO_PARKING),
        .order_search = !(off & SOLVER_NO_ORDER_SEARCH),
        .park_early = !(off & SOLVER_NO_EARLY_ORDER),
        .plan_from = options->mode == SOLVER_FAST ? options->plan_from : NULL,
        .searched_plan = options->mode == SOLVER_FAST && options->searched_plan,
        .plan_pick = options->mode == SOLVER_FAST && !(off & SOLVER_NO_PLAN_PICK),
        .packing_list = !(off & SOLVER_NO_PACKING_LIST),
        .frozen = !(off & SOLVER_NO_FROZEN),
        .stuck = !(off & SOLVER_NO_STUCK),
        .joiner_moves = !(off & SOLVER_NO_JOINER_MOVES),
        .opener_moves = !(off & SOLVER_NO_OPENER_MOVES),
        .player = start->player,
        .last_box = -1,
    };
    size_t size = (size_t)b->size;
    int count = 0;
    for (int i = 0; i < b->size; i++)
        if (start->boxes[i]) count++;
    s->box_count = count;
    s->box_square = malloc((count > 0 ? (size_t)count : 1) * sizeof *s->box_square);
    s->box_at = malloc(size * sizeof *s->box_at);
    s->boxes = calloc(size, 1);
    s->blocked = malloc(size);
    s->corral_mark = calloc(size, sizeof *s->corral_mark);
    s->corral_id = malloc(size * sizeof *s->corral_id);
    s->reach = calloc(size, sizeof *s->reach);
    s->queue = malloc(size * sizeof *s->queue);
    s->macro = malloc(4 * size * sizeof *s->macro);
    size_t boxes = count > 0 ? (size_t)count : 1;
    s->box_row = calloc(boxes, sizeof *s->box_row);
    s->changed = malloc(boxes * sizeof *s->changed);
    s->box_square_scratch = malloc(boxes * sizeof *s->box_square_scratch);
    s->use_rows = solver_rows_fit(b) && !(off & SOLVER_NO_ROWS);
    if (s->use_rows) {
        /* the five PI-corral rows and pushed_from_reach (solver_state.h), in one block */
        s->corral_free = calloc(6 * (size_t)b->height, sizeof *s->corral_free);
        if (s->corral_free) {
            s->corral_done = s->corral_free + b->height;
            s->corral_rows = s->corral_done + b->height;
            s->corral_barrier = s->corral_rows + b->height;
            s->corral_best = s->corral_barrier + b->height;
            s->pushed_from_reach = s->corral_best + b->height;
        }
        s->pushed_from_depth = -1;
    }
    if (!s->blocked || !s->corral_mark || !s->corral_id || !s->macro || !s->box_row ||
        !s->changed || !s->box_square_scratch || !s->box_square || !s->box_at || !s->boxes ||
        !s->reach || !s->queue ||
        (s->use_rows && (!s->corral_free || !solver_rows_init(&s->rows, b))) ||
        !solver_zobrist_init(&s->zobrist, b->size) ||
        !solver_matching_init(&s->matching, count, s->box_row)) {
        solver_search_free(s);
        return false;
    }
    for (int i = 0; i < b->size; i++) {
        s->box_at[i] = -1;
        s->blocked[i] = !board_is_inside(b, i);
    }
    if (!(off & SOLVER_NO_CORRAL_DEADLOCKS) && !start_corral_deadlocks(s)) {
        solver_search_free(s);
        return false;
    }
    count = 0;
    for (int i = 0; i < b->size; i++) {
        if (!start->boxes[i]) continue;
        s->box_square[count] = i;
        s->box_at[i] = count++;
        s->boxes[i] = 1;
        s->blocked[i] = 1;
        if (s->use_rows) solver_rows_set_box(&s->rows, i, true);
        s->box_key ^= s->zobrist.box[i];
        if (board_is_goal(b, i)) s->on_goal++;
    }
    return true;
}

void solver_search_share_learned(solver_search *s, solver_learned *learned)
{
    if (s->corral_deadlocks)
        solver_corral_deadlocks_share(s->corral_deadlocks, solver_learned_corrals(learned));
    s->stuck_patterns = solver_learned_patterns(learned);
}

void solver_search_use_pairs(solver_search *s, const solver_pairs *pairs,
                             const solver_triples *triples)
{
    s->pairs = pairs;
    s->triples = pairs ? triples : NULL;
    if (s->pair_rows) {
        solver_pair_rows_free(s->pair_rows);
        free(s->pair_rows);
        s->pair_rows = NULL;
    }
    /* a pushed box's pairs are asked as one row; rows are made as the search goes, so they
     * are its own */
    if (pairs) {
        s->pair_rows = malloc(sizeof *s->pair_rows);
        if (s->pair_rows && !solver_pair_rows_init(s->pair_rows, pairs, s->board)) {
            free(s->pair_rows);
            s->pair_rows = NULL;
        }
    }
    if (s->corral_deadlocks) {
        s->corral_deadlocks->pairs = pairs;
        s->corral_deadlocks->triples = s->triples;
    }
}

void solver_search_free(solver_search *s)
{
    if (s->pair_rows) {
        solver_pair_rows_free(s->pair_rows);
        free(s->pair_rows);
    }
    if (s->corral_deadlocks) {
        solver_corral_deadlocks_free(s->corral_deadlocks);
        free(s->corral_deadlocks);
    }
    free(s->box_square);
    free(s->box_at);
    free(s->boxes);
    free(s->blocked);
    free(s->corral_mark);
    free(s->corral_id);
    free(s->corral_free); /* and the other PI-corral rows, in the same block */
    free(s->reach);
    solver_rows_free(&s->rows);
    free(s->queue);
    free(s->undo);
    free(s->matching_states);
    free(s->macro);
    free(s->box_row);
    free(s->changed);
    free(s->box_square_scratch);
    free(s->row_states);
    solver_zobrist_free(&s->zobrist);
    solver_matching_free(&s->matching);
    *s = (solver_search){0};
}
