"""Soak: thousands of AI-vs-AI games of random compositions, audited against the rules.

    python -m lab.benchmarks.soak                     # 10,000 games, 2 worker processes
    python -m lab.benchmarks.soak --games 500 --workers 1

Each game draws, for each team, 'auto' or an AI captain and agent of random
strategies (model.CAPTAINS × model.AGENTS), plays on the embedded default
SBERT weights (`datasets.load_weights("sbert")`), and is then audited by `Auditor`, an
independent re-statement of the rules that watches the game's events and
checks its history. The script prints the exceptions and rule violations
(both must be none) and the resident memory (RSS) of each worker after the
first and after the last thousand games. Exit status 1 on any exception or
violation.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from board import ASSASSIN, NEUTRAL, TEAMS, Board, Color, Outcome
from common import progress
from engine import AutoTeam, Game, GameOver, Guessed, HintGiven, Passed, Team, TurnEnded, TurnStarted
from model import AGENTS, AI, CAPTAINS, MAX_COUNT, Hint, hint_problem
from players import AIAgent, AICaptain

# --- the rules, restated independently of the engine ---------------------------------------


def expected_outcome(color: Color, team: Color) -> Outcome:
    """What the rulebook says turning over a `color` card means for `team`."""
    return {team: Outcome.OWN, ASSASSIN: Outcome.ASSASSIN,
            NEUTRAL: Outcome.NEUTRAL}.get(color, Outcome.OPPONENT)


def guess_cap(hint: Hint) -> int | None:
    """count + 1 guesses; a count of 0 or unlimited has no cap."""
    return None if hint.count in (0, None) else hint.count + 1


@dataclass
class _Turn:
    team: Color
    auto: bool
    hint: Hint | None = None
    guesses: list[tuple[str, Outcome]] = field(default_factory=list)
    passed: bool = False
    ended: bool = False

    def open_after_guess(self) -> bool:
        """May this turn go on after its last guess (an own card with guesses left)?"""
        cap = None if self.hint is None else guess_cap(self.hint)
        return (not self.auto and bool(self.guesses) and self.guesses[-1][1] is Outcome.OWN
                and (cap is None or len(self.guesses) < cap))


class Auditor:
    """Checks a game against the rules, live from its events and at the end from its history.

    Attach before the game starts (`Auditor(game)`), play, then `finish()`
    returns the list of violations (empty when the game kept every rule):
    turns alternate; every card is revealed at most once, with the right
    colour and outcome; the remaining counts match the revealed cards; a turn
    goes on after an own card and ends after any other, after count+1 guesses
    (no cap for 0 or unlimited), or on a pass after at least one guess; every
    hint is legal when given; each turn's end is told once; the game ends exactly once, right
    after the assassin (the other team wins) or the last card of a team (that team wins,
    whoever turned it over), its turn's end told first.
    """

    def __init__(self, game: Game):
        self.game = game
        self.key = dict(zip(game.board.words, game.board.key, strict=True))
        self.revealed = {card.word for card in game.board.cards if card.revealed}
        self.left = Counter(color for word, color in self.key.items() if word not in self.revealed)
        self.next_team = game.team
        self.turns: list[_Turn] = []
        self.ending: Color | None = None      # the winner the rules demand after the last reveal
        self.game_overs: list[GameOver] = []
        self.problems: list[str] = []
        game.listeners.append(self.on_event)

    def flag(self, problem: str) -> None:
        self.problems.append(f"turn {len(self.turns)}: {problem}")

    @property
    def turn(self) -> _Turn | None:
        return self.turns[-1] if self.turns else None

    def on_event(self, event) -> None:
        if self.game_overs:
            self.flag(f"{type(event).__name__} after the game ended")
        if self.ending is not None and not isinstance(event, GameOver | TurnEnded):
            self.flag(f"{type(event).__name__} instead of the game's end ({self.ending.value} wins)")
        match event:
            case TurnStarted(side=team):
                self.close_turn()
                if team is not self.next_team:
                    self.flag(f"{team.value} plays out of turn")
                self.turns.append(_Turn(team, isinstance(self.game.teams[team], AutoTeam)))
                self.next_team = team.other
            case HintGiven(side=team, hint=hint):
                self.on_hint(team, hint)
            case Guessed(side=team, word=word, color=color, outcome=outcome):
                self.on_guess(team, word, color, outcome)
            case Passed(side=team):
                turn = self.turn
                if turn is None or turn.team is not team or turn.passed:
                    self.flag(f"{team.value} passes out of turn")
                elif not turn.open_after_guess():
                    self.flag(f"{team.value} passes where the turn was already over or no guess was made")
                else:
                    turn.passed = True
            case TurnEnded(side=team, hint=hint):
                turn = self.turn
                if turn is None or turn.team is not team or turn.hint != hint or turn.ended:
                    self.flag(f"{team.value}'s turn ended out of turn")
                else:
                    turn.ended = True
            case GameOver(winner=winner):
                self.game_overs.append(event)
                if self.ending is None:
                    self.flag(f"the game ended ({winner.value} wins) without cause")
                elif winner is not self.ending:
                    self.flag(f"{winner.value} declared winner; the rules say {self.ending.value}")
                self.ending = None

    def on_hint(self, team: Color, hint: Hint) -> None:
        turn = self.turn
        if turn is None or turn.team is not team or turn.auto or turn.hint or turn.guesses:
            self.flag(f"{team.value} gives a hint out of turn")
            return
        turn.hint = hint
        if not (hint.count is None or (type(hint.count) is int and 0 <= hint.count <= MAX_COUNT)):
            self.flag(f"hint count {hint.count!r} is not 0-{MAX_COUNT} or unlimited")
        if problem := hint_problem(hint.word, self.game.board):
            self.flag(f"illegal hint {hint}: {problem}")

    def on_guess(self, team: Color, word: str, color: Color, outcome: Outcome) -> None:
        turn = self.turn
        if turn is None or turn.team is not team:
            self.flag(f"{team.value} guesses out of turn")
        elif turn.auto:
            if turn.guesses:
                self.flag("an auto team turns over a second card")
            if color is not team:
                self.flag(f"an auto team turns over a {color.value} card")
        elif turn.hint is None:
            self.flag("a guess before the hint")
        elif turn.passed or (turn.guesses and not turn.open_after_guess()):
            self.flag(f"{word!r} guessed after the turn should have ended")
        if word not in self.key:
            self.flag(f"{word!r} is not on the board")
            return
        if word in self.revealed:
            self.flag(f"{word!r} revealed a second time")
        if color is not self.key[word]:
            self.flag(f"{word!r} reported {color.value}, the key says {self.key[word].value}")
        if outcome is not expected_outcome(self.key[word], team):
            self.flag(f"{word!r} scored {outcome.value} for {team.value}")
        if not self.game.board.card(word).revealed:
            self.flag(f"{word!r} reported but still face down")
        if turn is not None:
            turn.guesses.append((word, outcome))
        if word not in self.revealed:
            self.revealed.add(word)
            self.left[self.key[word]] -= 1
        for c in Color:
            if (left := self.game.board.remaining(c)) != self.left[c]:
                self.flag(f"{c.value} has {left} cards left, should be {self.left[c]}")
        if self.key[word] is ASSASSIN:
            self.ending = team.other
        elif winners := [t for t in TEAMS if self.left[t] == 0]:
            self.ending = winners[0]

    def close_turn(self) -> None:
        turn = self.turn
        if turn is None:
            return
        if not turn.ended:
            self.flag(f"{turn.team.value}'s turn ended untold")
        if not turn.guesses:
            self.flag(f"{turn.team.value}'s turn ended without a guess")
        elif turn.open_after_guess() and not turn.passed and not self.game_overs:
            self.flag(f"{turn.team.value}'s turn ended after an own card with guesses left, without a pass")

    def finish(self) -> list[str]:
        """Every violation seen, plus the end-of-game checks against the history and the board."""
        game = self.game
        if game.over:
            if len(self.game_overs) != 1:
                self.flag(f"the game ended {len(self.game_overs)} times")
            elif game.winner is not self.game_overs[0].winner:
                self.flag(f"game.winner is {game.winner}, the event said {self.game_overs[0].winner}")
        else:
            if self.game_overs:
                self.flag("a GameOver event but the game is not over")
            if self.ending is not None:
                self.flag(f"the game should have ended ({self.ending.value} wins)")
            # An abandoned game (a person quit mid-turn) may stop anywhere in a turn.
        history = [(t.side, t.hint, list(t.guesses)) for t in game.history]
        seen = [(t.team, t.hint, list(t.guesses)) for t in self.turns]
        if history != seen:
            self.flag("game.history differs from the events")
        board_revealed = {card.word for card in game.board.cards if card.revealed}
        if board_revealed != self.revealed:
            self.flag(f"the board's revealed cards differ from the events: "
                      f"{sorted(board_revealed ^ self.revealed)}")
        return self.problems


# --- one game -------------------------------------------------------------------------------


def random_composition(rng: np.random.Generator, auto_chance: float = 0.15) -> dict[Color, str]:
    """Per team 'auto' or 'captain/agent' strategy names drawn from the registries."""
    captains, agents = sorted(CAPTAINS), sorted(AGENTS)
    return {color: "auto" if rng.random() < auto_chance
            else f"{captains[rng.integers(len(captains))]}/{agents[rng.integers(len(agents))]}"
            for color in TEAMS}


def make_team(color: Color, kind: str, weights) -> Team | AutoTeam:
    if kind == "auto":
        return AutoTeam(color)
    captain, agent = kind.split("/")
    ai = AI(weights, captain, agent)
    return Team(color, AICaptain(ai.captain()), AIAgent(ai.agent()), label=kind)


def play_one(index: int, seed: int, weights, words) -> dict:
    """Play and audit game number `index`; a dict of what happened, never an exception."""
    board_seed, play_seed, pick_seed = np.random.SeedSequence([seed, index]).spawn(3)
    composition = random_composition(np.random.default_rng(pick_seed))
    result = {"index": index, "composition": composition, "problems": [], "exception": None}
    try:
        board = Board.random(words, np.random.default_rng(board_seed))
        teams = {color: make_team(color, kind, weights) for color, kind in composition.items()}
        game = Game(board, teams, rng=np.random.default_rng(play_seed), seed=index)
        auditor = Auditor(game)
        game.play()
        problems = auditor.finish()
        for color, team in teams.items():   # an AI captain never repeats its own hint
            hints = [t.hint.word for t in game.history if t.side is color and t.hint is not None]
            if isinstance(team, Team) and len(hints) != len(set(hints)):
                problems.append(f"{color.value} AI captain repeated a hint: {hints}")
        result.update(problems=problems, winner=game.winner.value, turns=len(game.history),
                      assassin=game.record()["assassin"],
                      starter_won=game.winner is board.starting_team)
    except Exception:  # the soak's job is to count these, not to stop at the first
        result["exception"] = traceback.format_exc(limit=-6)
    return result


def rss_bytes() -> int:
    """The resident memory of this process now (Linux), or its peak elsewhere."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# --- workers ----------------------------------------------------------------------------------

