"""A player, remembered: the profile's file (round trip, corruption, foreign files), the names it
takes, `player show|forget|list`, and a game that learns its player and keeps them (issue 48)."""

from __future__ import annotations

import argparse
import functools
import json

import numpy as np
import pytest
from helpers import assert_clean, dealt_board, legal_hints, run, typed

import main
import profiles
import session
from board import BLUE, NEUTRAL, RED
from common import SOURCES_DIR, board_words, hint_words
from model import AI, PICKS, TARGETS, Choice, Hint, Person, Weights
from players import Composition, GivenHint, Learning
from profiles import FORMAT, VERSION, Profiles, player_name


@functools.cache
def small_ai() -> AI:
    """A fast AI: a random matrix over 300 real hints and the card words (its model of people
    reads it as it reads SBERT)."""
    hints, words = hint_words()[:300], board_words()
    matrix = np.random.default_rng(1).random((len(hints), len(words)), dtype=np.float32) ** 4
    return AI(Weights("random", hints, words, matrix))


def some_choices() -> list[Choice]:
    """Choices on a dealt board: picks of the AI's hints, and the cards meant by the person's own."""
    words, hints = dealt_board(3).words, hint_words()[:300]
    return [Choice(hints[10], tuple(words), (words[2], words[7])),
            Choice(hints[20], tuple(words[1:]), (words[5],)),
            Choice(hints[30], tuple(words), (words[0], words[4]), TARGETS)]


def learnt_person() -> Person:
    person = Person(small_ai().people)
    for choice in some_choices():
        person.observe(choice)
    return person


# --- the file ----------------------------------------------------------------------------------


def test_a_profile_keeps_the_choices_and_the_person_learnt_again_from_them_is_the_same(tmp_path):
    person = learnt_person()
    assert not np.allclose(person.model.coefficients, person.prior)   # it did learn something
    store = Profiles(tmp_path / "players")
    store.save("alice", person)
    data = json.loads(store.path("alice").read_text(encoding="utf-8"))
    assert (data["format"], data["version"], data["name"]) == (FORMAT, VERSION, "alice")
    choices = store.load("alice")
    assert choices == person.choices == some_choices()
    again = Person(small_ai().people, choices=choices)
    assert np.allclose(again.model.coefficients, person.model.coefficients)
    assert store.names() == ["alice"] and list(tmp_path.glob("players/.*")) == []   # no temporary left


def test_no_profile_is_a_fresh_start_without_a_word(tmp_path, capsys):
    assert Profiles(tmp_path).load("bob") == []
    assert capsys.readouterr().err == ""


def test_a_corrupt_profile_gets_one_line_is_moved_aside_and_the_player_starts_afresh(tmp_path, capsys):
    store = Profiles(tmp_path)
    for k, junk in enumerate(['{"format": "codenames-player", "vers', "\xff\xfe not even text"]):
        store.path("alice").write_bytes(junk.encode("latin-1"))
        assert store.load("alice") == []
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and str(store.path("alice")) in err and "starts afresh" in err
        aside = tmp_path / ("alice.json.corrupt" + (".2" if k else ""))
        assert aside.read_bytes() == junk.encode("latin-1") and aside.name in err   # nothing lost
        assert not store.path("alice").exists()
    store.save("alice", learnt_person())   # the fresh start is kept as any other
    assert len(store.load("alice")) == 3


GOOD = {"format": FORMAT, "version": VERSION, "name": "alice"}
CHOICE = {"clue": "sea", "face_down": ["wave", "cloud"], "chosen": ["wave"], "kind": PICKS}


