"""Players: where a plugin's strategy code runs, apart from the dealer, seeing only what has been dealt.

- :mod:`~baccarat.players.seat`: one strategy over every session of a chunk in lock-step (the step it is dealt,
  the bets it answers), and the checks of what a strategy returns;
- :mod:`~baccarat.players.vector_seat`: the seat of a vectorised strategy (one call per round for every session,
  its returns checked with numpy), and :func:`~baccarat.players.vector_seat.seat_for`, which chooses the seat;
- :mod:`~baccarat.players.process`: the player processes, forked for each (strategy, chunk) from a host that
  imported the plugins, and the plain-number answers they send;
- :mod:`~baccarat.players.host`: the host's own code (``python -m baccarat.players.host``);
- :mod:`~baccarat.players.code`: which code is a plugin's (and so plays in a player).
"""
