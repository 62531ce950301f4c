"""A run on a Ray cluster of two nodes (both on this machine) writes the files a local run writes.

The cluster is started as docs/speed.md tells for a real one: ``ray start
--head`` on one node and ``ray start --address`` on the other, with token
authentication on (Ray 2.60 turns it on; every node and the run then need
``RAY_AUTH_MODE=token`` and the same token). Each ``ray start --block`` runs
in a session of its own, which the test ends, so no other test's Ray is
touched.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        __import__("importlib").util.find_spec("ray") is None or shutil.which("ray") is None,
        reason="Ray is not installed (pip install '.[ray]')",
    ),
]

PLUGIN = '''
from baccarat.plugin import hookimpl, Strategy


class FollowLast(Strategy):
    """Back the last winner (Banker first and after a tie): plain Python, played in player processes."""

    name = "follow_last_plain"
    params = {"unit": 10}

    def bets(self, view):
        last = view.shoe_history[-1] if view.shoe_history else "banker"
        return {"player" if last == "player" else "banker": self.unit}


@hookimpl
def register_strategies(register):
    register(FollowLast)
'''

EXPERIMENT = """shoes: {seed: 5, count: 120}
plugins_dir: plugins
strategies:
  - name: flat
    use: flat
  - name: martingale
    use: martingale
  - name: follow
    use: follow_last_plain
"""

FILES = ("ledger.parquet", "rounds.parquet", "sessions.parquet", "summary.csv", "comparison.csv")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def contents(folder: Path) -> dict[str, bytes]:
    """Every data file of a run folder, by its path inside the folder."""
    out = {}
    for name in FILES:
        path = folder / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file():
                out[str(file.relative_to(folder))] = file.read_bytes()
    return out


def test_a_two_node_cluster_writes_the_files_of_a_local_run(tmp_path: Path) -> None:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "follow.py").write_text(PLUGIN)
    (tmp_path / "exp.yaml").write_text(EXPERIMENT)
    token = tmp_path / "ray-token"
    token.write_text(secrets.token_hex(32))
    ray_tmp = Path("/tmp") / f"ray-{secrets.token_hex(4)}"  # a short path: Ray's socket paths must stay short
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token), "RAY_TMPDIR": str(ray_tmp)}
    port = free_port()
    address = f"127.0.0.1:{port}"
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--disable-usage-stats", "--block"]
    nodes = []
    try:
        nodes.append(
            subprocess.Popen(
                ["ray", "start", "--head", f"--port={port}", "--include-dashboard=false", *common],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        time.sleep(5)
        nodes.append(
            subprocess.Popen(
                ["ray", "start", f"--address={address}", *common],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        status = ""
        for _ in range(60):  # both nodes up, whatever the machine's load
            status = subprocess.run(["ray", "status", f"--address={address}"], env=env, capture_output=True, text=True).stdout
            if status.count("node_") >= 2:
                break
            time.sleep(2)
        assert status.count("node_") >= 2, status
        run = [sys.executable, "-m", "baccarat", "run", "exp.yaml", "--quiet"]
        on_cluster = subprocess.run(
            [*run, "--executor", "ray", "--workers", "2", "--out", "cluster"],
            cwd=tmp_path,
            env={**env, "RAY_ADDRESS": address},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert on_cluster.returncode == 0, on_cluster.stderr
    finally:
        for node in nodes:
            try:
                os.killpg(node.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for node in nodes:
            try:
                node.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)
        shutil.rmtree(ray_tmp, ignore_errors=True)
    local = subprocess.run([*run, "--workers", "1", "--out", "local"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert local.returncode == 0, local.stderr
    cluster_files, local_files = contents(tmp_path / "cluster"), contents(tmp_path / "local")
    assert sorted(cluster_files) == sorted(local_files) and len(local_files) >= len(FILES)
    assert cluster_files == local_files
