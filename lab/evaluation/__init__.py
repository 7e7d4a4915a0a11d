"""What `python main.py bench` (lab/bench.py, the command) measures and how, one concept a module.

specs.py: what plays (a strategy on an initializer) and the models built from it;
games.py: single-team games and two-team duels; stats.py: counts, metrics, bootstrap intervals;
analysis.py: the single-team games analysed, and speed; loading.py: the initializers, timed;
runner.py: the Setup, every game in worker processes, the report's data; tables.py: estimates
and markdown tables; report.py: benchmark.md, benchmark.json, pairing.png; levels.py: the
game's AI levels; foreign_tier.py: the foreign tier (agents in lab/foreign/); human_tier.py and
human_duet.py: the human tier, against people's Duet clues; duet_benchmark.py: AI partners
playing Duet on fixed seeds.
"""
