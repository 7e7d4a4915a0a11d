"""A game played at several terminals (`host`, `join`), on 127.0.0.1: whole games with scripted
players, what each seat is sent, players and hosts that drop and come back, lines that mean nothing.
The host runs in this process (a game takes a fraction of a second), or as `python main.py host`
where it is killed; `join` runs as a process where a person's terminal is what is tested."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import ROOT, interruptible, own_cards
from tables import TIMEOUT, HostProcess, Player, Script, board_of, events, play_out, seat_players, start_host

import multiplayer
from board import BLUE, RED, Color
from network.seats import SeatName, new_code, same_code, spelled
from network.wire import MAX_LINE, WireError, decode, lines

SEED = 3   # blue starts: blue has 9 cards, red 8
FLAGS = ("--seed", str(SEED))


@pytest.fixture
def host(tmp_path):
    started = start_host(tmp_path, *FLAGS)
    yield started
    started.stop()


def finished_record(tmp_path: Path) -> dict:
    """The one game the log holds."""
    [line] = (tmp_path / "games.jsonl").read_text().splitlines()
    return json.loads(line)


def clean_turns(tmp_path: Path) -> list[dict]:
    """The turns of the game the script plays on SEED, untroubled: what a troubled game must match."""
    folder = tmp_path / "clean"
    folder.mkdir()
    host = start_host(folder, *FLAGS)
    play_out(seat_players(host.address, host.table.code), Script(board_of(SEED)))
    host.stop()
    return finished_record(folder)["turns"]


# --- a whole game -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A whole game of four scripted players and a watcher, every line each got kept."""
    folder = tmp_path_factory.mktemp("played")
    host = start_host(folder, *FLAGS)
    watcher = Player(host.address, host.table.code, "watch")
    players = seat_players(host.address, host.table.code)
    play_out({**players, "watch": watcher}, Script(board_of(SEED)))
    assert host.wait(TIMEOUT)
    host.stop()
    return host, players, watcher, folder


def test_four_scripted_players_play_a_game_to_a_winner_and_it_is_logged(played):
    host, players, watcher, folder = played
    assert host.game.winner is BLUE and host.game.reason == "blue found all their agents"
    record = finished_record(folder)
    assert record["winner"] == "blue" and record["teams"] == {"red": "human:human", "blue": "human:human"}
    assert [t["team"] for t in record["turns"]] == ["blue", "red", "blue", "red", "blue"]
    assert all(len(t["guesses"]) == 3 for t in record["turns"])
    assert not (folder / "hosted.json").exists()   # over and logged: nothing left to pick up
    for player in [*players.values(), watcher]:
        [over] = events(player, "game_over")
        assert over["winner"] == "blue"
        assert player.messages[-1] == {"type": "end", "reason": "The game is over.", "again": False}


def test_each_player_is_asked_only_for_its_own_seat_and_sees_every_move(played):
    _, players, watcher, _ = played
    for seat, player in players.items():
        team, role = seat.split(":")
        asks = [m["prompt"] for m in player.messages if m["type"] == "ask"]
        mine = "your hint" if role == "captain" else "guess"
        assert asks and all(p.startswith(f"{team} {role}, {mine}") for p in asks), asks
    moves = [len(events(p, "guessed")) for p in [*players.values(), watcher]]
    assert moves == [15] * 5


def face_down_colours(stream: list[bytes], seed: int = SEED) -> list[str]:
    """Every colour of a card still face down, and every face-down card an AI captain meant, that
    a stream carries before the game is over (when the key is shown to all)."""
    face_down = set(board_of(seed).words)
    found = []
    for line in stream:
        message = json.loads(line)
        if message.get("event") == "game_over":
            break
        if message.get("event") == "guessed":
            face_down.discard(message["word"])
            continue
        found += [str(m) for m in nested(message) if m.get("word") in face_down and "color" in m]
        found += [w for m in nested(message) for w in m.get("targets") or () if w in face_down]
    return found


def nested(value) -> list[dict]:
    """Every object within a JSON value, itself included."""
    if isinstance(value, dict):
        return [value] + [d for v in value.values() for d in nested(v)]
    if isinstance(value, list):
        return [d for v in value for d in nested(v)]
    return []


