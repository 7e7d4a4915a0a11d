"""The benchmark: single-team scoring rules, statistics on known games, and a tiny full run."""

import json
import string
import subprocess

import numpy as np
import pytest

import datasets
import initializers.recipe
import model
from board import ASSASSIN, BLUE, NEUTRAL, RED, Board, Outcome
from common import ROOT
from lab import bench
from lab.benchmarks import tune
from lab.evaluation import loading
from lab.evaluation.games import LOSS_SCORE, TEST_OFFSET, DuelResult, HintRecord, SoloResult, play_solo
from lab.evaluation.runner import Setup, players_of, run_solo
from lab.evaluation.specs import Spec, agent_of, base_sources, captain_of, parse_strategy, partners_for
from lab.evaluation.stats import Estimate, bootstrap_ratio, count_table, pooled, summarize, summarize_duels
from model import Hint, HintChoice, Weights
from models.reader import GREEDY, MATRIX_TEMPERATURE

OWN, OPP, NEU, ASS = Outcome.OWN, Outcome.OPPONENT, Outcome.NEUTRAL, Outcome.ASSASSIN

# --- a hand-made board and scripted players ---------------------------------------------

WORDS = [f"{c}card" for c in string.ascii_lowercase[:25]]
REDS, BLUES, NEUTRALS, KILLER = WORDS[:9], WORDS[9:17], WORDS[17:24], WORDS[24]
KEY = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN]


def board() -> Board:
    return Board.from_key(WORDS, KEY)


class ScriptedCaptain:
    """Gives the scripted hints in order and records what it was told had been given."""

    def __init__(self, hints):
        self.hints, self.seen_given, self.observed = list(hints), [], []

    def give_hint(self, board, team, given=()):
        self.seen_given.append(list(given))
        word, count = self.hints.pop(0)
        return HintChoice(Hint(word, count), (), (), None)

    def observe(self, hint, face_down, guesses):
        self.observed.append((hint, len(face_down), list(guesses)))


class ScriptedAgent:
    """Turns over the scripted words in order; None in the script means 'stop'."""

    def __init__(self, words):
        self.words, self.asked = list(words), 0

    def guess(self, board, hint, guessed, rng, team=None):
        self.asked += 1
        return self.words.pop(0)


def solo(hints, guesses) -> tuple[SoloResult, ScriptedCaptain, ScriptedAgent]:
    captain, agent = ScriptedCaptain(hints), ScriptedAgent(guesses)
    result = play_solo(board(), RED, captain, agent, np.random.default_rng(0))
    return result, captain, agent


def test_a_scripted_win_scores_its_number_of_hints():
    # hint 1 (count 3): 3 own, then the bonus guess (N+1) finds a 4th; hint 2: 2 own then a
    # neutral; hint 3 (count 3): the last 3 own cards, and the game ends at once.
    result, captain, agent = solo(
        [("alpha", 3), ("beta", 2), ("gamma", 3)],
        REDS[:4] + REDS[4:6] + [NEUTRALS[0]] + REDS[6:9])
    assert result.won and not result.assassin and result.failure is None
    assert result.score == 3
    assert [h.achieved for h in result.hints] == [4, 2, 3]
    assert [h.outcomes[-1] for h in result.hints] == [OWN, NEU, OWN]
    assert agent.asked == 10 and not agent.words
    assert captain.seen_given == [[], ["alpha"], ["alpha", "beta"]]   # no hint can repeat
    # Told before each next hint what the last one turned over (the game ended after the third).
    assert captain.observed == [("alpha", 25, REDS[:4]), ("beta", 21, REDS[4:6] + [NEUTRALS[0]])]
    counts = result.counts()
    assert counts["own_revealed"] == 9 and counts["guesses"] == 10 and counts["asked"] == 8
    assert counts["delivered"] == 3 + 2 + 3 and counts["fulfilled"] == 3 and counts["illegal"] == 0


def test_n_plus_one_guessing_stops_after_count_plus_one():
    result, _, agent = solo([("alpha", 1), ("beta", 9)], REDS[:2] + REDS[2:9])
    assert [h.achieved for h in result.hints] == [2, 7]   # count 1 allowed 2 guesses
    assert result.won and result.score == 2


def test_the_assassin_loses_with_score_25():
    result, _, _ = solo([("alpha", 2)], [REDS[0], KILLER])
    assert not result.won and result.assassin and result.score == LOSS_SCORE == 25


