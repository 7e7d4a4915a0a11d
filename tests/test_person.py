"""A person the AI learns as they play (models/person.py): the choices, the two learners, what it
says it has learnt, and the listener that teaches it during a game."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from helpers import ScriptedAgent, ScriptedCaptain

from board import ASSASSIN, BLUE, NEUTRAL, RED, Board, Card
from engine import Game, HintGiven, Team
from model import AI, Hint, HintChoice, Weights
from models.agents import GreedyAgent
from models.people import Fit, PeopleModel
from models.person import (
    PICKS,
    TARGETS,
    TRUST_MARGIN,
    Bayes,
    Choice,
    Experts,
    Person,
    expert_features,
)
from players import AIAgent, AICaptain, Learning

rng = np.random.default_rng(0)
CARDS = tuple(f"card{chr(97 + k // 26)}{chr(97 + k % 26)}" for k in range(40))   # cardaa, cardab, ...
CLUES = tuple(f"clue{chr(97 + k // 26)}{chr(97 + k % 26)}" for k in range(60))
# Two ways of reading the same clues that disagree: meaning and the norms.
MEANING = rng.random((len(CLUES), len(CARDS))).astype(np.float32)
NORMS = rng.random((len(CLUES), len(CARDS))).astype(np.float32) ** 4
FEATURES = ("sbert", "association", "zipf")
FIT = Fit("planted", FEATURES, (8.0, 1.0, 0.0),
          experts={"meaning": (8.0, 0.0, 0.0), "norms": (0.0, 12.0, 0.0)})


def readings() -> dict[str, Weights]:
    sbert = Weights("sbert", CLUES, CARDS, MEANING)
    return {"sbert": sbert, "association": Weights("association", CLUES, CARDS, NORMS, backoff=sbert)}


def people() -> PeopleModel:
    return PeopleModel(FIT, readings())


def norms_reader_picks(clue: int, face_down: np.ndarray, n: int = 2) -> tuple[str, ...]:
    """A person who reads by the norms alone: the cards with the strongest association, in order."""
    order = face_down[np.argsort(-NORMS[clue, face_down])]
    return tuple(CARDS[k] for k in order[:n])


def planted_choices(count: int, seed: int = 1) -> list[Choice]:
    draw = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        clue, face_down = int(draw.integers(len(CLUES))), draw.choice(len(CARDS), 12, replace=False)
        picks = norms_reader_picks(clue, face_down)
        out.append(Choice(CLUES[clue], tuple(CARDS[k] for k in face_down), picks))
    return out


def agreement(model: PeopleModel, choices: list[Choice]) -> float:
    """How often the model's first card is the person's first pick."""
    hits = [c.face_down[int(np.argmax(model.logits([c.clue], list(c.face_down))[0]))] == c.chosen[0]
            for c in choices]
    return float(np.mean(hits))


def test_a_choice_is_events_among_the_cards_face_down_or_not_meant() -> None:
    picks = Choice("sea", ("wave", "fish", "sky"), ("fish", "wave"))
    assert [(left.tolist(), k) for left, k in picks.events()] == [([True] * 3, 1), ([True, False, True], 0)]
    targets = Choice("sea", ("wave", "fish", "sky"), ("fish", "wave"), TARGETS)
    assert [(left.tolist(), k) for left, k in targets.events()] == [([False, True, True], 1),
                                                                    ([True, False, True], 0)]
    assert Choice.from_json(targets.to_json()) == targets
    with pytest.raises(ValueError, match="not among"):
        Choice("sea", ("wave",), ("moon",))
    with pytest.raises(ValueError, match="kind"):
        Choice("sea", ("wave",), ("wave",), "hunch")


@pytest.mark.parametrize("learner", [Bayes(), Experts()], ids=["bayes", "experts"])
def test_the_update_recovers_a_planted_partner_who_reads_by_the_norms(learner) -> None:
    fresh = planted_choices(60, seed=2)
    before = agreement(people(), fresh)
    person = Person(people(), learner, planted_choices(40))
    after = agreement(person.model, fresh)
    assert before < 0.4 and after > before + 0.3, (before, after)
    assert person.model.coefficients[1] > 2 * FIT.coefficients[1]   # it leans on the norms now
    assert person.leanings()["norms"] > 1.25
    if isinstance(learner, Experts):
        assert max(learner.posterior, key=learner.posterior.get) == "norms"


def test_the_shared_model_of_people_is_never_changed() -> None:
    model = people()
    Person(model, Bayes(), planted_choices(20))
    assert model.coefficients.tolist() == list(FIT.coefficients)


def test_no_evidence_makes_a_stronger_link_less_likely() -> None:
    """A person who always takes the card meaning links least: the link's weight stops at zero."""
    draw = np.random.default_rng(3)
    choices = []
    for _ in range(60):
        clue, face_down = int(draw.integers(len(CLUES))), draw.choice(len(CARDS), 12, replace=False)
        weakest = face_down[np.argmin(MEANING[clue, face_down])]
        choices.append(Choice(CLUES[clue], tuple(CARDS[k] for k in face_down), (CARDS[weakest],)))
    person = Person(people(), Bayes(strength=0.01), choices)
    assert (person.model.coefficients[:2] >= 0).all()
    assert person.model.coefficients[0] < 1.0   # what it learnt: meaning says little of this person


