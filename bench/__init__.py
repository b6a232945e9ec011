"""Benchmark suite (issue 6): `make bench` runs `bench/run.py`; see docs/performance.md."""
