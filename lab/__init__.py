"""The lab: what measures the game, in a clone only (the wheel ships the game without it).

bench.py: `python main.py bench`, the command; evaluation/: what the bench measures and how;
foreign/: the foreign agents, built from data the game's AI never reads; benchmarks/: speed,
startup, rebuild, latency, soak and tuning scripts (`python -m lab.benchmarks.NAME`).
The lab imports the game; no module of the game imports the lab.
"""