def test_with_no_choices_a_person_is_read_as_people_are() -> None:
    person = Person(people())
    assert person.model.coefficients.tolist() == list(FIT.coefficients)
    assert person.describe() == ["Nothing yet: the AI reads you as it reads people on average."]
    person.observe(Choice(CLUES[0], CARDS[:5], ()))   # a turn with no card turned over says nothing
    assert person.choices == []


def test_what_it_has_learnt_is_said_in_plain_words() -> None:
    lines = Person(people(), Bayes(), planted_choices(40)).describe()
    assert lines[0] == "Learnt from 40 of your readings of its hints and 0 of your own hints."
    assert "You follow the first word a clue brings to mind more than most people" in " ".join(lines)


def test_the_experts_are_read_by_family_with_the_card_frequency() -> None:
    names = ("sbert", "sbert~z", "phrases", "association~top", "zipf")
    masks = expert_features(names)
    assert set(masks) == {"meaning", "phrases", "norms"}
    assert masks["phrases"].tolist() == [True, False, True, False, True]
    assert masks["norms"].tolist() == [False, False, False, True, True]


def test_a_game_teaches_the_person_each_turn() -> None:
    """Where the person guesses, the cards they turned over, at once; where they give the hints,
    the hint is kept to ask what they meant (the AI's picks are its own reading, no evidence)."""
    colours = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7
    board = Board([Card(w, c) for w, c in zip(CARDS[:25], [*colours, ASSASSIN], strict=True)], RED)
    person = Person(people())
    teams = {RED: Team(RED, ScriptedCaptain(Hint(CLUES[1], 2)), ScriptedAgent(CARDS[0], CARDS[10])),
             BLUE: Team(BLUE, ScriptedCaptain(Hint(CLUES[2], 1)), ScriptedAgent(CARDS[9], CARDS[20]))}
    game = Game(board, teams, seed=0)
    learning = Learning(person, guessing={RED}, giving={BLUE})
    game.listeners.append(learning)
    game.play_turn()
    game.play_turn()
    assert person.choices[0] == Choice(CLUES[1], tuple(CARDS[:25]), (CARDS[0], CARDS[10]), PICKS)
    assert len(person.choices) == 1
    [given] = learning.given
    assert given.hint == Hint(CLUES[2], 1) and len(given.face_down) == 23
    assert given.turned == ((CARDS[9], BLUE), (CARDS[20], NEUTRAL))
    learning.meant(given, [CARDS[9], CARDS[11]])
    assert person.choices[1] == Choice(CLUES[2], given.face_down, (CARDS[9], CARDS[11]), TARGETS)
    with pytest.raises(ValueError, match="not among"):
        learning.meant(given, [CARDS[0]])   # turned over before the hint


