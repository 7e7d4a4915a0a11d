"""What a person sees: a card is a target only when every family of readings sees it, a phrase
with another card is a lure, and the captain does not chase a card its agent missed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from common import read_compounds
from initializers.compounds import splits
from lab.evaluation.sight import ALONE_NEAR, CLEAR_RANK, NEAR, Sight
from model import Weights

HINTS = ("sea", "gas", "salt")
WORDS = ("wave", "fish", "giant", "flame", "bank")
SBERT = np.array([[0.6, 0.5, 0.0, 0.1, 0.2],
                  [0.1, 0.0, 0.4, 0.7, 0.1],
                  [0.5, 0.45, 0.0, 0.0, 0.1]], np.float32)
NORMS = np.array([[0.3, 0.0, 0.0, 0.0, 0.1],      # SEA: people say WAVE, then BANK; never FISH
                  [0.0, 0.0, 0.0, 0.2, 0.0],
                  [0.0, 0.0, 0.0, 0.0, 0.0]], np.float32)
PHRASES = np.array([[0.0, 0.0, 0.0, 0.0, 0.0],
                    [0.0, 0.0, 1.0, 0.0, 0.0],      # GAS GIANT
                    [0.0, 0.0, 0.0, 0.0, 0.0]], np.float32)


def sight(norms: bool = True) -> Sight:
    sbert = Weights("sbert", HINTS, WORDS, SBERT)
    found = [sbert, Weights("phrases", HINTS, WORDS, PHRASES, backoff=sbert)]
    if norms:
        found.append(Weights("association", HINTS, WORDS, NORMS, backoff=sbert))
    return Sight(found)


def reach(seen: Sight, hint: str, own: list[str], losing: list[str] = ()) -> int:
    """The largest count a person sees, its targets taken in SBERT's order."""
    mask = np.isin(WORDS, own)
    people = SBERT[[HINTS.index(hint)]][:, mask]
    order = np.argsort(-people, axis=1)
    counts = seen.counts(WORDS, np.array([HINTS.index(hint)]), order, mask, np.isin(WORDS, losing))[0]
    return int(np.flatnonzero(counts).max() + 1) if counts.any() else 0


def test_a_card_one_source_alone_links_is_never_a_target() -> None:
    # SBERT puts WAVE and FISH above the rest for SEA; the norms put BANK above FISH: only WAVE.
    assert reach(sight(norms=False), "sea", ["wave", "fish"]) == 2
    assert reach(sight(), "sea", ["wave", "fish"]) == 1
    assert sight().sees("sea", WORDS, ["wave", "fish"]) == {"meaning": True, "norms": False}
    assert sight().sees("sea", WORDS, ["wave"]) == {"meaning": True, "norms": True}


def test_a_wary_member_alone_may_keep_the_assassin_from_a_target() -> None:
    # SALT 1 for FISH with WAVE the assassin: fastText puts FISH far first, and meaning's mean keeps
    # WAVE under 0.75 of FISH; SBERT alone puts WAVE above it. Wary of SBERT (`Rule.wary`), the
    # hint is refused (the default, `WARY`); WAVE a bystander, SBERT's reading does not matter.
    fasttext = np.zeros_like(SBERT)
    fasttext[2, WORDS.index("fish")], fasttext[2, WORDS.index("wave")] = 0.9, 0.1
    meaning = Sight([Weights("sbert", HINTS, WORDS, SBERT), Weights("fasttext", HINTS, WORDS, fasttext)])
    wary, trusting = meaning, meaning.changed(wary=frozenset())
    assert reach(trusting, "salt", ["fish"], losing=["wave"]) == 1
    assert reach(wary, "salt", ["fish"], losing=["wave"]) == 0
    assert reach(wary, "salt", ["fish"], losing=["giant"]) == 1
    assert "sbert:losing" not in wary.clauses(WORDS, np.array([2]), np.zeros((1, 1), int),
                                              np.isin(WORDS, ["fish"]))


