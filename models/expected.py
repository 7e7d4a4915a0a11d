"""The game's captain: the hint and count that its reader turns the most own cards over for, less
the price of the card that ends the turn.

A reader (models/reader.py: a person as the model of people reads them, or a matrix) picks the
face-down cards one after another by its chances, without putting back, until it has made the
count's picks or turns over a card not its team's. For every legal hint and every count the
captain computes, exactly, how many own cards the reader is expected to turn over and the
expected price of the card that ends the turn, and the chance that it does not turn over every
card the count claims; it gives the best value. Safety is a price, not a rule: a hint for two that
the reader sees three times in four beats a sure hint for one.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from board import ASSASSIN, NEUTRAL, Board, Color
from common import zipf
from models.captains import Captain
from models.chances import softmax
from models.reader import MatrixReader, Reader, turns
from models.situation import HintChoice, Situation
from models.weights import Weights

# The largest count the captain gives: a person reads three cards in a hint at most.
MAX_COUNT = 3


@dataclass(frozen=True)
class Prices:
    """What the card that ends a turn costs, in own cards: a bystander only ends it; the other
    team's card gives them a card; a card that loses the game (the assassin, or the other team's
    last card) costs `loss`. Playing alone, only a loss costs. A count the reader does not fill
    costs `claim`: a person told three who sees two guesses on or stops short."""

    bystander: float = 0.0
    opponent: float = 1.0
    loss: float = 8.0
    claim: float = 1.5

    def of(self, situation: Situation, alone: bool) -> np.ndarray:
        """Each face-down card's price when it ends the turn."""
        opponent = situation.mask(situation.team.other)
        last = opponent.sum() == 1
        price = {situation.team: 0.0, NEUTRAL: 0.0 if alone else self.bystander, ASSASSIN: self.loss,
                 situation.team.other: self.loss if last else 0.0 if alone else self.opponent}
        return np.array([price[c] for c in situation.colors])


# A reader's third pick is looser than its first two: its logits times this (decision 0096).
THIRD_PICK = 0.6


