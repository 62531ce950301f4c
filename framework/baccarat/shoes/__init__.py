"""Shoes: seeded shoes, compiled bulk dealing, the round table every strategy walks, recorded shoes from files.

- :mod:`~baccarat.shoes.columnar`: Arrow columns straight from numpy: exact decimals, strings, card lists, enums.
- :mod:`~baccarat.shoes.compiled_deal`: bulk dealing: seeded shoes into round-table columns in one compiled pass.
- :mod:`~baccarat.shoes.rounds`: the columnar table of dealt rounds that every strategy walks.
- :mod:`~baccarat.shoes.seeded`: seeded shoes: shuffle, burn, cut card, reshuffle after every round.
- :mod:`~baccarat.shoes.recorded`: recorded shoes read from files, in the format the user names (never guessed).
"""

__all__ = ["columnar", "compiled_deal", "rounds", "seeded", "recorded"]
