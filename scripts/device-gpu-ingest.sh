#!/usr/bin/env bash
# The GPU ingest on the device, against the CPU ingest and a parse-only pass, on kron text
# made there. Build first (here):
#   go build -tags cuda -o bin/ooc ./cmd/ooc && go build -o bin/parseonly ./tools/parseonly
#   go test -c -tags cuda -o bin/ingest.test ./ingest
# Then on the device: scripts/device-gpu-ingest.sh [SCALES] (default "23 26"). Runs the GPU
# tests (GPU ingest == CPU ingest), then per scale ROUNDS rounds of: parse-only, GPU input
# order, GPU degree order, CPU input order (and CPU degree order with CPUDEG=1), each
# graph's shards hashed (the two backends must agree). Prints one table last.
set -uo pipefail
OUT=${OUT:-$PWD/dev-out}; mkdir -p "$OUT"; T="$OUT/table.txt"; : >"$T"
if [ -x bin/ingest.test ]; then
  timeout 300 bin/ingest.test -test.run 'GPU|Backend' -test.v >"$OUT/gputest.log" 2>&1
  echo "GPU tests rc=$? pass=$(grep -c -- '--- PASS' "$OUT/gputest.log") fail=$(grep -c -- '--- FAIL' "$OUT/gputest.log")" >>"$T"
fi
secs() { grep 'in all' | awk '{print $2}'; }
one() { # FILE BACKEND ORDER
  local s; s=$(bin/ooc ingest --force -o /tmp/g.ooc --backend "$2" --order "$3" "$1" 2>&1 | tee -a "$OUT/ingest.log" | secs)
  echo "$s $(cat /tmp/g.ooc/*.shard /tmp/g.ooc/ids.bin 2>/dev/null | sha256sum | cut -c1-8)"
  rm -rf /tmp/g.ooc
}
for s in ${1:-23 26}; do
  bin/ooc gen kron --scale "$s" -o /tmp/k.txt >/dev/null 2>&1; sync; sleep 5
  one /tmp/k.txt gpu input >/dev/null # the file's writeback slows the first run
  for i in $(seq "${ROUNDS:-3}"); do
    p=$(bin/parseonly /tmp/k.txt | awk '{print $6}')
    line="kron$s round $i: parse-only ${p}s | gpu input $(one /tmp/k.txt gpu input) | gpu degree $(one /tmp/k.txt gpu degree) | cpu input $(one /tmp/k.txt cpu input)"
    [ "${CPUDEG:-0}" = 1 ] && line="$line | cpu degree $(one /tmp/k.txt cpu degree)"
    echo "$line" >>"$T"
  done
  rm -f /tmp/k.txt
done
cat "$T"
