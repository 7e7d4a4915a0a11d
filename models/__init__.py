"""The models behind `model`: hints, the weights they are read through, the captains and agents.

hints (a hint, its legality, the vectorised filter), weights (the hint × board-word matrix),
situation (what a captain sees, and the choice from a score table), captains (the base and the
cumsum, margin and cluster strategies), chances (softmax), expected (the expected captain, its
families and voices), agents (the guessers), people (the agent that reads clues as people mean
them), ai (the strategies by name, the AI, its levels), table (the words fit for the table).
"""
