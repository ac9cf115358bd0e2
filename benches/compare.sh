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

# fide-blitz with the material rule instead of the helpmate search.
MATERIAL=$(mktemp --suffix=.toml)
trap 'rm -f "$MATERIAL"' EXIT
./target/release/arbiter rules fide-blitz | sed 's/^test = "helpmate"/test = "material"/' > "$MATERIAL"

NAMES=("validate loop (1 thread)" "arbiter -j1 (material)" "arbiter -j2 (material)"
  "arbiter -j1 (fide-blitz)" "arbiter -j2 (fide-blitz)" "arbiter default (fide-rapid)" "pgn-extract -r")
run() { # index -> the command
  case $1 in
    0) ./target/release/examples/validate "$FILE" ;;
    1) ./target/release/arbiter adjudicate -q -j1 -r "$MATERIAL" "$FILE" -o /dev/null ;;
    2) ./target/release/arbiter adjudicate -q -j2 -r "$MATERIAL" "$FILE" -o /dev/null ;;
    3) ./target/release/arbiter adjudicate -q -j1 -r fide-blitz "$FILE" -o /dev/null ;;
    4) ./target/release/arbiter adjudicate -q -j2 -r fide-blitz "$FILE" -o /dev/null ;;
    5) ./target/release/arbiter adjudicate -q "$FILE" -o /dev/null ;;
    6) "$PGN_EXTRACT" -r "$FILE" ;;
  esac
}

export -f run
export FILE MATERIAL PGN_EXTRACT
# Runs interleaved, tool after tool, so that a slow spell of a shared
# machine (it varies by a fifth here) weighs on every tool alike.
declare -A BEST CPU RSS
for _ in $(seq "$RUNS"); do
  for i in "${!NAMES[@]}"; do
    # Wall time from bash's microsecond clock: time's %e has 10 ms steps,
    # three per cent of a 0.3 s run, enough to tip a ratio.
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S %M' -o /tmp/arbiter-compare.time bash -c "run $i" >/dev/null 2>&1 || true
    t1=$EPOCHREALTIME
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b - a}')
    read -r user sys kb < /tmp/arbiter-compare.time
    name=${NAMES[$i]}
    if [ -z "${BEST[$name]:-}" ] || awk "BEGIN{exit !($secs < ${BEST[$name]})}"; then
      BEST[$name]=$secs; CPU[$name]=$(awk "BEGIN{print $user + $sys}"); RSS[$name]=$kb
    fi
  done
done
printf '%-30s %9s %9s %9s %11s %10s\n' tool seconds "cpu s" MB/s games/s "peak RSS"
for name in "${NAMES[@]}"; do
  awk -v n="$name" -v s="${BEST[$name]}" -v c="${CPU[$name]}" -v b="$BYTES" -v g="$GAMES" -v r="${RSS[$name]}" \
    'BEGIN{ if (s == 0) s = 0.001; printf "%-30s %9.3f %9.2f %9.1f %11.0f %8.1f MB\n", n, s, c, b/1e6/s, g/s, r/1024 }'
done

ratio() { # label, numerator, denominator, goal
  awk -v l="$1" -v a="${BEST[$2]}" -v b="${BEST[$3]}" -v g="$4" \
    'BEGIN{ if (b == 0) b = 0.001; printf "%-58s %6.2fx  (goal %s)\n", l, a/b, g }'
}
echo
ratio "analysis overhead: fide-blitz -j1 / material -j1" "arbiter -j1 (fide-blitz)" "arbiter -j1 (material)" "<= 1.10x"
ratio "pgn-extract -r / arbiter default ruleset, default jobs" "pgn-extract -r" "arbiter default (fide-rapid)" ">= 6x"
ratio "validate loop / arbiter material -j1" "validate loop (1 thread)" "arbiter -j1 (material)" ">= 0.8x"

# INSTR=1: the same three -j1 comparisons in instructions executed
# (valgrind's cachegrind), which do not vary with the machine's load.
if [ "${INSTR:-0}" = 1 ] && command -v valgrind >/dev/null; then
  ir() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/I *refs/{gsub(",","",$4); print $4}'; }
  V=$(ir ./target/release/examples/validate "$FILE")
  M=$(ir ./target/release/arbiter adjudicate -q -j1 -r "$MATERIAL" "$FILE" -o /dev/null)
  H=$(ir ./target/release/arbiter adjudicate -q -j1 -r fide-blitz "$FILE" -o /dev/null)
  echo
  awk -v v="$V" -v m="$M" -v h="$H" 'BEGIN{
    printf "instructions: validate %.2fG, material -j1 %.2fG, fide-blitz -j1 %.2fG\n", v/1e9, m/1e9, h/1e9
    printf "  analysis overhead %.2fx, validate / material %.2fx\n", h/m, v/m }'
fi
