#!/usr/bin/env bash
# Rebuilds cmd/ooc/default.pgo, the CPU profile `go build ./cmd/ooc` optimises the binary
# by (Go's profile-guided optimisation: hot calls inlined, hot interface calls
# devirtualised). The profile holds BFS (parents alone, as `ooc bfs --src S` runs it) and
# CC on the CPU engine with one worker, on one graph of every class the CPU table has:
# facebook_combined and soc-Slashdot0902 (social), luxembourg_osm (road), cnr-2000 (web),
# grid, urand and kron in input and degree order (generated at SCALE). Each of the 16
# workloads runs in a process of its own (cmd/ooc's TestPGOWorkload, built -pgo=off) for
# SECONDS of CPU time, so that each weighs the same whatever its graph's size; the
# profiles are merged by `go tool pprof -proto`, with the frames of HIDE hidden: a call to
# them is then not hot, so the compiler leaves it a call. Inlined, these cost
# instructions (callgrind, whole `ooc bfs` and `ooc cc` processes, -pgo=off = 1): Entries
# into expandBatches grid20's BFS 1.04; claimRoads into expandSerial luxembourg_osm's
# BFS 1.015; HeadGroup, headWord and second into Afforest's linkHeads urand20's CC 1.03;
# DegreesAt into Summarize a little on every graph.
#
# Usage, in the repository root:
#   scripts/pgo-profile.sh            (then commit cmd/ooc/default.pgo)
# Env: DATA (default ../shared/data: the .gz files of the real graphs), WORK (default
# /tmp/ooc-pgo: the graphs, built once and kept, and the profiles), SCALE (default 22),
# SECONDS_EACH (default 4), HIDE (a regular expression of function names). A stale
# profile still works: the compiler matches it to the code by function and line offset
# and ignores what no longer matches. Check a new profile against `go build -pgo=off`
# with callgrind on `ooc bfs --sources 4` and `ooc cc` of every class before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
WORK=${WORK:-/tmp/ooc-pgo}
SCALE=${SCALE:-22}
SECONDS_EACH=${SECONDS_EACH:-4}
HIDE=${HIDE:-'^github.com/oocgraph/ooc/(store\.(\(\*Shard\)\.(Entries|DegreesAt|HeadGroup)|headWord)|bfs\.claimRoads|afforest\.\(\*run\)\.second)$'}
mkdir -p "$WORK/prof"
ooc=$WORK/ooc
CGO_ENABLED=0 go build -pgo=off -o "$ooc" ./cmd/ooc
CGO_ENABLED=0 go test -c -pgo=off -o "$WORK/ooc.test" ./cmd/ooc

# The real graphs as the CPU table ingests them: "u v" lines, undirected, input order.
real() { # real NAME: WORK/NAME.ooc from DATA
  local g=$1 el=$WORK/$1.el
  [ -d "$WORK/$g.ooc" ] && return
  case $g in
  luxembourg_osm) zcat "$DATA/$g.mtx.gz" | grep -v '^%' | tail -n +2 | awk '{print $1-1, $2-1}' >"$el" ;;
  *) zcat "$DATA/$g.txt.gz" | grep -v '^#' | tr '\t' ' ' >"$el" ;;
  esac
  "$ooc" ingest --format snap --order input -o "$WORK/$g.ooc" "$el" 2>/dev/null
  rm -f "$el"
}
gen() { # gen NAME KIND [ORDER]
  [ -d "$WORK/$1.ooc" ] || "$ooc" gen "$2" --scale "$SCALE" ${3:+--order $3} -o "$WORK/$1.ooc" 2>/dev/null
}
graphs="facebook_combined soc-Slashdot0902 luxembourg_osm cnr-2000 grid$SCALE urand$SCALE kron$SCALE kron${SCALE}deg"
for g in facebook_combined soc-Slashdot0902 luxembourg_osm cnr-2000; do real $g; done
gen grid$SCALE grid
gen urand$SCALE urand
gen kron$SCALE kron input
gen kron${SCALE}deg kron degree

rm -f "$WORK"/prof/*.prof
for g in $graphs; do
  for a in bfs cc; do
    echo "pgo-profile: $a on $g" >&2
    OOC_PGO_WORKLOAD=$a OOC_PGO_GRAPH=$WORK/$g.ooc OOC_PGO_SECONDS=$SECONDS_EACH GOGC=off GOMEMLIMIT=2GiB \
      "$WORK/ooc.test" -test.run '^TestPGOWorkload$' -test.count 1 -test.v \
      -test.cpuprofile "$WORK/prof/$g.$a.prof" | grep -E 'runs|FAIL' >&2
  done
done
go tool pprof -proto -hide "$HIDE" "$WORK"/prof/*.prof >cmd/ooc/default.pgo
ls -l cmd/ooc/default.pgo >&2
