#!/usr/bin/env bash
# A/B runs of ingest benchmark binaries on the device: each binary in BINS (bin/NAME.test)
# runs the kron23-text ingest in ORDERS, interleaved, REPS times; prints one line a run.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/ab.txt"; : >"$T"
S=${SCALE:-23}
lscpu | grep -E 'Model name|^CPU\(s\)|Thread|L2|L3' >>"$T"
for r in $(seq ${REPS:-2}); do for o in ${ORDERS:-input}; do for b in ${BINS}; do for m in ${EXTRAS:-none}; do
  x=""; [ "$m" != none ] && x="-$m"
  (cd ingest && timeout 200 ../bin/$b.test -test.run '^$' -test.bench 'Ingest/text' -test.benchtime 1x \
    -ingest.edges $((16 << S)) -ingest.order $o $x) >"$OUT/bench-$b-$o-$m-$r.log" 2>&1
  grep -E '^BenchmarkIngest' "$OUT/bench-$b-$o-$m-$r.log" | tr -s ' \t' ' ' | awk -v o=$o -v m=$m -v b=$b '{
    r=""; for (i=1;i<NF;i++) if ($(i+1) ~ /ingest\/parse-only|^edges\/s|-edges\/s|peak-RSS-MiB/) r=r" "$(i+1)"="$i;
    print b, o, m, $3/1e9 " s" r }' >>"$T"
  rm -rf /tmp/Benchmark* 2>/dev/null
done; done; done; done
cat "$T"
