"""The bot protocol, `python main.py serve`, through one real subprocess for the whole run (conftest);
and the bot's parts on a hand-made matrix."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import numpy as np
import pytest

from board import ASSASSIN, BLUE, NEUTRAL, RED, Board, Color
from bot.partners import Clue, Partners, partner_picks, partner_stopped
from common import board_words, hint_words
from model import AI, MAX_AI_COUNT, GreedyAgent, Hint, Prices, Weights, agent_plays, hint_problem
from protocol import MAX_EXTRA_WORDS, Bot, forget_extra_words, serve


def dealt(seed: int, words=None) -> Board:
    return Board.random(list(words or board_words()), np.random.default_rng(seed))


def mixed_case(words: list[str]) -> list[str]:
    return [w.upper() if i % 3 == 0 else w.title() if i % 3 == 1 else w for i, w in enumerate(words)]


def clue_request(board: Board, spelled: list[str], team: Color, **extra) -> dict:
    return {"op": "clue", "board": spelled, "key": [c.value for c in board.key],
            "revealed": [c.revealed for c in board.cards], "team": team.value, **extra}


def assert_good_clue(reply: dict, board: Board, spelled: list[str], team: Color) -> None:
    assert reply["ok"] is True, reply
    assert set(reply) == {"ok", "clue", "count", "targets"}
    assert hint_problem(reply["clue"], board) is None, "the clue breaks the legality rules"
    assert reply["count"] == len(reply["targets"]) >= 1
    spelling = dict(zip(board.words, spelled, strict=True))
    own = {spelling[c.word] for c in board.unrevealed() if c.color is team}
    assert set(reply["targets"]) <= own, "targets must be the team's face-down cards, board spelling"


def assert_good_guesses(reply: dict, board: Board, spelled: list[str], count: int | None) -> None:
    assert reply["ok"] is True, reply
    assert set(reply) == {"ok", "guesses"}
    guesses = reply["guesses"]
    face_down = {s for s, c in zip(spelled, board.cards, strict=True) if not c.revealed}
    assert guesses and set(guesses) <= face_down and len(set(guesses)) == len(guesses)
    if count:
        assert len(guesses) <= count + 1


# --- through the subprocess ----------------------------------------------------------------------


def test_a_full_clue_and_guess_exchange(server):
    board = dealt(1)
    spelled = mixed_case(board.words)
    team = board.starting_team
    clue = server.ask(clue_request(board, spelled, team))
    assert_good_clue(clue, board, spelled, team)
    guess = server.ask({"op": "guess", "board": spelled, "revealed": [False] * 25,
                        "clue": clue["clue"], "count": clue["count"]})
    assert_good_guesses(guess, board, spelled, clue["count"])
    # The greedy agent makes exactly `count` guesses.
    assert len(guess["guesses"]) == clue["count"]
    # The agent reads the clue as the captain meant it on this board.
    assert set(guess["guesses"]) & set(clue["targets"])

    # Play the guesses, then it is the other team's turn on the changed board.
    for word in guess["guesses"]:
        board.card(board.words[spelled.index(word)]).revealed = True
    other = team.other
    second = server.ask(clue_request(board, spelled, other, given=[clue["clue"]]))
    assert_good_clue(second, board, spelled, other)
    assert second["clue"] != clue["clue"]
    again = server.ask({"op": "guess", "board": spelled, "revealed": [c.revealed for c in board.cards],
                        "clue": second["clue"], "count": second["count"]})
    assert_good_guesses(again, board, spelled, second["count"])


def test_the_same_request_gets_the_same_reply_and_ids_are_echoed(server):
    board = dealt(2)
    request = clue_request(board, board.words, RED if board.starting_team is RED else BLUE, id="q-7")
    first, second = server.ask(request), server.ask(request)
    assert first == second and first["id"] == "q-7"


def test_guesses_with_an_unlimited_count_or_a_clue_outside_the_vocabulary(server):
    board = dealt(3)
    for count in (None, "unlimited", 0):
        reply = server.ask({"op": "guess", "board": board.words, "clue": "ocean", "count": count})
        assert_good_guesses(reply, board, board.words, None)
    unknown = "zorblaxian"
    assert unknown not in hint_words()
    reply = server.ask({"op": "guess", "board": board.words, "clue": unknown, "count": 2})
    assert_good_guesses(reply, board, board.words, 2)


def test_a_board_of_words_absent_from_the_board_list(server):
    known = set(board_words())
    fresh = [w for w in hint_words()[3000:4000] if w not in known and "-" not in w]
    board = dealt(4, fresh)
    assert not set(board.words) & known
    spelled = mixed_case(board.words)
    team = board.starting_team
    clue = server.ask(clue_request(board, spelled, team))
    assert_good_clue(clue, board, spelled, team)
    guess = server.ask({"op": "guess", "board": spelled, "clue": clue["clue"], "count": clue["count"]})
    assert_good_guesses(guess, board, spelled, clue["count"])
    assert set(guess["guesses"]) & set(clue["targets"])


def bad_requests() -> dict[str, tuple[str, str]]:
    """Each error case: the raw line and a fragment the error message must contain."""
    board = dealt(5)
    words, key = board.words, [c.value for c in board.key]
    good = {"op": "clue", "board": words, "key": key, "revealed": [False] * 25, "team": "red"}
    guess = {"op": "guess", "board": words, "revealed": [False] * 25, "clue": "ocean", "count": 2}
    red_gone = [c is RED for c in board.key]
    assassin_gone = [c is ASSASSIN for c in board.key]
    no_red = [BLUE.value if c == RED.value else c for c in key]
    cases = {
        "malformed JSON": ("{\"op\": \"clue\", ", "malformed JSON"),
        "not JSON at all": ("hello engine", "malformed JSON"),
        "not an object": ("[1, 2, 3]", "JSON object"),
        "unknown op": (json.dumps({**good, "op": "resign"}), "unknown op"),
        "no op": (json.dumps({"board": words}), "unknown op"),
        "24 words": (json.dumps({**good, "board": words[:24]}), "25 words"),
        "26 key colours": (json.dumps({**good, "key": key + ["red"]}), "25 colours"),
        "3 revealed flags": (json.dumps({**guess, "revealed": [False] * 3}), "25 booleans"),
        "duplicate word": (json.dumps({**guess, "board": words[:24] + [words[0].upper()]}),
                           "duplicate word"),
        "no own cards left": (json.dumps({**good, "revealed": red_gone}), "no red cards left"),
        "assassin revealed": (json.dumps({**good, "revealed": assassin_gone}), "assassin"),
        "every card revealed": (json.dumps({**guess, "revealed": [True] * 25}), "no face-down"),
        "board not a list": (json.dumps({**good, "board": "whale ship"}), "'board' must be a list"),
        "a word not a string": (json.dumps({**guess, "board": [1] + words[1:]}), "non-empty string"),
        "an empty word": (json.dumps({**guess, "board": ["  "] + words[1:]}), "non-empty string"),
        "an emoji word": (json.dumps({**guess, "board": ["\U0001f40d"] + words[1:]}),
                          "'board'[0]: '\U0001f40d' is not a card word"),
        "a word with digits": (json.dumps({**good, "board": words[:24] + ["r2d2"]}), "not a card word"),
        "revealed as 0/1": (json.dumps({**guess, "revealed": [0] * 25}), "true or false"),
        "unknown colour": (json.dumps({**good, "key": ["green"] + key[1:]}), "'key'[0]"),
        "no own cards on the key": (json.dumps({**good, "key": no_red}), "the key has no red cards"),
        "team green": (json.dumps({**good, "team": "green"}), "'team'"),
        "team missing": (json.dumps({k: v for k, v in good.items() if k != "team"}), "missing field"),
        "count as text": (json.dumps({**guess, "count": "two"}), "'count'"),
        "count true": (json.dumps({**guess, "count": True}), "'count'"),
        "count 12": (json.dumps({**guess, "count": 12}), "'count'"),
        "clue a number": (json.dumps({**guess, "clue": 7}), "'clue' must be a string"),
        "clue empty": (json.dumps({**guess, "clue": "   "}), "'clue' must be a word"),
        "given not strings": (json.dumps({**good, "given": [3]}), "'given'"),
        "alone as text": (json.dumps({**good, "alone": "yes"}), "'alone' must be a boolean"),
        "player a list": (json.dumps({**good, "player": ["ann"]}), "'player' must be a string"),
        "player blank": (json.dumps({**good, "player": "  "}), "'player' must be a string"),
        "player too long": (json.dumps({**guess, "player": "x" * 65}), "1-64 characters"),
        "player a float": (json.dumps({**guess, "player": 1.5}), "'player'"),
        "player true": (json.dumps({**good, "player": True}), "'player'"),
        "player huge": (json.dumps({**good, "player": 2 ** 60}), "'player'"),
    }
    return cases


BAD = bad_requests()


@pytest.mark.parametrize("case", sorted(BAD))
def test_every_error_gets_a_reply_and_the_server_keeps_serving(server, case):
    line, fragment = BAD[case]
    reply = server.send(line)
    assert reply["ok"] is False and set(reply) == {"ok", "error"}, reply
    assert fragment in reply["error"], reply["error"]
    assert server.process.poll() is None
    assert server.ask({"op": "ping"}) == {"ok": True}


def test_a_player_is_served_and_their_picks_read_from_the_next_board(server):
    board = dealt(7)
    spelled = mixed_case(board.words)
    team = board.starting_team
    first = server.ask(clue_request(board, spelled, team, player="ann"))
    assert first["player"] == "ann" and "learnt" not in first
    assert_good_clue({k: v for k, v in first.items() if k != "player"}, board, spelled, team)
    guess = server.ask({"op": "guess", "board": spelled, "clue": first["clue"], "count": first["count"],
                        "player": 7})
    assert guess["player"] == 7
    assert_good_guesses({k: v for k, v in guess.items() if k != "player"}, board, spelled, first["count"])

    # Ann turns over the targets; the next clue for her team, on the same board, reads them.
    for word in first["targets"]:
        board.card(board.words[spelled.index(word)]).revealed = True
    second = server.ask(clue_request(board, spelled, team, player="ann", given=[first["clue"]]))
    assert second["learnt"]["clue"] == first["clue"]
    assert sorted(second["learnt"]["picks"]) == sorted(first["targets"])
    # Another board is another game: nothing to read.
    other = dealt(8)
    assert "learnt" not in server.ask(clue_request(other, other.words, other.starting_team, player="ann"))


def test_blank_lines_are_skipped_and_a_valid_request_still_works_after_errors(server):
    board = dealt(6)
    server.process.stdin.write("\n   \n")
    reply = server.ask(clue_request(board, board.words, board.starting_team))
    assert_good_clue(reply, board, board.words, board.starting_team)


def test_a_raw_invalid_byte_sequence_on_stdin_is_a_malformed_request(server):
    assert json.loads(server.send_bytes(b"\xff\xfe{}"))["ok"] is False
    assert server.ask({"op": "ping"}) == {"ok": True}


# --- the bot's parts, on a hand-made matrix ---------------------------------------------------------


SEA = ["whale", "ship", "beach", "wave"]
OTHER = [f"card{letter}" for letter in "abcdefghijklmnopqrstu"]
HINTS = ("ocean", "fruit", "music")


def hand_made() -> Weights:
    words = SEA + OTHER
    matrix = np.full((len(HINTS), len(words)), 0.05, dtype=np.float32)
    matrix[0, :4] = [0.9, 0.8, 0.7, 0.6]
    return Weights("hand-made", HINTS, tuple(words), matrix)


def test_agent_plays_follow_the_count_and_skip_revealed_cards():
    weights = hand_made()
    board = Board.from_key(SEA + OTHER, [NEUTRAL] * 25)
    agent = GreedyAgent(weights)
    rng = np.random.default_rng(0)
    assert agent_plays(agent, board, Hint("ocean", 2), rng) == ["whale", "ship"]
    assert agent_plays(agent, board, Hint("ocean", 4), rng) == SEA
    board.card("whale").revealed = True
    assert agent_plays(agent, board, Hint("ocean", 2), rng) == ["ship", "beach"]
    assert not board.card("ship").revealed, "the simulation must not touch the board"


def test_unlimited_guessing_stops_by_the_agents_own_threshold():
    board = Board.from_key(SEA + OTHER, [NEUTRAL] * 25)
    picks = agent_plays(GreedyAgent(hand_made(), threshold=0.65), board, Hint("ocean", None),
                          np.random.default_rng(0))
    assert picks == ["whale", "ship", "beach"]   # wave (0.6) is below the threshold


def test_the_engine_answers_in_the_boards_spelling_on_a_hand_made_matrix():
    bot = Bot(AI(hand_made(), "cumsum", "greedy"))
    spelled = [w.upper() for w in SEA] + OTHER
    key = [RED] * 4 + [RED] * 5 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN]
    reply = bot.handle_line(json.dumps({"op": "clue", "board": spelled, "key": [c.value for c in key],
                                           "team": "red"}))
    assert reply == {"ok": True, "clue": "ocean", "count": 4, "targets": ["WHALE", "SHIP", "BEACH", "WAVE"]}
    reply = bot.handle({"op": "guess", "board": spelled, "clue": "Ocean", "count": 3})
    assert reply == {"ok": True, "guesses": ["WHALE", "SHIP", "BEACH"]}


def test_an_internal_error_is_a_reply_not_a_crash(monkeypatch):
    bot = Bot(AI(hand_made(), "cumsum", "greedy"))
    monkeypatch.setattr(bot, "guess", lambda request: 1 / 0)
    bot.ops["guess"] = bot.guess
    reply = bot.handle({"op": "guess"})
    assert reply["ok"] is False and "ZeroDivisionError" in reply["error"]


COMPETITION_KEY = [RED] * 8 + [BLUE] * 7 + [NEUTRAL] * 9 + [ASSASSIN]   # the AI competition's deal
ODD_KEYS = {
    "the AI competition's 8/7/9/1": COMPETITION_KEY,
    "a game's 9/8/7/1": [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN],
    "three assassins": [RED] * 8 + [BLUE] * 7 + [NEUTRAL] * 7 + [ASSASSIN] * 3,
    "no assassin": [RED] * 8 + [BLUE] * 8 + [NEUTRAL] * 9,
    "no opponent": [RED] * 9 + [NEUTRAL] * 15 + [ASSASSIN],
    "one own card": [RED] + [BLUE] * 9 + [NEUTRAL] * 14 + [ASSASSIN],
}


@pytest.mark.parametrize("captain", ["cumsum", "expected"])
@pytest.mark.parametrize("odd", sorted(ODD_KEYS))
def test_any_key_with_own_cards_face_down_is_served(odd, captain):
    key = ODD_KEYS[odd]
    bot = Bot(AI(hand_made(), captain, "greedy"))
    request = {"op": "clue", "board": SEA + OTHER, "key": [c.value for c in key], "team": "red"}
    for alone in (False, True):
        reply = bot.handle({**request, "alone": alone})
        assert reply["ok"] is True, reply
        assert 1 <= reply["count"] == len(reply["targets"])
        assert set(reply["targets"]) <= {w for w, c in zip(SEA + OTHER, key, strict=True) if c is RED}


def test_a_revealed_assassin_among_several_ends_the_game():
    bot = Bot(AI(hand_made(), "cumsum", "greedy"))
    key = ODD_KEYS["three assassins"]
    revealed = [False] * 24 + [True]
    reply = bot.handle({"op": "clue", "board": SEA + OTHER, "key": [c.value for c in key],
                           "revealed": revealed, "team": "red"})
    assert reply == {"ok": False, "error": "the game is over: an assassin is revealed"}


def test_on_demand_columns_are_bounded():
    weights = hand_made()

    class Columns:
        def columns(self, words):
            return np.full((len(HINTS), len(words)), 0.1, dtype=np.float32)

        def row(self, hint, words):
            return np.zeros(len(words), dtype=np.float32)

    weights.extender = Columns()
    bot = Bot(AI(weights, "cumsum", "greedy"))
    base = len(weights.words)
    for n in range(0, 3 * MAX_EXTRA_WORDS, 25):
        bot.prepare([f"new{n + i}" for i in range(25)])
        assert len(weights.words) <= base + MAX_EXTRA_WORDS
        assert weights.matrix.shape == (len(HINTS), len(weights.words))
    assert weights.words[:base] == tuple(SEA + OTHER)
    forget_extra_words(weights, base)
    assert weights.words == tuple(SEA + OTHER) and weights.matrix.flags.f_contiguous
    assert weights.word_index["carda"] == 4


def test_an_illegal_choice_of_the_captain_is_never_sent():
    bot = Bot(AI(hand_made(), "cumsum", "greedy"))
    real = bot.captain.give_hint
    asked: list[list[str]] = []

    def sloppy(board, team, given=()):
        asked.append(list(given))
        choice = real(board, team, given)
        if not given:   # first answer: a board word, which the rules forbid
            return type(choice)(Hint("whale", 1), ("whale",), (0.9,), None)
        return choice

    bot.captain.give_hint = sloppy
    key = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN]
    reply = bot.handle({"op": "clue", "board": SEA + OTHER, "key": [c.value for c in key], "team": "red"})
    assert reply["ok"] and reply["clue"] != "whale"
    assert asked == [[], ["whale"]]


def test_a_team_alone_asks_for_more_cards_as_a_miss_costs_it_nothing():
    # "ocean" reads three red and three blue cards alike. Racing blue, a blue card costs a turn
    # and brings blue nearer its win, so the captain asks for one; alone (single-team mode, as
    # in the Codenames AI Competition) a miss only ends the turn, so, when a count it cannot be
    # sure of costs nothing either, it asks for as many as a person is asked for (MAX_AI_COUNT).
    words = [*SEA[:3], "sand", "coral", "reef", *(f"card{letter}" for letter in "abcdefghijklmnopqrs")]
    matrix = np.full((1, len(words)), 0.05, dtype=np.float32)
    matrix[0, :6] = 0.9
    bot = Bot(AI(Weights("hand-made", ("ocean",), tuple(words), matrix),
                 captain_options={"prices": Prices(claim=0.0)}))
    key = [RED] * 3 + [BLUE] * 3 + [RED] * 6 + [BLUE] * 5 + [NEUTRAL] * 7 + [ASSASSIN]
    request = {"op": "clue", "board": words, "key": [c.value for c in key], "team": "red"}
    assert bot.handle(request)["count"] == 1
    assert bot.handle({**request, "alone": False})["count"] == 1
    assert bot.handle({**request, "alone": True})["count"] == MAX_AI_COUNT == 3


DEEP = {
    "deep nesting": '{"op": ' + "[" * 100000 + "]" * 100000 + "}",
    "deep objects": '{"a":' * 50000 + "1" + "}" * 50000,
    "deep id": '{"op": "nope", "id": ' + "[" * 990 + "]" * 990 + "}",
    "unhashable op": '{"op": []}',
    "an object as op": '{"op": {"x": 1}}',
    "deep board": '{"op": "clue", "board": ' + "[" * 990 + "]" * 990 + "}",
    "huge number": '{"op": "guess", "count": 1' + "0" * 5000 + "}",
    "NaN count": '{"op": "guess", "board": ["a"], "count": NaN}',
}


@pytest.mark.parametrize("case", sorted(DEEP))
def test_hostile_json_gets_an_error_reply_in_process(case):
    bot = Bot(AI(hand_made(), "cumsum", "greedy"))
    out = io.StringIO()
    assert serve(bot, [DEEP[case], '{"op": "ping"}'], out) == 2
    first, second = out.getvalue().splitlines()
    assert json.loads(first)["ok"] is False and json.loads(second) == {"ok": True}


@pytest.mark.parametrize("word", ["\U0001f40d", "r2d2", "ocean!", "1st", "ice cream", "o'clock", "caf\u00e9",
                                  "jack-in-the-box"])
def test_serve_and_the_companion_take_the_same_card_words(word):
    # Issue 40: serve took an emoji as a board word while the companion refused it.
    import companion
    import protocol

    words = [w for w in board_words() if w != word][:24] + [word]
    try:
        protocol.board_words({"board": words})
        served = None
    except protocol.RequestError as problem:
        served = str(problem)
    table = companion.words_problem(words)
    assert (served is None) == (table is None)
    assert served is None or served.endswith(table)


# --- players, learnt as they play ------------------------------------------------------------------
# A world where the model of people reads one matrix (as it reads SBERT: sbert, its board contexts and
# the card word's frequency), and every hint links four cards, common words and rare ones alike.

COMMON = ["water", "house", "money", "music", "paper", "table", "school", "horse", "glass", "green",
          "light", "night"]
RARE = ["narwhal", "kelp", "quokka", "ferret", "tundra", "gazebo", "sorrel", "quince", "lichen", "plinth",
        "zither", "ocelot", "abacus"]
TOPICS = ("ocean", "fruit", "river", "planet", "castle", "garden", "winter", "doctor", "engine", "window",
          "forest", "bridge", "kitchen", "island", "silver", "desert", "thunder", "pirate", "circus",
          "temple")
ALONE_KEY = [RED] * 9 + [NEUTRAL] * 15 + [ASSASSIN]


def topical() -> AI:
    rng = np.random.default_rng(0)
    words = COMMON + RARE
    matrix = rng.uniform(0.0, 0.25, (len(TOPICS), len(words))).astype(np.float32)
    for row in matrix:
        row[rng.choice(len(words), 4, replace=False)] = rng.uniform(0.5, 0.8, 4)
    return AI(Weights("hand-made", TOPICS, tuple(words), matrix))


def planted(ai: AI, frequency: float) -> np.ndarray:
    """A person who reads as people do but for the card word's frequency, weighed `frequency`."""
    beta = ai.people.coefficients.astype(float)
    beta[list(ai.people.features.names).index("zipf")] = frequency
    return beta