@pytest.mark.parametrize("foreign, said", [
    ({"version": 1, "words": ["a"] * 25, "key": None}, "not a player's profile"),   # the companion's
    ([CHOICE], "not a player's profile"),
    ({**GOOD, "version": 2, "choices": []}, "version 2; this game reads version 1"),
    ({**GOOD, "choices": {"clue": "sea"}}, "its choices are not a list"),
    ({**GOOD, "choices": [CHOICE, {**CHOICE, "chosen": ["fish"]}]}, "choice 2: fish not among"),
    ({**GOOD, "choices": [{**CHOICE, "face_down": "wave"}]}, "choice 1: not a choice"),
    ({**GOOD, "choices": [{**CHOICE, "kind": "hunch"}]}, "choice 1: unknown kind"),
    ({**GOOD, "choices": [7]}, "choice 1: not a choice"),
])
def test_a_foreign_file_is_named_set_aside_and_the_player_starts_afresh(tmp_path, capsys, foreign, said):
    store = Profiles(tmp_path)
    store.path("alice").write_text(json.dumps(foreign), encoding="utf-8")
    assert store.load("alice") == []
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and said in err and "alice.json.corrupt" in err
    assert json.loads((tmp_path / "alice.json.corrupt").read_text(encoding="utf-8")) == foreign


def test_a_profile_keeps_the_latest_choices_only(tmp_path):
    store = Profiles(tmp_path)
    many = [{**CHOICE, "clue": f"sea{k}"} for k in range(profiles.KEPT + 5)]
    store.path("alice").write_text(json.dumps({**GOOD, "choices": many}), encoding="utf-8")
    kept = store.load("alice")
    assert len(kept) == profiles.KEPT
    assert kept[0].clue == "sea5" and kept[-1].clue == f"sea{profiles.KEPT + 4}"


def test_a_profile_that_cannot_be_written_costs_one_line_and_the_game_goes_on(tmp_path, capsys):
    (tmp_path / "players").write_text("a file where the folder should be")
    you = profiles.Player("alice", learnt_person(), Profiles(tmp_path / "players"))
    you.save()
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("could not keep what the AI learnt of alice in ")


# --- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed_name, name", [
    ("alice", "alice"), ("Alice", "alice"), (" BOB_2 ", "bob_2"), ("x-y", "x-y"), ("Zoë", "zoë"), ("7", "7"),
    ("a" * 32, "a" * 32)])
def test_a_name_is_letters_digits_dashes_and_underscores_in_any_case(typed_name, name):
    assert player_name(typed_name) == name
    assert Profiles().path(name).name == f"{name}.json"


@pytest.mark.parametrize("typed_name", ["", "-x", "_x", "a b", "../etc/passwd", "a/b", "a.b", "a" * 33, "x\n"
                                        "y", "guest", "NONE"])
def test_anything_else_is_refused_with_what_a_name_may_be(typed_name):
    with pytest.raises(ValueError, match="letters, digits|means no profile"):
        player_name(typed_name)


def test_the_player_flag_takes_a_name_guest_or_none_and_refuses_the_rest(capsys):
    assert main.parser().parse_args(["--player", "Alice"]).player == "alice"
    assert main.parser().parse_args(["--player", "GUEST"]).player == "guest"
    assert main.parser().parse_args(["--player", "none"]).player == "none"
    with pytest.raises(SystemExit) as stop:
        main.parser().parse_args(["--player", "../alice"])
    assert stop.value.code == 2
    assert "'../alice' is not a player's name: use letters, digits, - and _" in capsys.readouterr().err


# --- python main.py player ---------------------------------------------------------------------


def player(tmp_path, *argv: str) -> int:
    """`python main.py player ARGV` on the profiles in tmp_path, with the small AI."""
    args = main.parser().parse_args(["player", *argv, "--profiles", str(tmp_path)])
    return args.run(args, load_ai=lambda _: small_ai())


def test_show_says_in_plain_words_what_the_ai_has_learnt_and_where(tmp_path, capsys):
    person = learnt_person()
    Profiles(tmp_path).save("alice", person)
    assert player(tmp_path, "show", "Alice") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"alice ({tmp_path / 'alice.json'}), read through the datasets in data/sources/:"
    assert [line.strip() for line in out[1:]] == person.describe()
    assert out[1].strip() == "Learnt from 2 of your readings of its hints and 1 of your own hints."
    assert any(line.strip().startswith("You follow closeness in meaning") for line in out)


