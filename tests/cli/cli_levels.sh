#!/bin/sh
# cli_levels.sh - collections on the command line: FILE:N, folders, standard input, groups of
# one-level files, and --list with a level that cannot be played.
# Usage: cli_levels.sh PATH-TO-SOKOBAN
set -u
sokoban=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/cli_levels.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

run() {
    "$sokoban" "$@" >"$work/stdout" 2>"$work/stderr"
    status=$?
}

expect_status() {
    [ "$status" -eq "$2" ] || fail "$1: exit status $status, expected $2 ($(head -c 300 "$work/stderr"))"
}

printf '; One\n#####\n#@$.#\n#####\n\n; Twins\n######\n#@$.@#\n######\n\n; Three\n######\n#@ $.#\n######\n' >"$work/bad.xsb"

# ---- --list: a level that cannot be played is listed with its line and reason
run --list "$work/bad.xsb"
expect_status "list with a bad level" 0
[ "$(wc -l <"$work/stdout")" -eq 3 ] || fail "list with a bad level: $(cat "$work/stdout")"
grep -q '^ *2  Twins  *cannot be played: line 8: two players' "$work/stdout" ||
    fail "list: the bad level is not marked: $(cat "$work/stdout")"
grep -q '^ *3  Three .* 6x3 ' "$work/stdout" || fail "list: level 3 is missing: $(cat "$work/stdout")"

# ---- the modes that act on the bad level refuse it; the others play on
run --verify "$work/bad.xsb" --level 2 R
expect_status "verify the bad level" 2
grep -q "level 2 (Twins), line 8: two players" "$work/stderr" || fail "verify bad: $(cat "$work/stderr")"
run --verify "$work/bad.xsb" --level 3 rR
expect_status "verify a good level after a bad one" 0
run --deadlocks "$work/bad.xsb:2"
expect_status "deadlocks on the bad level (FILE:N)" 2

# ---- FILE:N
run --verify "$work/bad.xsb:3" rR
expect_status "verify FILE:3" 0
run --verify "$work/bad.xsb:1" R
expect_status "verify FILE:1" 0
run --verify "$work/bad.xsb:9" R
expect_status "verify FILE:9" 2
grep -q "no level 9" "$work/stderr" || fail "FILE:9: $(cat "$work/stderr")"

# ---- FILE:0 and FILE:N with another --level are told, in the modes and in the game
run --verify "$work/bad.xsb:0" R
expect_status "verify FILE:0" 2
grep -q "^sokoban: $work/bad.xsb:0: no level 0 (levels are numbered from 1)$" "$work/stderr" ||
    fail "verify FILE:0: $(cat "$work/stderr")"
run "$work/bad.xsb:0"
expect_status "game FILE:0" 2
grep -q "^sokoban: $work/bad.xsb:0: no level 0 (levels are numbered from 1)$" "$work/stderr" ||
    fail "game FILE:0: $(cat "$work/stderr")"
# a number past the last level there can be is a level number too, not part of the file's name
run --verify "$work/bad.xsb:99999999999" R
expect_status "verify FILE:99999999999" 2
grep -q "^sokoban: $work/bad.xsb:99999999999: no level 99999999999 (levels are numbered from 1 to 1000000)$" \
    "$work/stderr" || fail "verify FILE:99999999999: $(cat "$work/stderr")"
run "$work/bad.xsb:1000001"
expect_status "game FILE:1000001" 2
grep -q "^sokoban: $work/bad.xsb:1000001: no level 1000001 (levels are numbered from 1 to 1000000)$" \
    "$work/stderr" || fail "game FILE:1000001: $(cat "$work/stderr")"
run --verify "$work/bad.xsb:3" --level 1 rR
expect_status "verify FILE:3 --level 1" 2
grep -q "^sokoban: $work/bad.xsb:3 and --level 1 name two levels; give one$" "$work/stderr" ||
    fail "verify FILE:3 --level 1: $(cat "$work/stderr")"
run "$work/bad.xsb:3" --level 1
expect_status "game FILE:3 --level 1" 2
grep -q "^sokoban: $work/bad.xsb:3 and --level 1 name two levels; give one$" "$work/stderr" ||
    fail "game FILE:3 --level 1: $(cat "$work/stderr")"

# ---- standard input
run --list - <"$work/bad.xsb"
expect_status "list -" 0
[ "$(wc -l <"$work/stdout")" -eq 3 ] || fail "list -: $(cat "$work/stdout")"

