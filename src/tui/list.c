/* list.c - a selection in a list on screen: the navigation keys every list screen shares. */
#include <curses.h>
#include <stdio.h>

#include "keys.h"
#include "list.h"

void list_unknown_key(int key, char *note, size_t size)
{
    char name[32];
    keys_name(key, name, sizeof name);
    snprintf(note, size, " Unknown key %s", name);
}

bool list_navigate(int key, int *selected, int count, int page)
{
    int to = *selected;
    switch (key) {
    case KEY_UP:
    case 'k':
    case 'w':
        to--;
        break;
    case KEY_DOWN:
    case 'j':
    case 's':
        to++;
        break;
    case KEY_PPAGE:
        to -= page;
        break;
    case KEY_NPAGE:
    case ' ':
        to += page;
        break;
    case KEY_HOME:
    case 'g':
        to = 0;
        break;
    case KEY_END:
    case 'G':
        to = count - 1;
        break;
    default:
        return false;
    }
    if (to > count - 1) to = count - 1;
    if (to < 0) to = 0;
    *selected = to;
    return true;
}

int list_row_at(int y, int first, int top, int rows, int count)
{
    int i = top + y - first;
    return y >= first && y < first + rows && i >= 0 && i < count ? i : -1;
}

void list_scroll(int selected, int *top, int rows, int count)
{
    if (selected < *top) *top = selected;
    if (selected >= *top + rows) *top = selected - rows + 1;
    if (*top > count - rows) *top = count - rows;
    if (*top < 0) *top = 0;
}
