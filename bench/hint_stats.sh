#!/bin/sh
# bench/hint_stats.sh - the --as-played tables from the --each lines of hint_bench, over the
# levels finished (a run stopped early still gives its figures).
f=$1
last=$(grep '^cold:' "$f" | tail -1 | awk '{print $3}')
for kind in "as played:" "cold:"; do
  grep "^$kind" "$f" | awk -v last="$last" -v k="$kind" '
    { lvl = (k == "cold:") ? $3 : $4; sec = (k == "cold:") ? $6 : $7; ans = (k == "cold:") ? $8 : $9
      if (lvl + 0 <= last + 0) { print sec, ans } }' |
  sort -n | awk -v k="$kind" '{ v[NR] = $1; if ($2 != "fast" && $2 != "optimal" && $2 != "unsolvable") no++ }
    END { if (NR == 0) exit; m = v[int((NR + 1) / 2)]; p = v[int((NR * 95 + 99) / 100)];
          printf "%-11s hints %d  median %.4f s  p95 %.4f s  max %.4f s  no hint within 10 s %d\n", k, NR, m, p, v[NR], no + 0 }'
done
echo "levels complete: 1..$last"