def turn_over(ai: AI, beta: np.ndarray, board: Board, reply: dict) -> list[str]:
    """What the planted person turns over for a clue: their likeliest card, `count` of them, up to a miss."""
    words = board.unrevealed_words()
    logits = ai.people.features([reply["clue"]], words)[0] @ beta
    picks = []
    for k in np.argsort(-logits)[:reply["count"]]:
        picks.append(words[k])
        board.card(words[k]).revealed = True
        if board.card(words[k]).color is not RED:
            break
    return picks


def play(bot: Bot, player, beta: np.ndarray, seed: int, turns: int = 6) -> list[tuple[dict, list[str]]]:
    """A game alone on a fresh deal: the bot's clues for `player`, and what the planted person turned over."""
    board = Board.from_key(list(np.random.default_rng(seed).permutation(COMMON + RARE).tolist()), ALONE_KEY)
    played = []
    for _ in range(turns):
        if board.remaining(RED) == 0 or any(c.revealed and c.color is ASSASSIN for c in board.cards):
            break
        reply = bot.handle(clue_request(board, board.words, RED, alone=True, player=player))
        assert reply["ok"] and reply["player"] == player, reply
        played.append((reply, turn_over(bot.ai, beta, board, reply)))
    return played


def log_likelihood(model, choices) -> float:
    """Of the choices' picks, one after another, under a model of people."""
    total = 0.0
    for choice in choices:
        left = list(choice.face_down)
        for word in choice.chosen:
            total += float(np.log(model.chances(choice.clue, left)[left.index(word)]))
            left.remove(word)
    return total


