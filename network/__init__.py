"""A game played at several terminals: `python main.py host` and `join` (multiplayer.py is its face)."""