def test_a_partner_who_reads_as_people_do_is_read_as_people_are():
    """The gate: what was learnt is used only while it foresees the person better than the prior;
    a partner who picks by the model of people's own chances teaches nothing to believe."""
    draw, model = np.random.default_rng(5), people()
    person = Person(model, Bayes(strength=0.3))
    for _ in range(40):
        clue, face_down = int(draw.integers(len(CLUES))), draw.choice(len(CARDS), 12, replace=False)
        words = [CARDS[k] for k in face_down]
        pick = words[int(draw.choice(len(words), p=model.chances(CLUES[clue], words)))]
        person.observe(Choice(CLUES[clue], tuple(words), (pick,)))
    assert person.gain <= 0
    assert person.model.coefficients.tolist() == list(FIT.coefficients)
    assert not np.allclose(person.learnt, FIT.coefficients)   # learnt, but not believed


def test_a_learnt_reading_is_believed_only_once_it_foresees_the_person_clearly_better():
    """A gain of a nat or two is a Bayes factor of three or seven: too little to let a captain that
    searches every hint plan for coefficients the choices barely support."""
    person = Person(people(), Bayes(), planted_choices(40))
    assert person.gain > TRUST_MARGIN and person.model.coefficients[1] > 2 * FIT.coefficients[1]
    learnt = person.model.coefficients.copy()
    for gain, believed in ((TRUST_MARGIN - 0.5, FIT.coefficients), (TRUST_MARGIN + 0.5, learnt)):
        person.gain = gain
        person.use()
        np.testing.assert_allclose(person.model.coefficients, believed, atol=1e-6)
    assert any(line.startswith("You follow") for line in person.describe())
    person.gain = TRUST_MARGIN - 0.5   # what it learnt is not said either
    assert not any(line.startswith("You follow") for line in person.describe())


def test_a_saved_person_is_taken_up_without_fitting_again():
    person = Person(people(), Bayes(), planted_choices(30))
    saved = person.to_json()

    class Refuses(Bayes):
        def __call__(self, *args, **kwargs):
            raise AssertionError("fitted again")

    again = Person(people(), Refuses(), [Choice.from_json(c) for c in saved["choices"]], saved["learnt"])
    np.testing.assert_allclose(again.model.coefficients, person.model.coefficients, atol=1e-5)
    # What was learnt from other choices, or on other features, is learnt again.
    other = Person(people(), Bayes(), planted_choices(29), saved["learnt"])
    assert other.learnt is not None and len(other.choices) == 29
    with pytest.raises(AssertionError, match="fitted again"):
        Person(people(), Refuses(), planted_choices(29), saved["learnt"])


def test_the_captain_plans_for_the_person_and_the_agent_reads_them():
    ai = AI(readings()["sbert"], partners=[readings()["association"]])
    person = Person(ai.people, Bayes())
    captain = ai.captain(alone=True, person=person).planning
    assert captain.reader is person.model
    assert ai.captain(alone=True).reader is ai.people   # without a person: people on average
    assert ai.people_agent(person=person).model is person.model


def people_like_choice(model: PeopleModel, draw: np.random.Generator) -> Choice:
    """A pick sampled from the model of people's own chances."""
    clue, face_down = int(draw.integers(len(CLUES))), draw.choice(len(CARDS), 12, replace=False)
    words = [CARDS[k] for k in face_down]
    pick = words[int(draw.choice(len(words), p=model.chances(CLUES[clue], words)))]
    return Choice(CLUES[clue], tuple(words), (pick,))


def test_a_partner_who_reads_one_matrix_is_planned_for_as_that_reader():
    """The norms reader's raw reader wins the posterior, and the captain plans for it as its twin,
    what it sees narrowed to the norms; the agent reading their hints keeps the model of people."""
    person = Person(people(), Bayes())
    assert person.reader() is None   # no evidence yet
    for choice in planted_choices(12):
        person.observe(choice)
    evidence = person.reader_evidence()
    assert evidence["association"][0] > evidence["sbert"][0] + 10
    assert person.reader() is person.readers["association"]
    ai = AI(readings()["sbert"], partners=[readings()["association"]])
    captain = ai.captain(alone=True, person=person).planning
    assert captain.reader.weights is person.reader()   # a matrix read as its softmax
    assert ai.people_agent(person=person).model is person.model
    assert "as the USF norms say" in " ".join(person.describe())


