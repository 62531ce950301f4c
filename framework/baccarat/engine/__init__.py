"""Engines: the reference engine and the compiled path, each playing strategies over a round table.

- :mod:`~baccarat.engine.bet_log`: a strategy's dense ledger columns, built from the log of the bets it placed (one
  row per round of every session).
- :mod:`~baccarat.engine.compiled`: the compiled path: a composed strategy whose pieces all have compiled twins,
  every session of a chunk in one pass.
- :mod:`~baccarat.engine.parity`: the parity check that gates the compiled path: a strategy's twin and the reference
  play the same seeded shoes.
- :mod:`~baccarat.engine.reference`: the reference engine: strategies walk a round table session by session.
- :mod:`~baccarat.engine.session_loop`: the compiled session loop: one composed strategy over every session of a
  chunk, in one numba pass.
- :mod:`~baccarat.engine.twin_play`: playing a compiled twin over sessions: the session loop's inputs made, its
  outputs read back as ledger columns.
- :mod:`~baccarat.engine.strategy_twin`: a composed strategy's compiled twin: its pieces' twins found, their parameters
  read, their functions compiled.

- :mod:`~baccarat.engine.class_state`: state a strategy keeps on its classes instead of on ``self``: found by
  comparing the classes before and after play.
- :mod:`~baccarat.engine.crash_note`: a compiled twin that crashes the process ends it with one line naming the
  strategy, not a silent exit 139.
- :mod:`~baccarat.engine.differences`: where two ledgers of the same sessions first differ (a module of its own: the
  checks that use it load no numba).
- :mod:`~baccarat.engine.exit_guard`: while a strategy plays, ``os._exit`` raises instead of ending the process
  without a word.
- :mod:`~baccarat.engine.rules_guard`: each strategy plays with its own copy of the table rules, and a copy changed
  while it played is refused.
"""

__all__ = ["bet_log", "compiled", "parity", "reference", "session_loop", "strategy_twin", "twin_play"]
