"""A session at the console: who plays (the flags, or the prompts at the start), the AI they
need, then games, each logged, until the players have had enough. A person who plays alongside
the AI is learnt as they play (models/person.py), and kept under their name (profiles.py)."""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from board import BLUE, RED, Board, Color, game_rngs
from cli import load_ai
from common import BOARD_WORDS_PATH, COMMAND, append_line, holding, interactive, load_words, normalise, warn
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

KEEP_PROMPT = """The AI learnt how you play this game: how you read its hints, or what you meant by yours.
Keep it, so that it starts from there next time? Your name (Enter: keep nothing)> """
KEEP_QUESTION = """With a name the AI keeps what it learnt in {folder}/NAME.json, on this computer only,
and starts from there next time: this is asked once ({command} player show NAME says what it has
learnt, player forget NAME deletes it; --player NAME plays as someone else). Enter keeps nothing,
and the AI learns you afresh each session."""

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


def who_learns(args: argparse.Namespace, lineup: Lineup, profiles: Profiles) -> tuple[str | None, bool]:
    """Who the AI learns this session: a name, GUEST, or None (`--player none`, or nobody plays
    alongside it); and whether to ask, after the first game, to keep what it learnt.

    Without --player, a person at a terminal plays as the last name kept on this computer; the
    first time, as a guest, asked at the end of the game whether to keep it (once: a "no" is
    remembered too). A piped or scripted session plays as a guest, and so writes nothing."""
    if not lineup.partner:
        if args.player not in (None, NOBODY):
            warn(f"--player {args.player} is not used: the AI learns one person who plays alongside "
                 "it (ai:human or human:ai), no one else playing")
        return None, False
    if args.player is not None:
        name = args.player
    elif not interactive():
        name = GUEST
    else:
        name = profiles.last() or GUEST
        if name == GUEST and not profiles.declined():
            return GUEST, True
    if name == NOBODY:
        return None, False
    if name != GUEST:
        profiles.remember_last(name)
    return name, False


def ask_keep(profiles: Profiles) -> str | None:
    """After a first game beside the AI, ask whether to keep what it learnt, under a name; None
    for no (remembered: the question comes once), or when the input closes."""
    while True:
        try:
            answer = ask_line(KEEP_PROMPT)
        except EOFError:
            return None
        if answer in ("help", "?"):
            print(KEEP_QUESTION.format(folder=profiles.folder, command=COMMAND))
            continue
        if answer in ("", "n", "no", GUEST, NOBODY, "quit", "q"):
            profiles.decline()
            return None
        try:
            return player_name(answer)
        except ValueError as error:
            print(f"{error}; or press Enter to keep nothing.")


def again() -> bool:
    """Ask whether to play another game until the answer is yes or no; the input closing is no."""
    try:
        while (reply := ask_line("Play again? [Y/n]> ")) not in ("", "y", "yes", "n", "no"):
            print("Type y to play again, or n to stop.")
    except EOFError:
        return False
    return reply in ("", "y", "yes")


def ready_for_hints(ai: AI | None, lineup: Lineup) -> None:
    """With a person giving hints to an AI agent, the agent made ready to read any hint, so that
    the first one outside the vocabulary does not stall."""
    if ai is not None and lineup.captains(Seat.HUMAN) & lineup.agents(Seat.AI):
        import datasets

        print("Getting the AI agent ready to read any hint...", flush=True)
        datasets.warm_up(ai.weights)


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


class Loading:
    """The AI loading in a thread while the questions at the start are asked: a first game fills
    data/cache/ from the shipped files in seconds, and a person reads and answers meanwhile. A
    daemon thread: a person who leaves at a question does not wait for it."""

    def __init__(self, load: Callable[[], AI]):
        self._ai: AI | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(load,), name="the AI loading", daemon=True)
        self._thread.start()

    def _run(self, load: Callable[[], AI]) -> None:
        try:
            self._ai = load()
        except BaseException as error:   # noqa: BLE001 - raised again where the AI is asked for
            self._error = error

    def ai(self, asked: bool = False) -> AI:
        """The AI, once loaded (after questions were `asked`, a line says so if it is still
        loading); its error raised again."""
        if asked and self._thread.is_alive():
            print("Getting the AI ready...")
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._ai


def may_need_ai(args: argparse.Namespace) -> bool:
    """Whether the flags leave room for an AI player: a team still to be asked, or an AI team."""
    return not (args.red and args.blue) or any(c.ai for c in (args.red, args.blue))


def play(args: argparse.Namespace) -> int:
    """Set up the teams, then play games until the players have had enough; the exit code."""
    with holding():   # what the loading says waits for the answers
        loading = Loading(lambda: load_ai(args)) if may_need_ai(args) else None
        lineup = who_plays(args)
    profiles = Profiles(args.profiles)
    name, keep_asked = who_learns(args, lineup, profiles)
    try:
        ai = loading.ai(asked=not (args.red and args.blue)) if lineup.needs_ai else None
    except (OSError, ValueError, RuntimeError) as error:   # a missing model, a cache that cannot be read
        warn(f"cannot build the AI: {error}")
        return 2
    ready_for_hints(ai, lineup)
    player = None if name is None else Player.meet(name, ai, profiles, print if not keep_asked else quiet,
                                                   args.sources)
    seed = args.seed
    while True:
        seed = fresh_seed() if seed is None else seed
        code, finished = play_game(args, lineup, ai, seed, player)
        if code or not finished or not lineup.people:
            return code
        if keep_asked and player.person.choices:
            player, keep_asked = kept(player, profiles, ai), False
        if ai is not None and offered(args.sources):
            ai = load_ai(args)   # the datasets join the next game
            if player is not None:
                player = player.read_by(ai)
        if not again():
            return code
        seed = seed + 1 if args.seed is not None else None


def quiet(line: str) -> None:
    """Say nothing: a first-time player is told what the AI learnt at the end of the game."""


def kept(player: Player, profiles: Profiles, ai: AI) -> Player:
    """The player of a first game, asked whether to keep what the AI learnt: under a name, or still
    a guest."""
    if (name := ask_keep(profiles)) is None:
        return player
    player = player.kept_as(name, profiles, ai)
    player.save()
    profiles.remember_last(name)
    print(f"Kept in {profiles.path(name)}: the AI starts from there next time.")
    return player


def offered(sources: Path) -> bool:
    """After a game a person played with the AI: the offer to download the datasets, made once;
    whether it fetched them."""
    import download  # only a game that may offer the download loads it

    return download.offer(sources)


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
        warn(f"cannot deal a board from {args.words or BOARD_WORDS_PATH}: {error}")
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