def test_all_opponent_cards_lose_with_score_25():
    result, _, _ = solo([(f"hint{c}", 1) for c in "abcdefgh"], BLUES)
    assert len(result.hints) == 8 and not result.assassin
    assert not result.won and result.score == 25


def test_an_illegal_hint_is_counted():
    result, _, _ = solo([(REDS[0], 1)] + [("beta", 9)], REDS)
    assert result.hints[0].illegal is not None and result.counts()["illegal"] == 1
    assert result.won


def test_an_agent_that_passes_before_guessing_is_a_failure():
    result, _, _ = solo([("alpha", 1)], [None])
    assert result.failure and len(result.hints) == 1 and not result.won and result.score == 25


def test_an_invalid_guess_is_a_failure_and_a_loss():
    result, _, _ = solo([("alpha", 2)], ["nonsense"])
    assert result.failure and not result.won and result.score == 25


# --- statistics on a known game set ------------------------------------------------------


def game(outcomes_per_hint, won: bool, seed: int = 0, counts=None) -> SoloResult:
    counts = counts or [len(o) for o in outcomes_per_hint]
    hints = [HintRecord(f"h{i}", c, None, list(o))
             for i, (o, c) in enumerate(zip(outcomes_per_hint, counts, strict=True))]
    return SoloResult(seed, hints, won=won)


KNOWN = [
    game([[OWN] * 4, [OWN] * 5], won=True),                       # score 2, 9 own of 9 guesses
    game([[OWN] * 3, [OWN, NEU], [OWN] * 5], won=True),           # score 3, 9 own of 10
    game([[OWN, OWN, ASS]], won=False, counts=[3]),               # assassin: score 25
    game([[OWN] * 3, [OPP], [OWN] * 5, [OWN]], won=True),         # score 4, 9 own of 10
]


def test_known_games_give_exact_metrics():
    summary = summarize(count_table(KNOWN))
    assert summary["games"] == 4
    assert summary["win_rate"].value == pytest.approx(0.75)
    assert summary["assassin_rate"].value == pytest.approx(0.25)
    assert summary["mean_score"].value == pytest.approx((2 + 3 + 25 + 4) / 4)
    assert summary["turns_on_wins"].value == pytest.approx((2 + 3 + 4) / 3)
    assert summary["cards_per_hint"].value == pytest.approx((9 + 9 + 2 + 9) / (2 + 3 + 1 + 4))
    assert summary["precision"].value == pytest.approx((9 + 9 + 2 + 9) / (9 + 10 + 3 + 10))
    assert summary["illegal"] == 0 and summary["failures"] == 0


def test_bootstrap_interval_contains_the_mean_and_is_deterministic():
    scores = [s.score for s in KNOWN] * 5
    first, again = bootstrap_ratio(scores), bootstrap_ratio(scores)
    assert first == again
    assert first.value == pytest.approx(8.5)
    assert first.low <= first.value <= first.high and first.low < first.high
    assert first.n == 20
    assert bootstrap_ratio(scores, seed=1) != first   # the seed is what fixes it


def test_bootstrap_of_a_ratio_and_of_edge_cases():
    ratio = bootstrap_ratio([1, 2, 3], [2, 2, 2])
    assert ratio.value == pytest.approx(1.0) and ratio.low <= 1.0 <= ratio.high
    assert bootstrap_ratio([1, 1, 1]) == Estimate(1.0, 1.0, 1.0, 3)
    assert np.isnan(bootstrap_ratio([]).value)
    assert np.isnan(bootstrap_ratio([0, 0], [0, 0]).value)   # e.g. hints on wins with no wins


def test_pooling_by_seed_keeps_pooled_means():
    a, b = count_table(KNOWN[:2]), count_table(KNOWN[2:])
    summary = summarize(pooled([a, b]))
    assert summary["games"] == 4 and summary["win_rate"].n == 2
    assert summary["mean_score"].value == pytest.approx(8.5)   # the mean over all four games
    assert summary["win_rate"].value == pytest.approx(0.75)


