#!/usr/bin/env bash
# Ingest benchmark runs on the device: each binary in BINS (bin/NAME.test, default
# ingest) runs the ingest of a Kronecker edge list of 16*2^SCALE edges as text in each of
# ORDERS, with each of EXTRAS (benchmark flags), REPS times, binaries interleaved so that
# commits compare within one run; one line a run in $OUT/ab.txt, printed last.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/ab.txt"; : >"$T"
S=${SCALE:-23}
lscpu | grep -E 'Model name|^CPU\(s\)|Thread|L2|L3' >>"$T"
for r in $(seq ${REPS:-2}); do for o in ${ORDERS:-input}; do for b in ${BINS:-ingest}; do for m in ${EXTRAS:-none}; do
  x=""; [ "$m" != none ] && x="-$m"
  (cd ingest && timeout 200 ../bin/$b.test -test.run '^$' -test.bench 'Ingest/text' -test.benchtime 1x \
    -ingest.edges $((16 << S)) -ingest.order $o $x) >"$OUT/bench-$b-$o-$m-$r.log" 2>&1
  grep -E '^BenchmarkIngest' "$OUT/bench-$b-$o-$m-$r.log" | tr -s ' \t' ' ' | awk -v o=$o -v m=$m -v b=$b '{
    r=""; for (i=1;i<NF;i++) if ($(i+1) ~ /ingest\/parse-only|bytes\/edge|^edges\/s|-edges\/s|peak-RSS-MiB/) r=r" "$(i+1)"="$i;
    print b, o, m, $3/1e9 " s" r }' >>"$T"
  rm -rf /tmp/Benchmark* 2>/dev/null
done; done; done; done
cat "$T"
