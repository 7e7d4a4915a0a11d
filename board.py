"""Cards, the board and the rules that score a guess.

A `Board` is 25 `Card`s with a key (each card's `Color`) and a revealed flag.
It knows the rules that depend only on the cards: what a reveal means for
the guessing team, how many cards each side has left, and who has won.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

SIZE = 25
COLUMNS = 5
STARTING_TEAM_CARDS, OTHER_TEAM_CARDS, NEUTRAL_CARDS, ASSASSIN_CARDS = 9, 8, 7, 1


class Color(enum.Enum):
    """What a card is under the key."""

    RED = "red"
    BLUE = "blue"
    NEUTRAL = "neutral"
    ASSASSIN = "assassin"

    @property
    def letter(self) -> str:
        return self.value[0].upper()

    @property
    def is_team(self) -> bool:
        return self in (Color.RED, Color.BLUE)

    @property
    def other(self) -> Color:
        """The opposing team's colour (only for RED and BLUE)."""
        if self is Color.RED:
            return Color.BLUE
        if self is Color.BLUE:
            return Color.RED
        raise ValueError(f"{self.value} is not a team")


RED, BLUE, NEUTRAL, ASSASSIN = Color.RED, Color.BLUE, Color.NEUTRAL, Color.ASSASSIN
TEAMS = (RED, BLUE)


class Outcome(enum.Enum):
    """What turning over a card means for the team that guessed it."""

    OWN = "own"              # keep guessing
    OPPONENT = "opponent"    # counts for them; the turn ends
    NEUTRAL = "neutral"      # the turn ends
    ASSASSIN = "assassin"    # the guessing team loses


@dataclass
class Card:
    word: str
    color: Color
    revealed: bool = False


@dataclass
class Board:
    """25 cards, the key and what has been revealed."""

    cards: list[Card]
    starting_team: Color
    _index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = {card.word: i for i, card in enumerate(self.cards)}
        if len(self._index) != len(self.cards):
            raise ValueError("board words must be distinct")

    @classmethod
    def random(cls, words: Sequence[str], rng: np.random.Generator,
               starting_team: Color | None = None) -> Board:
        """Deal 25 distinct words from `words` and a key; the rng picks the starting team."""
        words = list(dict.fromkeys(words))
        if len(words) < SIZE:
            raise ValueError(f"need at least {SIZE} distinct words, got {len(words)}")
        if starting_team is None:
            starting_team = TEAMS[int(rng.integers(2))]
        chosen = [words[i] for i in rng.choice(len(words), SIZE, replace=False)]
        key = deal_key(starting_team)
        rng.shuffle(key)
        return cls([Card(w, c) for w, c in zip(chosen, key, strict=True)], starting_team)

    @classmethod
    def from_key(cls, words: Sequence[str], key: Sequence[Color],
                 revealed: Sequence[bool] | None = None) -> Board:
        """A board from explicit words and key; the team with 9 cards starts."""
        if len(words) != len(key):
            raise ValueError("words and key differ in length")
        revealed = revealed or [False] * len(words)
        cards = [Card(w, c, r) for w, c, r in zip(words, key, revealed, strict=True)]
        starting = RED if sum(c is RED for c in key) >= sum(c is BLUE for c in key) else BLUE
        return cls(cards, starting)

    # --- queries ---------------------------------------------------------------

    @property
    def words(self) -> list[str]:
        return [card.word for card in self.cards]

    @property
    def key(self) -> list[Color]:
        return [card.color for card in self.cards]

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def card(self, word: str) -> Card:
        return self.cards[self._index[word]]

    def unrevealed(self) -> list[Card]:
        return [card for card in self.cards if not card.revealed]

    def unrevealed_words(self) -> list[str]:
        return [card.word for card in self.cards if not card.revealed]

    def remaining(self, color: Color) -> int:
        """How many cards of a colour are still face down."""
        return sum(1 for card in self.cards if card.color is color and not card.revealed)

    def winner(self) -> Color | None:
        """The team that has revealed all its cards, or None (the assassin is the game's to judge)."""
        for team in TEAMS:
            if self.remaining(team) == 0:
                return team
        return None

    # --- the one move ----------------------------------------------------------

    def reveal(self, word: str, team: Color) -> Outcome:
        """Turn over a card for `team` and say what it means for that team."""
        card = self.card(word)
        if card.revealed:
            raise ValueError(f"{word} is already revealed")
        card.revealed = True
        return outcome(card.color, team)


# A card is a word of letters (any alphabet's), or words joined by single spaces, hyphens or
# apostrophes: ICE CREAM, JACK-IN-THE-BOX, O'CLOCK. No digits, no symbols, no emoji.
CARD_WORD = re.compile(r"[^\W\d_]+(?:[ '\u2019-][^\W\d_]+)*")
CARD_RULE = ("a card is letters only, its words joined by single spaces, hyphens or apostrophes "
             "(ICE CREAM, JACK-IN-THE-BOX)")


def card_word_problem(word: str) -> str | None:
    """Why a (normalised) word cannot be a card's, or None: the one check of every way a table
    comes in (the companion's, `serve`'s boards)."""
    if not CARD_WORD.fullmatch(word):
        return f"{word!r} is not a card word: {CARD_RULE}"
    return None


def outcome(color: Color, team: Color) -> Outcome:
    """What a card of `color` means for the team that turned it over."""
    if color is team:
        return Outcome.OWN
    if color is ASSASSIN:
        return Outcome.ASSASSIN
    if color is NEUTRAL:
        return Outcome.NEUTRAL
    return Outcome.OPPONENT


def deal_key(starting_team: Color) -> list[Color]:
    """The 25 colours of a key, unshuffled: 9 for the starter, 8, 7 neutral, 1 assassin."""
    return ([starting_team] * STARTING_TEAM_CARDS + [starting_team.other] * OTHER_TEAM_CARDS
            + [NEUTRAL] * NEUTRAL_CARDS + [ASSASSIN] * ASSASSIN_CARDS)


def parse_color(name: str) -> Color:
    """A colour from its name or first letter, in any case."""
    name = name.strip().lower()
    for color in Color:
        if name in (color.value, color.value[0]):
            return color
    raise ValueError(f"unknown colour {name!r}: use red, blue, neutral or assassin")


def counts(colors: Iterable[Color]) -> dict[Color, int]:
    """How many of each colour, for validating a typed-in key."""
    colors = list(colors)
    return {color: colors.count(color) for color in Color}


def game_rngs(seed: int | None) -> tuple[np.random.Generator, np.random.Generator]:
    """The two generators of a game with this seed: one deals the board, one plays it."""
    board_rng, play_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    return board_rng, play_rng


def deal(seed: int, words: Sequence[str]) -> tuple[Board, np.random.Generator]:
    """The board of a seed and its play generator, as `python main.py --seed SEED` makes them."""
    board_rng, play_rng = game_rngs(seed)
    return Board.random(words, board_rng), play_rng
