#!/usr/bin/env bash
# Runs the GPU checks and benchmarks on a machine with an NVIDIA GPU, from binaries built
# elsewhere:
#   go build -tags cuda -o bin/ooc ./cmd/ooc
#   go test -c -tags cuda -o bin/gpu.test .
#   scripts/gpu-bench.sh test            # kernels vs CPU twin + validator, memcheck
#   CFGS="cpu gpu gpu@3GiB" scripts/gpu-bench.sh bench 24 26   # kron 24 and 26
#   KINDS=urand NOVALIDATE=1 scripts/gpu-bench.sh bench 26    # urand 26, no validation
# CFGS lists configurations: cpu, gpu (resident), gpu@SIZE (--vram SIZE), gpu@SIZE/MODE
# (OOC_GPU_STREAM=MODE: always, never, auto); ORDER=input generates graphs in input
# order (default: degree order, as ingest does); SOURCES (16),
# BENCH_TIMEOUT (240 s per bench), LONG=1 (test: larger random graphs).
# Logs go to $OUT (default ./gpu-out); a short table is printed last.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
WORK=${WORK:-/tmp/ooc-bench}
BIN=${BIN:-$PWD/bin}
SOURCES=${SOURCES:-16}
mkdir -p "$OUT" "$WORK"
table="$OUT/table.txt"
: >"$table"
nvidia-smi -L | tee -a "$table"

row() { # name log: the bench's bfs and cc lines, and its link lines when there are any
  printf '%-28s %s | %s\n' "$1" "$(grep -m1 '^bfs' "$2" | sed 's/  */ /g')" "$(grep -m1 '^cc' "$2" | sed 's/  */ /g')" >>"$table"
  if grep -q '^bfs link\|^cc link' "$2"; then
    printf '%-28s %s | %s\n' "" "$(grep -m1 '^bfs link' "$2" | sed 's/  */ /g')" "$(grep -m1 '^cc link' "$2" | sed 's/  */ /g')" >>"$table"
  fi
}

mode=${1:-test}
shift || true
case "$mode" in
test)
  if [ -x "$BIN/cuda.test" ]; then
    timeout 120 "$BIN/cuda.test" -test.v -test.count=1 >"$OUT/cuda-test.log" 2>&1
    echo "cuda.test rc=$? ($(grep -c '^--- PASS' "$OUT/cuda-test.log") passed, $(grep -c '^--- FAIL' "$OUT/cuda-test.log") failed)" >>"$table"
    grep -m5 -A3 '^--- FAIL\|panic' "$OUT/cuda-test.log" >>"$table"
  fi
  timeout 300 "$BIN/gpu.test" -test.v -test.count=1 ${LONG:+-long} >"$OUT/test.log" 2>&1
  echo "gpu.test rc=$? ($(grep -c '^--- PASS' "$OUT/test.log") passed, $(grep -c '^--- FAIL' "$OUT/test.log") failed)" >>"$table"
  grep -m5 -A3 '^--- FAIL\|panic' "$OUT/test.log" >>"$table"
  if command -v compute-sanitizer >/dev/null; then
    timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/gpu.test" -test.run 'TestCases' >"$OUT/memcheck.log" 2>&1
    echo "memcheck rc=$? $(grep -m1 'ERROR SUMMARY' "$OUT/memcheck.log")" >>"$table"
  fi
  ;;
bench)
  for s in "$@"; do
    for kind in ${KINDS:-kron}; do
      name="$kind$s${ORDER:+-$ORDER}"
      g="$WORK/$name.ooc"
      if [ ! -d "$g" ]; then
        /usr/bin/time -v "$BIN/ooc" gen "$kind" --scale "$s" --order "${ORDER:-degree}" -o "$g" >"$OUT/gen-$name.log" 2>&1
        echo "gen $name: $(grep -m1 'in all' "$OUT/gen-$name.log") $(grep -m1 'bytes per directed edge' "$OUT/gen-$name.log" | sed -E 's/.* shards?( \([^)]*\))?, //')" >>"$table"
      fi
      for cfg in ${CFGS:-cpu gpu}; do
        mode=
        case $cfg in */*) mode=${cfg#*/} ;; esac
        c=${cfg%/*}
        case $c in
        cpu) args="--backend cpu" ;;
        gpu) args="--backend gpu" ;;
        gpu@*) args="--backend gpu --vram ${c#gpu@}" ;;
        esac
        log="$OUT/bench-$name-${cfg//[@\/]/_}.log"
        OOC_GPU_STREAM=${mode:-auto} timeout ${BENCH_TIMEOUT:-240} "$BIN/ooc" bench "$g" $args --sources "$SOURCES" -v ${NOVALIDATE:+--validate=false} >"$log" 2>&1
        row "$name $cfg" "$log"
      done
    done
  done
  ;;
esac
cat "$table"
