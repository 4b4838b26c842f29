#!/usr/bin/env python3
"""Batch `dis -o` at -j 1 and -j 2: medians of many whole runs, builds alternated.

    scripts/batch_medians.py IN OUTBASE ROUNDS BIN[=LABEL] [BIN[=LABEL] ...]

Each round runs every build at `dis -q -j 1` and `-j 2` over folder IN, into
OUTBASE/o, deleted before each run (fresh outputs); every other round runs them in the
reverse order, so that load which comes and goes falls on all alike. Prints each
build's median and best wall time per job count and their ratio. A single run of the
618-file set lasts 20-45 ms, which one timer tick or a scheduler decision moves by
10%: batch-bench.sh's single runs cannot show a 5% change, 25 rounds of this can.
On a disk, deleting the outputs before each run makes the next run meet the kernel's
handling of recently freed inodes (docs/performance.md, "Batch on the disk").
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

src, outbase, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
builds = [(b.split('=', 1) + [b])[:2] for b in sys.argv[4:]]
out = os.path.join(outbase, 'o')
times = {(label, j): [] for _, label in builds for j in (1, 2)}
for r in range(rounds):
    order = [(b, label, j) for b, label in builds for j in (1, 2)]
    if r % 2:
        order.reverse()
    for b, label, j in order:
        shutil.rmtree(out, ignore_errors=True)
        t = time.perf_counter()
        subprocess.run([b, 'dis', '-q', '-j', str(j), src, '-o', out], check=True)
        times[(label, j)].append(time.perf_counter() - t)
shutil.rmtree(out, ignore_errors=True)
print('load average after: %.2f %.2f %.2f' % os.getloadavg())
for _, label in builds:
    one, two = times[(label, 1)], times[(label, 2)]
    m1, m2 = statistics.median(one), statistics.median(two)
    print(f'{label}: -j 1 {m1 * 1e3:.1f} ms, -j 2 {m2 * 1e3:.1f} ms (medians), '
          f'{m1 / m2:.2f}x; best {min(one) * 1e3:.1f} / {min(two) * 1e3:.1f} ms, '
          f'{min(one) / min(two):.2f}x')