def test_a_partner_who_reads_as_people_do_is_never_planned_for_as_one_reader():
    draw, model = np.random.default_rng(7), people()
    person = Person(model, Bayes())
    for _ in range(80):
        person.observe(people_like_choice(model, draw))
        assert person.reader() is None
    ai = AI(readings()["sbert"], partners=[readings()["association"]])
    assert ai.captain(alone=True, person=person).planning.reader is person.model


def test_the_reader_a_person_is_planned_for_survives_the_files_round_trip():
    person = Person(people(), Bayes(), planted_choices(12))
    saved = person.to_json()
    again = Person(people(), Bayes(), [Choice.from_json(c) for c in saved["choices"]], saved["learnt"])
    assert again.reader() is not None and again.reader().name == person.reader().name == "association"
    assert set(saved["learnt"]) == {"features", "choices", "coefficients", "gain"}   # nothing more kept


# Clues a captain may give (common words, fit for the table), read by the same two matrices.
SPOKEN = ("band", "bank", "battery", "beach", "bear", "bell", "bill", "bird", "block", "board", "boat",
          "bomb", "book", "bottle", "bowl", "brain", "branch", "bridge", "button", "cable", "cake",
          "camera", "camp", "capital", "card", "cell", "chain", "chair", "charge", "check", "cheese",
          "chest", "chicken", "circle", "club", "coach", "code", "cook", "court", "cover", "crash",
          "cross", "crown", "cycle", "date", "doctor", "door", "dress", "engine", "fair", "field",
          "file", "film", "fire", "fish", "flag", "foot", "forest", "frame", "game")


def test_a_switch_within_a_game_plans_the_next_hint_for_the_reader():
    """A planted partner who reads by the norms alone, met in the first game: once its picks show
    the norms reader, the very next hint of the same game is planned for that reader, and the new
    captain goes on from what the first one aimed at and missed."""
    sbert = Weights("sbert", SPOKEN, CARDS, MEANING)
    norms = Weights("association", SPOKEN, CARDS, NORMS, backoff=sbert)
    ai = AI(sbert, partners=[norms])
    person = Person(PeopleModel(FIT, {"sbert": sbert, "association": norms}), Bayes())
    colours = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7
    cards = [CARDS[k] for k in np.random.default_rng(1).choice(len(CARDS), 25, replace=False)]
    board = Board([Card(w, c) for w, c in zip(cards, [*colours, ASSASSIN], strict=True)], RED)
    captain = ai.captain(alone=True, person=person)
    first = captain.planning
    game = Game(board, {RED: Team(RED, AICaptain(captain), AIAgent(GreedyAgent(norms, memory=False)))},
                seed=1, lenient=True)
    planned: list[tuple[str, bool]] = []   # per hint: whom it was planned for, the reader known then
    game.listeners.append(Learning(person, {RED}, set()))
    game.listeners.append(lambda event: isinstance(event, HintGiven) and planned.append(
        (captain.planning.reader.name, person.reader() is not None)))
    game.play()
    assert game.winner is RED
    assert planned[0] == ("people", False) and planned[-1] == ("association", True)
    assert all(name == ("association" if known else "people") for name, known in planned)
    assert captain.planning is not first and captain.planning.reader.weights is person.reader()


STRAYING = replace(FIT, lapse=0.1, flat=0.3)   # people stray to a flatter reading one pick in ten


def picks_of(model: PeopleModel, draw: np.random.Generator, count: int, stray: float) -> list[Choice]:
    """Picks sampled from the model of people's own chances, and `stray` of them at random."""
    out = []
    for _ in range(count):
        clue, face_down = int(draw.integers(len(CLUES))), draw.choice(len(CARDS), 12, replace=False)
        words = [CARDS[k] for k in face_down]
        chances = model.chances(CLUES[clue], words)
        pick = draw.choice(len(words)) if draw.random() < stray else draw.choice(len(words), p=chances)
        out.append(Choice(CLUES[clue], tuple(words), (words[int(pick)],)))
    return out


