#!/usr/bin/env python3
"""Times ooc's CPU BFS and CC beside GAPBS's on the same graphs and sources, interleaved.

Usage: scripts/cpu-vs-gapbs.py [--threads N] ROUNDS GRAPH[,GRAPH...] OOC[,OOC...] [bfs,cc]

DATA (default .work/data) holds, per GRAPH, GRAPH.sg (GAPBS's converter) and one ooc graph
directory per binary: GRAPH.ooc, or GRAPH.SUFFIX.ooc where the binary's name (in BIN,
default bin) is OOC and SUFFIX is set as OOC=SUFFIX (e.g. ooc-new=v5); a graph stored in
another order shares the .sg (link kron22deg.sg to kron22.sg). GAPBS's bfs and cc
are BIN/bfs and BIN/cc (../shared/peers/gapbs). The 8 sources are those `ooc bfs
--sources 8 --seed 1` picks with the first binary. Each time is one process: ooc's
Result.Seconds (--json) against GAPBS's Trial Time (-n 1), N threads each (default 2):
ooc --workers N, GAPBS with OMP_NUM_THREADS=N and OMP_WAIT_POLICY=passive. The GAPBS
binaries in ../shared/peers/gapbs are built without OpenMP and run one thread whatever
OMP_NUM_THREADS says, so a fair comparison with them is --threads 1; GAPBS (env GAPBS,
default BIN) may name another folder of bfs and cc, e.g. ones built with -fopenmp. Per
round: every source with each binary and GAPBS back to back, then three times CC with each;
the order within such a set rotates from one set to the next (the first process of a set
ran 1.5-4.5% slower on facebook_combined: pg17, docs/log-2026-11-26.md).
Prints the medians and their ratios to GAPBS per graph, in brackets the median of the
ratios of times measured back to back (each binary's to GAPBS's, and each later binary's
to the first's), and writes every time to cpu-vs-gapbs-PID.json. With CORESPEED naming
tools/corespeed's binary, each set of back-to-back times (a source's BFS with every
binary and GAPBS, one CC of each) is bracketed by its measure of the core's speed, and a
second line a graph gives the same figures over the quiet sets alone: both brackets
within 15% of the fastest the graph's run saw, or of CORESPEED_BEST (corespeed's value
on a quiet core of the same machine) when that is faster, so that a lease whose cores
are all busy reads as such (on the device a vCPU's physical core is
shared with another tenant's thread, which slowed ooc more than GAPBS; sd15,
docs/log-2026-11-26.md).
docs/log-2026-11-24.md section 19 and docs/log-2026-11-25.md section "cpu" used it.
"""
import json, os, re, subprocess, sys, statistics as st

D = os.environ.get('DATA', '.work/data')
B = os.environ.get('BIN', 'bin')
G = os.environ.get('GAPBS', B)
args = sys.argv[1:]
threads = 2
if args[:1] == ['--threads']:
    threads, args = int(args[1]), args[2:]
env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_WAIT_POLICY='passive')
rounds, graphs = int(args[0]), args[1].split(',')
bins, suffix = [], {}
for spec in args[2].split(','):
    name, _, sfx = spec.partition('=')
    bins.append(name)
    suffix[name] = '.' + sfx if sfx else ''
algos = args[3].split(',') if len(args) > 3 else ['bfs', 'cc']
speed = os.environ.get('CORESPEED')
# CORESPEED_BEST: the chain's time on a quiet core of this kind of machine, so that a run
# whose every core is busy finds no quiet set instead of calling its fastest one quiet.
ref = float(os.environ.get('CORESPEED_BEST', 'inf'))


def corespeed():
    """The core's chunk time by tools/corespeed (0 without CORESPEED)."""
    if not speed:
        return 0
    return int(subprocess.run([speed], capture_output=True, text=True, check=True).stdout)


def ooc(b, args, g):
    path = f'{D}/{g}{suffix[b]}.ooc'
    out = subprocess.run([f'{B}/{b}'] + args + ['--backend', 'cpu', '--workers', str(threads), '--json', path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def gapbs(prog, args, g):
    out = subprocess.run([f'{G}/{prog}', '-f', f'{D}/{g}.sg', '-n', '1'] + args,
                         capture_output=True, text=True, env=env, check=True).stdout
    return float(re.search(r'Trial Time:\s+([0-9.]+)', out).group(1))


def paired(x, y):
    """The median of the ratios of times measured back to back: steadier than the ratio of
    the medians when the machine's load drifts during a run."""
    return st.median(a / b for a, b in zip(x, y) if b > 0)


def summary(t, keep):
    """The graph's line: per algorithm the medians and ratios over the sets keep allows."""
    line = []
    for a in algos:
        u = {k: [x for i, x in enumerate(t[a, k]) if keep(a, i)] for k in bins + ['gapbs']}
        if not u['gapbs']:
            continue
        gm = st.median(u['gapbs'])
        line.append(f'{a}: gapbs {gm*1e3:.3f} ms ' + ' '.join(
            f'{b} {st.median(u[b])*1e3:.3f} ms ({st.median(u[b])/gm:.2f} [{paired(u[b], u["gapbs"]):.2f}])'
            for b in bins) + ''.join(f' {b}/{bins[0]} [{paired(u[b], u[bins[0]]):.2f}]' for b in bins[1:]))
    return line


res = {}
for g in graphs:
    srcs = [r['source'] for r in ooc(bins[0], ['bfs', '--sources', '8', '--seed', '1'], g)['runs']]
    t = {(a, k): [] for a in algos for k in bins + ['gapbs']}
    core = {a: [] for a in algos}  # each set's core speed before and after
    progs, k = bins + ['gapbs'], 0  # k: the sets so far, which rotate the order in a set

    def one(a, args, gargs):
        global k
        c = corespeed()
        for p in progs[k % len(progs):] + progs[:k % len(progs)]:
            t[a, p].append(gapbs(a, gargs, g) if p == 'gapbs' else ooc(p, [a] + args, g)['seconds'])
        core[a].append((c, corespeed()))
        k += 1

    for _ in range(rounds):
        if 'bfs' in algos:
            for s in srcs:
                one('bfs', ['--src', str(s)], ['-r', str(s)])
        if 'cc' in algos:
            for _ in range(3):
                one('cc', [], [])
    print(' | '.join([g] + summary(t, lambda a, i: True)), flush=True)
    res[g] = {f'{a}/{k}': v for (a, k), v in t.items()}
    if speed:
        best = min(x for a in algos for c in core[a] for x in c)
        bound = 1.15 * min(best, ref)
        quiet = lambda a, i: max(core[a][i]) <= bound
        n = ', '.join(f'{a} {sum(quiet(a, i) for i in range(len(core[a])))}/{len(core[a])}' for a in algos)
        print(' | '.join([f'{g} quiet ({n} sets; chain best {best}, bound {bound:.0f})'] + summary(t, quiet)), flush=True)
        res[g].update({f'{a}/core': core[a] for a in algos})
json.dump(res, open(f'cpu-vs-gapbs-{os.getpid()}.json', 'w'))