_WEIGHTS = None
_WORDS: tuple[str, ...] = ()


def _load() -> None:
    """Load the default weights once per worker process."""
    global _WEIGHTS, _WORDS
    import datasets
    from common import board_words

    _WORDS = board_words()
    _WEIGHTS = datasets.load_weights("sbert", words=_WORDS)   # the embedded default, no sources


def play_chunk(task: tuple[int, int, int]) -> dict:
    """Play games [start, stop) in this worker; results plus the worker's RSS at the end."""
    start, stop, seed = task
    games = [play_one(i, seed, _WEIGHTS, _WORDS) for i in range(start, stop)]
    return {"start": start, "stop": stop, "pid": os.getpid(), "rss": rss_bytes(), "games": games}


def soak(games: int, workers: int, seed: int, chunk: int) -> tuple[list[dict], float]:
    """Run the games; every chunk's result, in order, and the wall time."""
    tasks = [(s, min(s + chunk, games), seed) for s in range(0, games, chunk)]
    started = time.perf_counter()
    chunks = []
    with progress(total=games, desc="soak", unit="game") as bar:
        if workers <= 1:
            _load()
            results = map(play_chunk, tasks)
            pool = None
        else:
            pool = multiprocessing.get_context("fork").Pool(workers, initializer=_load)
            results = pool.imap_unordered(play_chunk, tasks)
        try:
            for result in results:
                chunks.append(result)
                bar.update(result["stop"] - result["start"])
        finally:
            if pool is not None:
                pool.close()
                pool.join()
    return sorted(chunks, key=lambda c: c["start"]), time.perf_counter() - started