# ---- a folder, in natural order
mkdir "$work/folder"
printf '; Ten\n#####\n#@$.#\n#####\n' >"$work/folder/level10.sok"
printf '; Two\n#####\n#@$.#\n#####\n' >"$work/folder/level2.sok"
run --list "$work/folder"
expect_status "list a folder" 0
[ "$(sed -n 1p "$work/stdout" | awk '{print $2}')" = "Two" ] || fail "folder order: $(cat "$work/stdout")"
[ "$(sed -n 2p "$work/stdout" | awk '{print $2}')" = "Ten" ] || fail "folder order: $(cat "$work/stdout")"
# a level past a folder's last: the folder's count, as a folder (it said "the file has")
run --verify "$work/folder:3" R
expect_status "verify folder:3" 2
[ "$(cat "$work/stderr")" = "sokoban: $work/folder: no level 3 (the folder has 2 levels)" ] ||
    fail "folder:3: said '$(cat "$work/stderr")'"

# ---- a folder names the file of a level that cannot be played
printf '; Twins\n######\n#@$.@#\n######\n' >"$work/folder/level7.sok"
run --list "$work/folder"
expect_status "list a folder with a bad level" 0
grep -q '^ *2  Twins  *cannot be played: level7.sok, line 3: two players' "$work/stdout" ||
    fail "folder: the bad level's file is not named: $(cat "$work/stdout")"

# ---- --list pads titles by display width: the size column lines up
printf '; Caf\xc3\xa9\n#####\n#@$.#\n#####\n\n; Cafe\n#####\n#@$.#\n#####\n' >"$work/width.xsb"
run --list "$work/width.xsb"
first=$(sed -n 1p "$work/stdout" | sed 's/5x3.*//' | LC_ALL=C.UTF-8 wc -m)
second=$(sed -n 2p "$work/stdout" | sed 's/5x3.*//' | LC_ALL=C.UTF-8 wc -m)
[ "$first" -eq "$second" ] || fail "--list pads by bytes: $(cat "$work/stdout")"

# ---- text from a level file is printed as the screen shows it: a tab, a form feed and
# U+009B (a terminal's CSI, from a Latin-1 file's byte 0x9B) in a title or a collection's
# name are left out of every line and message, the tab shown as a space
printf 'Collection: Set\tOne\n\n; Red\fText\tTab\302\23331m\n#####\n#@$.#\n#####\n\n; Tw\tins\302\2332J\n######\n#@$.@#\n######\n' >"$work/control.xsb"
# fails when the output of the last run holds a control character
expect_shown() {
    if LC_ALL=C grep -q "$(printf '[\t\f]\|\302\233')" "$work/stdout" "$work/stderr"; then
        fail "$1 prints a control character: $(od -c "$work/stdout" "$work/stderr" | head -20)"
    fi
}
run --list "$work/control.xsb"
expect_shown "--list"
grep -q '^ *1  RedText Tab31m  *5x3 ' "$work/stdout" || fail "--list control: $(cat "$work/stdout")"
grep -q '^ *2  Tw ins2J  *cannot be played: line 10: two players' "$work/stdout" ||
    fail "--list control, the bad level: $(cat "$work/stdout")"
run --verify "$work/control.xsb" R
expect_shown "--verify"
grep -q '^level 1 (RedText Tab31m): solved in 1 move, 1 push$' "$work/stdout" ||
    fail "--verify control: $(cat "$work/stdout")"
run --verify "$work/control.xsb:2" R
expect_shown "--verify on the bad level"
grep -q 'level 2 (Tw ins2J), line 10: two players' "$work/stderr" || fail "--verify control bad: $(cat "$work/stderr")"
run --deadlocks "$work/control.xsb"
expect_shown "--deadlocks"
grep -q '^Set One, level 1 (RedText Tab31m): 5x3, 1 box$' "$work/stdout" ||
    fail "--deadlocks control: $(head -1 "$work/stdout")"
run --solve "$work/control.xsb" --all --nodes 1000
expect_shown "--solve --all"
grep -q 'level 2 (Tw ins2J), line 10: two players.* (skipped)$' "$work/stderr" ||
    fail "--solve control: $(cat "$work/stderr")"
run --hint "$work/control.xsb:2"
expect_shown "--hint on the bad level"
run "$work/control.xsb:2"
expect_shown "the game on the bad level"

# ---- the bidirectional controls (U+202E right-to-left override, U+2066 left-to-right
# isolate, U+200F right-to-left mark, U+061C Arabic letter mark) in a title or a collection's
# name are left out too: U+202E would show the rest of the line reversed
printf 'Collection: Set\330\234One\n\n; Red\342\200\256Text\342\201\246Tab\342\200\217\n#####\n#@$.#\n#####\n' >"$work/bidi.xsb"
expect_no_bidi() {
    if LC_ALL=C grep -q "$(printf '\342\200[\256\217\216\252-\255]\|\342\201[\246-\251]\|\330\234')" \
        "$work/stdout" "$work/stderr"; then
        fail "$1 prints a bidirectional control: $(od -c "$work/stdout" "$work/stderr" | head -20)"
    fi
}
run --list "$work/bidi.xsb"
expect_no_bidi "--list"
grep -q '^ *1  RedTextTab  *5x3 ' "$work/stdout" || fail "--list bidi: $(cat "$work/stdout")"
run --verify "$work/bidi.xsb" R
expect_no_bidi "--verify"
grep -q '^level 1 (RedTextTab): solved in 1 move, 1 push$' "$work/stdout" ||
    fail "--verify bidi: $(cat "$work/stdout")"
