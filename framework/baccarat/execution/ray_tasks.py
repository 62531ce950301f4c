"""Chunks played as Ray tasks: on the cluster named by ``RAY_ADDRESS``, or on a local Ray started here."""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from typing import Any

from baccarat.errors import RunFailure
from baccarat.execution.chunk_play import run_chunk
from baccarat.execution.chunks import CHUNKS_IN_FLIGHT_PER_WORKER, Chunk, ChunkOutput, RunPlan
from baccarat.execution.workers import first_line


class RayTasks:
    """The back end of Ray tasks (:func:`baccarat.execution.executor.in_order` schedules them).

    On the cluster named by ``RAY_ADDRESS``, or on a local Ray started here
    (and shut down when the block ends). On an error or a stop, the tasks
    still pending are cancelled.
    """

    def __init__(self, plan: RunPlan, workers: int) -> None:
        self.plan = plan
        self.workers = workers
        self.window = 0
        self.pending: deque[tuple[int, Any]] = deque()
        self.ray: Any = None
        self.started = False
        self.reaper: Any = None

    def __enter__(self) -> RayTasks:
        self.ray = ray = _import_ray()
        self.started = not ray.is_initialized()
        try:
            if self.started:
                if not os.environ.get("RAY_ADDRESS", "").strip():
                    self.reaper = start_reaper()
                _start_ray(ray, self.workers)
            self.task = ray.remote(num_cpus=1, max_retries=1)(run_chunk)
            self.plan_ref = ray.put(self.plan)
            self.window = max(self.workers, int(ray.cluster_resources().get("CPU", 1))) * CHUNKS_IN_FLIGHT_PER_WORKER
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        from baccarat.interrupts import handlers_kept

        for _, ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending.clear()
        if self.started and self.ray.is_initialized():
            with handlers_kept():
                self.ray.shutdown()
        if self.reaper is not None:
            self.reaper.stdin.close()  # it kills what the shutdown left, and ends
            self.reaper.wait(REAPER_EXIT_SECONDS)

    def can_take(self) -> bool:
        """Ray queues the tasks: always."""
        return True

    def submit(self, position: int, chunk: Chunk) -> None:
        """Start the chunk's task."""
        self.pending.append((position, self.task.remote(self.plan_ref, chunk)))

    def next_done(self) -> tuple[int, ChunkOutput]:
        """Wait for the oldest task (the next chunk in order); a failed task or node raises."""
        from baccarat.interrupts import wait_interruptibly

        ray = self.ray
        position, ref = self.pending[0]
        try:
            output = wait_interruptibly(lambda seconds: ray.get(ref, timeout=seconds), (ray.exceptions.GetTimeoutError,))
        except ray.exceptions.RayTaskError as exc:  # the task raised: our own errors arrive as they were raised
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BaseException) and not isinstance(cause, ray.exceptions.RayError):
                raise cause from None
            raise RunFailure(f"a Ray task failed: {first_line(exc)}; the run was abandoned and nothing was written") from None
        except ray.exceptions.RayError as exc:  # a worker or node died, an object was lost
            raise RunFailure(f"a Ray worker or node failed ({first_line(exc)}); the run was abandoned and nothing was written") from None
        self.pending.popleft()
        return position, output


REAPER_EXIT_SECONDS = 5.0
"""Longest wait for the reaper of a local Ray to end once the run is done with Ray."""


