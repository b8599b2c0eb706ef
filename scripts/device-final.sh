#!/usr/bin/env bash
# One device run: GPU tests, the ingest benchmark at 2^23*16 edges (text and bin32, both
# vertex orders), and ingest of kron26/kron27 generated on the fly. Short table last.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/table.txt"; : >"$T"
if [ -z "${SKIP_TEST:-}" ]; then
  timeout 200 bin/gpu.test -test.v -test.count=1 >"$OUT/gpu-test.log" 2>&1
  echo "gpu.test rc=$? pass=$(grep -c -- '--- PASS' "$OUT/gpu-test.log") fail=$(grep -c -- '--- FAIL' "$OUT/gpu-test.log")" >>"$T"
fi
for o in degree input; do
  (cd ingest && timeout 200 ../bin/ingest.test -test.run '^$' -test.bench 'Ingest' -test.benchtime 1x \
    -ingest.edges 134217728 -ingest.order $o) >"$OUT/ingest-$o.log" 2>&1
  grep -E '^BenchmarkIngest' "$OUT/ingest-$o.log" | tr -s ' \t' ' ' | awk -v o=$o '{
    r=""; for (i=1;i<NF;i++) if ($(i+1) ~ /ingest\/parse-only|bytes\/edge|^edges\/s|parse-only-edges\/s|peak-RSS-MiB/) r=r" "$(i+1)"="$i;
    print o, $1, $3/1e9 " s" r }' >>"$T"
  rm -rf /tmp/Benchmark* 2>/dev/null
done
for so in ${GENS:-26/degree 27/degree}; do
  s=${so%/*} o=${so#*/}
  rm -rf /tmp/k$s.ooc
  /usr/bin/time -v timeout 170 bin/ooc gen kron --scale $s --order $o -o /tmp/k$s.ooc >"$OUT/gen$s.log" 2>&1
  echo "gen kron$s $o: $(grep -E '^ingest: (scan|order|partition|sort|.*in all)' "$OUT/gen$s.log" | sed 's/ingest: //' | tr -s ' ' | tr '\n' ';') sys $(grep 'System time' "$OUT/gen$s.log" | awk '{print $4}')" >>"$T"
  rm -rf /tmp/k$s.ooc
done
cat "$T"
