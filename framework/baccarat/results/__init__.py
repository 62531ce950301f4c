"""Results: the ledger, statistics, plots, the report, comparison of runs, the manifest of a run folder."""