def test_show_reads_a_player_through_the_datasets_their_games_read(tmp_path, capsys):
    # Issue 69: `player show` named data/sources/ when the games used another --sources, and said
    # other things of the same player with --sources and without it.
    games = tmp_path / "club_datasets"
    games.mkdir()
    Profiles(tmp_path).save("alice", learnt_person(), games)
    built_for = []

    def show(*flags: str) -> list[str]:
        args = main.parser().parse_args(["player", "show", "alice", "--profiles", str(tmp_path), *flags])
        assert args.run(args, load_ai=lambda a: built_for.append(a.sources) or small_ai()) == 0
        return capsys.readouterr().out.splitlines()
    assert show()[0].endswith(f"read through the datasets in {games}/:") and built_for == [games.resolve()]
    other = tmp_path / "other"
    other.mkdir()
    assert show("--sources", str(other))[0].endswith(f"in {other}/:") and built_for[-1] == other
    games.rmdir()
    first = show()[0]
    assert f"their games read {games}/, which is not there now" in first and "data/sources/" in first


def test_show_of_a_profile_without_choices_needs_no_ai(tmp_path, capsys):
    Profiles(tmp_path).save("bob", Person(small_ai().people))
    args = main.parser().parse_args(["player", "show", "bob", "--profiles", str(tmp_path)])
    assert args.run(args, load_ai=lambda _: pytest.fail("the AI was built")) == 0
    assert "Nothing yet: the AI reads you as it reads people on average." in capsys.readouterr().out


def test_forget_deletes_the_profile_and_what_was_set_aside_and_says_so(tmp_path, capsys):
    store = Profiles(tmp_path)
    store.save("alice", learnt_person())
    (tmp_path / "alice.json.corrupt").write_text("{")
    store.remember_last("alice")
    store.save("bob", learnt_person())
    assert player(tmp_path, "forget", "alice") == 0
    out = capsys.readouterr().out
    assert out.startswith("Forgot alice: deleted ") and str(store.path("alice")) in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bob.json"]   # and no longer the last player
    assert store.load("alice") == []


@pytest.mark.parametrize("action", ["show", "forget"])
def test_a_name_without_a_profile_is_a_clear_message_and_exit_status_1(tmp_path, capsys, action):
    assert player(tmp_path, action, "carol") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (f"{profiles.PROGRAM} player {action}: no player named 'carol' in "
                                    f"{tmp_path}/ ({profiles.PROGRAM} player list names them)")


def test_list_names_each_player_with_their_choices_and_who_played_last(tmp_path, capsys):
    assert player(tmp_path, "list") == 0
    assert "No player has a profile" in capsys.readouterr().out
    store = Profiles(tmp_path)
    store.save("alice", learnt_person())
    store.save("bob", Person(small_ai().people))
    (tmp_path / "carol.json").write_text("[]")
    (tmp_path / "Dave.json").write_text("[]")   # no file the game writes: no one's
    store.remember_last("bob")
    assert player(tmp_path, "list") == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Players in {tmp_path}/:", "  alice  3 choices", "  bob    0 choices  (played last)",
        "  carol  cannot be read (not a player's profile)"]
    assert (tmp_path / "carol.json").exists()   # listing moves nothing


# --- the session -------------------------------------------------------------------------------


def lineup(red: str, blue: str = "auto") -> session.Lineup:
    return session.Lineup({RED: Composition.parse(red), RED.other: Composition.parse(blue)})


def test_the_ai_learns_one_person_playing_alongside_it_as_guesser_or_as_captain():
    assert lineup("ai:human").partner and lineup("ai:human").guessing == {RED}
    assert lineup("ai:human").giving == set()
    assert lineup("human:ai", "ai:ai").partner and lineup("human:ai", "ai:ai").giving == {RED}
    for nobody in (lineup("ai:ai"), lineup("human:human"), lineup("auto"), lineup("ai:human", "human:ai"),
                   lineup("ai:human", "human:human")):
        assert not nobody.partner


def flags(player: str | None = None, folder=None) -> argparse.Namespace:
    return argparse.Namespace(player=player, profiles=folder)


