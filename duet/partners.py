"""Duet's partners: the AI (the Codenames captain and agent, each on its side's view of the key)
and a person at the console. Each is a HintGiver and a Guesser in one."""

from __future__ import annotations

from board import RED
from duet.game import DuetGame
from duet.rules import Side
from duet.view import DuetView
from model import AI, Hint, HintChoice, NoLegalHint, hint_problem
from prompts import Terminal, ask_card, ask_hint

MAX_LEGALITY_RETRIES = 50


class AIPartner:
    """The AI as a Duet partner: the Codenames captain and agent, each on its side's view."""

    def __init__(self, ai: AI):
        self.captain = ai.captain()
        self.agent = ai.agent()
        self.given: list[str] = []

    def give_hint(self, game: DuetGame) -> HintChoice:
        board, table = game.board.captain_board(game.cluer), game.board.table_board()
        avoid = list(self.given)
        # The captain checks legality against the cards open to this side's clues; a word
        # marked a bystander for this side is still on the table, so check again.
        for _ in range(MAX_LEGALITY_RETRIES):
            choice = self.captain.give_hint(board, RED, avoid)
            if hint_problem(choice.hint.word, table) is None:
                self.given.append(choice.hint.word)
                return choice
            avoid.append(choice.hint.word)
        raise NoLegalHint("no legal clue after many tries")

    def guess(self, game: DuetGame, hint: Hint, guessed: int) -> str | None:
        # team=RED keeps the agent's memory of earlier clues: found agents are RED on this board.
        return self.agent.guess(game.board.guesser_board(game.cluer), hint, guessed, game.rng, team=RED)


HELP_CLUE = ("Give a clue for your agents (G on your side): one word and a count, e.g. 'ocean 2'.\n"
             "Commands: board, help, quit.")
HELP_GUESS = ("Type a word from the board to touch it. You may go on while you find agents.\n"
              "Commands: pass or stop (end the turn, after one guess), board, help, quit.")


class HumanPartner:
    """A person at the console, playing one side of the key."""

    def __init__(self, terminal: Terminal, view: DuetView, side: Side):
        self.terminal, self.view, self.side = terminal, view, side

    def give_hint(self, game: DuetGame) -> HintChoice:
        self.show(game)
        clue = ask_hint(self.terminal, "your clue> ", game.board.table_board(), HELP_CLUE,
                        lambda: self.show(game), noun="clue")
        return HintChoice.bare(clue)

    def guess(self, game: DuetGame, hint: Hint, guessed: int) -> str | None:
        if guessed == 0:
            self.show(game)
        return ask_card(self.terminal, f"your guess for {hint} ({guessed} so far)> ",
                        game.board.open_for(game.cluer), game.board.words, guessed, HELP_GUESS,
                        lambda: self.show(game),
                        closed="is already found, or known to be a bystander for your partner")

    def show(self, game: DuetGame) -> None:
        self.terminal.tell(self.view.show(game.board, game.tokens, self.side))
