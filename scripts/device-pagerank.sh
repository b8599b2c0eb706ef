#!/usr/bin/env bash
# PageRank and k-core of ooc's CPU engine side by side with GAPBS's pr, on the same
# Kronecker graph (GAPBS's converter generates it; sgconv feeds the same edges to ooc
# ingest, as ../shared/peers/README.md describes), from binaries built elsewhere:
#   go build -tags cuda -o .dev-algos/ooc ./cmd/ooc
#   cp ../shared/peers/gapbs/{pr,converter} .dev-algos/
#   (cd ../shared/peers/sgconv && go build -o /work/main/.dev-algos/sgconv .)
#   BIN=.dev-algos bash scripts/device-pagerank.sh 22 24
# Each scale: ROUNDS (3) interleaved rounds of GAPBS pr and ooc pagerank, both for
# ITERS (20) iterations with the tolerance out of reach, on THREADS (16) threads;
# then one run of each at the default tolerance 1e-4, and ooc kcore. Logs go to $OUT
# (default ./pr-out); a table of medians and ratios is printed last.
set -uo pipefail
OUT=${OUT:-$PWD/pr-out}
WORK=${WORK:-/tmp/ooc-pr}
BIN=${BIN:-$PWD/bin}
ROUNDS=${ROUNDS:-3}
ITERS=${ITERS:-20}
THREADS=${THREADS:-16}
mkdir -p "$OUT" "$WORK"
table="$OUT/table.txt"
: >"$table"
export OMP_NUM_THREADS=$THREADS OMP_WAIT_POLICY=passive

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

for s in "$@"; do
  sg="$WORK/k$s.sg" g="$WORK/k$s.ooc"
  if [ ! -d "$g" ]; then
    "$BIN/converter" -g "$s" -k 16 -b "$sg" >"$OUT/gen-k$s.log" 2>&1 || { echo "k$s: converter failed" >>"$table"; continue; }
    "$BIN/sgconv" -in "$sg" -bin32 "$WORK/k$s.bin32" >>"$OUT/gen-k$s.log" 2>&1 &&
      "$BIN/ooc" ingest -q --format bin32 -o "$g" "$WORK/k$s.bin32" >>"$OUT/gen-k$s.log" 2>&1
    rm -f "$WORK/k$s.bin32"
  fi
  gap=() ooc=()
  for r in $(seq "$ROUNDS"); do
    t=$("$BIN/pr" -f "$sg" -n 1 -i "$ITERS" -t 1e-30 2>&1 | tee -a "$OUT/gapbs-k$s.log" | awk '/Trial Time/ {print $3}')
    gap+=("$(awk -v t="$t" -v i="$ITERS" 'BEGIN {print t / i}')")
    o=$("$BIN/ooc" pagerank --backend cpu --workers "$THREADS" --top 0 --max-iters "$ITERS" --tolerance 1e-30 --json "$g" 2>>"$OUT/ooc-k$s.log")
    ooc+=("$(echo "$o" | json seconds_per_iteration)")
  done
  gm=$(printf '%s\n' "${gap[@]}" | median) om=$(printf '%s\n' "${ooc[@]}" | median)
  printf 'k%-3s pagerank per iteration (median of %d, %d threads): gapbs %.4f s, ooc cpu %.4f s, gapbs/ooc %.2f\n' \
    "$s" "$ROUNDS" "$THREADS" "$gm" "$om" "$(awk -v a="$gm" -v b="$om" 'BEGIN {print a / b}')" >>"$table"
  gd=$("$BIN/pr" -f "$sg" -n 1 -l 2>&1 | tee -a "$OUT/gapbs-k$s.log")
  printf 'k%-3s tolerance 1e-4: gapbs %s iterations, %s s; ' "$s" "$(echo "$gd" | grep -cE '^ +[0-9]+ +[0-9.]+$')" \
    "$(echo "$gd" | awk '/Trial Time/ {print $3}')" >>"$table"
  o=$("$BIN/ooc" pagerank --backend cpu --workers "$THREADS" --top 5 --json "$g" 2>>"$OUT/ooc-k$s.log")
  printf 'ooc cpu %s iterations, %.3f s\n' "$(echo "$o" | json iterations)" "$(echo "$o" | json seconds)" >>"$table"
  o=$("$BIN/ooc" kcore --backend cpu --workers "$THREADS" --json "$g" 2>>"$OUT/ooc-k$s.log")
  printf 'k%-3s kcore: max core %s, %s levels, %.3f s\n' "$s" "$(echo "$o" | json max_core)" "$(echo "$o" | json levels)" \
    "$(echo "$o" | json seconds)" >>"$table"
done
cat "$table"
