"""The captain strategies that score every hint at once: the base, cumsum, margin and cluster."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from board import ASSASSIN, NEUTRAL, Board, Color
from models.situation import HintChoice, Situation, choose, fallback
from models.weights import Weights


class Captain:
    """Base of the captain strategies: build the situation, score it, choose.

    A strategy implements `score(situation) -> (hints × count)` table; the
    legality filter and the choice are shared.

    Every strategy is built the same way (`models.ai.AI.captain` builds them all): from its
    matrix, the `partners` whose reading it plans for (none: its agent reads as it does), whether
    its team plays `alone` (no opponent), and keyword parameters of its own. A strategy that does
    not simulate its agent ignores the partners.
    """

    name = "base"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), alone: bool = False, *,
                 max_count: int = 4):
        self.weights, self.alone, self.max_count = weights, alone, max_count

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        situation = self.situation(board, team, given)
        score = self.score(situation, board)
        if not np.isfinite(score[situation.legal]).any():
            score = fallback(situation)   # the strategy found nothing safe: still give a hint
        return choose(situation, score, self.weights.hints)

    def situation(self, board: Board, team: Color, given: Sequence[str] = ()) -> Situation:
        """What the captain sees: the face-down cards, their colours, every hint's weights."""
        return Situation.of(self.weights, board, team, given)

    def observe(self, hint: str, face_down: Sequence[str], guesses: Sequence[str]) -> None:
        """What the agent turned over for the last hint; a strategy that learns its agent uses it."""

    def depth(self, situation: Situation) -> int:
        return max(1, min(self.max_count, int(situation.own.sum())))

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        raise NotImplementedError


class CumsumCaptain(Captain):
    """The reference captain: rank the cards for each hint and sum card values down the ranking.

    For hint h and position k, score = Σ values of its k best-ranked cards
    + gap·(weight of the k-th card − weight of the (k+1)-th), which prefers
    hints whose targets stand clear of the rest. Targets weaker than `floor`
    do not count. The count is the best k.
    """

    name = "cumsum"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), alone: bool = False, *,
                 gap: float = 2.0, floor: float = 0.3, max_count: int = 4):
        super().__init__(weights, partners, alone, max_count=max_count)
        self.gap, self.floor = gap, floor

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        w, depth = situation.weights, self.depth(situation)
        table = np.full((len(w), depth), -np.inf)
        # Only hints whose strongest card is an own card above the floor can score: sort just those.
        best = w.argmax(axis=1)
        rows = np.flatnonzero(situation.legal & situation.own[best]
                              & (w[np.arange(len(w)), best] >= self.floor))
        order = np.argsort(-w[rows], axis=1)
        ranked = np.take_along_axis(w[rows], order, axis=1)
        sums = np.cumsum(situation.values[order][:, :depth], axis=1)
        following = np.pad(ranked, ((0, 0), (0, 1)))[:, 1:depth + 1]
        score = sums + self.gap * (ranked[:, :depth] - following)
        table[rows] = np.where(ranked[:, :depth] >= self.floor, score, -np.inf)
        return table


class MarginCaptain(Captain):
    """Target a hint's k strongest own cards; pay for the strongest card of each other kind.

    score = weakest target − λo·max opponent − λa·assassin − λn·max neutral + bonus·(k−1),
    and a count is allowed only when its weakest target beats every other
    card by `margin`.
    """

    name = "margin"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), alone: bool = False, *,
                 opponent: float = 0.5, assassin: float = 1.0, neutral: float = 0.25,
                 bonus: float = 0.15, margin: float = 0.05, max_count: int = 4):
        super().__init__(weights, partners, alone, max_count=max_count)
        self.opponent, self.assassin, self.neutral = opponent, assassin, neutral
        self.bonus, self.margin = bonus, margin

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        team = situation.team
        opponent = situation.strongest(team.other)
        assassin = situation.strongest(ASSASSIN)
        neutral = situation.strongest(NEUTRAL)
        rival = np.maximum.reduce([opponent, assassin, neutral])
        targets = situation.own_sorted()[:, :self.depth(situation)]
        k = np.arange(targets.shape[1])
        score = (targets - (self.opponent * opponent + self.assassin * assassin
                            + self.neutral * neutral)[:, None] + self.bonus * k)
        return np.where(targets >= rival[:, None] + self.margin, score, -np.inf)


