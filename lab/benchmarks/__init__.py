"""Scripts that measure what the tests cannot time: startup, rebuilds, latency, a soak, tuning.
Each runs from the repository's folder as `python -m lab.benchmarks.NAME` (`--help` for its flags)."""