def test_two_team_win_rates_by_seat():
    d = DuelResult
    duels = [d(1, RED, True, True, False), d(1, BLUE, False, False, True),
             d(2, RED, True, False, False, reference_assassin=True), d(2, BLUE, True, True, False)]
    s = summarize_duels(duels)
    assert s["reference_assassin_rate"].value == pytest.approx(0.25)   # the game RED won by it
    assert s["win_rate"].value == pytest.approx(0.75)
    assert s["win_rate_first"].value == pytest.approx(1.0)
    assert s["win_rate_second"].value == pytest.approx(0.5)
    assert s["assassin_rate"].value == pytest.approx(0.25) and s["games"] == 4


# --- specs and partners --------------------------------------------------------------------


def test_parse_strategy():
    assert parse_strategy("cumsum") == ("cumsum", ())
    assert parse_strategy("margin:opponent=0.7,max_count=3") == (
        "margin", (("opponent", 0.7), ("max_count", 3)))
    with pytest.raises(ValueError):
        parse_strategy("margin:0.7")


def weights_of(name: str, backoff: Weights | None = None) -> Weights:
    return Weights(name, ("sea",), ("wave",), np.ones((1, 1), np.float32), backoff=backoff)


def test_held_out_partners_never_read_the_agents_matrix():
    a, c = weights_of("a"), weights_of("c")
    b = weights_of("b", backoff=c)
    weights = {"a": a, "b": b, "c": c}
    captain, agent = Spec("expected", "a"), Spec("greedy", "b")
    assert partners_for(captain, agent, weights, "held-out") == [a]      # b reads c too
    assert partners_for(captain, agent, weights, "all") == [a, b, c]
    assert partners_for(captain, agent, weights, "own") == [a]
    held_out = partners_for(Spec("expected", "a"), Spec("greedy", "c"), weights, "held-out")
    assert [w.name for w in held_out] == ["a", "b"]
    assert held_out[1].backoff is None and held_out[1].matrix is b.matrix   # not through c
    assert partners_for(captain, Spec("greedy", "a"), weights, "held-out") == []   # twins
    # the captain's own matrix does not back off to what the agent reads
    own = partners_for(Spec("expected", "b"), Spec("greedy", "c"), weights, "held-out")[0]
    assert own.name == "b" and own.backoff is None


def test_a_matrix_no_agent_plays_is_loaded_for_the_games_ai_but_never_a_partner_to_plan_for():
    names, played = bench.initializers_to_load(None, quick=False)
    assert names == list(datasets.INITIALIZERS) and "phrases" in names and "phrases" not in played
    assert bench.initializers_to_load(["phrases"], quick=False) == (["phrases"], ["phrases"])
    assert bench.initializers_to_load(None, quick=True) == (["sbert"], ["sbert"])
    a, b, phrases = weights_of("a"), weights_of("b"), weights_of("phrases")
    weights = {"a": a, "b": b, "phrases": phrases}
    assert partners_for(Spec("expected", "a"), Spec("greedy", "b"), weights, "all") == [a, b]
    assert partners_for(Spec("expected", "a"), Spec("greedy", "b"), weights, "held-out") == [a]


def test_disjoint_partners_hold_nothing_the_agent_reads(monkeypatch):
    recipes = {"mix": ["usf", "sbert"], "pair": ["usf", "corpus"]}
    monkeypatch.setattr(initializers.recipe, "parts_of", lambda name: recipes.get(name, []))
    sbert = weights_of("sbert")
    weights = {name: weights_of(name, None if name == "sbert" else sbert)
               for name in ("sbert", "usf", "corpus", "mix", "pair")}

    def names(captain, agent, policy):
        return [w.name for w in partners_for(Spec("expected", captain), Spec("greedy", agent),
                                                   weights, policy)]

    # Held out by name, the mixes stay, though "mix" holds SBERT and "pair" holds USF.
    assert names("corpus", "usf", "held-out") == ["corpus", "mix", "pair"]
    # Disjoint drops every matrix made from what the agent reads: USF, and SBERT as its backoff.
    assert names("corpus", "usf", "disjoint") == ["corpus"]
    assert names("corpus", "sbert", "disjoint") == ["corpus", "usf", "pair"]
    # The captain keeps its own matrix, without the backoff, whatever it is made from.
    own = partners_for(Spec("expected", "mix"), Spec("greedy", "usf"), weights, "disjoint")
    assert [w.name for w in own] == ["mix", "corpus"] and own[0].backoff is None
    assert names("usf", "usf", "disjoint") == []                                    # twins