def test_an_own_card_not_meant_is_no_rival_but_any_other_card_is() -> None:
    # WAVE, FISH and BANK are own cards; the norms put BANK above FISH. A person who takes BANK
    # second for SEA 2 (WAVE, FISH) still finds an own card, so every count is seen; the strict
    # rule (`own_rivals`) refused SEA 2. With BANK not the team's, FISH is no target (above).
    mask = np.isin(WORDS, ["wave", "fish", "bank"])
    order = np.argsort(-SBERT[[0]][:, mask], axis=1)
    assert sight().counts(WORDS, np.array([0]), order, mask)[0].tolist() == [True, True, True]
    strict = sight().changed(own_rivals=True)
    assert strict.counts(WORDS, np.array([0]), order, mask)[0].tolist() == [True, False, True]
    assert "norms:own" not in sight().clauses(WORDS, np.array([0]), order, mask)
    assert not strict.clauses(WORDS, np.array([0]), order, mask)["norms:own"][0, 1]


def test_a_margin_lets_a_dense_family_put_another_card_that_near_above_a_target() -> None:
    # SALT: meaning puts WAVE 0.5 (1.0 on the board), FISH 0.45 (0.9), BANK 0.1 (0.2). With WAVE
    # and BANK the team's, FISH (the opponent's) is above BANK by 0.7: no margin brings BANK in.
    mask = np.isin(WORDS, ["wave", "bank"])
    order = np.argsort(-SBERT[[2]][:, mask], axis=1)
    for margin in (0.0, 0.5):
        counts = sight().changed(margin=margin).counts(WORDS, np.array([2]), order, mask)[0]
        assert counts.tolist() == [True, False]
    # BANK at SBERT's 0.1 is under the floor of a first thought (`Rule.floor`): no margin helps.
    assert sight().changed(margin=0.8).counts(WORDS, np.array([2]), order, mask)[0].tolist() \
        == [True, False]
    assert sight().changed(margin=0.8, floor={}).counts(WORDS, np.array([2]), order, mask)[0].tolist() \
        == [True, True]


def test_a_losing_card_near_a_target_in_any_reading_leaves_no_count() -> None:
    assert reach(sight(norms=False), "sea", ["wave", "fish"], losing=["bank"]) == 2   # 0.2: far
    assert reach(sight(norms=False), "salt", ["wave"], losing=["fish"]) == 0          # 0.45 to 0.5
    assert reach(sight(norms=False), "sea", ["wave"], losing=["giant"]) == 1          # no link at all


def test_the_rule_says_how_far_a_losing_card_must_be() -> None:
    # SEA: BANK is a third of WAVE in meaning (0.2 to 0.6) and in the norms (0.1 to 0.3).
    assert NEAR > 1 / 3 and reach(sight(), "sea", ["wave"], losing=["bank"]) == 1
    assert reach(sight().changed(near=0.3), "sea", ["wave"], losing=["bank"]) == 0


def test_with_meaning_read_by_sbert_alone_a_losing_card_must_be_further() -> None:
    # SEA 1 for WAVE, BANK the assassin at 0.65 of WAVE: a second reading of meaning that agrees
    # lets it pass (`NEAR`); with SBERT alone, whose quirks nothing checks, it is too near.
    rows = SBERT.copy()
    rows[0, WORDS.index("bank")] = 0.65 * rows[0, WORDS.index("wave")]
    alone = Sight([Weights("sbert", HINTS, WORDS, rows)])
    both = Sight([Weights("sbert", HINTS, WORDS, rows), Weights("fasttext", HINTS, WORDS, rows)])
    assert ALONE_NEAR < 0.65 < NEAR and alone.meaning_alone and not both.meaning_alone
    assert reach(both, "sea", ["wave"], losing=["bank"]) == 1
    assert reach(alone, "sea", ["wave"], losing=["bank"]) == 0
    assert reach(alone.changed(near_alone=NEAR), "sea", ["wave"], losing=["bank"]) == 1


def test_a_silent_family_has_no_say() -> None:
    # No norm and no phrase for SALT: meaning alone decides.
    assert reach(sight(), "salt", ["wave", "fish"]) == 2
    assert sight().sees("salt", WORDS, ["wave", "fish"]) == {"meaning": True}