def test_at_a_terminal_no_name_is_asked_before_the_game_and_the_last_one_plays(tmp_path, monkeypatch,
                                                                              capsys):
    store = Profiles(tmp_path)
    monkeypatch.setattr(session, "interactive", lambda: True)
    typed(monkeypatch)   # any prompt would end the input
    # the first time: a guest, asked after the game whether to keep what the AI learnt
    assert session.who_learns(flags(), lineup("ai:human"), store) == ("guest", True)
    store.remember_last("alice")
    assert session.who_learns(flags(), lineup("human:ai"), store) == ("alice", False)
    assert session.who_learns(flags("guest"), lineup("human:ai"), store) == ("guest", False)
    assert session.who_learns(flags("bob"), lineup("human:ai"), store) == ("bob", False)
    assert store.last() == "bob" and capsys.readouterr().out == ""
    (tmp_path / "last").unlink()
    store.decline()   # a no, remembered: asked once
    assert session.who_learns(flags(), lineup("ai:human"), store) == ("guest", False)


def test_the_name_is_asked_at_the_end_of_a_first_game_once(tmp_path, monkeypatch, capsys):
    store = Profiles(tmp_path)
    typed(monkeypatch, "help", "not a name!", "Alice")
    assert session.ask_keep(store) == "alice"
    out = capsys.readouterr().out
    assert "Keep it, so that it starts from there next time? Your name (Enter: keep nothing)> " in out
    assert "on this computer only" in out and "'not a name!' is not a player's name" in out
    assert not store.declined()
    typed(monkeypatch, "")
    assert session.ask_keep(store) is None and store.declined()
    typed(monkeypatch)
    assert session.ask_keep(Profiles(tmp_path / "elsewhere")) is None
    assert not Profiles(tmp_path / "elsewhere").declined()   # the input closed: no answer


def test_no_name_is_asked_of_a_piped_session_nor_where_no_one_plays_alongside_the_ai(tmp_path, monkeypatch,
                                                                                      capsys):
    store = Profiles(tmp_path)
    typed(monkeypatch)   # any prompt would end the input
    monkeypatch.setattr(session, "interactive", lambda: False)
    assert session.who_learns(flags(), lineup("ai:human"), store) == ("guest", False)
    monkeypatch.setattr(session, "interactive", lambda: True)
    assert session.who_learns(flags(), lineup("ai:ai"), store) == (None, False)
    assert session.who_learns(flags("none"), lineup("ai:human"), store) == (None, False)
    assert capsys.readouterr().out == ""
    assert session.who_learns(flags("alice"), lineup("auto", "ai:ai"), store) == (None, False)
    assert "--player alice is not used" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def game(monkeypatch, folder, *argv: str, lines: list[str]) -> None:
    """A game of `python main.py ARGV` in this process, with the small AI, these lines typed, the
    profiles in `folder`."""
    monkeypatch.setattr(session, "load_ai", lambda args: small_ai())
    typed(monkeypatch, *lines)
    assert main.main([*argv, "--no-log", "--profiles", str(folder)]) == 0


def test_a_first_game_beside_the_ai_asks_after_it_whether_to_keep_what_it_learnt(tmp_path, monkeypatch,
                                                                                capsys):
    # Issue 69: no name before the first hint; at the end of the first game, once.
    monkeypatch.setattr(session, "load_ai", lambda args: small_ai())
    monkeypatch.setattr(session, "interactive", lambda: True)
    monkeypatch.setattr(session, "offered", lambda sources: False)
    board = dealt_board(3)
    questions: list[str] = []

    def answer(question: str = "") -> str:   # red's cards until the game ends; then the answers
        questions.append(question)
        if "guess" in question:
            said.add(card := next(c.word for c in board.cards if c.color is RED and c.word not in said))
            return card
        return answers.pop(0)
    said: set[str] = set()
    monkeypatch.setattr("builtins.input", answer)
    argv = ["--red", "ai:human", "--blue", "auto", "--seed", "3", "--no-log", "--profiles", str(tmp_path)]
    answers = ["Alice", "n"]
    assert main.main(argv) == 0
    asked = [q for q in questions if "guess" not in q]
    assert len(asked) == 2 and asked[0] == session.KEEP_PROMPT and asked[1].startswith("Play again?")
    assert "Welcome" not in capsys.readouterr().out.split("Keep it")[0]
    saved = json.loads((tmp_path / "alice.json").read_text())
    assert len(saved["choices"]) >= 3 and (tmp_path / "last").read_text() == "alice\n"
    assert saved["sources"] == str(SOURCES_DIR.resolve())   # what `player show` reads her through

    questions.clear()
    said.clear()
    answers = ["n"]
    assert main.main(argv) == 0   # the next session plays as alice, and asks nothing of her name
    assert [q for q in questions if "guess" not in q] == ["Play again? [Y/n]> "]
    assert "Welcome back, alice" in capsys.readouterr().out
    assert len(json.loads((tmp_path / "alice.json").read_text())["choices"]) > len(saved["choices"])