def test_an_agents_and_a_watchers_streams_never_carry_a_face_down_cards_colour(played):
    _, players, watcher, _ = played
    for stream in (players["red:agent"].raw, players["blue:agent"].raw, watcher.raw):
        assert b'"color"' in b"".join(stream)          # turned-over cards do show their colour
        assert face_down_colours(stream) == []
    for captain in ("red:captain", "blue:captain"):    # the check finds the key where it is sent
        assert len(face_down_colours(players[captain].raw)) > 25


def test_at_the_end_everyone_is_shown_the_key(played):
    _, players, watcher, _ = played
    for player in (players["red:agent"], watcher):
        [over] = events(player, "game_over")
        assert [c["color"] for c in over["board"]["cards"]] == [c.value for c in board_of(SEED).key]


# --- what a player sends that means nothing ----------------------------------------------------


# Lines the wire refuses, and well-formed ones the table does (nothing is asked of the sender).
BAD_LINES = [b"x" * (MAX_LINE + 1), b"x" * 5000, b"{not json", b"\xff\xfe not utf-8", b"[1, 2]", b'"join"',
             b"42", b'{"no": "type"}', b'{"type": "hello"}', b'{"type": ["join"]}',
             b'{"type": "join", "code": 7}',
             b'{"type": "answer", "id": "x"}', b'{"type": "answer", "id": 1, "text": "ocean 2"}',
             b"[" * 5000, b'{"type": "join"}', b"null", b"\x00\x01", b'{"type": null}']
WRONG_LINES = [b'{"type": "answer", "id": "x", "text": "ocean 2"}',
               b'{"type": "answer", "id": "zz", "text": "quit"}']


def hundred_bad_lines() -> list[bytes]:
    lines = BAD_LINES + WRONG_LINES
    return [lines[i % len(lines)] for i in range(100)]


def test_a_line_that_means_nothing_is_refused_as_it_is_read():
    for line in BAD_LINES:
        with pytest.raises(WireError):
            decode(line)
    assert [decode(line)["type"] for line in WRONG_LINES] == ["answer", "answer"]
    assert decode(b'{"type": "join", "code": "a-b-c", "seat": null}')["code"] == "a-b-c"


def test_a_line_over_the_limit_is_read_to_its_end_and_kept_short():
    import io

    stream = io.BytesIO(b"y" * 10_000 + b"\n" + b'{"type": "join", "code": "x"}\n')
    got = list(lines(stream))
    assert len(got) == 2 and len(got[0]) == MAX_LINE + 1 and got[1].startswith(b'{"type"')


def test_a_wrong_code_is_refused_and_counted_and_100_bad_lines_change_nothing(host, tmp_path, capfd):
    wrong = Player(host.address, "not-the-code", "red:captain")
    assert wrong.next() == {"type": "refused", "reason": "wrong join code"}
    assert wrong.receive() == [] and wrong.ended   # and the connection is closed
    assert host.table.wrong_codes == 1
    assert "refused a wrong join code from 127.0.0.1" in capfd.readouterr().err

    stranger = Player(host.address, None, None)                # a connection that never joins
    players = seat_players(host.address, host.table.code)
    players["blue:captain"].next("ask")                        # blue starts: its captain is asked
    def state() -> tuple:
        return [(c.word, c.color, c.revealed) for c in host.game.board.cards], list(host.game.history)

    before = state()
    for sender in (stranger, players["red:agent"], players["blue:agent"]):
        sender.drain()
        sent = len(sender.messages)
        for line in hundred_bad_lines():
            sender.send_raw(line)
        while len(sender.messages) < sent + 100:
            sender.receive()
        replies = sender.messages[sent:]
        assert len(replies) == 100 and {m["type"] for m in replies} == {"error"}, replies[:3]
    assert state() == before
    assert SeatName(BLUE, "captain") in host.table.asked and host.table.answers == {}
    play_out(players, Script(board_of(SEED)))
    assert finished_record(tmp_path)["turns"] == clean_turns(tmp_path)


