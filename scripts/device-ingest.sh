#!/usr/bin/env bash
# Ingest on the device: the ingest benchmark at 16*2^SCALE edges (device-ab.sh: BINS,
# default bin/ingest.test, text, ORDERS, REPS runs of each, binaries interleaved), then with
# bin/ooc and bin/prof (built from the untracked scratch/prof tool, if present): parse-only
# scaling over workers, a CPU profile of the input order, the CLI's default (--order auto),
# and with BIG=1 `ooc gen kron --scale 26` in both orders. Prints one table last.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/table.txt"; : >"$T"
S=${SCALE:-23}
mkdir -p /tmp/ab
OUT=/tmp/ab BINS="${BINS:-ingest}" ORDERS="${ORDERS:-input degree}" REPS=${REPS:-3} SCALE=$S \
  bash "$(dirname "$0")/device-ab.sh" >/dev/null 2>&1
grep -v '^[A-Z]' /tmp/ab/ab.txt | sed 's/ peak-RSS-MiB=[0-9]*//; s/ spill-bytes.edge=[0-9.]*//; s/ edges.s=[0-9]*//' >>"$T"
bin/ooc gen kron --scale "$S" -o /tmp/k.txt >/dev/null 2>&1
if [ -x bin/prof ]; then
  for w in 1 4 16 16; do bin/prof parse $w /tmp/k.txt >>"$T" 2>&1; done
  echo "prof input: $(bin/prof input "$OUT/input.prof" /tmp/k.txt | tr '\n' ' ')" >>"$T"
fi
echo "cli auto: $(bin/ooc ingest --force -o /tmp/k.ooc /tmp/k.txt 2>&1 | grep -E 'order|in all' | tr '\n' ' ')" >>"$T"
rm -rf /tmp/k.ooc /tmp/k.txt
if [ "${BIG:-0}" = 1 ]; then
  for o in degree input; do
    echo "kron26 $o: $( /usr/bin/time -f '%e s wall %M KB' bin/ooc gen kron --scale 26 --order $o --force -o /tmp/k26.ooc 2>&1 |
      grep -E 'ingest: (scan|order|partition|sort|commit)|in all|bytes per|wall' | tr -s ' ' | tr '\n' ' ')" >>"$T"
    rm -rf /tmp/k26.ooc
  done
fi
cat "$T"
