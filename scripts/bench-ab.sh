#!/usr/bin/env bash
# Compares two builds of a package's BenchmarkRun (bfs or afforest) on one graph, the two
# test binaries alternated in rounds, for changes of a few percent on a shared machine.
#
# Usage: scripts/bench-ab.sh OLD.test NEW.test GRAPH.ooc ITERATIONS ROUNDS
#   e.g. git stash; go test -c -o /tmp/old.test ./bfs; git stash pop
#        go test -c -o /tmp/new.test ./bfs
#        scripts/bench-ab.sh /tmp/old.test /tmp/new.test lux.ooc 200 4
#
# Each run is one process with GOGC=off (no collection inside the timed searches), one
# worker (OOC_BENCH_WORKERS, default 1) and a fixed number of iterations. Per round it
# prints both binaries' CPU time (user+sys, from /usr/bin/time: the process's own work,
# which the other jobs of a shared machine disturb less than wall time) and kernel-ns/op
# (the engine's own clock, Result.Seconds); at the end the medians over rounds of the
# ratio new/old of each, measured back to back. The logs of 2026-11-25 (sections "cpu")
# give their commits' steps in these terms.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") graph=$3 iters=$4 rounds=$5
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for r in $(seq "$rounds"); do
  for b in "$old" "$new"; do
    out=$({ GOGC=off OOC_BENCH_GRAPH="$graph" /usr/bin/time -f "CPU %U %S" "$b" \
      -test.run '^$' -test.bench 'BenchmarkRun$' -test.benchtime "${iters}x"; } 2>&1) || true
    cpu=$(awk '/^CPU/ {print $2 + $3}' <<<"$out")
    kernel=$(grep -o '[0-9.]* kernel-ns/op' <<<"$out" | awk '{print $1}' || true)
    if [ -z "$cpu" ] || [ -z "$kernel" ]; then
      echo "bench-ab: $b printed no CPU time or kernel-ns/op:" >&2
      echo "$out" >&2
      exit 1
    fi
    echo "$r $(basename "$b") $cpu $kernel" | tee -a "$rows"
  done
done
python3 - "$rows" <<'EOF'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
old, new = rows[0::2], rows[1::2]
cpu = st.median(float(n[2]) / float(o[2]) for o, n in zip(old, new))
kernel = st.median(float(n[3]) / float(o[3]) for o, n in zip(old, new))
print(f"new/old, median of {len(old)} rounds: CPU time {cpu:.3f}, kernel time {kernel:.3f}")
EOF