def test_a_connection_acts_only_for_its_own_seat(host):
    players = seat_players(host.address, host.table.code)
    ask = players["blue:captain"].next("ask")
    agent = players["blue:agent"]
    agent.send({"type": "answer", "id": ask["id"], "text": "ocean 2"})   # the captain's question
    reply = agent.next("error")
    assert reply["error"] == "nothing is asked of the blue agent now"
    assert SeatName(BLUE, "captain") in host.table.asked and host.game.history[0].hint is None
    agent.send({"type": "join", "code": host.table.code, "seat": "blue:captain"})
    assert agent.next("error")["error"] == "already at the table as the blue agent"
    players["blue:captain"].answer("zebra 2")
    assert players["blue:agent"].next("ask")["prompt"].startswith("blue agent, guess (3 left)")


def test_a_seat_that_is_not_a_persons_or_is_unknown_is_refused(tmp_path):
    host = start_host(tmp_path, "--blue", "auto", *FLAGS)
    try:
        for seat, reason in (("blue:captain", "the blue captain is a solo opponent (auto), not a person"),
                             ("green:captain", "unknown seat 'green:captain'")):
            refused = Player(host.address, host.table.code, seat).next("refused")["reason"]
            assert refused.startswith(reason)
        watcher = Player(host.address, host.table.code, "WATCH")
        assert watcher.next("welcome")["view"] == "agents"
    finally:
        host.stop()


# --- a player who drops ------------------------------------------------------------------------


def test_a_player_who_drops_mid_turn_keeps_the_seat_and_takes_it_again(host, tmp_path):
    players = seat_players(host.address, host.table.code)
    script = Script(board_of(SEED))
    agent = players["blue:agent"]
    play_out(players, script, stop=lambda: len(events(agent, "guessed")) == 1 and agent.asked is not None)
    prompt = agent.asked["prompt"]
    agent.close()                                          # dropped, mid-turn, at its prompt
    left = players["red:captain"].next("notice")
    while "left" not in left["text"]:
        left = players["red:captain"].next("notice")
    assert left["text"] == "The blue agent left: waiting for them to come back."
    back = Player(host.address, host.table.code, None)     # the only free seat is its own
    welcome = back.next("welcome")
    assert welcome["seat"] == "blue:agent" and welcome["seats"]["red:captain"] == "here"
    board = back.next("board")
    assert board["view"] == "agents" and sum(c["revealed"] for c in board["board"]["cards"]) == 1
    assert back.next("ask")["prompt"] == prompt            # asked again what it was asked
    back.seat = "blue:agent"
    players["blue:agent"] = back
    play_out(players, script)
    notices = [m["text"] for m in players["red:captain"].messages if m["type"] == "notice"]
    assert "The blue agent is back." in notices
    assert finished_record(tmp_path)["turns"] == clean_turns(tmp_path)


class Joined:
    """`python main.py join` at a scripted terminal: its output read as it comes."""

    def __init__(self, address: tuple[str, int], code: str, seat: str):
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "join", "{}:{}".format(*address), code, "--seat", seat],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "NO_COLOR": "1"}, preexec_fn=interruptible)
        self.out = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while chunk := self.process.stdout.read1(1 << 16):
            self.out += chunk

    def wait_for(self, text: str, after: int = 0) -> int:
        """Wait until the output shows `text` (past byte `after`); where it ends."""
        deadline = time.monotonic() + TIMEOUT + 30   # a start of main.py on a busy machine
        while (at := self.out.find(text.encode(), after)) < 0:
            assert time.monotonic() < deadline and self.process.poll() is None, self.out.decode()[-2000:]
            time.sleep(0.02)
        return at + len(text)

    def type(self, *lines: str) -> None:
        self.process.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.process.stdin.flush()