run --deadlocks "$work/bidi.xsb"
expect_no_bidi "--deadlocks"
grep -q '^SetOne, level 1 (RedTextTab): 5x3, 1 box$' "$work/stdout" ||
    fail "--deadlocks bidi: $(head -1 "$work/stdout")"

# ---- the size limit is named
head -c 67108865 /dev/zero | tr '\0' '\n' >"$work/huge.xsb"
run --list "$work/huge.xsb"
expect_status "a file over 64 MiB" 2
grep -q "too large a file (more than 64 MiB)" "$work/stderr" || fail "size limit: $(cat "$work/stderr")"

# ---- the game: --level beyond the collection names it as typed
run "$work/bad.xsb" --level 9
expect_status "game --level 9" 2
grep -q "^sokoban: $work/bad.xsb has 3 levels, not 9" "$work/stderr" || fail "game --level 9: $(cat "$work/stderr")"
run "$work/bad.xsb:2"
expect_status "game on the bad level" 2
grep -q "two players" "$work/stderr" || fail "game FILE:2: $(cat "$work/stderr")"

# ---- the game: --collection NAME finds every collection the library shows, by the name it
# shows (a SOK file's Collection: name), case-insensitively, by a unique start of the name
export XDG_DATA_HOME="$work/data"
mkdir -p "$XDG_DATA_HOME/sokoban/levels"
printf 'Collection: Alpha Set\n\n; A\n#####\n#@$.#\n#####\n' >"$XDG_DATA_HOME/sokoban/levels/alpha.sok"
printf '; Alps\n#####\n#@$.#\n#####\n\n; Alps 2\n######\n#@ $.#\n######\n' >"$XDG_DATA_HOME/sokoban/levels/alps.xsb"
run --collection nothing-like-it "$work/bad.xsb"
expect_status "game --collection unknown" 2
grep -q "^sokoban: --collection nothing-like-it: no such collection; there are bad, .*Alpha Set" "$work/stderr" ||
    fail "--collection unknown: $(cat "$work/stderr")"
[ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "--collection unknown: more than one line: $(cat "$work/stderr")"
run --collection AL "$work/bad.xsb"
expect_status "game --collection ambiguous" 2
grep -q "^sokoban: --collection AL: which one? Alpha Set, alps (give more of the name)$" "$work/stderr" ||
    fail "--collection ambiguous: $(cat "$work/stderr")"
for name in "alpha set" ALPHA alps; do
    run --collection "$name" "$work/bad.xsb" </dev/null
    expect_status "game --collection $name" 2
    grep -q "needs a terminal" "$work/stderr" || fail "--collection $name is not found: $(cat "$work/stderr")"
done
run --collection alps --level 3 </dev/null
expect_status "game --collection alps --level 3" 2
grep -q "^sokoban: alps has 2 levels, not 3" "$work/stderr" || fail "--collection alps --level 3: $(cat "$work/stderr")"
# a name typed with "é" as "e" and a combining accent (as some keyboards and file names write
# it) is the name written with "é", "SS" is "ß", in the C locale as in a UTF-8 one
printf 'Collection: Été à Paris\n\n; A\n#####\n#@$.#\n#####\n' >"$XDG_DATA_HOME/sokoban/levels/ete.sok"
printf 'Collection: Große Straße\n\n; A\n#####\n#@$.#\n#####\n' >"$XDG_DATA_HOME/sokoban/levels/strasse.sok"
for locale in C.UTF-8 C; do
    for name in "$(printf 'e\314\201te\314\201 \303\240 paris')" "$(printf 'E\314\201T')" "GROSSE STRASSE" "grosse"; do
        LC_ALL=$locale run --collection "$name" --level 3 </dev/null
        expect_status "game --collection $name ($locale)" 2
        grep -Eq "^sokoban: (Été à Paris|Große Straße) has 1 level, not 3" "$work/stderr" ||
            fail "--collection $name ($locale): $(cat "$work/stderr")"
    done
done
run --collection "ete" --level 3 </dev/null
grep -q "^sokoban: --collection ete: no such collection" "$work/stderr" ||
    fail "--collection ete: an accent counts: $(cat "$work/stderr")"
# a name with a tab in it is told as the level list shows it
printf 'Collection: Al\tpine\n\n; A\n#####\n#@$.#\n#####\n' >"$XDG_DATA_HOME/sokoban/levels/alpine.sok"
run --collection AL "$work/bad.xsb"
expect_shown "--collection ambiguous"
grep -q "^sokoban: --collection AL: which one? .*Al pine" "$work/stderr" ||
    fail "--collection ambiguous with a tab: $(cat "$work/stderr")"

[ "$failures" -eq 0 ] || exit 1
echo "all cli_levels checks passed"
