#!/usr/bin/env bash
# Fault injection for the progress database: sessions killed with SIGKILL at random moments,
# sessions recording at once, a disk that fills up, a read-only folder, damaged pages. For each,
# it counts the answers a session said it recorded ("recorded N" is printed after each commit),
# the answers in the file (read by sqlite3, or recovered by sqlite3's .recover from a damaged one),
# and the answers gcdquiz shows (`progress --json`):
#   lost   = said recorded (or still readable by sqlite3) but not in the database gcdquiz uses
#   hidden = in that database but not shown by gcdquiz
# and exits 1 unless both are 0 everywhere. The full-disk and read-only scenarios mount small
# tmpfs file systems, which needs root; elsewhere they are skipped, and said so.
#
#   Tests/FaultInjection/progress-faults.sh [path/to/gcdquiz]     (default .build/debug/gcdquiz)
#   KILLS=70 ROUNDS=8 SEED=1 to change the number of killed sessions, concurrent rounds, the seed.
set -uo pipefail

cd "$(dirname "$0")/../.."
GCDQUIZ=$(realpath "${1:-.build/debug/gcdquiz}")
KILLS=${KILLS:-70}
ROUNDS=${ROUNDS:-8}
RANDOM=${SEED:-1}
[ -x "$GCDQUIZ" ] || { echo "no gcdquiz at $GCDQUIZ (swift build first)"; exit 2; }
command -v sqlite3 >/dev/null || { echo "needs sqlite3 (apt-get install sqlite3)"; exit 2; }

