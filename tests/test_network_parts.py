"""The parts of a hosted game on their own: a save picked up mid-turn with an AI captain at the
table, what each seat is sent of what an AI meant and how its terminal draws it, and the host's
own terminal (a seat it plays, Ctrl-C)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import signal
from pathlib import Path

from helpers import fixed_board, legal_hints
from tables import HostProcess, Player, board_of, events, play_out

from board import BLUE, RED, Color
from engine import AutoTeam, Game, HintGiven, Team, TurnEnded
from model import Hint, HintChoice, hint_problem
from network.saved import Saved, Saver, restore
from network.screen import Screen
from network.views import board_message, event_message
from players import AICaptain

# --- a saved game picked up with an AI captain -----------------------------------------------


class Model:
    """A captain model that gives the first legal hint it has not given, for one of its own cards,
    and keeps what it is told its agent turned over."""

    def __init__(self):
        self.observed: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []

    def give_hint(self, board, team: Color, given=()) -> HintChoice:
        word = next(w for w in legal_hints(board, 12) if w not in given)
        target = next(c.word for c in board.unrevealed() if c.color is team)
        return HintChoice(Hint(word, 1), (target,), (1.0,), None)

    def observe(self, hint: str, face_down, guesses) -> None:
        self.observed.append((hint, tuple(face_down), tuple(guesses)))


class Stop(Exception):
    """The host dies."""


class Agent:
    """Turns over its team's cards in order; raises Stop at the `stop`-th guess it is asked for."""

    def __init__(self, words: list[str], stop: int | None = None):
        self.words, self.stop, self.asked = list(words), stop, 0

    def guess(self, game, hint, guessed: int) -> str:
        self.asked += 1
        if self.asked == self.stop:
            raise Stop
        return self.words.pop(0)


def red_and_auto(model: Model, agent: Agent) -> dict:
    return {RED: Team(RED, AICaptain(model), agent, "ai:human"), BLUE: AutoTeam(BLUE)}


def red_cards() -> list[str]:
    return [c.word for c in fixed_board().cards if c.color is RED]


def test_a_save_picked_up_mid_turn_plays_on_as_the_game_would_have(tmp_path):
    """Red's AI captain and agent, blue auto: the host dies at red's third turn, after its hint and
    one card; picked up, the turn is played again and the game ends as an untroubled one does. The
    captain does not give a hint again, and has heard what was turned over for each of its hints."""
    untroubled = Game(fixed_board(), red_and_auto(Model(), Agent(red_cards())), seed=7)
    untroubled.play()

    path = tmp_path / "hosted.json"
    game = Game(fixed_board(), red_and_auto(Model(), Agent(red_cards(), stop=6)), seed=7)
    game.listeners.append(Saver(path, game, ["--seed", "7"], "owl-piano-jam", ("127.0.0.1", 4747)))
    with contextlib.suppress(Stop):
        game.play()
    saved = Saved.from_json(json.loads(path.read_text()))
    assert saved.under_way and [t["team"] for t in saved.record["turns"]] == ["red", "blue"] * 2 + ["red"]

    model, agent = Model(), Agent(red_cards()[5:])   # five red cards were turned over before
    teams = red_and_auto(model, agent)
    captain = teams[RED].captain
    picked_up = restore(saved, teams)
    assert captain.given == [t.hint.word for t in untroubled.history if t.side is RED][:3]
    assert [hint for hint, _, _ in model.observed] == captain.given[:2]   # the third's at the next hint
    assert model.observed[0][2] == tuple(red_cards()[:2])
    picked_up.play()
    assert picked_up.record() | {"time": 0} == untroubled.record() | {"time": 0}
    assert isinstance(picked_up.teams[RED], Team) and picked_up.teams[RED].captain is captain   # handed back


def test_a_save_that_makes_no_sense_is_refused(tmp_path):
    game = Game(fixed_board(), red_and_auto(Model(), Agent(red_cards())), seed=7)
    Saver(tmp_path / "s.json", game, [], "a-b-c", ("127.0.0.1", 1)).save()
    saved = Saved.from_json(json.loads((tmp_path / "s.json").read_text()))
    saved.record["turns"] = [{"team": "red", "hint": ["zebra", 1], "targets": None,
                              "guesses": [["apple", "own"], ["apple", "own"]]}]
    try:
        restore(saved, red_and_auto(Model(), Agent([])))
    except ValueError as problem:
        assert "not a face-down card" in str(problem)
    else:
        raise AssertionError("a card turned over twice was taken")


# --- what an AI meant, as each seat is sent it and sees it -------------------------------------