def test_the_bot_learns_a_planted_player_from_the_boards_alone():
    bot = Bot(topical())
    prior = bot.ai.people.coefficients.copy()
    likes_common = planted(bot.ai, 8.0)
    played = [turn for seed in (1, 2) for turn in play(bot, "ann", likes_common, seed)]
    # Each clue after the first of a game reads what was turned over for the one before.
    for (before, turned), (after, _) in zip(played, played[1:], strict=False):
        if "learnt" in after:
            assert after["learnt"]["clue"] == before["clue"]
            assert sorted(after["learnt"]["picks"]) == sorted(turned)
    assert sum("learnt" in reply for reply, _ in played) >= 6
    person = bot.partners["ann"].person
    learnt = person.model.coefficients
    zipf = list(person.model.features.names).index("zipf")
    assert not np.allclose(learnt, prior)
    assert learnt[zipf] > prior[zipf] + 3, "the planted taste for common words was not learnt"
    # The picks read are likelier under the learnt model than under the prior.
    assert log_likelihood(person.model, person.choices) > log_likelihood(bot.ai.people, person.choices) + 1
    np.testing.assert_array_equal(bot.ai.people.coefficients, prior)   # the shared model is untouched


def test_a_players_guesses_are_read_with_what_was_learnt_of_them():
    bot = Bot(topical())
    for seed in (1, 2):
        play(bot, "ann", planted(bot.ai, 8.0), seed)
    # A clue linking a rare card a little more than a common one: people take the rare one, Ann the common.
    words = COMMON + RARE
    matrix = bot.ai.weights.matrix
    row, rare, common = TOPICS.index("ocean"), words.index("narwhal"), words.index("water")
    matrix[row, :], matrix[row, rare], matrix[row, common] = 0.1, 0.75, 0.7
    request = {"op": "guess", "board": words, "clue": "ocean", "count": 1}
    anonymous = bot.handle(request)
    assert anonymous == {"ok": True, "guesses": ["narwhal"]}
    assert bot.handle({**request, "player": "ann"}) == {"ok": True, "guesses": ["water"], "player": "ann"}
    assert bot.handle({**request, "player": "bob"})["guesses"] == ["narwhal"]   # a stranger: people's
    assert bot.handle(request) == anonymous


