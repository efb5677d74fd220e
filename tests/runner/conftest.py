"""Shared fixtures: one warm worker pool for the runner tests, with small limits.

Small limits keep the resource-bomb tests quick: a CPU bomb costs one second, not five. The
wall limit is far above the CPU limit so that, on a loaded machine, CPU bombs still meet the
CPU limit first; wall-clock tests lower it explicitly.
"""
import sys
from pathlib import Path

import pytest

from gradstep.runner import Limits, WorkerPool

# the tests' shared helpers (recorded.py, fidelity.py) sit in tests/, beside the layer folders
TESTS = str(Path(__file__).resolve().parents[1])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

SMALL = Limits(cpu_seconds=1, wall_seconds=15, memory_mb=256, max_tensor_elements=10**6,
               max_graph_nodes=5000, stdout_bytes=20_000, source_bytes=32 * 1024,
               recursion_depth=200)


@pytest.fixture(scope="session")
def small_limits():
    return SMALL


@pytest.fixture(scope="session")
def pool():
    with WorkerPool(size=1, limits=SMALL) as p:
        yield p