def drawn(messages: list[dict], captain: bool, explain: bool = True) -> str:
    """What a seat's terminal shows of the host's messages (no colour)."""
    out = io.StringIO()
    screen = Screen(out, color=False)
    seat = "red:captain" if captain else "red:agent"
    screen.draw({"type": "welcome", "seat": seat, "view": "captain" if captain else "agents", "game": 1,
                 "explain": explain, "seats": {}})
    for message in messages:
        screen.draw(json.loads(json.dumps(message)))   # as it goes over the wire
    return out.getvalue()


def test_what_the_ai_meant_reaches_an_agent_after_its_turn_with_the_cards_face_down_left_out():
    board = fixed_board({"apple"})
    choice = HintChoice(Hint("fruit", 2), ("apple", "bridge"), (0.9, 0.6), ("lemon", 0.5),
                        (("tree", 2, 0.4),), chance=0.74)
    assert hint_problem("fruit", board) is None
    hinted = HintGiven(RED, choice.hint, choice, board)
    ended = TurnEnded(RED, choice.hint, choice, False, board)
    agent = [event_message(e, captain=False) for e in (hinted, ended)]
    assert "choice" not in agent[0]                                # nothing of it while the agent plays
    assert agent[1]["choice"]["targets"] == ["apple", None] and agent[1]["choice"]["danger"] == [None, 0.5]
    assert "bridge" not in json.dumps(agent[1]["choice"]) and "lemon" not in json.dumps(agent[1]["choice"])
    text = drawn(agent, captain=False)
    assert "The captain meant: APPLE, 1 card still face down (named at the end of the game)." in text
    assert "Most dangerous: a card still face down" in text and "BRIDGE" not in text.split("captain: ")[1]

    captain = [event_message(e, captain=True) for e in (hinted, ended)]
    assert captain[0]["choice"]["targets"] == ["apple", "bridge"]
    text = drawn(captain, captain=True)
    assert "It means APPLE, BRIDGE." in text and "Most dangerous: LEMON, a blue agent" in text
    assert "It expects a person to find all 2 cards it means 7 times in 10." in text   # over the wire


def test_a_board_message_carries_the_key_to_a_captain_only():
    board = fixed_board({"apple", "jacket"})
    agents, captains = (board_message(board, RED, [], captain) for captain in (False, True))
    assert [c.get("color") for c in agents["board"]["cards"]] == ["red"] + [None] * 8 + ["blue"] + [None] * 15
    assert agents["board"]["cards"][9] == {"word": "jacket", "revealed": True, "color": "blue"}
    assert all("color" in c for c in captains["board"]["cards"])
    text = drawn([agents], captain=False)
    assert "[R] APPLE" in text and "( ) BRIDGE" in text and not re.search(r"\([RBNA]\) [A-Z]", text)
    assert "cards left: RED 8, BLUE 7" in text


# --- the host's own terminal --------------------------------------------------------------------


def test_the_hosts_terminal_plays_a_seat(tmp_path):
    """The host plays the blue captain at its own terminal (its stdin), the others join."""
    board = board_of(3)
    hints = legal_hints(board, 5)
    host = HostProcess("--seed", "3", "--port", "0", "--state", str(tmp_path / "h.json"), "--no-log",
                       "--seat", "blue:captain", stdin="".join(f"{h} 2\n" for h in hints))
    others = {seat: Player(host.address, host.code, seat)
              for seat in ("red:captain", "red:agent", "blue:agent")}
    own = {team: [c.word for c in board.cards if c.color is team] for team in (RED, BLUE)}
    red_hints = iter(reversed(hints))

    def script(player, ask) -> str:
        team, role = player.seat.split(":")
        return f"{next(red_hints)} 2" if role == "captain" else own[Color(team)].pop(0)

    play_out(others, script)
    code, out, err = host.finish()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert "you are the blue captain (you see the key)" in out and "blue captain, your hint> " in out
    assert "(B) KNIFE" in out and "*** BLUE wins" in out
    assert events(others["red:agent"], "hint")[0]["hint"] == [hints[0], 2]


def test_ctrl_c_at_the_host_stops_the_game_saved_and_the_players_wait_for_it(tmp_path):
    host = HostProcess("--seed", "3", "--port", "0", "--state", str(tmp_path / "h.json"), "--no-log")
    player = Player(host.address, host.code, "red:agent")
    player.next("welcome")
    host.process.send_signal(signal.SIGINT)
    end = player.next("end")
    assert end["again"] and "picks it up again" in end["reason"]
    code, out, _ = host.finish()
    assert code == 130 and "Stopped. The game is saved in" in out
    assert Path(tmp_path / "h.json").exists()
