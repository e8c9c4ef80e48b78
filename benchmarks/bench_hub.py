"""A class on the course's JupyterHub, timed, and what the numbers imply for a class of 300.

    python benchmarks/bench_hub.py 20     # `make hub-bench`; prints the numbers and a table

The run is tests/hub/load.py's (all on 127.0.0.1, a temporary state folder, stops itself):
N students log in at once, get their servers, run lesson 0's setup and check cells in a kernel and
save an edit; the hub restarts under them. Memory per student is the RSS of their server and kernel
(an upper bound: torch's libraries are shared between kernels) and their PSS (the shared pages split
between the processes that map them: what 300 students add up to). CPU seconds per student is what
starting their server and kernel and running the two cells cost: with everyone arriving at once on
K cores, the last one waits about students × CPU seconds / K.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hub.load import run  # noqa: E402

CLASS = 300


def main(n: int) -> None:
    report = run(n, seconds=1500)
    s = report.summary()
    print(json.dumps(s, indent=1))
    load = os.getloadavg()
    print(f"\nmeasured on {os.cpu_count()} cores, load average {load[0]:.1f} at the end")
    pss, rss, cpu = s["pss_per_student_mib_mean"], s["rss_per_student_mib_max"], s["cpu_s_per_student_mean"]
    print(f"\n| for {CLASS} students | from the {n} measured |")
    print("|---|---|")
    print(f"| memory, all servers and kernels (PSS) | {CLASS * pss / 1024:.0f} GiB ({pss:.0f} MiB each) |")
    print(f"| memory, upper bound (RSS, largest) | {CLASS * rss / 1024:.0f} GiB ({rss:.0f} MiB each) |")
    for cores in (16, 64):
        print(
            f"| all arriving at once on {cores} cores | ~{CLASS * cpu / cores / 60:.1f} min for the last one |"
        )
    print(
        f"| check latency p95 | {s['check_p95_s']} s: one kernel's work, longer only while cores are short |"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