def test_a_join_process_killed_mid_turn_is_joined_again_and_plays_on(host, tmp_path):
    board = board_of(SEED)
    blue = own_cards(board, BLUE)
    others = seat_players(host.address, host.table.code, ("red:captain", "red:agent", "blue:captain"))
    joined = Joined(host.address, host.table.code, "blue:agent")
    joined.wait_for("you are the blue agent")
    script = Script(board)
    play_out(others, script, stop=lambda: b"guess (3 left)> " in joined.out)
    seen = joined.wait_for("guess (3 left)> ")
    assert "(B)" not in joined.out.decode() and "( ) KNIFE" in joined.out.decode()   # the agents' view
    joined.type(blue[0])
    joined.wait_for("guess (2 left)> ", seen)
    joined.process.send_signal(signal.SIGKILL)                     # gone, mid-turn
    joined.process.wait(timeout=TIMEOUT)
    captain = others["red:captain"]
    while "blue agent left" not in " ".join(m.get("text", "") for m in captain.messages):
        captain.receive()
    again = Joined(host.address, host.table.code, "blue:agent")
    again.wait_for("guess (2 left)> ")
    again.type(*blue[1:])                                          # the rest of its turns' guesses
    play_out(others, script, stop=lambda: all(p.ended for p in others.values()))
    assert again.process.wait(timeout=TIMEOUT) == 0
    out = again.out.decode()
    assert "BLUE turns over [B] " in out and "*** BLUE wins: blue found all their agents. ***" in out
    assert "The game is over." in out and "Traceback" not in again.process.stderr.read().decode()
    assert finished_record(tmp_path)["turns"] == clean_turns(tmp_path)


# --- a host that dies ----------------------------------------------------------------------------


def test_a_host_killed_mid_game_is_picked_up_with_nothing_lost(tmp_path):
    """Killed while the red agent, a `join` process, is at its prompt mid-turn; picked up with
    --resume: the agent's terminal finds the host again by itself, the scripted players join again,
    and the game ends as it would have, every move of it in the log."""
    flags = ["--port", "0", "--state", str(tmp_path / "hosted.json"), "--log", str(tmp_path / "games.jsonl")]
    first = HostProcess(*flags, *FLAGS)
    red = own_cards(board_of(SEED), RED)
    agent = Joined(first.address, first.code, "red:agent")
    players = seat_players(first.address, first.code, ("red:captain", "blue:captain", "blue:agent"))
    script = Script(board_of(SEED))
    play_out(players, script, stop=lambda: b"red agent, guess (3 left)> " in agent.out)
    agent.type(red[0])
    agent.wait_for("red agent, guess (2 left)> ")
    first.kill()                                                    # mid-turn: a hint, and one card
    saved = json.loads((tmp_path / "hosted.json").read_text())
    assert saved["under_way"] and saved["record"]["turns"][1]["guesses"] == [[red[0], "own"]]
    assert multiplayer.HOST.main(["--resume", "--state", str(tmp_path / "hosted.json"), "--red", "auto"]) == 2
    agent.wait_for("Lost the connection to the host: trying again")
    second = HostProcess("--resume", "--state", str(tmp_path / "hosted.json"))
    assert (second.address, second.code) == (first.address, first.code)   # the same line to share
    players = seat_players(second.address, second.code, ("red:captain", "blue:captain", "blue:agent"))
    play_out(players, script, stop=lambda: b"the game goes on where it stopped" in agent.out)
    goes_on = agent.wait_for("goes on where it stopped")
    replayed = agent.wait_for(f"RED turns over [R] {red[0].upper()}", goes_on)
    agent.wait_for("red agent, guess (2 left)> ", replayed)   # asked again, the prompt drawn again
    agent.type(*red[1:])
    play_out(players, script)
    assert agent.process.wait(timeout=TIMEOUT) == 0
    code, out, err = second.finish()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert "picked up where it stopped" in out and "*** BLUE wins" in out
    assert "*** BLUE wins" in agent.out.decode()[replayed:]
    assert "Traceback" not in agent.process.stderr.read().decode()
    record = finished_record(tmp_path)
    assert record["turns"] == clean_turns(tmp_path) and record["winner"] == "blue"
    assert not (tmp_path / "hosted.json").exists()