def test_a_phrase_with_a_card_not_meant_is_a_lure_and_the_hint_reaches_nothing() -> None:
    assert reach(sight(), "gas", ["flame"]) == 0                 # GAS GIANT left on the board
    assert sight().lures("gas", WORDS, ["flame"]) == ["giant"]
    assert reach(sight(), "gas", ["flame", "giant"]) >= 1          # a gift when it is meant
    assert sight().lures("gas", WORDS, ["giant"]) == []


def test_first_asks_every_family_that_speaks() -> None:
    seen = sight()
    assert seen.first(WORDS, np.array([0, 0]), np.array([0, 1])).tolist() == [True, False]


def test_closed_compounds_split_in_words_of_the_lists_and_are_committed() -> None:
    assert list(splits("hammerhead", {"hammer", "head", "ham"})) == [("hammer", "head")]
    assert list(splits("blockage", {"block", "age"})) == []        # a word and its ending
    compounds = set(read_compounds())
    assert {("hammer", "head"), ("bed", "rock"), ("foot", "ball"), ("fog", "horn")} <= compounds
    assert not {("car", "pet"), ("sea", "son"), ("bill", "ion")} & compounds
    assert not {("pat", "rick"), ("lance", "lot"), ("vase", "line")} & compounds   # names


def test_a_name_is_no_compound() -> None:
    from initializers.compounds import names
    from initializers.phrases import wordnet_folder

    found = names(wordnet_folder())
    assert {"patrick", "lancelot", "vaseline"} <= found
    assert not {"foghorn", "hammerhead", "bedrock"} & found


def test_the_phrases_matrix_holds_compounds_in_either_order() -> None:
    import datasets

    phrases = datasets.load_weights("phrases", sources=Path("/nonexistent"))
    rows = phrases.hint_rows(["hammer", "rock", "gas"], ["head", "bed", "giant"])
    assert rows[0, 0] > 0.5 and rows[1, 1] > 0.5 and rows[2, 2] > 0.5


def test_a_card_is_evoked_only_among_the_hints_nearest_card_words_whatever_the_board() -> None:
    # SALT's best card on this board is WAVE, but among 30 card words nearer to it (SHAKER,
    # PEPPER ...) WAVE is not one a person brings to mind; with the norms or a phrase it would be.
    sbert = Weights("sbert", HINTS, WORDS, SBERT)
    near = [f"near{i}" for i in range(30)]
    columns = np.zeros((len(HINTS), len(near)), np.float32)
    columns[2] = 0.9                                          # SALT: thirty nearer card words
    pool = Weights("sbert", HINTS, WORDS + tuple(near), np.hstack([SBERT, columns]))
    assert Sight([sbert], cards=WORDS).evoked(WORDS, np.array([2]))[0].tolist() == [True] * 5
    assert not Sight([pool], cards=WORDS + tuple(near)).evoked(WORDS, np.array([2]))[0].any()


def test_a_dense_family_of_its_own_links_no_card_and_may_block_a_target() -> None:
    # fastText read apart from SBERT (the lab's `families`): SALT weighs every card a little,
    # which links none of them (only a sparse family's link is a link); it puts BANK above FISH.
    fasttext = np.array([[0.1] * 5, [0.1] * 5, [0.6, 0.1, 0.1, 0.1, 0.3]], np.float32)
    found = [Weights("sbert", HINTS, WORDS, SBERT), Weights("fasttext", HINTS, WORDS, fasttext)]
    pool = Sight(found, cards=WORDS)
    apart = pool.changed(families={"meaning": ("sbert",), "books": ("fasttext",)})
    linked, _ = apart.nearness(WORDS, np.array([2]))
    assert not linked.any()
    mask = np.isin(WORDS, ["wave", "fish"])
    order = np.argsort(-SBERT[[2]][:, mask], axis=1)
    assert pool.counts(WORDS, np.array([2]), order, mask)[0].tolist() == [True, True]
    assert apart.counts(WORDS, np.array([2]), order, mask)[0].tolist() == [True, False]


