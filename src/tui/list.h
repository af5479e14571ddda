/* list.h - a selection in a list on screen: the keys that move it, the same on every list
 * screen (levels, collections, snapshots, statistics), and the scrolling that keeps it
 * shown. */
#ifndef SOKOBAN_TUI_LIST_H
#define SOKOBAN_TUI_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Moves *selected for a navigation key: Up k w and Down j s by one, PgUp and PgDn or
 * space by `page` rows, Home g and End G to the first and last; the selection stays in
 * [0, count - 1] (0 when the list is empty). False, with nothing changed, for any other
 * key. */
bool list_navigate(int key, int *selected, int count, int page);

/* Writes into `note` what a list screen shows for a key it does not know, in place of its
 * footer's keys until the next key: " Unknown key 'x'" (named as keys.h names keys). */
void list_unknown_key(int key, char *note, size_t size);

/* The index of the list's row on screen row `y`, the list drawn from screen row `first`
 * with index `top` there, `rows` rows shown, `count` in all; -1 for a row outside it. */
int list_row_at(int y, int first, int top, int rows, int count);

/* Scrolls *top (the first index shown) so that `selected` is on the `rows` rows shown, and
 * no row is left blank under the last of the `count` while rows above it are not shown
 * (after the terminal grew). */
void list_scroll(int selected, int *top, int rows, int count);

#endif
