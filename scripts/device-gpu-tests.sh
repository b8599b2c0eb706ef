#!/usr/bin/env bash
# Every GPU test of the module on the GPU machine, from test binaries built elsewhere, then
# compute-sanitizer memcheck of the kernels' own tests. Short table last.
#
#   go test -c -tags cuda -o bin/gpu.test .
#   go test -c -tags cuda -o bin/bfs.test ./bfs
#   go test -c -tags cuda -o bin/afforest.test ./afforest
#   go test -c -tags cuda -o bin/gpupkg.test ./gpu
#   scripts/device-gpu-tests.sh
#
# A binary missing from bin/ is skipped; bin/data, when there, holds ../shared/data's files. ROOTRUN (default: the root package's GPU tests,
# about 6 minutes in full) and ROOTTL (seconds) narrow the root package's run; MEMCHECK=0
# skips memcheck. The root package's full set takes ~355 s on an H200: give it a command of
# its own when the rest does not fit the device's 10-minute limit.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}
BIN=${BIN:-$PWD/bin}
ROOTRUN=${ROOTRUN:-'GPU|TestCases|TestRandom|StreamModes|ListCache|Progress|Algos|BudgetRefused|AlgorithmsSubset|PageRankStream'}
# The real graphs of shared/data, where the tests find them on a machine without ../shared.
[ -d "$BIN/data" ] && export OOC_DATA=${OOC_DATA:-$BIN/data}
mkdir -p "$OUT"
T=$OUT/gpu-tests.txt
: >"$T"

run() { # run NAME TIMEOUT BINARY ARGS...: one test binary, its result in a line
  local name=$1 tl=$2 bin=$3
  shift 3
  [ -x "$bin" ] || return 0
  (cd "$(dirname "$0")/../${name%%:*}" 2>/dev/null || cd "$(dirname "$0")/.."
    timeout "$tl" "$bin" -test.v -test.count=1 "$@") >"$OUT/$name.log" 2>&1
  echo "$name rc=$? pass=$(grep -c -- '^--- PASS' "$OUT/$name.log") fail=$(grep -c -- '^--- FAIL' "$OUT/$name.log") skip=$(grep -c -- '^--- SKIP' "$OUT/$name.log")" >>"$T"
  grep -m5 -B2 -A8 -- '^--- FAIL\|^panic' "$OUT/$name.log" >>"$T"
}

nvidia-smi -L >>"$T" 2>&1
run bfs 200 "$BIN/bfs.test" -test.run 'GPU|Batches|LinkRule'
run afforest 200 "$BIN/afforest.test" -test.run 'GPU'
run gpu 120 "$BIN/gpupkg.test"
run root "${ROOTTL:-400}" "$BIN/gpu.test" -test.run "$ROOTRUN"
if [ "${MEMCHECK:-1}" = 1 ]; then
  cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
  if [ -n "$cs" ] && [ -x "$BIN/bfs.test" ]; then
    (cd "$(dirname "$0")/../bfs" && timeout 240 "$cs" --tool memcheck --error-exitcode 9 "$BIN/bfs.test" \
      -test.run 'TestGPULongLists|TestGPUBatches|TestGPUGathered' -test.short) >"$OUT/memcheck.log" 2>&1
    echo "memcheck bfs rc=$? $(grep -m1 'ERROR SUMMARY' "$OUT/memcheck.log")" >>"$T"
  fi
fi
cat "$T"
