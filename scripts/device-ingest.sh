#!/usr/bin/env bash
# Ingest on the device: the ingest benchmark at 16*2^SCALE edges (text; both orders;
# EXTRAS adds benchmark flags; REPS runs of each), parse-only scaling over workers, and CPU profiles of both
# orders (bin/prof, built from scratch/prof). Needs bin/ooc, bin/ingest.test, bin/prof.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/table.txt"; : >"$T"
S=${SCALE:-23}
nproc >>"$T"
for r in $(seq ${REPS:-1}); do for o in ${ORDERS:-input degree}; do for m in ${EXTRAS:-none}; do
  x=""; [ "$m" != none ] && x="-$m"
  (cd ingest && timeout 200 ../bin/ingest.test -test.run '^$' -test.bench 'Ingest/text' -test.benchtime 1x \
    -ingest.edges $((16 << S)) -ingest.order $o $x) >"$OUT/bench-$o-$m.log" 2>&1
  grep -E '^BenchmarkIngest' "$OUT/bench-$o-$m.log" | tr -s ' \t' ' ' | awk -v o=$o -v m=$m '{
    r=""; for (i=1;i<NF;i++) if ($(i+1) ~ /ingest\/parse-only|bytes\/edge|^edges\/s|parse-only-edges\/s|peak-RSS-MiB|-edges\/s/) r=r" "$(i+1)"="$i;
    print o, m, $3/1e9 " s" r }' >>"$T"
  rm -rf /tmp/Benchmark* 2>/dev/null
done; done; done
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