def test_a_clear_card_is_among_the_hints_first_card_words_not_merely_its_twenty() -> None:
    # `CLEAR_RANK` card words nearer to SALT than any card on this board: each card is evoked
    # (within 20), none is one of a person's first thoughts (within `CLEAR_RANK`), which the
    # captain's count bonus asks of every target.
    near = [f"near{i}" for i in range(CLEAR_RANK)]
    columns = np.zeros((len(HINTS), len(near)), np.float32)
    columns[2] = 0.9
    pool = Sight([Weights("sbert", HINTS, WORDS + tuple(near), np.hstack([SBERT, columns]))],
                 cards=WORDS + tuple(near))
    assert pool.evoked(WORDS, np.array([2]))[0].all()
    assert not pool.evoked(WORDS, np.array([2]), within=CLEAR_RANK)[0].any()


def test_every_card_a_hint_for_two_claims_is_a_first_thought() -> None:
    # SEA 2 for WAVE and FISH, with `CLEAR_RANK` card words off the board between them in meaning:
    # FISH is evoked (within 20) and above every card that is not the team's, but no first
    # thought, as MARINE 2's BEACH and HUNT 2's BARK were not (games 750; a person took 33% of
    # such second cards, 85% of first thoughts: decision 0058). SEA 1 stands, for either card; with
    # the norms linking SEA and FISH, FISH is a first thought and SEA 2 stands too.
    near = tuple(f"near{i}" for i in range(CLEAR_RANK))
    columns = np.zeros((len(HINTS), len(near)), np.float32)
    columns[0] = 0.55
    pool = WORDS + near
    sbert = Weights("sbert", HINTS, pool, np.hstack([SBERT, columns]))
    own = np.isin(WORDS, ["wave", "fish"])
    order, fish_first = np.argsort(-SBERT[[0]][:, own], axis=1), np.array([[1, 0]])

    def counts(*matrices: Weights, taken: np.ndarray = order, **rule) -> list[bool]:
        seen = Sight([sbert, *matrices], cards=pool).changed(**rule)
        return seen.counts(WORDS, np.array([0]), taken, own)[0].tolist()

    assert counts() == [True, False]
    assert counts(claimed=None) == [True, True]
    assert counts(taken=fish_first)[0]
    said = np.zeros((len(HINTS), len(pool)), np.float32)
    said[0, pool.index("wave")], said[0, pool.index("fish")] = 0.3, 0.1
    assert counts(Weights("association", HINTS, pool, said)) == [True, True]


def test_one_persons_answer_in_the_eat_links_no_card_two_peoples_do() -> None:
    # The EAT's weakest links are one person's answer of a hundred (FLOWER → ROBE): SALT → BANK
    # at that strength is nobody's first thought, SALT → FISH at twice it is; USF lists only what
    # two people said, so its weakest link still links.
    eat = np.zeros((len(HINTS), len(WORDS)), np.float32)
    eat[2, WORDS.index("bank")], eat[2, WORDS.index("fish")] = 0.01, 0.02
    sbert = Weights("sbert", HINTS, WORDS, SBERT)
    linked = {name: Sight([sbert, Weights(name, HINTS, WORDS, eat)], cards=WORDS)
              .nearness(WORDS, np.array([2]))[0][0] for name in ("eat", "association")}
    assert linked["eat"].tolist() == [w == "fish" for w in WORDS]
    assert linked["association"].tolist() == [w in ("fish", "bank") for w in WORDS]


def gas_sight(gas_giant_said: bool | None) -> Sight:
    """GAS, with GAS GIANT a phrase of the phrases matrix: the norms say GIANT for GAS (`True`),
    say only FLAME (`False`), or are not at hand (`None`)."""
    sbert = Weights("sbert", HINTS, WORDS, SBERT)
    found = [sbert, Weights("phrases", HINTS, WORDS, PHRASES, backoff=sbert)]
    if gas_giant_said is not None:
        norms = NORMS.copy()
        norms[1, WORDS.index("giant")] = 0.01 if gas_giant_said else 0.0
        found.append(Weights("association", HINTS, WORDS, norms, backoff=sbert))
    return Sight(found, cards=WORDS)


