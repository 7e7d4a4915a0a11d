"""A session at the console: who plays (the flags, or the prompts at the start), the AI they
need, then games, each logged, until the players have had enough. A person who plays alongside
the AI is learnt as they play (models/person.py), and kept under their name (profiles.py)."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from board import BLUE, RED, Board, Color, game_rngs
from cli import load_ai
from common import BOARD_WORDS_PATH, COMMAND, append_line, interactive, load_words, normalise, warn
from engine import Event, Game, RuleError, TurnStarted
from model import AI, DEFAULT_LEVEL, LEVELS
from players import COMPOSITIONS, Composition, Learning, Seat, make_team
from profiles import GUEST, NOBODY, Player, Profiles, player_name
from prompts import QuitGame, read_line
from renderer import RULES, ConsoleTerminal, Renderer

TEAM_QUESTION = """Who plays? Each team is captain:agent, each human or ai: ai:human means the AI
gives the hints and you guess; human:ai, you give hints and the AI guesses; human:human,
two people share the screen. auto is a solo opponent that turns over one of its own cards
each turn. Type help for the rules, quit to leave."""

NAME_PROMPT = f"Your name, so the AI can learn how you play ({GUEST}: keep nothing) [{{default}}]> "
NAME_QUESTION = """The AI learns how you play: how you read its hints, and what you mean by yours.
With a name it keeps what it learnt in {folder}/NAME.json, on this computer only, and
starts from there next time ({command} player show NAME says what it has learnt, player forget
NAME deletes it). guest: it learns for this session only and keeps nothing. Type quit to leave."""

# What an empty answer chooses: a person guesses for red against an AI team.
DEFAULT_TEAMS = {RED: Composition(Seat.AI, Seat.HUMAN), BLUE: Composition(Seat.AI, Seat.AI)}


@dataclass(frozen=True)
class Lineup:
    """Who plays each colour, and how the AI captains play (None: no team has an AI captain)."""

    teams: dict[Color, Composition]
    level: str | None = None

    @property
    def people(self) -> bool:
        """Whether a person plays (then the game asks to play again)."""
        return any(c.people for c in self.teams.values())

    @property
    def needs_ai(self) -> bool:
        return any(c.ai for c in self.teams.values())

    def captains(self, seat: Seat) -> set[Color]:
        """The colours whose captain plays from `seat`."""
        return {color for color, c in self.teams.items() if c.captain is seat}

    def agents(self, seat: Seat) -> set[Color]:
        """The colours whose agent plays from `seat`."""
        return {color for color, c in self.teams.items() if c.agent is seat}

    @property
    def partner(self) -> bool:
        """Whether one person plays alongside the AI (ai:human or human:ai) and no one else plays:
        the person the AI learns. (People on both teams: whose choices would they be?)"""
        teams = [c for c in self.teams.values() if c.people]
        return len(teams) == 1 and teams[0].ai

    @property
    def guessing(self) -> set[Color]:
        """The colours where a person guesses the AI captain's hints."""
        return self.captains(Seat.AI) & self.agents(Seat.HUMAN)

    @property
    def giving(self) -> set[Color]:
        """The colours where a person gives hints to the AI's agent."""
        return self.captains(Seat.HUMAN) & self.agents(Seat.AI)


# --- the prompts at the start ---------------------------------------------------------------


def ask_line(question: str) -> str:
    """A line typed at a set-up prompt, cleaned as at the game's prompts (a line too long is
    refused with a message and asked again)."""
    return read_line(ConsoleTerminal(Renderer()), question)


def ask_composition(color: Color) -> Composition:
    """Ask for one team's composition until the answer makes sense."""
    default = DEFAULT_TEAMS[color]
    while True:
        answer = ask_line(f"{color.value} team ({' / '.join(map(str, COMPOSITIONS))}) [{default}]> ")
        if answer in ("quit", "exit", "q"):
            raise QuitGame
        if answer in ("help", "?"):
            print(f"{TEAM_QUESTION}\n\n{RULES}")
            continue
        try:
            return Composition.parse(answer) if answer else default
        except ValueError as error:
            print(error)


def ask_level() -> str:
    """Ask how the AI plays: your own AI captain, and the opponent's team."""
    choices = " / ".join(LEVELS)
    while True:
        choice = ask_line(f"AI level ({choices}) [{DEFAULT_LEVEL}]> ")
        if choice in ("quit", "exit", "q"):
            raise QuitGame
        if choice in LEVELS or not choice:
            return choice or DEFAULT_LEVEL
        if choice not in ("help", "?"):
            print(f"unknown level {choice!r}: choose one of {', '.join(LEVELS)}")
        print("\n".join(level.help() for level in LEVELS.values()))


