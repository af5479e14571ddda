/* level_write.c - writing a level back in the XSB text format (see level.h). */
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "level_lines.h"

/* Writes the map rows, without trailing floor. A row with no wall in it (only decoration
 * outside the walls, like a lone '*') would not read back as a map row on a line of its
 * own, so it is joined to the row above with '|' (the first rows to the row below). */
static bool append_map(text_buffer *b, const level *lv)
{
    bool wall_written = false;
    for (int y = 0; y < lv->height; y++) {
        const char *row = lv->squares + y * lv->width;
        int length = lv->width;
        while (length > 0 && row[length - 1] == LEVEL_FLOOR) length--;
        bool has_wall = memchr(row, LEVEL_WALL, (size_t)length) != NULL;
        if (y > 0 && !buffer_append(b, has_wall && wall_written ? "\n" : "|", 1)) return false;
        if (!buffer_append(b, row, (size_t)length)) return false;
        wall_written |= has_wall;
    }
    return buffer_append(b, "\n", 1);
}

char *level_to_text(const level *lv)
{
    text_buffer b = {0};
    if (!buffer_reserve(&b, 0)) return NULL;
    b.data[0] = '\0';
    bool ok = true;
    if (ok && lv->title[0]) {
        ok = buffer_append_string(&b, "; ") && buffer_append_string(&b, lv->title) &&
             buffer_append_string(&b, "\n\n");
    }
    ok = ok && append_map(&b, lv);
    if (ok && lv->author[0])
        ok = buffer_append_string(&b, "Author: ") && buffer_append_string(&b, lv->author) &&
             buffer_append_string(&b, "\n");
    if (ok && lv->comment[0])
        ok = buffer_append_string(&b, "Comment:\n") && buffer_append_string(&b, lv->comment) &&
             buffer_append_string(&b, "\nComment-End:\n");
    if (!ok) {
        free(b.data);
        return NULL;
    }
    return b.data;
}
