#!/usr/bin/env bash
# Ingest on the device: the ingest benchmark at 16*2^SCALE edges (device-ab.sh with
# bin/ingest.test: text, both orders, EXTRAS, REPS runs of each), parse-only scaling over
# workers, and CPU profiles of both orders (bin/prof, built from scratch/prof). Needs
# bin/ooc, bin/ingest.test, bin/prof.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/table.txt"; : >"$T"
S=${SCALE:-23}
BINS=ingest ORDERS="${ORDERS:-input degree}" REPS=${REPS:-1} OUT="$OUT" \
  bash "$(dirname "$0")/device-ab.sh" >/dev/null
cat "$OUT/ab.txt" >>"$T"
if [ -x bin/prof ]; then
  timeout 120 bin/ooc gen kron --scale "$S" -o /tmp/k.txt >"$OUT/gen.log" 2>&1
  for w in 1 2 4 8 16; do
    bin/prof parse $w /tmp/k.txt >>"$T" 2>&1
  done
  for o in ${ORDERS:-input degree}; do
    /usr/bin/time -f "%U user %S sys %e wall %M KB" bin/prof $o "$OUT/$o.prof" /tmp/k.txt >"$OUT/prof-$o.log" 2>&1
    echo "prof $o: $(tr '\n' ' ' <"$OUT/prof-$o.log")" >>"$T"
  done
  rm -f /tmp/k.txt; rm -rf /tmp/prof.ooc
fi
cat "$T"