def ask_name(profiles: Profiles) -> str:
    """Ask who plays alongside the AI: a name, or GUEST; Enter takes the name of the last
    player (a guest when there was none), so that a returning player only presses Enter."""
    default = profiles.last() or GUEST
    while True:
        answer = ask_line(NAME_PROMPT.format(default=default))
        if answer in ("quit", "exit", "q"):
            raise QuitGame
        if answer in ("help", "?"):
            print(NAME_QUESTION.format(folder=profiles.folder, command=COMMAND))
            continue
        if answer in ("", GUEST, NOBODY):
            return answer or default
        try:
            return player_name(answer)
        except ValueError as error:
            print(error)


def who_learns(args: argparse.Namespace, lineup: Lineup, profiles: Profiles) -> str | None:
    """Who the AI learns this session: a name, GUEST, or None (`--player none`, or nobody plays
    alongside it). Without --player, a person at a terminal is asked; a piped or scripted
    session plays as a guest, and so writes nothing. A name is remembered for the next prompt."""
    if not lineup.partner:
        if args.player not in (None, NOBODY):
            warn(f"--player {args.player} is not used: the AI learns one person who plays alongside "
                 "it (ai:human or human:ai), no one else playing")
        return None
    name = args.player or (ask_name(profiles) if interactive() else GUEST)
    if name == NOBODY:
        return None
    if name != GUEST:
        profiles.remember_last(name)
    return name


def again() -> bool:
    """Ask whether to play another game until the answer is yes or no; the input closing is no."""
    try:
        while (reply := ask_line("Play again? [Y/n]> ")) not in ("", "y", "yes", "n", "no"):
            print("Type y to play again, or n to stop.")
    except EOFError:
        return False
    return reply in ("", "y", "yes")


def who_plays(args: argparse.Namespace) -> Lineup:
    """Who plays, from the flags, asking for what they leave out."""
    prompted = not (args.red and args.blue)
    if prompted:
        print(TEAM_QUESTION)
    teams = {RED: args.red or ask_composition(RED), BLUE: args.blue or ask_composition(BLUE)}
    people = any(c.people for c in teams.values())
    level = args.level
    ai_captains = any(c.captain is Seat.AI for c in teams.values())   # what a level sets
    if level is None and ai_captains:
        level = ask_level() if prompted and people else DEFAULT_LEVEL
    elif level is not None and not ai_captains:
        warn(f"--level {level} is not used: it sets how AI captains and ai:ai teams play, and no team "
             "has an AI captain")
        level = None
    return Lineup(teams, level)


# --- the AI and the games -------------------------------------------------------------------


def play(args: argparse.Namespace) -> int:
    """Set up the teams, then play games until the players have had enough; the exit code."""
    lineup = who_plays(args)
    profiles = Profiles(args.profiles)
    name = who_learns(args, lineup, profiles)
    if lineup.needs_ai:
        import download  # only a game that may offer the download loads it

        download.offer(args.sources)   # once, in a terminal, when there is no dataset yet
    try:
        ai = load_ai(args) if lineup.needs_ai else None
    except (OSError, ValueError, RuntimeError) as error:   # a bad flag or a missing model
        warn(f"cannot build the AI: {error}")
        return 2
    if lineup.captains(Seat.HUMAN) & lineup.agents(Seat.AI):
        import datasets

        print("Getting the AI agent ready to read any hint...")
        datasets.warm_up(ai.weights)   # so that the first hint outside the vocabulary does not stall
    player = None if name is None else Player.meet(name, ai, profiles)
    seed = args.seed
    while True:
        seed = fresh_seed() if seed is None else seed
        code, finished = play_game(args, lineup, ai, seed, player)
        if code or not finished or not lineup.people or not again():
            return code
        seed = seed + 1 if args.seed is not None else None


def fresh_seed() -> int:
    """A seed for a game the user did not seed, so that the log can replay it."""
    return int(np.random.SeedSequence().generate_state(1)[0] >> 1)


def new_board(words_file: Path | None, rng: np.random.Generator) -> Board:
    """Deal a board from the card list (or the user's), with the game's board rng."""
    words = load_words(words_file or BOARD_WORDS_PATH)
    return Board.random(words, rng)


