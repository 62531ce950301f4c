"""Engines: the reference engine, the compiled path, one traced session, the twin check."""
