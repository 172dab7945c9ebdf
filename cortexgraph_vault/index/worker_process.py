"""A worker process of this package: a plain `python -c` that runs a module's `worker_main`,
talking over its stdin and stdout in frames (a length, then that many bytes), with one BLAS
thread (a worker that sorts small arrays or embeds a batch gains nothing from more, and each
thread numpy starts at import costs the worker part of its start-up).

Not multiprocessing: no pickled callables, no start method that differs by platform, and the
child imports only what its `worker_main` needs."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import cortexgraph_vault

LENGTH = struct.Struct("!Q")  # a frame's size, before its bytes
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def start_worker(module: str, **env: str) -> subprocess.Popen[bytes]:
    """`module`'s `worker_main` in a process of its own, this package on its path; `env`
    added to this process's environment."""
    package_dir = str(Path(cortexgraph_vault.__file__).resolve().parents[1])
    path = os.pathsep.join([package_dir, *sys.path])
    return subprocess.Popen(
        [sys.executable, "-c", f"from {module} import worker_main; worker_main()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": path, **ONE_THREAD, **env},
    )
