"""Evaluations of the AI against outside records (human play), beside bench.py's self-made games."""