def test_two_players_are_kept_apart():
    bot = Bot(topical())
    ann, bob = planted(bot.ai, 8.0), planted(bot.ai, -12.0)
    for seed in (1, 2):   # a game each, then another, on boards of their own
        play(bot, "ann", ann, seed)
        play(bot, 42, bob, seed + 10)
    zipf = list(bot.ai.people.features.names).index("zipf")
    learnt = {p: bot.partners[p].person.learnt[zipf] for p in ("ann", 42)}   # learnt, trusted or not yet
    assert learnt["ann"] > bot.ai.people.coefficients[zipf] > learnt[42], learnt
    assert bot.partners["ann"].person is not bot.partners[42].person


def test_interleaved_players_each_keep_their_game():
    bot = Bot(topical())
    first = Board.from_key(COMMON + RARE, ALONE_KEY)
    second = Board.from_key(RARE + COMMON, ALONE_KEY)
    ask = {p: (lambda board, p=p: bot.handle(clue_request(board, board.words, RED, alone=True, player=p)))
           for p in ("ann", "bob")}
    a, b = ask["ann"](first), ask["bob"](second)
    for reply, board in ((a, first), (b, second)):
        board.card(reply["targets"][0]).revealed = True
    assert ask["ann"](first)["learnt"]["picks"] == [a["targets"][0]]
    assert ask["bob"](second)["learnt"]["picks"] == [b["targets"][0]]


