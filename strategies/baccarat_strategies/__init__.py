"""Built-in strategies, shipped as an ordinary plugin of the ``baccarat`` entry-point group."""