def play_game(args: argparse.Namespace, lineup: Lineup, ai: AI | None, seed: int,
              player: Player | None = None) -> tuple[int, bool]:
    """One game: (exit code, whether it was played to its end). What the AI learnt of the `player`
    is kept after it, finished or not."""
    board_rng, play_rng = game_rngs(seed)
    try:
        board = new_board(args.words, board_rng)
    except (OSError, ValueError) as error:
        warn(f"cannot deal a board: {error}")
        return 2, False
    learning = None if player is None else Learning(player.person, lineup.guessing, lineup.giving)
    game, renderer = set_up(args, lineup, ai, board, play_rng, seed, player, learning)
    try:
        code, finished = run(game, renderer)
        if finished and learning is not None and learning.given and interactive():
            ask_meant(learning)
        return code, finished
    finally:
        if not args.no_log:
            log_game(args.log, game.record())
        if player is not None:
            player.save()


def set_up(args: argparse.Namespace, lineup: Lineup, ai: AI | None, board: Board,
           rng: np.random.Generator, seed: int, player: Player | None = None,
           learning: Learning | None = None) -> tuple[Game, Renderer]:
    """The game on `board` and the renderer that tells it; the AI plays with the `player` as it
    has learnt them, and `learning` hears their every turn.

    Nobody may see the key while a person guesses: no spectator's board, and what the AI meant
    (with --explain, why) only once the turn is over, the cards still face down unnamed.
    """
    guessing = bool(lineup.agents(Seat.HUMAN))
    renderer = Renderer(explain=args.explain, secret=guessing)
    terminal = ConsoleTerminal(renderer, hot_seat=guessing and bool(lineup.captains(Seat.HUMAN)))
    if ai is not None:
        ai.weights.add_words(board.words)
    person = None if player is None else player.person
    teams = {color: make_team(color, composition, ai, terminal, lineup.level, person)
             for color, composition in lineup.teams.items()}
    game = Game(board, teams, rng=rng, seed=seed)
    game.listeners.append(renderer.on_event)
    if learning is not None:
        game.listeners.append(learning)
    if not guessing:
        prompted = lineup.captains(Seat.HUMAN)
        game.listeners.append(lambda event: spectate(event, board, prompted, renderer))
    renderer.write(f"\nGame {seed} (replay it with --seed {seed}). Type help at any prompt.")
    renderer.write(renderer.legend())
    return game, renderer


MEANT = """What did you mean? The AI learns how you give hints from your answers: for each of your
hints, the cards you meant (Enter skips a hint, 'skip' the rest)."""


def ask_meant(learning: Learning) -> None:
    """After a game in which a person gave the AI hints, ask which cards each one meant; every
    answer teaches the AI how they give hints. Optional: Enter skips one, `skip` (or the input
    closing) the rest."""
    print(MEANT)
    for given in learning.given:
        turned = ", ".join(w.upper() for w, _ in given.turned) or "nothing"
        while True:
            try:
                answer = ask_line(f"{given.hint} (the AI turned over {turned})> ")
            except EOFError:
                return
            if answer in ("skip", "quit", "q"):
                return
            cards = dict.fromkeys(normalise(w) for w in answer.replace(",", " ").split())
            try:
                learning.meant(given, list(cards))
                break
            except ValueError as error:
                print(f"{error}: name cards that were face down when you gave it, or press Enter.")


def run(game: Game, renderer: Renderer) -> tuple[int, bool]:
    """Play the game to its end, or until a player leaves: (exit code, whether it ended)."""
    try:
        game.play()
    except (QuitGame, EOFError, KeyboardInterrupt) as stop:
        reason = {QuitGame: "a player quit", EOFError: "the input closed"}.get(type(stop), "interrupted")
        game.abandon(reason)
        renderer.write("\nGame abandoned." if isinstance(stop, QuitGame) else "\nGoodbye.")
        return (130 if isinstance(stop, KeyboardInterrupt) else 0), False
    except RuleError as error:
        game.abandon(f"internal error: {error}")
        warn(f"internal error, the game cannot go on: {error}")
        return 1, False
    return 0, True


def spectate(event: Event, board: Board, prompted: set[Color], renderer: Renderer) -> None:
    """With no human guessing, show the full board at the start of each turn (a human captain,
    whose team is in `prompted`, is shown the board by its own prompt, so not twice)."""
    if isinstance(event, TurnStarted) and event.side not in prompted:
        renderer.write(renderer.board(board, captain=True))


def log_game(path: Path, record: dict) -> None:
    """Append one game to the log as a JSON line; a log that cannot be written never stops the game."""
    try:
        append_line(path, json.dumps(record))
    except OSError as error:
        warn(f"could not write the game log {path}: {error}")

