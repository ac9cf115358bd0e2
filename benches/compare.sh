#!/usr/bin/env bash
# Times arbiter against a raw pgn-reader + shakmaty validation loop and
# pgn-extract on the same file: wall time, MB/s, games/s and peak RSS.
#
#   benches/compare.sh [FILE.pgn]
#
# Default file: the 93 MB lichess export in ../shared/data.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-../shared/data/games-with-clocks/lichess_jishanshaikh4_all-games_to-2022-05.pgn}
RUNS=${RUNS:-3}

if ! command -v pgn-extract >/dev/null && [ ! -x /usr/games/pgn-extract ]; then
  echo "installing pgn-extract (Debian package)" >&2
  (apt-get install -y pgn-extract || (apt-get update && apt-get install -y pgn-extract)) >/dev/null
fi
PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x /usr/bin/time ] || (apt-get install -y time >/dev/null 2>&1 || (apt-get update && apt-get install -y time) >/dev/null)

cargo build --release --locked --quiet --bin arbiter --example validate
BYTES=$(stat -c %s "$FILE")
GAMES=$(./target/release/examples/validate "$FILE" | awk '{print $1}')
echo "file: $FILE ($BYTES bytes, $GAMES games), best of $RUNS runs"
printf '%-28s %9s %9s %11s %10s\n' tool seconds MB/s games/s "peak RSS"

declare -A BEST
measure() { # name, command...
  local name=$1; shift
  local best=999999 rss=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M' -o /tmp/arbiter-compare.time "$@" >/dev/null 2>/dev/null || true
    read -r secs kb < /tmp/arbiter-compare.time
    if awk "BEGIN{exit !($secs < $best)}"; then best=$secs; rss=$kb; fi
  done
  BEST[$name]=$best
  awk -v n="$name" -v s="$best" -v b="$BYTES" -v g="$GAMES" -v r="$rss" \
    'BEGIN{ if (s == 0) s = 0.001; printf "%-30s %9.2f %9.1f %11.0f %8.1f MB\n", n, s, b/1e6/s, g/s, r/1024 }'
}
ratio() { # label, numerator, denominator, goal
  awk -v l="$1" -v a="${BEST[$2]}" -v b="${BEST[$3]}" -v g="$4" \
    'BEGIN{ if (b == 0) b = 0.001; printf "%-58s %6.2fx  (goal %s)\n", l, a/b, g }'
}

# fide-blitz with the material rule instead of the helpmate search.
MATERIAL=$(mktemp --suffix=.toml)
trap 'rm -f "$MATERIAL"' EXIT
./target/release/arbiter rules fide-blitz | sed 's/^test = "helpmate"/test = "material"/' > "$MATERIAL"

measure "validate loop (1 thread)" ./target/release/examples/validate "$FILE"
measure "arbiter -j1 (material)" ./target/release/arbiter adjudicate -q -j1 -r "$MATERIAL" "$FILE" -o /dev/null
measure "arbiter -j2 (material)" ./target/release/arbiter adjudicate -q -j2 -r "$MATERIAL" "$FILE" -o /dev/null
measure "arbiter -j1 (fide-blitz)" ./target/release/arbiter adjudicate -q -j1 -r fide-blitz "$FILE" -o /dev/null
measure "arbiter -j2 (fide-blitz)" ./target/release/arbiter adjudicate -q -j2 -r fide-blitz "$FILE" -o /dev/null
measure "arbiter default (fide-rapid)" ./target/release/arbiter adjudicate -q "$FILE" -o /dev/null
measure "pgn-extract -r" "$PGN_EXTRACT" -r "$FILE"

echo
ratio "analysis overhead: fide-blitz -j1 / material -j1" "arbiter -j1 (fide-blitz)" "arbiter -j1 (material)" "<= 1.10x"
ratio "pgn-extract -r / arbiter default ruleset, default jobs" "pgn-extract -r" "arbiter default (fide-rapid)" ">= 6x"
ratio "validate loop / arbiter material -j1" "validate loop (1 thread)" "arbiter -j1 (material)" ">= 0.8x"