def test_after_a_download_in_the_session_the_next_game_has_an_ai_that_reads_the_datasets(tmp_path,
                                                                                       monkeypatch):
    loads = []
    monkeypatch.setattr(session, "load_ai", lambda args: loads.append(args.sources) or small_ai())
    monkeypatch.setattr(session, "offered", lambda sources: True)   # a yes, and the files came
    board = dealt_board(3)
    red = iter([c.word for c in board.cards if c.color is RED])
    monkeypatch.setattr("builtins.input", lambda question="": next(red) if "guess" in question else "n")
    argv = ["--red", "ai:human", "--blue", "auto", "--seed", "3", "--no-log", "--player", "guest",
            "--profiles", str(tmp_path)]
    assert main.main(argv) == 0
    assert len(loads) == 2   # built again for the next game


def a_bystander(seed: int) -> str:
    return next(c.word for c in dealt_board(seed).cards if c.color is NEUTRAL)


def test_a_game_keeps_the_players_picks_and_the_next_session_starts_from_them(tmp_path, monkeypatch,
                                                                              capsys):
    # Red's AI captain gives a hint; alice turns over a bystander (her turn ends), then quits on
    # the next hint: the game is abandoned, and what the AI learnt is kept all the same.
    argv = ["--red", "ai:human", "--blue", "auto", "--seed", "3", "--player", "Alice"]
    game(monkeypatch, tmp_path, *argv, lines=[a_bystander(3), "quit"])
    out = capsys.readouterr().out
    assert "Welcome, alice: the AI learns how you play as you go" in out
    first_hint = out.split("RED captain: ")[1].split()[0].lower()
    saved = json.loads((tmp_path / "alice.json").read_text(encoding="utf-8"))
    assert saved["name"] == "alice" and (tmp_path / "last").read_text() == "alice\n"
    [choice] = saved["choices"]
    assert choice["clue"] == first_hint and choice["chosen"] == [a_bystander(3)] and choice["kind"] == PICKS
    assert a_bystander(3) in choice["face_down"] and len(choice["face_down"]) >= 23

    game(monkeypatch, tmp_path, *argv[:-2], "--player", "alice", lines=["quit"])
    out = capsys.readouterr().out
    assert out.startswith("Welcome back, alice: the AI has learnt from 1 of your choices.")
    assert json.loads((tmp_path / "alice.json").read_text(encoding="utf-8"))["choices"] == [choice]


def test_a_hint_the_player_gives_is_learnt_from_what_they_say_they_meant(tmp_path, monkeypatch, capsys):
    # human:ai: bob gives a hint and the AI guesses; at the end of the game bob is asked which
    # cards he meant (the cards the AI turned over are its own reading: no evidence of his).
    board = dealt_board(5)
    hint = legal_hints(board, 1)[0]
    reds = [c.word for c in board.cards if c.color is RED]
    monkeypatch.setattr(session, "load_ai", lambda args: small_ai())
    monkeypatch.setattr(session, "interactive", lambda: True)
    typed(monkeypatch, f"{hint} 2", "quit")   # one hint, then quit: an abandoned game asks nothing
    assert main.main(["--red", "human:ai", "--blue", "auto", "--seed", "5", "--player", "bob",
                      "--profiles", str(tmp_path), "--no-log"]) == 0
    assert json.loads((tmp_path / "bob.json").read_text(encoding="utf-8"))["choices"] == []

    learning = Learning(Person(small_ai().people), set(), {RED})
    given = GivenHint(Hint(hint, 2), tuple(board.words), ((reds[0], RED), (reds[1], BLUE)))
    learning.given.append(given)
    learning.given.append(GivenHint(Hint("other", 1), tuple(board.words), ()))
    typed(monkeypatch, "nonsense", f"{reds[2].upper()}, {reds[3]}", "skip")
    session.ask_meant(learning)
    out = capsys.readouterr().out
    assert "What did you mean?" in out and "nonsense not among the cards face down" in out
    [choice] = learning.person.choices
    assert choice == Choice(hint, tuple(board.words), (reds[2], reds[3]), TARGETS)


