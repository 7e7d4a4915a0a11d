"""Foreign agents: guessers built from data that the game's AI never reads
(docs/decisions/0026-foreign-tier.md).

vectors.py: the sources (GloVe 6B 50d, all-mpnet-base-v2) from their PyPI packages;
agent.py: the guesser behind model.Agent's interface; isolation.py: the check that the AI
reads none of them. The bench's foreign tier is lab/evaluation/foreign_tier.py.
"""