def test_one_player_named_for_both_teams_is_read_for_each_team():
    bot = Bot(topical())
    board = Board.from_key(COMMON + RARE, [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN])
    turns = []
    for team in (RED, BLUE, RED, BLUE):
        reply = bot.handle(clue_request(board, board.words, team, player="both"))
        turns.append(reply)
        board.card(reply["targets"][0]).revealed = True
    assert "learnt" not in turns[0] and "learnt" not in turns[1]
    assert turns[2]["learnt"] == {"clue": turns[0]["clue"], "picks": [turns[0]["targets"][0]]}
    assert turns[3]["learnt"] == {"clue": turns[1]["clue"], "picks": [turns[1]["targets"][0]]}


def test_a_new_board_starts_a_new_game_and_keeps_the_person():
    bot = Bot(topical())
    play(bot, "ann", planted(bot.ai, 8.0), seed=1)
    partner = bot.partners["ann"]
    person, learnt, captain = partner.person, partner.person.model.coefficients.copy(), partner.captain(True)
    assert captain.planning.reader is person.model   # the captain plans for the person as learnt
    board = Board.from_key(COMMON + RARE, ALONE_KEY)
    reply = bot.handle(clue_request(board, board.words, RED, alone=True, player="ann"))
    assert "learnt" not in reply
    assert partner.captain(True) is not captain, "a new game's captain starts afresh"
    assert bot.partners["ann"].person is person
    np.testing.assert_array_equal(person.model.coefficients, learnt)
    # The same words under another key, or a card turned back face down, are a new game too.
    board.card(reply["targets"][0]).revealed = True
    same = partner.captain(True)
    bot.handle(clue_request(board, board.words, RED, alone=True, player="ann"))
    assert partner.captain(True) is same
    board.card(reply["targets"][0]).revealed = False
    assert "learnt" not in bot.handle(clue_request(board, board.words, RED, alone=True, player="ann"))
    assert partner.captain(True) is not same
    shuffled = Board.from_key(board.words, ALONE_KEY[::-1])
    shuffled_reply = bot.handle(clue_request(shuffled, shuffled.words, RED, alone=True, player="ann"))
    assert shuffled_reply["ok"] and "learnt" not in shuffled_reply