def test_no_partner_reads_the_agent_through_a_chain_of_backoffs(monkeypatch):
    recipes = {"mix": ["usf", "vectors", "sbert"]}
    monkeypatch.setattr(initializers.recipe, "parts_of", lambda name: recipes.get(name, []))
    sbert = weights_of("sbert")
    vectors = weights_of("vectors", sbert)
    weights = {"sbert": sbert, "vectors": vectors, "usf": weights_of("usf", vectors),
               "corpus": weights_of("corpus", vectors), "mix": weights_of("mix", sbert),
               "plain": weights_of("plain")}

    def partners(captain, agent, policy):
        return {w.name: w.backoff for w in partners_for(
            Spec("expected", captain), Spec("greedy", agent), weights, policy)}

    # USF reads SBERT through the vectors it backs off to: against SBERT, it reads alone.
    assert partners("usf", "sbert", "held-out") == {"usf": None, "vectors": None,
                                                    "corpus": None, "mix": None, "plain": None}
    # Against an agent that reads none of them, the chain stays...
    assert partners("usf", "plain", "held-out")["usf"] is vectors
    assert partners("usf", "plain", "disjoint")["corpus"] is vectors
    # ... against the mix it goes, held out through SBERT, and disjoint as part of the mix.
    assert partners("usf", "mix", "held-out")["usf"] is None
    assert partners("corpus", "usf", "held-out") == {"corpus": None, "mix": None, "plain": None}
    assert partners("corpus", "mix", "disjoint") == {"corpus": None, "plain": None}


def test_base_sources_follow_the_recipes_and_the_backoff(monkeypatch):
    recipes = {"combined": ["direct", "double_link"], "direct": ["usf", "corpus"],
               "double_link": ["direct"]}
    monkeypatch.setattr(initializers.recipe, "parts_of", lambda name: recipes.get(name, []))
    sbert = weights_of("sbert")
    weights = {"sbert": sbert, "usf": weights_of("usf"), "combined": weights_of("combined", sbert)}
    sources = base_sources(weights)
    assert sources == {"sbert": {"sbert"}, "usf": {"usf"}, "combined": {"usf", "corpus", "sbert"}}


# --- a tiny full run ---------------------------------------------------------------------------


def tiny_words(rng, n, length):
    letters = np.array(list("bcdfghjklmnpqrstvwxz"))
    return list(dict.fromkeys("".join(rng.choice(letters, length)) for _ in range(n)))


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """Two small, related random matrices standing in for two initializers."""
    rng = np.random.default_rng(7)
    hints, words = tiny_words(rng, 300, 7), tiny_words(rng, 40, 4)
    base = rng.random((len(hints), len(words))) ** 3

    def weights(name: str, noise: int) -> Weights:
        m = np.clip(base + 0.15 * np.random.default_rng(noise).random(base.shape), 0, None)
        return Weights(name, tuple(hints), tuple(words), (m / m.max()).astype(np.float32))

    made = {"tinya": weights("tinya", 1), "tinyb": weights("tinyb", 2)}
    monkeypatch.setattr(datasets, "INITIALIZERS", tuple(made))
    monkeypatch.setattr(loading, "load_initializer",
                        lambda name, sources, sbert, cache=None: (made[name], {"first_load_s": 0.0,
                                                                               "cache_load_s": 0.0}))
    words_file = tmp_path / "words.txt"
    words_file.write_text("\n".join(words))
    return made, words_file


def test_quick_run_writes_a_consistent_report(tiny, tmp_path):
    made, words_file = tiny
    captains, agents = list(model.CAPTAINS)[:2], list(model.AGENTS)[:2]
    out = tmp_path / "out"
    code = bench.COMMAND.main(["--quick", "--seeds", "2", "--initializers", *made, "--words", str(words_file),
                       "--captains", *captains, "--agents", *agents, "--out", str(out), "--foreign", "glove"])
    assert code == 0   # GloVe alone: mpnet is seconds of torch (CI's quick bench plays both)
    report = json.loads((out / "benchmark.json").read_text())
    assert (out / "pairing.png").stat().st_size > 1000
    md = (out / "benchmark.md").read_text()
    assert md.startswith("# Benchmark") and "python main.py bench --quick" in md
    pairs = report["single_team"]["pairs"]
    assert len(pairs) == (2 * len(captains)) * (2 * len(agents))
    head = report["single_team"]["headline"]
    assert head["cross_all"]["pairs"] == len(pairs) // 2 and head["cross_all"]["games"] == len(pairs)
    assert head["cross_all"]["illegal"] == 0
    assert head["cross_disjoint"] == head["cross_all"]   # the two tiny matrices share no source
    assert "the rows 'sharing no source' leave those out" in md
    cross = [p for p in pairs if p["cross"]]
    assert head["cross_all"]["win_rate"]["value"] == pytest.approx(
        np.mean([p["win_rate"]["value"] for p in cross]))
    assert report["seeds"] == [TEST_OFFSET, TEST_OFFSET + 1]
    assert "test range" in md
    teams = report["two_team"]["teams"]
    assert len(teams) == 2 * len(captains) * len(agents) and all(t["games"] == 4 for t in teams)
    assert set(report["speed"]["hint"]) == {p["captain"] for p in pairs}