def start_reaper() -> Any:
    """Start the reaper of a local Ray (:mod:`baccarat.execution.ray_reaper`), on Linux; return its process, else None.

    Ray's processes must not outlive this one, even killed with ``kill -9``:
    the reaper kills them when its standard input, a pipe from this
    process, closes.
    """
    import subprocess

    from baccarat.execution import ray_reaper

    if not sys.platform.startswith("linux"):
        return None
    return subprocess.Popen(
        [sys.executable, "-I", ray_reaper.__file__, str(os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _start_ray(ray: Any, workers: int) -> None:
    """Connect to the cluster named by ``RAY_ADDRESS``, or start a local Ray of ``workers`` CPUs."""
    from baccarat.interrupts import Interrupted, handlers_kept, starting_workers

    if os.environ.get("RAY_ADDRESS", "").strip():
        check_ray_address(os.environ["RAY_ADDRESS"])
    local = {} if os.environ.get("RAY_ADDRESS") else {"num_cpus": max(workers, 1)}
    # A local Ray's processes start deaf to Ctrl-C (it would kill them mid-task); Ray's own SIGTERM
    # handlers are replaced by ours again, which clean up.
    with starting_workers(), handlers_kept():
        try:
            ray.init(include_dashboard=False, logging_level="ERROR", configure_logging=True, **local)
        except SystemExit as exc:  # Ray's own SIGTERM handler, while it starts
            if exc.code == signal.SIGTERM:
                raise Interrupted(signal.SIGTERM) from None
            raise
        except ConnectionError as exc:  # the head answered but refused this process (token authentication, Ray 2.60)
            if not os.environ.get("RAY_ADDRESS"):
                raise
            raise RunFailure(
                f"the Ray cluster at RAY_ADDRESS={os.environ['RAY_ADDRESS']!r} did not let this run connect ({exc}); "
                "a cluster started with `ray start` asks for token authentication: set RAY_AUTH_MODE=token and "
                "the cluster's token (RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH) for the run and on every node (docs/speed.md)"
            ) from None


RAY_CONNECT_SECONDS = 5.0
"""Longest wait for the head node named by ``RAY_ADDRESS`` to answer."""


def check_ray_address(address: str) -> None:
    """Refuse a malformed ``RAY_ADDRESS`` (:class:`InputError`) and one no cluster answers at (:class:`RunFailure`).

    Ray itself retries an unreachable address for minutes, printing its own
    logs, and raises a traceback for a malformed one; a ``HOST:PORT`` (or
    ``ray://HOST:PORT``) is tried here with a plain connection first, for at
    most :data:`RAY_CONNECT_SECONDS`. ``auto`` and ``local`` are left to Ray.
    """
    import socket
    from urllib.parse import urlsplit

    from baccarat.errors import InputError

    text = address.strip()
    if text in ("auto", "local"):
        return
    rest = text.split("://", 1)[1] if "://" in text else text
    scheme = text.split("://", 1)[0] if "://" in text else "ray"
    try:
        parts = urlsplit("//" + rest)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if scheme not in ("ray", "http", "https") or not host or port is None or parts.path not in ("", "/"):
        raise InputError(
            f"RAY_ADDRESS={address!r} is not the address of a Ray cluster: give HOST:PORT of its head node "
            "(for example 10.0.0.5:6379, or ray://10.0.0.5:10001 for Ray Client), or unset it to run Ray "
            "on this machine"
        )
    try:
        socket.create_connection((host, port), timeout=RAY_CONNECT_SECONDS).close()
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise RunFailure(
            f"the Ray cluster at RAY_ADDRESS={address!r} cannot be reached ({reason} within "
            f"{RAY_CONNECT_SECONDS:g} s); start it, fix RAY_ADDRESS, or unset it to run Ray on this machine"
        ) from None


def _import_ray() -> Any:
    """Import Ray for this process, without its native failure-signal handler.

    That handler takes SIGTERM over from ours and, when Ray shuts down, leaves
    it at the default (the process would die without cleaning up). The
    setting is read when Ray is imported, and is not passed on to the
    processes of the local cluster.
    """
    if "ray" in sys.modules:
        return sys.modules["ray"]
    given = os.environ.get("RAY_DISABLE_FAILURE_SIGNAL_HANDLER")
    os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = "1"
    try:
        import ray
    except ImportError:
        from baccarat.errors import InputError

        raise InputError("the Ray executor needs Ray: pip install 'baccarat-backtest[ray]'") from None
    finally:
        if given is None:
            del os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"]
        else:
            os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = given
    return ray
