"""Running an experiment: planning, workers, output, and the process around them.

- :mod:`~baccarat.execution.chunk_play`: one chunk played: its rounds dealt (or taken), every strategy played on
  them, rounds and ledger encoded as Parquet.
- :mod:`~baccarat.execution.chunks`: a run cut into chunks of whole sessions, and what every chunk needs to be
  played.
- :mod:`~baccarat.execution.compile_notice`: one line on a terminal while numba compiles kernels, so that the first
  run after installing is not a silent wait.
- :mod:`~baccarat.execution.datasets`: the chunks' outputs written into a run folder's Parquet datasets (or
  collected in memory), and the run's sizes.
- :mod:`~baccarat.execution.executor`: chunks of whole sessions, run in this process, in worker processes or on Ray.
- :mod:`~baccarat.execution.manifest`: the files of a run folder, as its `manifest.json` records them, and the checks
  made against that record.
- :mod:`~baccarat.execution.memorylimit`: running under an address-space limit (`ulimit -v`): less reserved up
  front, and one line when memory runs out.
- :mod:`~baccarat.execution.plan_simulation`: the simulated sessions of ``baccarat plan`` for the strategies the exact
  analysis cannot analyse.
- :mod:`~baccarat.execution.ray_tasks`: chunks played as Ray tasks: on the cluster named by `RAY_ADDRESS`, or on a
  local Ray started here.
- :mod:`~baccarat.execution.run_folder`: a run's output folder, written whole or not at all, and replaced only when
  it holds a previous run and nothing else.
- :mod:`~baccarat.execution.runner`: run an experiment: deal the shoes once, walk every strategy over them, write
  the results.
- :mod:`~baccarat.execution.trace`: one session of one strategy, round by round, with the state of its pieces: what
  `baccarat trace` prints.
- :mod:`~baccarat.execution.twin_check`: `baccarat strategies check NAME`: play a piece's reference and compiled
  twins on seeded shoes and compare.
- :mod:`~baccarat.execution.workers`: chunks played in worker processes on this machine: pipes to hand them out,
  sentinels to notice a worker's death.

- :mod:`~baccarat.execution.folder_lock`: one command at a time writes a run folder: a lock file beside it, taken
  without waiting; readers read it under a shared lock that a replacing command waits for.
- :mod:`~baccarat.execution.folder_commit`: the one step that makes a new run folder visible, and what the next
  command does with what a killed one left.
- :mod:`~baccarat.execution.main_guard`: a run with worker processes started by a script's top-level code outside ``if
  __name__ == "__main__":``.
- :mod:`~baccarat.execution.ray_reaper`: the reaper of a local Ray: ends its processes when the process that started
  it is gone, however it went.
- :mod:`~baccarat.execution.worker_threads`: chunks played by worker threads of this process: for runs whose every
  strategy plays baccarat's own compiled code.
"""

__all__ = [
    "chunk_play",
    "chunks",
    "compile_notice",
    "datasets",
    "executor",
    "manifest",
    "memorylimit",
    "ray_tasks",
    "run_folder",
    "runner",
    "trace",
    "twin_check",
    "workers",
]
