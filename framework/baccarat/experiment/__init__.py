"""Experiments: YAML in, a validated and resolved experiment out."""