def test_a_quick_run_never_overwrites_the_committed_report(tiny, tmp_path, monkeypatch, capsys):
    made, words_file = tiny
    quick = bench.QUICK_REPORTS_DIR.relative_to(ROOT) / "benchmark.md"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(quick)], cwd=ROOT)
    assert quick.parts[0] == "reports" and ignored.returncode in (0, 128)   # 128: not a git checkout
    reports = tmp_path / "reports"
    monkeypatch.setattr(bench, "REPORTS_DIR", reports)
    monkeypatch.setattr(bench, "QUICK_REPORTS_DIR", reports / "quick")
    assert bench.COMMAND.main(["--quick", "--seeds", "1", "--initializers", *made, "--words", str(words_file),
                       "--captains", "cumsum", "--agents", "greedy", "--no-two-team", "--no-foreign"]) == 0
    assert sorted(p.name for p in reports.iterdir()) == ["quick"]   # nothing beside it
    assert (reports / "quick" / "benchmark.md").exists()
    assert f"report in {reports / 'quick' / 'benchmark.md'}" in capsys.readouterr().out


def test_a_report_without_disjoint_pairs_says_so(tiny, tmp_path, monkeypatch):
    made, words_file = tiny
    monkeypatch.setattr(initializers.recipe, "parts_of", lambda name: [] if name == "corpus" else ["corpus"])
    out = tmp_path / "out"
    assert bench.COMMAND.main(["--quick", "--seeds", "1", "--initializers", *made, "--words", str(words_file),
                       "--captains", "cumsum", "--agents", "greedy", "--no-two-team", "--no-foreign",
                       "--out", str(out)]) == 0
    assert json.loads((out / "benchmark.json").read_text())["single_team"]["headline"][
        "cross_disjoint"] is None
    md = (out / "benchmark.md").read_text()
    assert "there is no row of pairs sharing no source" in md and "leave those out" not in md


def test_the_same_seeds_give_the_same_games(tiny):
    made, _ = tiny
    words = made["tinya"].words
    specs = [Spec(next(iter(model.CAPTAINS)), "tinya")], [Spec(next(iter(model.AGENTS)), "tinyb")]

    def once():
        setup = Setup(made, *specs, seeds=[3, 4, 5], words=words)
        return [[(h.word, h.outcomes) for h in g.hints] for g in run_solo(setup)[
            specs[0][0], specs[1][0]]]

    assert once() == once()


@pytest.mark.slow   # a Dask LocalCluster of worker processes; in-process cluster: test_dask
def test_worker_processes_give_the_same_results(tiny):
    made, _ = tiny
    setup = Setup(made, [Spec(c, "tinya") for c in list(model.CAPTAINS)[:2]],
                        [Spec(next(iter(model.AGENTS)), "tinyb")], seeds=[1, 2],
                        words=made["tinya"].words)

    def outcomes(results):
        return {pair: [[(h.word, h.outcomes) for h in g.hints] for g in games]
                for pair, games in results.items()}

    assert outcomes(run_solo(setup, jobs=2)) == outcomes(run_solo(setup, jobs=1))