WORK=$(mktemp -d /tmp/gcdquiz-faults-XXXXXX)
MOUNTS=()
cleanup() {
    for mount in "${MOUNTS[@]}"; do umount -l "$mount" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1
unset GCDQUIZ_PROGRESS

TOTAL_SAID=0 TOTAL_LOST=0 TOTAL_HIDDEN=0 FAILED=0

# Answers in a database, as sqlite3 reads it (the WAL included); "immutable" reads the file
# alone, for a folder where no WAL index can be made (its WAL must be empty).
count_in() {
    if [ "${2:-}" = immutable ]; then
        sqlite3 "file:$1?immutable=1" "SELECT count(*) FROM review" 2>/dev/null || echo 0
    else
        sqlite3 "$1" "SELECT count(*) FROM review" 2>/dev/null || echo 0
    fi
}
count_of() { sqlite3 "$1" "SELECT count(*) FROM review WHERE question_id = '$2'" 2>/dev/null || echo 0; }
# What gcdquiz shows: the report's answer count (0 when it cannot report).
shown() {
    "$GCDQUIZ" progress --progress "$1" --json 2>>"$WORK/stderr" | sed -n 's/^  "answered" : \([0-9]*\),$/\1/p' | head -1 | grep . || echo 0
}
# The last "recorded N" a session printed: the answers it committed.
said() { sed -n 's/^recorded \([0-9]*\)$/\1/p' "$1" | tail -1 | grep . || echo 0; }
set_aside() { find "$(dirname "$1")" -maxdepth 1 -name "$(basename "$1").set-aside-*" ! -name '*-wal' ! -name '*-shm' | wc -l; }

report() {  # scenario, said, in file, shown, lost, extra
    local hidden=$(( $3 - $4 ))
    (( hidden < 0 )) && hidden=0
    printf '%-26s %6s said/readable %6s in the file %6s shown   lost %s  hidden %s%s\n' "$1" "$2" "$3" "$4" "$5" "$hidden" "${6:+  $6}"
    TOTAL_SAID=$(( TOTAL_SAID + $2 )); TOTAL_LOST=$(( TOTAL_LOST + $5 )); TOTAL_HIDDEN=$(( TOTAL_HIDDEN + hidden ))
    if (( $5 > 0 || hidden > 0 )); then FAILED=1; fi
}

# Sessions killed with SIGKILL at a random moment, each recording into the same file.
kill_sessions() {
    local db="$WORK/kill/progress.sqlite" total=0
    mkdir -p "$WORK/kill"
    for round in $(seq 1 "$KILLS"); do
        "$GCDQUIZ" record-answers --progress "$db" --count 100000 --question "kill-$round" --pause $(( RANDOM % 20 )) \
            >"$WORK/kill/$round.out" 2>>"$WORK/stderr" &
        local pid=$!
        sleep "0.$(printf '%03d' $(( RANDOM % 400 )))"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    local lost=0
    for round in $(seq 1 "$KILLS"); do
        local n in
        n=$(said "$WORK/kill/$round.out"); in=$(count_of "$db" "kill-$round")
        total=$(( total + n )); (( in < n )) && lost=$(( lost + n - in ))
    done
    report "kill -9 ($KILLS sessions)" "$total" "$(count_in "$db")" "$(shown "$db")" "$lost" "integrity $(sqlite3 "$db" 'PRAGMA integrity_check')"
}

# Four sessions recording at once, one of them killed at a random moment, round after round.
concurrent_sessions() {
    local db="$WORK/concurrent/progress.sqlite" total=0 lost=0
    mkdir -p "$WORK/concurrent"
    for round in $(seq 1 "$ROUNDS"); do
        local pids=()
        for session in 1 2 3 4; do
            "$GCDQUIZ" record-answers --progress "$db" --count 60 --question "c-$round-$session" \
                >"$WORK/concurrent/$round-$session.out" 2>>"$WORK/stderr" &
            pids+=($!)
        done
        sleep "0.$(printf '%03d' $(( RANDOM % 300 )))"
        kill -9 "${pids[$(( RANDOM % 4 ))]}" 2>/dev/null
        for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
        for session in 1 2 3 4; do
            local n in
            n=$(said "$WORK/concurrent/$round-$session.out"); in=$(count_of "$db" "c-$round-$session")
            total=$(( total + n )); (( in < n )) && lost=$(( lost + n - in ))
        done
    done
    report "4 at once ($ROUNDS rounds)" "$total" "$(count_in "$db")" "$(shown "$db")" "$lost" "integrity $(sqlite3 "$db" 'PRAGMA integrity_check')"
}

mount_tmpfs() {  # folder, size in KB
    mkdir -p "$1"
    mount -t tmpfs -o "size=$2k" tmpfs "$1" 2>/dev/null || return 1
    MOUNTS+=("$1")
}

fill() {  # folder, KB to leave free (0: write until the file system refuses)
    rm -f "$1"/filler
    if [ "$2" -eq 0 ]; then
        dd if=/dev/zero of="$1/filler" bs=4k status=none 2>/dev/null
    else
        local free
        free=$(df -k --output=avail "$1" | tail -1)
        dd if=/dev/zero of="$1/filler" bs=1k count=$(( free > $2 ? free - $2 : 0 )) status=none 2>/dev/null
    fi
    return 0
}

# A disk that fills up while sessions record, then sessions on the full disk (with no room, and
# with a little, enough for SQLite to start and fail half-way), then room again.
full_disk() {
    local folder="$WORK/full"
    if ! mount_tmpfs "$folder" 8192; then echo "full disk                  skipped: mounting a tmpfs is not permitted (needs root)"; return; fi
    local db="$folder/progress.sqlite" total=0 lost=0
    "$GCDQUIZ" record-answers --progress "$db" --count 200 --question full-0 >"$WORK/full-0.out" 2>>"$WORK/stderr"
    # Two sessions record while the disk fills up under them.
    for session in 1 2; do
        "$GCDQUIZ" record-answers --progress "$db" --count 100000 --question "full-$session" --pause 2 \
            >"$WORK/full-$session.out" 2>>"$WORK/stderr" &
    done
    sleep 0.3
    fill "$folder" 0
    wait
    for session in 0 1 2; do
        local n in
        n=$(said "$WORK/full-$session.out"); in=$(count_of "$db" "full-$session")
        total=$(( total + n )); (( in < n )) && lost=$(( lost + n - in ))
    done
    local notes=""
    for leave in 0 16 40 100; do
        fill "$folder" "$leave"
        "$GCDQUIZ" review --retention 0.8 --progress "$db" <<<":quit" >/dev/null 2>>"$WORK/stderr"
        "$GCDQUIZ" --progress "$db" <<<":quit" >"$WORK/full-drill.out" 2>>"$WORK/stderr"
        grep -q "Welcome back" "$WORK/full-drill.out" || notes+=" no-welcome-at-${leave}KB"
        local seen in
        seen=$(shown "$db"); in=$(count_in "$db" immutable)
        (( in > seen )) && notes+=" hidden-at-${leave}KB:$(( in - seen ))"
    done
    (( $(set_aside "$db") > 0 )) && notes+=" SET-ASIDE" && lost=$(( lost + 1 ))
    rm -f "$folder"/filler
    "$GCDQUIZ" record-answers --progress "$db" --count 5 --question after >"$WORK/full-after.out" 2>>"$WORK/stderr"
    total=$(( total + $(said "$WORK/full-after.out") ))
    (( $(count_of "$db" after) < $(said "$WORK/full-after.out") )) && lost=$(( lost + 1 ))
    report "full disk" "$total" "$(count_in "$db")" "$(shown "$db")" "$lost" "files: $(ls "$folder" | tr '\n' ' ')${notes}"
}

# The folder becomes read-only: the history is still shown, nothing is written there.
read_only_folder() {
    local folder="$WORK/readonly"
    if ! mount_tmpfs "$folder" 4096; then echo "read-only folder           skipped: mounting a tmpfs is not permitted (needs root)"; return; fi
    local db="$folder/progress.sqlite"
    "$GCDQUIZ" record-answers --progress "$db" --count 150 --question ro >"$WORK/ro.out" 2>>"$WORK/stderr"
    mount -o remount,ro "$folder"
    local notes="" n in
    "$GCDQUIZ" --progress "$db" <<<":quit" >"$WORK/ro-drill.out" 2>>"$WORK/stderr"
    grep -q "Welcome back" "$WORK/ro-drill.out" || notes+=" no-welcome"
    n=$(said "$WORK/ro.out"); in=$(count_in "$db" immutable)
    report "read-only folder" "$n" "$in" "$(shown "$db")" $(( in < n ? n - in : 0 )) "files: $(ls "$folder" | tr '\n' ' ')${notes}"
}

# Damaged pages: an index's root page, then a page of the review table itself. What sqlite3 can
# still read from the damaged file (the table in rowid order from each end, up to the damage, as
# its .dump does) must all be in the database gcdquiz goes on with.
damaged_pages() {
    for what in index table; do
        local folder="$WORK/damaged-$what"
        mkdir -p "$folder"
        local db="$folder/progress.sqlite"
        "$GCDQUIZ" record-answers --progress "$db" --count 476 --question "damaged" >/dev/null 2>>"$WORK/stderr"
        local page
        if [ "$what" = index ]; then
            page=$(sqlite3 "$db" "SELECT rootpage FROM sqlite_master WHERE name = 'review_by_time'")
        else
            page=$(( $(grep -boa "answer 240" "$db" | head -1 | cut -d: -f1) / 4096 + 1 ))
        fi
        dd if=/dev/urandom of="$db" bs=4096 seek=$(( page - 1 )) count=1 conv=notrunc status=none
        cp "$db" "$folder/damaged"
        { sqlite3 "$folder/damaged" "SELECT id FROM review NOT INDEXED ORDER BY rowid"
          sqlite3 "$folder/damaged" "SELECT id FROM review NOT INDEXED ORDER BY rowid DESC"; } 2>/dev/null | sort -u >"$folder/readable"
        local seen
        seen=$(shown "$db")  # opens it: set aside, the answers still readable copied into a fresh one
        sqlite3 "$db" "SELECT id FROM review" 2>/dev/null | sort -u >"$folder/kept"
        local readable missing
        readable=$(wc -l <"$folder/readable")
        missing=$(comm -23 "$folder/readable" "$folder/kept" | wc -l)
        report "damaged $what page" "$readable" "$(count_in "$db")" "$seen" "$missing" \
            "$(( 476 - readable )) of 476 unreadable by sqlite3 too; $(set_aside "$db") file set aside"
    done
}

echo "gcdquiz progress fault injection ($GCDQUIZ, seed ${SEED:-1})"
kill_sessions
concurrent_sessions
full_disk
read_only_folder
damaged_pages
echo "total: $TOTAL_SAID answers said recorded or readable, $TOTAL_LOST lost, $TOTAL_HIDDEN hidden"
if [ -s "$WORK/stderr" ]; then
    echo "messages from the sessions (distinct):"
    sort "$WORK/stderr" | uniq -c | sort -rn | head -8 | sed 's/^/  /'
fi
exit "$FAILED"