def test_a_phrase_only_wordnet_knows_is_no_first_thought() -> None:
    # The norms are at hand and never link GAS and GIANT, nor is GASGIANT a compound of the list:
    # a phrase few people know (CAT SHARK, WINTER ROSE), so it does not link the card. With the
    # norms' link it does; with no norms at hand, every phrase does.
    seen = gas_sight(gas_giant_said=False)
    linked, _ = seen.nearness(WORDS, np.array([1]))
    assert not linked[0, WORDS.index("giant")]
    assert gas_sight(gas_giant_said=True).nearness(WORDS, np.array([1]))[0][0, WORDS.index("giant")]
    assert gas_sight(gas_giant_said=None).nearness(WORDS, np.array([1]))[0][0, WORDS.index("giant")]
    assert seen.lures("gas", WORDS, ["flame"]) == ["giant"]   # still a lure: a person may know it


def test_a_compound_of_the_list_is_a_phrase_a_person_knows() -> None:
    from models.phrases import compound_partners

    hints, words = ("hammer", "cat"), ("head", "shark")
    phrases = Weights("phrases", hints, words, np.eye(2, dtype=np.float32))
    norms = Weights("association", hints, words, np.zeros((2, 2), np.float32))
    seen = Sight([phrases, norms], cards=words)
    known = seen.known_phrases(words, np.array([0, 1]))
    assert "head" in compound_partners()["hammer"] and "hammer" in compound_partners()["head"]
    assert known.tolist() == [[True, False], [False, False]]


def meaning_of(hint: str, words: list[str], sbert: tuple, fasttext: tuple,
               others: int = 12) -> tuple[list[Weights], tuple[str, ...]]:
    """SBERT and fastText for one hint over its two `words` and `others` filler card words: each
    reading gives the two words' links, then one link shared by every filler word."""
    pool = (*words, *(f"other{i}" for i in range(others)))

    def row(links: tuple) -> np.ndarray:
        return np.array([[*links[:2], *[links[2]] * others]], np.float32)

    return [Weights("sbert", (hint,), pool, row(sbert)),
            Weights("fasttext", (hint,), pool, row(fasttext))], pool


def test_a_first_thought_only_meaning_brings_is_vouched_for_by_sbert() -> None:
    # fastText puts LEVER first for HOOK and SBERT puts twelve card words above it: the meaning
    # family's mean still has it second, but no person takes it first (HOOK 3, game 738). BAIT is
    # near in both. With the norms linking HOOK and LEVER, it is a first thought again.
    words = ["lever", "bait"]
    found, pool = meaning_of("hook", words, sbert=(0.3, 0.9, 0.5), fasttext=(0.9, 0.8, 0.1))
    seen = Sight(found, cards=pool)
    assert seen.evoked(words, np.array([0]), within=CLEAR_RANK)[0].tolist() == [True, True]
    assert seen.evoked(words, np.array([0]), within=CLEAR_RANK, vouched=True)[0].tolist() == [False, True]
    assert seen.changed(vouch={}, floor={}).evoked(words, np.array([0]), within=CLEAR_RANK,
                                                  vouched=True)[0].all()
    norms = Weights("association", ("hook",), pool, np.array([[0.05, 0.0, *[0.0] * 12]], np.float32))
    linked = Sight([*found, norms], cards=pool)
    assert linked.evoked(words, np.array([0]), within=CLEAR_RANK, vouched=True)[0].tolist() == [True, True]


def test_a_first_thought_only_meaning_brings_is_near_by_sberts_own_measure_too() -> None:
    # No card word is near HIGHWAY: MAZE and CANOE are SBERT's and fastText's first, at cosines
    # of 0.38 and 0.30, and a person sees neither (game 792's HIGHWAY 3). Over the floor (0.35),
    # MAZE is a first thought; CANOE is not, unless the norms link it.
    words, hint = ["maze", "canoe"], np.array([0])
    found, pool = meaning_of("highway", words, sbert=(0.38, 0.30, 0.2), fasttext=(0.4, 0.39, 0.1))
    assert Sight(found, cards=pool).evoked(words, hint, within=CLEAR_RANK, vouched=True)[0].tolist() \
        == [True, False]
    assert Sight(found, cards=pool).changed(floor={"sbert": 0.4}).evoked(
        words, hint, within=CLEAR_RANK, vouched=True)[0].tolist() == [False, False]
    norms = Weights("association", ("highway",), pool, np.array([[0.0, 0.05, *[0.0] * 12]], np.float32))
    assert Sight([*found, norms], cards=pool).evoked(words, hint, within=CLEAR_RANK, vouched=True)[0].all()