class ClusterCaptain(Captain):
    """Group own cards by how the vocabulary sees them; hint the best-concentrated group.

    Own cards are clustered agglomeratively (average linkage, cosine distance
    between their hint-weight columns), the number of clusters chosen by mean
    silhouette. For each cluster, a hint scores by its concentration on the
    cluster (its weight there over its weight on all face-down cards) times its
    evenness inside it (1 / (size · Herfindahl index)). Hints whose strongest
    group is the assassin are dropped. The count is the number of cluster
    members that beat every other card.
    """

    name = "cluster"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), alone: bool = False, *,
                 margin: float = 0.03, max_count: int = 4):
        super().__init__(weights, partners, alone, max_count=max_count)
        self.margin = margin

    def clusters(self, situation: Situation) -> list[np.ndarray]:
        """Own-card indices (into situation.words) grouped by silhouette-best clustering."""
        from scipy.cluster.hierarchy import fcluster, linkage

        own = np.flatnonzero(situation.own)
        if len(own) <= 2:
            return [own[[i]] for i in range(len(own))] + ([own] if len(own) == 2 else [])
        columns = situation.weights[:, own].T + 1e-9
        tree = linkage(columns, method="average", metric="cosine")
        best, labels = -2.0, np.ones(len(own), dtype=int)
        for k in range(2, len(own)):
            found = fcluster(tree, k, criterion="maxclust")
            if len(set(found)) < 2:
                continue
            quality = silhouette(columns, found)
            if quality > best:
                best, labels = quality, found
        groups = [own[labels == label] for label in np.unique(labels)]
        return groups + [own[[i]] for i in range(len(own))]  # singletons keep a safe fallback

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        w = situation.weights
        total = w.sum(axis=1) + 1e-9
        rival = situation.strongest(situation.team.other, NEUTRAL, ASSASSIN)
        assassin = situation.strongest(ASSASSIN)
        depth = self.depth(situation)
        table = np.full((len(w), depth), -np.inf)
        for group in self.clusters(situation):
            part = w[:, group]
            mass = part.sum(axis=1) + 1e-9
            # Herfindahl index of the hint's weight inside the group: 1/size when even, 1 when on one card.
            herfindahl = np.maximum(((part / mass[:, None]) ** 2).sum(axis=1), 1.0 / len(group))
            quality = (mass / total) / (len(group) * herfindahl)
            safe = (part >= rival[:, None] + self.margin).sum(axis=1)
            # Hints whose strongest group is the assassin are out.
            strongest_group = part.mean(axis=1)
            quality = np.where(assassin >= strongest_group, -np.inf, quality)
            count = np.minimum(safe, min(len(group), depth))
            score = quality + count          # every safe target outweighs any concentration
            for k in range(1, depth + 1):
                table[:, k - 1] = np.where(count == k, np.maximum(table[:, k - 1], score),
                                           table[:, k - 1])
        return table


def silhouette(points: np.ndarray, labels: np.ndarray) -> float:
    """The mean silhouette of a clustering under cosine distance (a point alone in its cluster
    scores 0), as Rousseeuw (1987) defines it."""
    from scipy.spatial.distance import pdist, squareform

    distance = squareform(pdist(points, metric="cosine"))
    labels = np.asarray(labels)
    members = labels[None, :] == np.unique(labels)[:, None]            # (clusters, points)
    same = labels[:, None] == labels[None, :]
    sizes = same.sum(axis=1)
    within = (distance * same).sum(axis=1) / np.maximum(sizes - 1, 1)
    to_others = (distance @ members.T) / members.sum(axis=1)           # (points, clusters)
    nearest_other = np.where(members.T, np.inf, to_others).min(axis=1)
    scores = (nearest_other - within) / np.maximum(within, nearest_other)
    return float(np.where(sizes > 1, scores, 0.0).mean())
