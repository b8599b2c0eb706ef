#!/usr/bin/env bash
# The whole pipeline end to end on the CPU: generate a Graph500 Kronecker graph straight
# into a graph directory, verify it, then BFS (validated) and connected components; then
# the same on the real graph in testdata/.
# Usage: bash scripts/demo.sh [SCALE]   (default 20: 1M vertices, 16M edges, ~1 minute on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-20}
work=${OOC_DEMO_DIR:-$(mktemp -d -t ooc-demo-XXXXXX)}
mkdir -p bin "$work"
echo "== building bin/ooc"
go build -o bin/ooc ./cmd/ooc
ooc=$PWD/bin/ooc
cd "$work"
echo "== ooc gen kron --scale $scale -o kron$scale.ooc   (in $work)"
"$ooc" gen kron --scale "$scale" --edgefactor 16 --seed 1 -o "kron$scale.ooc" --force
echo "== ooc info"
"$ooc" info "kron$scale.ooc"
echo "== ooc verify"
"$ooc" verify "kron$scale.ooc"
echo "== ooc bfs --src random --sources 8 --validate"
"$ooc" bfs --src random --sources 8 --validate "kron$scale.ooc"
echo "== ooc cc"
"$ooc" cc "kron$scale.ooc"
data=$OLDPWD/testdata/facebook_combined.txt.gz
echo "== ooc ingest $(basename "$data")   (a real graph shipped with ooc: SNAP ego-Facebook, gzip text)"
"$ooc" ingest --force -o facebook.ooc "$data"
echo "== ooc bfs --src 0 --validate facebook.ooc"
"$ooc" bfs --src 0 --validate facebook.ooc
echo "== ooc cc --validate facebook.ooc"
"$ooc" cc --validate facebook.ooc
echo "== done; graphs are in $work"
