#!/usr/bin/env python3
"""The discrete-serving comparison's file set: 300 files of random bytes, sizes ~ Normal(50 kB, 25 kB)
clamped at 1 KiB, fixed seed, as /tmp/perf/files/f000.bin .. f299.bin (or the folder given)."""
import os
import random
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "/tmp/perf/files"
os.makedirs(folder, exist_ok=True)
rng = random.Random(13)
sizes = []
for i in range(300):
    size = max(1024, int(rng.gauss(50000, 25000)))
    sizes.append(size)
    with open(os.path.join(folder, f"f{i:03d}.bin"), "wb") as out:
        out.write(rng.randbytes(size))
print(f"{len(sizes)} files, {sum(sizes)} bytes, largest {max(sizes)}, {sum(s > 65536 for s in sizes)} above 64 KiB")