def test_with_sbert_alone_a_first_thought_is_among_its_four_nearest() -> None:
    # TALE 2 for PLOT and RABBIT (game 808), SBERT alone at hand: RABBIT is its 5th nearest card
    # word, and a person did not take it. Alone, SBERT's first thoughts are its 4 nearest
    # (`ALONE_RANK`); with fastText as well, its 5 nearest, as with every dataset.
    words, hint = ["plot", "rabbit"], np.array([0])
    nearer = (0.6, 0.55, 0.5)   # three card words off the board between PLOT and RABBIT
    pool = (*words, "other0", "other1", "other2", *(f"far{i}" for i in range(10)))
    links = np.array([[0.7, 0.47, *nearer, *[0.1] * 10]], np.float32)
    sbert = Weights("sbert", ("tale",), pool, links)
    fasttext = Weights("fasttext", ("tale",), pool, links)

    def first(*found: Weights, **rule) -> list[bool]:
        seen = Sight(list(found), cards=pool).changed(**rule)
        return seen.first_thoughts(words, hint, np.array([[0, 1]]), np.array([True, True]))[0].tolist()

    assert first(sbert) == [True, False]
    assert first(sbert, alone=5) == [True, True]
    assert first(sbert, fasttext) == [True, True]


def test_a_card_a_dictionary_links_beside_a_target_it_does_not_is_a_rival() -> None:
    # FISH 1 for CRAB with RAY the assassin (game 749): SBERT puts CRAB far above RAY, but a ray
    # is a fish, and a person took it. MUSIC 2 for HARP and EAR (game 748): a person took STRING,
    # a bystander that WordNet links to MUSIC and EAR it does not. Its links are no first thought:
    # a definition's words are broad (DOG: CARNIVORE).
    hints, words = ("fish", "music"), ("crab", "ray", "harp", "ear", "string")
    sbert = Weights("sbert", hints, words, np.array([[0.54, 0.22, 0.1, 0.1, 0.1],
                                                      [0.1, 0.1, 0.43, 0.48, 0.41]], np.float32))
    wordnet = Weights("wordnet", hints, words, np.array([[1, 1, 0, 0, 0], [0, 0, 1, 0, 1]], np.float32),
                      backoff=sbert)

    def counts(seen: Sight, hint: int, own: list[str], losing: list[str] = ()) -> list[bool]:
        mask = np.isin(words, own)
        order = np.argsort(-sbert.matrix[[hint]][:, mask], axis=1)
        return seen.counts(words, np.array([hint]), order, mask, np.isin(words, losing))[0].tolist()

    meaning, both = Sight([sbert], cards=words), Sight([sbert, wordnet], cards=words)
    assert counts(meaning, 0, ["crab"], ["ray"]) == [True]
    assert counts(both, 0, ["crab"], ["ray"]) == [False]
    assert counts(meaning, 1, ["harp", "ear"]) == [True, True]
    assert counts(both, 1, ["harp", "ear"]) == [False, False]   # EAR first, below STRING
    assert both.sees("music", words, ["harp", "ear"]) == {"meaning": True, "lexicon": False}
    assert not both.nearness(words, np.array([0]))[0].any()   # no first thought by a dictionary

def test_with_no_norms_two_words_of_a_longer_phrase_are_no_first_thought() -> None:
    # The embedded default: DOG 2 for COLLAR and CRAB, through WordNet's CRAB-EATING DOG (a fresh
    # clone's game). DOG COLLAR is a phrase a person knows; DOG and CRAB are two words of a longer
    # one, still a lure for a hint aimed elsewhere.
    hints, words = ("dog",), ("collar", "crab")
    far = np.array([[0.1, 0.1]], np.float32)
    found = [Weights("sbert", hints, words, far),
             Weights("phrases", hints, words, np.array([[1.0, 0.75]], np.float32))]
    seen = Sight(found, cards=words + tuple(f"near{i}" for i in range(30)))
    assert seen.known_phrases(list(words), np.array([0]))[0].tolist() == [True, False]
    assert seen.lures("dog", words, ["collar"]) == ["crab"]
