/* flood_squares.c - the player's reach square by square, for the tests. */
#include "flood_squares.h"

#include <string.h>

int flood_squares(const board *b, const uint8_t *boxes, int origin, int cut, int from,
                  uint8_t *seen, int *queue)
{
    memset(seen, 0, (size_t)b->size);
    int head = 0, tail = 0, least = from;
    seen[from] = 1;
    queue[tail++] = from;
    while (head < tail) {
        int square = queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (seen[next] || next == cut || !board_is_inside(b, next) ||
                (boxes[next] && next != origin))
                continue;
            seen[next] = 1;
            queue[tail++] = next;
            if (next < least) least = next;
        }
    }
    return least;
}