def test_a_player_who_missed_at_once_racing_an_opponent_teaches_the_captain_only():
    bot = Bot(topical())
    board = Board.from_key(COMMON + RARE, [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN])
    first = bot.handle(clue_request(board, board.words, RED, player="ann"))
    captain = bot.partners["ann"].captain(False)
    for word in ("quince", "light", "kelp"):   # her miss (a bystander), then the opponent's turn
        board.card(word).revealed = True
    second = bot.handle(clue_request(board, board.words, RED, player="ann", given=[first["clue"]]))
    assert second["ok"] and "learnt" not in second
    assert bot.partners["ann"].captain(False) is captain
    assert bot.partners["ann"].person.choices == []


CLUE = Clue(Hint("ocean", 2), RED, tuple(SEA + OTHER), alone=False)
KEY = [RED, RED, NEUTRAL, BLUE] + [RED] * 5 + [BLUE] * 7 + [NEUTRAL] * 8 + [ASSASSIN]
CHANCES = np.linspace(1.0, 0.0, 25)   # SEA + OTHER, likeliest first: whale, ship, beach, wave, ...
READINGS = {   # cards turned over since the clue → the picks read, racing an opponent / alone
    # (none: the board cannot tell; no picks: none of the team's cards, the miss not singled out)
    "own cards, in the likeliest order": (["ship", "whale"], ("whale", "ship"), ("whale", "ship")),
    "own cards and a miss": (["ship", "beach"], ("ship",), ("ship", "beach")),
    "a single miss": (["beach"], ("beach",), ("beach",)),
    "two misses: whose?": (["beach", "wave"], (), None),
    "more own cards than count + 1": (["carda", "ship", "cardb", "whale"], ("whale", "ship", "carda"),
                                      ("whale", "ship", "carda")),
    "nothing": ([], None, None),
}


