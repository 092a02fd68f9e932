"""Benchmarks: each prints ratios of timings measured side by side in the same run."""
