"""Softmax chances: the shares of a softmax, and the chances of a softmax reader's picks in turn."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """Shares proportional to exp(`logits`) along `axis`, summing to 1."""
    shares = np.exp(logits - logits.max(axis=axis, keepdims=True))    # no overflow
    return shares / shares.sum(axis=axis, keepdims=True)


def flattened(logits: np.ndarray, flat: float) -> np.ndarray:
    """`flat` times the logits, a card out of reach (-inf) still out of reach at any `flat`, 0 too."""
    return np.multiply(flat, logits, out=np.array(logits, dtype=np.result_type(logits, np.float32)),
                       where=~np.isneginf(logits))


def strayed(logits: np.ndarray, lapse: float = 0.0, flat: float = 1.0, axis: int = -1) -> np.ndarray:
    """A softmax of `logits` that now and then reads loosely: `lapse` of the picks are a softmax
    of `flat` times the logits (a flatter one), the rest of the logits as they are."""
    sharp = softmax(logits, axis)
    return sharp if lapse <= 0 else (1 - lapse) * sharp + lapse * softmax(flattened(logits, flat), axis)


def pick_chances(logits: np.ndarray, picks: Sequence[int]) -> np.ndarray:
    """The chance that each row's softmax over `logits` (readings × cards) picks each of
    `picks` in turn, without putting back: picks × readings."""
    logits = logits.copy()
    chances = np.empty((len(picks), len(logits)))
    for turn, i in enumerate(picks):
        chances[turn] = softmax(logits, axis=1)[:, i]
        logits[:, i] = -np.inf
    return chances
