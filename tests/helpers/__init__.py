"""Shared test helpers: independent reference calculators and hand-made ledgers."""