def read(logits: np.ndarray, own: np.ndarray, price: np.ndarray, depth: int,
         third: float = THIRD_PICK) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How a Plackett–Luce reader reads each hint (rows of `logits`, hints × cards face down) pick
    by pick, to `depth` picks: `found[:, j]`, the chance that its first j+1 picks are all own cards;
    `ending[:, j]`, the expected `price` of a card not the team's taken at pick j+1, the picks before
    it own; `whole[:, k-1]`, the chance that its first k picks are the k own cards it likes best
    (the targets of a count of k), in any order. Each pick is a softmax over the cards left, the
    third and later at `third` times the logits."""
    n, mine = len(logits), np.flatnonzero(own)
    found, ending, whole = (np.zeros((n, depth)) for _ in range(3))
    rank = np.argsort(np.argsort(-logits[:, mine], axis=1, kind="stable"), axis=1)   # (hints, own)
    prefixes = [((), np.ones(n), np.full(n, -1))]   # own cards taken, their chance, their worst rank
    looser = third * logits if depth > 2 else logits
    for j in range(depth):
        grown = []
        for taken, chance, worst in prefixes:
            masked = (logits if j < 2 else looser).copy()
            masked[:, mine[list(taken)]] = -np.inf
            p = softmax(masked, axis=1)
            found[:, j] += chance * p[:, own].sum(axis=1)
            ending[:, j] += chance * (p @ price)
            for t in (t for t in range(len(mine)) if t not in taken):
                after, ranks = chance * p[:, mine[t]], np.maximum(worst, rank[:, t])
                whole[:, j] += np.where(ranks <= j, after, 0.0)
                if j + 1 < depth:
                    grown.append(((*taken, t), after, ranks))
        prefixes = grown
    return found, ending, whole


def turn_values(logits: np.ndarray, own: np.ndarray, price: np.ndarray, depth: int,
                claim: float, priced: float = 1.0) -> np.ndarray:
    """Hints × counts 1..depth: the own cards the reader is expected to turn over, less `priced`
    times the expected price of the card that ends the turn, less `claim` when it does not find
    every card meant."""
    found, ending, whole = read(logits, own, np.where(own, 0.0, price), depth)
    return np.cumsum(found, axis=1) - priced * np.cumsum(ending, axis=1) - claim * (1.0 - whole)


def turn_prices(logits: np.ndarray, own: np.ndarray, price: np.ndarray, depth: int) -> np.ndarray:
    """Hints × counts 1..depth: the expected price of the card that ends the turn."""
    return np.cumsum(read(logits, own, np.where(own, 0.0, price), depth)[1], axis=1)


# Near equals, the commoner hint: own cards a unit of Zipf frequency is worth, up to a word every
# person knows (Zipf 5).
COMMONNESS, COMMON_ZIPF = 0.05, 5.0


class ExpectedCaptain(Captain):
    """Give the hint and count its `reader` gets the most from: the own cards it is expected to
    turn over before a card not its team's, less that card's price (`Prices`). Racing, it dares
    more when behind and less when ahead (`dare`); a team `alone` only fears losing. With `doubt`
    (share, reader), that share of the price is the card's as another reader would end the turn on
    it: where the readings disagree on the danger, the captain pays for the doubt."""

    name = "expected"

    def __init__(self, weights: Weights, reader: Reader | None = None, alone: bool = False, *,
                 max_count: int = MAX_COUNT, prices: Prices = Prices(),
                 doubt: tuple[float, Reader] | None = None):
        super().__init__(weights, reader, alone, max_count=min(max_count, MAX_COUNT))
        self.reader = reader if reader is not None else MatrixReader(weights)
        self.prices, self.doubt = prices, doubt

    def situation(self, board: Board, team: Color, given: Sequence[str] = ()) -> Situation:
        """The face-down cards, and every hint's chances of each as the reader reads it."""
        situation = super().situation(board, team, given)
        self.turns = turns(self.reader, situation.words)
        self.doubts = [] if self.doubt is None else turns(self.doubt[1], situation.words)
        chances = sum(share * softmax(logits, axis=1) for share, logits in self.turns)
        self.last = replace(situation, weights=chances)
        return self.last

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        depth = self.depth(situation)
        price = self.prices.of(situation, self.alone) * self.dare(board, situation.team)
        legal, own, claim = np.flatnonzero(situation.legal), situation.own, self.prices.claim
        doubted = 0.0 if self.doubt is None else self.doubt[0]
        values = sum(share * turn_values(logits[legal], own, price, depth, claim, 1.0 - doubted)
                     for share, logits in self.turns)
        values -= doubted * sum(share * turn_prices(logits[legal], own, price, depth)
                                for share, logits in self.doubts)
        table = np.full((len(situation.legal), depth), -np.inf)
        table[legal] = values + COMMONNESS * self.hint_zipf[legal, None]
        return table

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        """The best hint, with the chance that its reader turns over that many own cards."""
        choice = super().give_hint(board, team, given)
        hint = [self.weights.hint_index[choice.hint.word]]
        own, k = self.last.own, choice.hint.count
        chance = sum(share * read(logits[hint], own, np.zeros(len(own)), k)[2][0, k - 1]
                     for share, logits in self.turns)
        return replace(choice, chance=float(chance))

    def dare(self, board: Board, team: Color) -> float:
        """A factor on prices: below 1 when behind in the race (two own cards more than the other
        team's, one being the tempo of playing first), least when far behind or when the other team
        is one card from winning; above 1 when two cards ahead."""
        own, other = board.remaining(team), board.remaining(team.other)
        if self.alone:
            return 1.0
        if own - other >= 3 or other <= 1:
            return 0.5
        return 0.8 if own - other >= 2 else 1.25 if other - own >= 2 else 1.0

    @functools.cached_property
    def hint_zipf(self) -> np.ndarray:
        """Each hint's Zipf frequency, capped at `COMMON_ZIPF`."""
        return np.minimum(zipf(self.weights.hints), COMMON_ZIPF)
