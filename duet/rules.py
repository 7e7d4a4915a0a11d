"""Codenames Duet's rules: the double key, the board the partners share, and what a touch means.

Two partners share one 5×5 board and each sees one side of a double key:
9 agents, 3 assassins and 13 bystanders on each side. The sides overlap as on
the real key cards (15 agents in all):

                    side B:  agent  assassin  bystander   all
    side A: agent              3       1          5        9
            assassin           1       1          1        3
            bystander          5       1          7       13
            all                9       3         13       25

Each turn one partner gives a clue for the agents on their own side and the
other guesses, judged by the clue giver's side: an agent is found (it counts
for both sides) and the guesser may go on, for as long as they like; a
bystander ends the turn and is marked as a bystander *for the clue giver
only*, since it may still be one of the guesser's own agents; an assassin
loses the game. Every turn spends one of the 9 timer tokens. Partners take
turns giving clues, except that a partner whose agents are all found gives no
more clues (and a turn ends as soon as the clue giver's last agent is found).
All 15 agents found wins; an assassin, or the last timer token spent with
agents still hidden, loses. (The board game's optional sudden-death round,
guessing without clues once time is out, is not played: out of time is a
loss.)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from board import ASSASSIN, NEUTRAL, RED, SIZE, Board, Card

TIMER_TOKENS = 9


class Role(enum.Enum):
    """What a card is on one side of the Duet key."""

    AGENT = "agent"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"

    @property
    def letter(self) -> str:
        return {"agent": "G", "bystander": "-", "assassin": "A"}[self.value]


AGENT, BYSTANDER, DUET_ASSASSIN = Role.AGENT, Role.BYSTANDER, Role.ASSASSIN


class Side(enum.Enum):
    """One of the two partners, and the side of the key card they see."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


# How many cards have each (side A, side B) pair of roles on a real Duet key card.
KEY_PAIRS: dict[tuple[Role, Role], int] = {
    (AGENT, AGENT): 3, (AGENT, DUET_ASSASSIN): 1, (AGENT, BYSTANDER): 5,
    (DUET_ASSASSIN, AGENT): 1, (DUET_ASSASSIN, DUET_ASSASSIN): 1, (DUET_ASSASSIN, BYSTANDER): 1,
    (BYSTANDER, AGENT): 5, (BYSTANDER, DUET_ASSASSIN): 1, (BYSTANDER, BYSTANDER): 7,
}
TOTAL_AGENTS = sum(n for (a, b), n in KEY_PAIRS.items() if AGENT in (a, b))   # 15


def deal_keys(rng: np.random.Generator) -> dict[Side, list[Role]]:
    """A random double key card: both sides' roles for the 25 positions."""
    pairs = [pair for pair, n in KEY_PAIRS.items() for _ in range(n)]
    order = rng.permutation(len(pairs))
    return {Side.A: [pairs[i][0] for i in order], Side.B: [pairs[i][1] for i in order]}


# --- the board -----------------------------------------------------------------------------


@dataclass
class DuetBoard:
    """25 words, the double key, the agents found and the bystanders marked for each side."""

    words: list[str]
    keys: dict[Side, list[Role]]
    found: list[bool] = field(default_factory=lambda: [False] * SIZE)
    # missed[side][i]: card i turned out a bystander on `side`'s key while `side` gave the clue.
    missed: dict[Side, list[bool]] = field(
        default_factory=lambda: {side: [False] * SIZE for side in Side})
    _index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = {w: i for i, w in enumerate(self.words)}
        if len(self._index) != len(self.words):
            raise ValueError("board words must be distinct")
        if any(len(key) != len(self.words) for key in self.keys.values()):
            raise ValueError("each side's key must have one role per word")

    @classmethod
    def random(cls, words: Sequence[str], rng: np.random.Generator) -> DuetBoard:
        """Deal 25 distinct words and a double key."""
        words = list(dict.fromkeys(words))
        if len(words) < SIZE:
            raise ValueError(f"need at least {SIZE} distinct words, got {len(words)}")
        chosen = [words[i] for i in rng.choice(len(words), SIZE, replace=False)]
        return cls(chosen, deal_keys(rng))

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def role(self, word: str, side: Side) -> Role:
        return self.keys[side][self._index[word]]

    def open_for(self, cluer: Side) -> list[str]:
        """The cards a guesser may still touch for `cluer`'s clue: not found, not known bystanders."""
        return [w for i, w in enumerate(self.words) if not self.found[i] and not self.missed[cluer][i]]

    def agents_left(self, side: Side) -> int:
        """How many of `side`'s agents are still to be found (by the partner, on `side`'s clues)."""
        return sum(1 for i, role in enumerate(self.keys[side]) if role is AGENT and not self.found[i])

    def agents_found(self) -> int:
        return sum(self.found)

    def reveal(self, word: str, cluer: Side) -> Role:
        """The guesser touches a card for `cluer`'s clue; the role on `cluer`'s key is the answer."""
        i = self._index[word]
        if self.found[i] or self.missed[cluer][i]:
            raise ValueError(f"{word} is not open for {cluer.value}'s clues")
        role = self.keys[cluer][i]
        if role is AGENT:
            self.found[i] = True
        elif role is BYSTANDER:
            self.missed[cluer][i] = True
        return role

    # --- the same cards as Codenames boards, for the models --------------------------------

    def captain_board(self, side: Side) -> Board:
        """`side`'s clue-giving view: its agents as RED, face down while still open to guesses."""
        colors = {AGENT: RED, BYSTANDER: NEUTRAL, DUET_ASSASSIN: ASSASSIN}
        cards = [Card(w, colors[role], self.found[i] or self.missed[side][i])
                 for i, (w, role) in enumerate(zip(self.words, self.keys[side], strict=True))]
        return Board(cards, RED)

    def guesser_board(self, cluer: Side) -> Board:
        """What the guesser of `cluer`'s clue reads: found agents RED and revealed, the rest unknown."""
        cards = [Card(w, RED if self.found[i] else NEUTRAL, self.found[i] or self.missed[cluer][i])
                 for i, w in enumerate(self.words)]
        return Board(cards, RED)

    def table_board(self) -> Board:
        """The words still in sight on the table (not covered by an agent), for clue legality."""
        return Board([Card(w, NEUTRAL, self.found[i]) for i, w in enumerate(self.words)], RED)


RULES = """Codenames Duet: two partners, one board, a double key; find all 15 agents together.

Each side of the key has 9 agents, 3 assassins and 13 bystanders. Each turn
one partner clues and the other guesses; a bystander ends the turn, an
assassin loses the game, and every turn spends one of 9 timer tokens.
Out of time with agents still hidden is a loss (no sudden-death round)."""
