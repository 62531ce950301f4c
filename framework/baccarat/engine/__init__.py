"""Engines: the reference engine and the compiled path, each playing strategies over a round table.

- :mod:`~baccarat.engine.bet_log`: a strategy's dense ledger columns, built from the log of the bets it placed (one
  row per round of every session).
- :mod:`~baccarat.engine.compiled`: the compiled path: a composed strategy whose pieces all have compiled twins,
  every session of a chunk in one pass.
- :mod:`~baccarat.engine.parity`: the parity check that gates the compiled path: a strategy's twin and the reference
  play the same seeded shoes.
- :mod:`~baccarat.engine.reference`: the reference engine: the dealer, which deals every session of a chunk in
  lock-step to a strategy's seat (:mod:`baccarat.players`), cuts and settles its bets.
- :mod:`~baccarat.engine.sessions`: every session's money, length and rules (``SessionConfig``), and the sessions cut
  from the rounds dealt: whole shoes or a number of rounds.
- :mod:`~baccarat.engine.session_loop`: the compiled session loop: one composed strategy over every session of a
  chunk, in one numba pass.
- :mod:`~baccarat.engine.twin_play`: playing a compiled twin over sessions: the session loop's inputs made, its
  outputs read back as ledger columns.
- :mod:`~baccarat.engine.strategy_twin`: a composed strategy's compiled twin: its pieces' twins found, their parameters
  read, their functions compiled.

- :mod:`~baccarat.engine.differences`: where two ledgers of the same sessions first differ (a module of its own: the
  checks that use it load no numba).
"""

__all__ = ["bet_log", "compiled", "parity", "reference", "session_loop", "strategy_twin", "twin_play"]
