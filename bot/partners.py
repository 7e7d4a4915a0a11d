"""The people the bot plays with, by the client's player ID: each a person the AI learns from the
boards it is sent (models/person.py), and the game it is playing with them.

A client never says what its player turned over. The board says it: the cards turned over
since the last clue the bot gave a player, on the same board, are read as that player's picks
for it (`partner_picks`), and, with no opponent, whether they stopped short of its count
(`partner_stopped`; the rules are in docs/protocol.md).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from board import SIZE, Board, Color
from model import AI, PICKS, Agent, Captain, Choice, Hint, Person, PersonCaptain

# The players kept at once; past this many, the one heard from longest ago is forgotten. Each
# costs up to about 1 MB (a person keeps its latest 400 choices, models/person.py).
MAX_PLAYERS = 200

PlayerID = str | int


@dataclass(frozen=True)
class Clue:
    """A clue the bot gave a player's team: the hint, the team, the cards face down when it was
    given (in board order), whether the team plays with no opponent (`alone`), and its targets."""

    hint: Hint
    team: Color
    face_down: tuple[str, ...]
    alone: bool
    meant: tuple[str, ...] = ()   # the cards the bot's captain meant by it


def partner_picks(clue: Clue, board: Board, chances: Sequence[float]) -> tuple[str, ...] | None:
    """The cards a player turned over for `clue`, as far as `board` (later, the same game) shows,
    in the likeliest order by `chances` (each face-down card's, when the clue was given); None
    when the board cannot tell.

    The team's own cards turned over since are the player's picks, at most the rules' count + 1,
    the likeliest first: the board does not say their order, and an opponent's miss may add one.
    A miss ends a turn, so it is told apart only where no one else turned a card over: with no
    opponent (`alone`), the one other card turned over comes last (two or more: more than one
    turn went by); racing an opponent, whose own turn turns cards over too, the single card
    turned over since when no own card was. With more, the player missed at once, on a card
    the board does not single out: none of the team's cards is picked (no picks)."""
    order = np.argsort(-np.asarray(chances), kind="stable")
    turned = [clue.face_down[k] for k in order if board.card(clue.face_down[k]).revealed]
    own = [w for w in turned if board.card(w).color is clue.team][:clue.hint.max_guesses]
    others = [w for w in turned if board.card(w).color is not clue.team]
    if not turned or clue.alone and len(others) > 1:
        return None
    if clue.alone:
        return (*own, *others)
    if own:
        return tuple(own)
    return tuple(turned) if len(turned) == 1 else ()


def partner_stopped(clue: Clue, board: Board, picks: Sequence[str]) -> bool:
    """Whether the player ended their turn for `clue` themselves, short of its count: told only
    with no opponent, where every card turned over since is theirs (a miss would have ended the
    turn; racing, the opponent's turn turns cards over too)."""
    count = clue.hint.count
    return (clue.alone and bool(picks) and bool(count) and len(picks) < count
            and all(board.card(w).color is clue.team for w in picks))


class Table:
    """The game the boards sent belong to: its key and the cards turned over so far."""

    def __init__(self) -> None:
        self.key: dict[str, Color] = {}
        self.revealed: frozenset[str] = frozenset()

    def meet(self, board: Board) -> bool:
        """Whether `board` starts a new game after another: other words, another key, or a card
        turned back face down; it is this table's game from now on."""
        key = {card.word: card.color for card in board.cards}
        revealed = frozenset(card.word for card in board.cards if card.revealed)
        new = bool(self.key) and (key != self.key or not self.revealed <= revealed)
        self.key, self.revealed = key, revealed
        return new


class Partner:
    """One player: the person as the AI learns them (kept for the process), and the game they
    play with the bot: its board and key, the captains planning for them this game (built when
    first asked), the last clue given to each team (a client may name one player for both)."""

    def __init__(self, ai: AI):
        self.ai = ai
        self.person = Person(ai.people)
        self.agent: Agent = ai.people_agent(person=self.person)   # keeps no game state
        self.table = Table()
        self.captains: dict[bool, Captain | PersonCaptain] = {}
        self.last: dict[Color, Clue] = {}

    def meet(self, board: Board) -> None:
        """Go on with the game if `board` is its board (the same words under the same key, no
        card turned back face down); else start a new one: the person stays, the captains go."""
        if self.table.meet(board):
            self.captains, self.last = {}, {}

    def captain(self, alone: bool) -> Captain | PersonCaptain:
        """This game's captain planning for the person (one for a team racing an opponent, one
        for a team alone)."""
        if alone not in self.captains:
            self.captains[alone] = self.ai.captain(alone=alone, person=self.person)
        return self.captains[alone]

    def read(self, board: Board, team: Color) -> Choice | None:
        """Learn from the cards turned over since the last clue to `team` (`partner_picks`): the
        person and the captain that gave the clue learn their picks. Each clue is read once."""
        clue = self.last.pop(team, None)
        if clue is None:
            return None
        chances = self.person.model.chances(clue.hint.word, clue.face_down)
        picks = partner_picks(clue, board, chances)
        if picks is None:
            return None
        if clue.alone in self.captains:   # no picks: the clue's targets were all missed
            self.captains[clue.alone].observe(clue.hint.word, clue.face_down, picks)
        if not picks:
            return None
        choice = Choice(clue.hint.word, clue.face_down, picks, PICKS, meant=clue.meant,
                        stopped=partner_stopped(clue, board, picks))
        self.person.observe(choice)
        return choice

    def gave(self, hint: Hint, board: Board, team: Color, alone: bool, meant: Sequence[str] = ()) -> None:
        """Remember the clue just given (and the cards it `meant`), to read the player's picks for
        it on the next board."""
        face_down = tuple(board.unrevealed_words())
        self.last[team] = Clue(hint, team, face_down, alone, tuple(w for w in meant if w in face_down))


class Partners:
    """The players by ID, for the life of the process: at most `limit`, the one heard from
    longest ago forgotten first."""

    def __init__(self, ai: AI, limit: int = MAX_PLAYERS):
        self.ai, self.limit = ai, limit
        self.known: OrderedDict[PlayerID, Partner] = OrderedDict()

    def __getitem__(self, player: PlayerID) -> Partner:
        if player in self.known:
            self.known.move_to_end(player)
        else:
            self.known[player] = Partner(self.ai)
            while len(self.known) > self.limit:
                self.known.popitem(last=False)
        return self.known[player]

    def warm_up(self, words: Sequence[str]) -> None:
        """Teach a person no one plays one choice now: a first lesson imports the optimiser and
        the word frequencies (about a second), which the first player's request would wait for."""
        weights = self.ai.weights
        known = tuple(w for w in words if weights.knows(w))[:SIZE]
        if known and weights.hints:
            Person(self.ai.people).observe(Choice(weights.hints[0], known, known[:1]))

    def __contains__(self, player: PlayerID) -> bool:
        return player in self.known

    def __len__(self) -> int:
        return len(self.known)
