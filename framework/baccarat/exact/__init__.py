"""Exact session analysis: the distribution of a session by a dynamic program over its states."""