def test_a_piped_game_asks_nothing_of_the_hints_given(tmp_path, monkeypatch):
    hint = legal_hints(dealt_board(5), 1)[0]
    monkeypatch.setattr(session, "load_ai", lambda args: small_ai())
    typed(monkeypatch, f"{hint} 3", "quit")
    assert main.main(["--red", "human:ai", "--blue", "auto", "--seed", "5", "--player", "bob",
                      "--profiles", str(tmp_path), "--no-log"]) == 0
    assert json.loads((tmp_path / "bob.json").read_text(encoding="utf-8"))["choices"] == []


def test_a_real_game_on_the_command_line_keeps_its_player(tmp_path):
    # The real AI (SBERT, its model of people) in a process of its own, as a person would run it.
    argv = ["--red", "ai:human", "--blue", "auto", "--seed", "3", "--no-log", "--player", "Alice",
            "--profiles", str(tmp_path)]
    out, _ = assert_clean(run(argv, f"{a_bystander(3)}\nquit\n"))
    assert out.startswith("Welcome, alice: the AI learns how you play")
    [choice] = json.loads((tmp_path / "alice.json").read_text(encoding="utf-8"))["choices"]
    assert choice["chosen"] == [a_bystander(3)] and f"RED captain: {choice['clue'].upper()} " in out


def test_the_person_the_ai_plays_with_is_the_one_it_learns(tmp_path, monkeypatch):
    made = []
    real = small_ai().captain

    def captain(*args, **options):
        made.append(options.get("person"))
        return real(*args, **options)

    monkeypatch.setattr(small_ai(), "captain", captain)
    game(monkeypatch, tmp_path, "--red", "ai:human", "--blue", "ai:ai", "--seed", "3", "--player", "alice",
         lines=[a_bystander(3), "quit"])
    yours, theirs = made   # red's, blue's
    assert isinstance(yours, Person) and theirs is None   # the opponent plans for people on average
    assert [c.chosen for c in yours.choices] == [(a_bystander(3),)]


@pytest.mark.parametrize("who", ["none", "guest", None])
def test_none_a_guest_or_a_piped_session_without_a_name_writes_nothing(tmp_path, monkeypatch, capsys, who):
    chosen = [] if who is None else ["--player", who]
    game(monkeypatch, tmp_path, "--red", "ai:human", "--blue", "auto", "--seed", "3", *chosen,
         lines=[a_bystander(3), "quit"])
    assert list(tmp_path.iterdir()) == []
    assert ("Playing as a guest" in capsys.readouterr().out) is (who != "none")


def test_a_corrupt_profile_at_the_start_of_a_game_is_one_line_and_a_fresh_start(tmp_path, monkeypatch,
                                                                                 capsys):
    (tmp_path / "alice.json").write_text("{oops")
    game(monkeypatch, tmp_path, "--red", "ai:human", "--blue", "auto", "--seed", "3", "--player", "alice",
         lines=[a_bystander(3), "quit"])
    captured = capsys.readouterr()
    assert len(captured.err.splitlines()) == 1 and "alice.json is not a player's profile" in captured.err
    assert (tmp_path / "alice.json.corrupt").read_text() == "{oops"
    assert "Welcome, alice" in captured.out
    assert len(Profiles(tmp_path).load("alice")) == 1