def test_a_partner_who_strays_more_than_people_is_learnt_and_planned_for() -> None:
    # The experts learner keeps each reading's coefficients: only the lapse can say the partner
    # strays. (Bayes, once trusted, says it by flatter coefficients: 8 to 1.6 on SBERT here.)
    model = PeopleModel(STRAYING, readings())
    person = Person(model, Experts())
    assert person.model.lapse == STRAYING.lapse          # no picks yet: as people stray
    for choice in picks_of(model, np.random.default_rng(7), 80, stray=0.6):
        person.observe(choice)
    assert person.model.lapse > 0.35, person.model.lapse
    assert model.lapse == STRAYING.lapse                  # the shared model is never changed
    assert any("harder to miss" in line for line in person.describe())
    ai = AI(readings()["sbert"], partners=[readings()["association"]])
    captain = ai.captain(alone=True, person=person)
    assert captain.planning.reader is person.model   # its lapse read as it is learnt, in place


def test_a_partner_who_strays_as_people_do_or_less_is_read_as_people_are() -> None:
    model = PeopleModel(STRAYING, readings())
    alike = Person(model, Bayes(), picks_of(model, np.random.default_rng(8), 80, stray=0.0))
    assert STRAYING.lapse <= alike.model.lapse < STRAYING.lapse + 0.05
    best = []   # a partner who always takes the model's first card: never read as surer than people
    for choice in picks_of(model, np.random.default_rng(9), 40, stray=0.0):
        logits = model.logits([choice.clue], list(choice.face_down))[0]
        best.append(Choice(choice.clue, choice.face_down, (choice.face_down[int(np.argmax(logits))],)))
    assert Person(model, Bayes(), best).model.lapse == pytest.approx(STRAYING.lapse, abs=1e-3)


def test_the_captain_reads_the_person_as_they_stray_more() -> None:
    sbert = Weights("sbert", SPOKEN, CARDS, MEANING)   # hints a person's captain may give
    norms = Weights("association", SPOKEN, CARDS, NORMS, backoff=sbert)
    ai = AI(sbert, partners=[norms])
    person = Person(PeopleModel(STRAYING, {"sbert": sbert, "association": norms}), Bayes())
    captain = ai.captain(alone=True, person=person)
    first = captain.planning
    colours = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN]
    board = Board([Card(w, c) for w, c in zip(CARDS[:25], colours, strict=True)], RED)
    sure = captain.give_hint(board, RED)
    person.model.lapse += 0.2
    loose = captain.give_hint(board, RED, given=[sure.hint.word])
    assert captain.planning is first                      # the same reader, read as it is now
    again = captain.planning.give_hint(board, RED)
    assert again.chance < sure.chance and loose.hint.word != sure.hint.word


STOP = (-2.0, -0.45)   # people's law of stopping short, about as fitted on the Duet record


def test_a_stop_short_of_the_count_is_a_chance_to_stop_taken() -> None:
    face_down = CARDS[:6]
    meant = (CARDS[0], CARDS[1], CARDS[2])
    stopped = Choice(CLUES[0], face_down, (CARDS[0],), meant=meant, stopped=True)
    [(left, targets, took)] = stopped.stop_chances()
    assert took and not left[0] and targets.tolist() == [False, True, True, False, False, False]
    went_on = Choice(CLUES[0], face_down, (CARDS[0], CARDS[3]), meant=meant)   # a wrong card ended it
    assert [took for _, _, took in went_on.stop_chances()] == [False]
    assert Choice(CLUES[0], face_down, (CARDS[0],), meant=meant).stop_chances() == []   # ended otherwise
    both = Choice(CLUES[0], face_down, (CARDS[0], CARDS[1]), meant=meant[:2], stopped=True)
    assert [took for _, _, took in both.stop_chances()] == [False]   # none once the count is reached
    assert Choice.from_json(stopped.to_json()) == stopped
    with pytest.raises(ValueError, match="not among"):
        Choice(CLUES[0], face_down, (CARDS[0],), meant=(CARDS[30],))