def test_a_saved_game_is_not_hosted_over_unasked(tmp_path, capsys):
    state = tmp_path / "hosted.json"
    state.write_text("{}")
    assert multiplayer.HOST.main(["--state", str(state), "--port", "0"]) == 2
    assert "--resume picks it up, --new hosts a new one" in capsys.readouterr().err
    assert multiplayer.HOST.main(["--state", str(tmp_path / "none.json"), "--resume"]) == 2
    assert "no game is saved" in capsys.readouterr().err
    assert multiplayer.HOST.main(["--state", str(state), "--resume", "--red", "auto"]) == 2
    assert "hosted.bad.json" in capsys.readouterr().err   # a broken save is set aside, and said


# --- the AI at the table --------------------------------------------------------------------------


def test_the_ai_and_an_auto_team_play_with_a_person_at_the_table(tmp_path):
    """Red: the AI gives the hints, a person guesses; blue: auto. The agent's stream carries what the
    AI meant only once its turn is over, the cards still face down left out."""
    seed = 5
    host = HostProcess("--red", "ai:human", "--blue", "auto", "--seed", str(seed), "--port", "0",
                       "--state", str(tmp_path / "hosted.json"), "--log", str(tmp_path / "games.jsonl"),
                       "--initializer", "sbert", "--captain", "cumsum", "--agent", "greedy")
    agent = Player(host.address, host.code, "red:agent")
    red = own_cards(board_of(seed), RED)
    play_out({"red:agent": agent}, lambda player, ask: red.pop(0))
    code, out, err = host.finish()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    record = finished_record(tmp_path)
    assert record["teams"] == {"red": "ai:human (normal)", "blue": "auto"}
    assert all(t["targets"] for t in record["turns"] if t["team"] == "red")
    assert [e for e in events(agent, "hint") if "choice" in e] == []   # nothing it meant, while it plays
    face_down, told = set(board_of(seed).words), []
    for turn in record["turns"]:
        face_down -= {word for word, _ in turn["guesses"]}
        if turn["targets"] and turn is not record["turns"][-1]:
            told.append([None if word in face_down else word for word in turn["targets"]])
    ended = [e["choice"]["targets"] for e in events(agent, "turn_ended") if "choice" in e and not e["final"]]
    assert ended == told and told
    assert face_down_colours(agent.raw, seed) == [] and b'"color"' in b"".join(agent.raw)


# --- seats and codes ------------------------------------------------------------------------------


def test_seats_are_written_as_people_say_them():
    assert SeatName.parse("Red:Captain") == SeatName.parse("red agent".replace("agent", "captain"))
    assert str(SeatName.parse("blue-agent")) == "blue:agent"
    with pytest.raises(ValueError, match="choose one of red:captain"):
        SeatName.parse("purple:agent")


def test_a_join_code_is_three_words_typed_in_any_case_or_spacing():
    code = new_code()
    words = code.split("-")
    assert len(words) == 3 and len(set(words)) == 3 and all(w.isalpha() and 3 <= len(w) <= 6 for w in words)
    assert same_code(" ".join(w.upper() for w in words), code) and spelled("A_b  c") == "a-b-c"
    assert not same_code(code + "x", code)
    assert len({new_code() for _ in range(50)}) > 45


def test_join_without_a_host_says_so_in_a_line(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "join", "127.0.0.1:9", "a-b-c"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 2 and "join: cannot reach a host at 127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr


def test_join_refuses_a_malformed_address():
    with pytest.raises(SystemExit):
        multiplayer.JOIN.parser().parse_args(["127.0.0.1:notaport", "a-b-c"])
    args = multiplayer.JOIN.parser().parse_args(["localhost", "Owl", "piano", "jam", "--seat", "red:agent"])
    assert args.address == ("localhost", multiplayer.DEFAULT_PORT) and args.code == ["Owl", "piano", "jam"]
    assert args.seat == SeatName(Color.RED, "agent")


def test_quit_with_a_control_character_leaves_the_seat_as_at_the_prompt(host):
    players = seat_players(host.address, host.table.code)
    captain = players["blue:captain"]   # blue starts
    captain.answer("quit\x00")
    assert "You left the game" in captain.next("end")["reason"]
    assert not host.wait(0.5) and host.code == 0   # the game waits for the seat, not ended in error
