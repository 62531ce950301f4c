"""A plugin file whose one strategy, ``mine``, bets 10 on banker every round: a plugin's strategy at its simplest."""

PLUGIN = """
from baccarat.plugin import Strategy, hookimpl


class Mine(Strategy):
    name = "mine"

    def bets(self, view):
        return {"banker": 10}


@hookimpl
def register_strategies(register):
    register(Mine)
"""