def test_single_team_captains_know_they_play_alone_and_two_team_ones_do_not(tiny, monkeypatch):
    made, _ = tiny
    built = []

    class Recording(model.ExpectedCaptain):
        def __init__(self, weights, reader=None, alone=False, **params):
            super().__init__(weights, reader, alone, **params)
            built.append(alone)

    monkeypatch.setitem(model.CAPTAINS, "expected", Recording)   # the game's own registry
    setup = Setup(made, [Spec("expected", "tinya")], [Spec("greedy", "tinyb")], seeds=[1, 2],
                        words=made["tinya"].words)
    run_solo(setup)
    assert built == [True, True]
    captain, _ = players_of(setup, Spec("expected", "tinya"), Spec("greedy", "tinya"))
    assert built[-1] is False and not captain.alone
    assert captain_of(Spec("margin", "tinya"), made, alone=True).alone   # every strategy is told


def test_the_bench_builds_its_players_with_the_games_factory(tiny):
    made, _ = tiny
    others = [made["tinyb"]]
    # The bench's default captain, planning for a person, is the one the game's AI builds.
    bench_captain = captain_of(Spec(model.DEFAULT_CAPTAIN, "tinya"), made, alone=True)
    game_captain = model.AI(made["tinya"], partners=others).captain(alone=True)
    assert type(bench_captain) is type(game_captain)
    assert isinstance(bench_captain.reader, model.PeopleModel) and bench_captain.alone
    assert bench_captain.reader.fit == game_captain.reader.fit   # the same model of people
    # With the partner policy's matrices it plans for the first; with none, for its twin.
    twin = captain_of(Spec("expected", "tinya", (("max_count", 2),)), made, plans_for=[], alone=True)
    assert twin.reader.weights is made["tinya"] and twin.reader.temperature == GREEDY
    assert twin.max_count == 2
    stranger = captain_of(Spec("expected", "tinya"), made, plans_for=[made["tinyb"], made["tinya"]])
    assert stranger.reader.weights is made["tinyb"] and stranger.reader.temperature == MATRIX_TEMPERATURE
    # Agents: the people agent reads the same model of people as the game's.
    people = agent_of(Spec("people", "tinya"), made)
    assert people.model.fit == model.AI(made["tinya"], partners=others).people.fit
    assert agent_of(Spec("threshold", "tinyb", (("floor", 0.5),)), made).floor == 0.5


def test_a_strategy_parameter_the_bench_sets_itself_is_refused():
    with pytest.raises(ValueError, match="sets alone itself"):
        bench.specs(["expected:alone=False"], model.CAPTAINS, ["sbert"], "captain")


def test_bad_requests_are_refused_without_a_traceback(tiny, capsys):
    assert bench.COMMAND.main(["--initializers", "nosuch"]) == 2
    assert bench.COMMAND.main(["--captains", "nosuch", "--initializers", "tinya"]) == 2
    assert bench.COMMAND.main(["--seeds", "0"]) == 2
    assert "unknown" in capsys.readouterr().err


# --- tuning --------------------------------------------------------------------------------------


def test_tune_grid():
    grid = tune.parse_grid(["gap=1,2", "floor=0.1"])
    assert grid == {"gap": [1, 2], "floor": [0.1]}
    assert tune.points(grid) == [(("gap", 1), ("floor", 0.1)), (("gap", 2), ("floor", 0.1))]
    with pytest.raises(ValueError):
        tune.parse_grid(["gap"])


def test_tune_stays_on_the_tuning_range_and_ranks_points(tiny, tmp_path, capsys):
    made, words_file = tiny
    assert tune.main(["--role", "captain", "--strategy", "cumsum", "--seed-offset",
                      str(TEST_OFFSET - 1), "--seeds", "2"]) == 2
    out = tmp_path / "tuning.json"
    assert tune.main(["--role", "captain", "--strategy", "cumsum", "--grid", "gap=0.5,2",
                      "--partner", next(iter(model.AGENTS)), "--initializers", *made,
                      "--words", str(words_file), "--seeds", "2", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["play"] == "cross" and result["seeds"] == [0, 1]
    assert [r["params"] for r in result["results"]] != [] and len(result["results"]) == 2
    scores = [r["mean_score"]["value"] for r in result["results"]]
    assert scores == sorted(scores) and result["best"] == result["results"][0]["params"]
    assert "--seed-offset 10000" in capsys.readouterr().out


def test_a_share_has_its_wilson_interval() -> None:
    from lab.evaluation.stats import wilson

    low, high = wilson(1, 36)
    assert 0.004 < low < 0.006 and 0.13 < high < 0.15   # 1 of 36: 0–14%, as reports/panels reads it
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