def test_the_likelihood_of_stops_has_the_gradient_it_says() -> None:
    from models.likelihood import negative_log_likelihood
    from models.person import choice_data

    model = people()
    draw = np.random.default_rng(3)
    choices = []
    for k in range(6):
        face_down = tuple(CARDS[j] for j in draw.choice(len(CARDS), 10, replace=False))
        choices.append(Choice(CLUES[k], face_down, face_down[:1 + k % 2], meant=face_down[:3],
                              stopped=k % 3 == 0))
    values = [model.features([c.clue], list(c.face_down))[0] for c in choices]
    data = choice_data(values, choices, STOP)
    assert data.stops is not None and data.stops.stopped.any() and not data.stops.stopped.all()
    beta = np.array([3.0, 2.0, -0.5])
    nll, gradient = negative_log_likelihood(beta, data, 0.0)
    assert nll > negative_log_likelihood(beta, choice_data(values, choices), 0.0)[0]
    step = 1e-6
    numeric = [(negative_log_likelihood(beta + step * e, data, 0.0)[0] - nll) / step for e in np.eye(3)]
    assert np.allclose(gradient, numeric, atol=1e-3)


def test_a_partner_who_stops_short_of_a_card_learns_it_weaker() -> None:
    """Stopping after the first card, the second card meant still face down, says they did not
    see it: the learnt model gives such cards a lower chance than one who was never asked."""
    model = replace(people().fit, stop=STOP)
    base = PeopleModel(model, readings())
    draw = np.random.default_rng(5)
    choices = []
    for _ in range(30):
        clue, face_down = int(draw.integers(len(CLUES))), draw.choice(len(CARDS), 12, replace=False)
        order = face_down[np.argsort(-MEANING[clue, face_down])]
        choices.append(Choice(CLUES[clue], tuple(CARDS[k] for k in face_down), (CARDS[order[0]],),
                              meant=(CARDS[order[0]], CARDS[order[1]]), stopped=True))
    unasked = [replace(c, meant=(), stopped=False) for c in choices]

    def second_chance(learnt: np.ndarray) -> float:
        reader = PeopleModel(model, readings())
        reader.coefficients = learnt.astype(np.float32)
        return float(np.mean([reader.chances(c.clue, [w for w in c.face_down if w != c.chosen[0]])[
            [w for w in c.face_down if w != c.chosen[0]].index(c.meant[1])] for c in choices]))

    stopping, never_asked = Person(base, choices=choices), Person(base, choices=unasked)
    assert stopping.data().stops is not None and never_asked.data().stops is None
    assert second_chance(stopping.learnt) < second_chance(never_asked.learnt) - 0.02
    said = [line for line in stopping.describe() if "stopped short" in line]
    assert len(said) == 1 and "at 30 of 30 chances" in said[0]
    assert not [line for line in never_asked.describe() if "stopped short" in line]


def test_a_pass_short_of_the_count_is_a_stop_in_the_game() -> None:
    colours = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7
    board = Board([Card(w, c) for w, c in zip(CARDS[:25], [*colours, ASSASSIN], strict=True)], RED)
    person = Person(people())

    class Meaning(ScriptedCaptain):
        def give_hint(self, game: Game) -> HintChoice:
            return replace(super().give_hint(game), targets=(CARDS[0], CARDS[1]))

    teams = {RED: Team(RED, Meaning(Hint(CLUES[1], 2), Hint(CLUES[3], 2)),
                       ScriptedAgent(CARDS[0], None, CARDS[2], CARDS[10])),
             BLUE: Team(BLUE, ScriptedCaptain(Hint(CLUES[2], 1)), ScriptedAgent(CARDS[9], CARDS[20]))}
    game = Game(board, teams, seed=0)
    game.listeners.append(Learning(person, guessing={RED}, giving=set()))
    for _ in range(3):
        game.play_turn()
    first, second = person.choices
    assert first.stopped and first.meant == (CARDS[0], CARDS[1]) and first.chosen == (CARDS[0],)
    assert not second.stopped and second.meant == (CARDS[1],)   # a bystander ended it