@pytest.mark.parametrize("case", sorted(READINGS))
def test_a_players_picks_are_read_from_the_board(case):
    turned, racing, alone = READINGS[case]
    board = Board.from_key(SEA + OTHER, KEY, [w in turned for w in SEA + OTHER])
    assert partner_picks(CLUE, board, CHANCES) == racing
    assert partner_picks(replace(CLUE, alone=True), board, CHANCES) == alone


def test_where_a_player_stopped_is_read_only_with_no_opponent():
    board = Board.from_key(SEA + OTHER, KEY, [w == "whale" for w in SEA + OTHER])
    alone = replace(CLUE, alone=True)
    assert partner_stopped(alone, board, ("whale",))             # one own card of two, and no miss
    assert not partner_stopped(CLUE, board, ("whale",))          # racing: a miss may have ended it
    assert not partner_stopped(alone, board, ("whale", "ship"))  # the count reached
    board.card("beach").revealed = True
    assert not partner_stopped(alone, board, ("whale", "beach"))  # a miss ended it


def test_a_player_who_stops_short_alone_is_learnt_to_have_left_a_card_unseen():
    bot = Bot(topical())
    board = Board.from_key(COMMON + RARE, ALONE_KEY)
    first = bot.handle(clue_request(board, board.words, RED, alone=True, player="ann"))
    assert first["count"] >= 2
    board.card(first["targets"][0]).revealed = True   # one card, then she passes
    second = bot.handle(clue_request(board, board.words, RED, alone=True, player="ann",
                                     given=[first["clue"]]))
    assert second["learnt"]["picks"] == [first["targets"][0]]
    [choice] = bot.partners["ann"].person.choices
    assert choice.stopped and set(choice.meant) == set(first["targets"])
    assert [stopped for _, _, stopped in choice.stop_chances()] == [True]


def test_the_players_kept_are_bounded_the_least_recently_heard_from_forgotten():
    partners = Partners(AI(hand_made(), "cumsum", "greedy"), limit=3)
    ann = partners["ann"]
    for player in ("bob", 3, "ann", "dee"):
        partners[player]
    assert len(partners) == 3 and "bob" not in partners and partners["ann"] is ann


def test_an_anonymous_captain_remembers_one_game_only():
    """The cards a captain aimed at are one game's: a new board is a new game for it too."""
    bot = Bot(topical())
    board = dealt(1, COMMON + RARE)
    first = bot.handle(clue_request(board, board.words, board.starting_team))
    assert first["ok"], first
    captain = bot.captain
    bot.handle(clue_request(board, board.words, board.starting_team))   # the same game goes on
    assert bot.captain is captain
    other = dealt(2, COMMON + RARE)   # the same words under another key
    bot.handle(clue_request(other, other.words, other.starting_team))
    assert bot.captain is not captain
