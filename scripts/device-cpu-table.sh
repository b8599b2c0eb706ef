#!/usr/bin/env bash
# The CPU table of docs/measured.md on the GPU machine's idle cores: ooc's CPU engine (one
# worker) beside one-thread GAPBS, BFS and CC, on the four real graphs and grid22, urand22
# and kron22 (input and degree order), several ooc binaries interleaved.
#
# Usage, in the repository root of the GPU machine:
#   BINS="ooc-old ooc-new" ROUNDS=3 scripts/device-cpu-table.sh
# bin/ holds the ooc binaries BINS names (the first picks the sources), GAPBS's bfs, cc and
# converter (../shared/peers/gapbs), sgconv (go build ../shared/peers/sgconv) and data/ with
# the .gz files of ../shared/data. Built here:
#   go build -o bin/ooc-new ./cmd/ooc            (and ooc-old from another commit)
#   cp ../shared/peers/gapbs/{bfs,cc,converter} bin/
#   (cd ../shared/peers/sgconv && go build -o "$OLDPWD/bin/sgconv" .)
#   mkdir -p bin/data && cp ../shared/data/*.gz bin/data/
#
# Every graph is one graph for both engines: the real graphs as "u v" lines, which GAPBS's
# converter symmetrizes (-s) and `ooc ingest --order input` reads (undirected); grid22 from
# `ooc gen grid --format text` the same way; urand22 and kron22 from GAPBS's converter
# (-u 22 / -g 22) through sgconv's bin32 into `ooc ingest --format bin32` (kron22deg is the
# same graph in degree order; GAPBS reads kron22's .sg for it). Each binary ingests its own
# copy; facebook_auto is facebook_combined in the order `ooc ingest` picks by default
# (--order auto), GAPBS on the file's. Then scripts/cpu-vs-gapbs.py --threads 1 runs each
# graph on a core of its own (even cores first), all graphs at once, and the output ends with
# one line a graph. CORES="0 1 2 3" deals the graphs to those cores instead, the graphs of
# a core one after another: on the device's VM a search slows down while other cores
# run (road14: luxembourg_osm's ooc 2.5 -> 6.7 ms with the 15 other cores busy, GAPBS's
# 3.1 -> 3.6; with one other core busy, unchanged). CORESPEED=$PWD/bin/corespeed (go build
# -o bin/corespeed ./tools/corespeed; an absolute path) adds a line a graph over the sets
# measured on a quiet core (scripts/cpu-vs-gapbs.py says how); CORESPEED_BEST (default 6500,
# the chain's best on the H200 machine's quiet vCPUs: 6,499-6,720 in one run of the
# fifteenth session, 10,500-13,900 on busy ones) makes that bound absolute.
set -uo pipefail
export CORESPEED_BEST=${CORESPEED_BEST:-6500}
OUT=${OUT:-$PWD/dev-out}
export DATA=${DATA:-/tmp/cpu-table} BIN=${BIN:-$PWD/bin}
BINS=${BINS:-"ooc-old ooc-new"}
ROUNDS=${ROUNDS:-3}
GRAPHS=${GRAPHS:-"facebook_combined soc-Slashdot0902 luxembourg_osm cnr-2000 grid22 urand22 kron22 kron22deg facebook_auto"}
mkdir -p "$OUT" "$DATA"
B=$BIN D=$DATA
log=$OUT/cpu-table-prep.log

prep() { # prep GRAPH: writes D/GRAPH.sg and D/GRAPH.BIN.ooc for every binary
  local g=$1 src=$BIN/data in fmt order=input
  case $g in
  facebook_combined) zcat "$src/$g.txt.gz" >"$D/$g.el" ;;
  facebook_auto) order=auto && zcat "$src/facebook_combined.txt.gz" >"$D/$g.el" ;;
  soc-Slashdot0902 | cnr-2000) zcat "$src/$g.txt.gz" | grep -v '^#' | tr '\t' ' ' >"$D/$g.el" ;;
  luxembourg_osm) # MatrixMarket, 1-based, lower triangle: "u v" lines, 0-based
    zcat "$src/$g.mtx.gz" | grep -v '^%' | tail -n +2 | awk '{print $1-1, $2-1}' >"$D/$g.el" ;;
  grid22) "$B/${BINS%% *}" gen grid --scale 22 --format text -o "$D/$g.el" ;;
  urand22) "$B/converter" -u 22 -k 16 -b "$D/$g.sg" >/dev/null ;;
  kron22) "$B/converter" -g 22 -k 16 -b "$D/$g.sg" >/dev/null ;;
  kron22deg) return ;; # made beside kron22
  esac
  if [ -f "$D/$g.el" ]; then
    "$B/converter" -f "$D/$g.el" -s -b "$D/$g.sg" >/dev/null
    in=$D/$g.el fmt=snap
  else
    "$B/sgconv" -in "$D/$g.sg" -bin32 "$D/$g.bin32" >/dev/null
    in=$D/$g.bin32 fmt=bin32
  fi
  for b in $BINS; do
    "$B/$b" ingest --format $fmt --order $order --force -o "$D/$g.$b.ooc" "$in" >/dev/null 2>&1 ||
      echo "prep $g: $b ingest failed"
    if [ $g = kron22 ]; then
      "$B/$b" ingest --format $fmt --order degree --force -o "$D/kron22deg.$b.ooc" "$in" >/dev/null 2>&1 ||
        echo "prep kron22deg: $b ingest failed"
      ln -sf "$D/kron22.sg" "$D/kron22deg.sg"
    fi
  done
}

t0=$(date +%s)
for g in $GRAPHS; do prep $g & done >"$log" 2>&1
wait
echo "prep: $(($(date +%s) - t0)) s; $(grep -c failed "$log") failures" >>"$log"
cat "$log"

spec=$(for b in $BINS; do printf '%s=%s,' "$b" "$b"; done)
spec=${spec%,}
table() { # table GRAPH CORE
  (cd "$OUT" && taskset -c $2 python3 "$OLDPWD/scripts/cpu-vs-gapbs.py" --threads 1 "$ROUNDS" "$1" "$spec" \
    >"$OUT/cpu-$1.txt" 2>&1)
}
if [ -n "${CORES:-}" ]; then
  # the graphs dealt to the cores CORES lists in turn, one after another on each core
  set -- $CORES
  i=0
  for c in "$@"; do
    (j=0; for g in $GRAPHS; do [ $((j % $#)) = $i ] && table $g $c; j=$((j + 1)); done) &
    i=$((i + 1))
  done
else
  core=0
  for g in $GRAPHS; do
    table $g $core &
    core=$((core + 2))
    [ $core -lt "$(nproc)" ] || core=$((core % 2 + 1))
  done
fi
wait
echo "cpu table: $(($(date +%s) - t0)) s in all"
cat "$OUT"/cpu-*.txt