def memory_growth(chunks: list[dict], games: int, window: int = 1000) -> dict[int, tuple[int, int]]:
    """Per worker: its RSS after its last chunk in the first and in the last `window` games."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for c in chunks:   # in game order: the later chunk in a window overwrites the earlier
        if c["start"] < window:
            first[c["pid"]] = c["rss"]
        if c["stop"] > games - window:
            last[c["pid"]] = c["rss"]
    return {pid: (first[pid], last[pid]) for pid in first if pid in last}


def report(chunks: list[dict], seconds: float, games: int, workers: int) -> int:
    results = [g for c in chunks for g in c["games"]]
    exceptions = [g for g in results if g["exception"]]
    violations = [g for g in results if g["problems"]]
    done = [g for g in results if not g["exception"]]
    mib = 1 << 20
    print(f"games: {len(results)} on {workers} worker(s) in {seconds:.0f} s "
          f"({len(results) / seconds:.1f} games/s)")
    kinds = Counter(kind for g in results for kind in g["composition"].values())
    print("team compositions (per team): " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    if done:
        winners = Counter(g["winner"] for g in done)
        print(f"winners: red {winners['red']}, blue {winners['blue']}; "
              f"starting team won {sum(g['starter_won'] for g in done) / len(done):.1%}; "
              f"assassin endings {sum(g['assassin'] for g in done)}; "
              f"mean turns {np.mean([g['turns'] for g in done]):.1f}")
    print(f"exceptions: {len(exceptions)}")
    for g in exceptions[:5]:
        print(f"  game {g['index']} {g['composition']}:\n{g['exception']}")
    print(f"rule violations: {sum(len(g['problems']) for g in violations)} in {len(violations)} games")
    for g in violations[:5]:
        print(f"  game {g['index']} {g['composition']}: {g['problems'][:3]}")
    window = min(1000, games // 2)
    for n, (_pid, (first, last)) in enumerate(sorted(memory_growth(chunks, games, window).items())):
        print(f"worker {n} RSS: {first / mib:.1f} MiB after the first {window} games, "
              f"{last / mib:.1f} MiB after the last {window}: growth {(last - first) / mib:+.1f} MiB")
    return 1 if exceptions or violations else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk", type=int, default=50, help="games per task (default 50)")
    args = p.parse_args(argv)
    chunks, seconds = soak(args.games, args.workers, args.seed, args.chunk)
    return report(chunks, seconds, args.games, args.workers)


if __name__ == "__main__":
    sys.exit(main())
