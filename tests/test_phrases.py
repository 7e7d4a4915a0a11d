"""Phrases people know (issue 40, item 5): compounds and set phrases as links, on a fresh install.

MAGIC 1 meant CARPET; WordNet has no "magic carpet", so that case is the corpus's
(tests/test_datasets_real.py, slow); the phrases matrix knows the everyday ones below.
"""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from initializers.catalog import Catalog
from initializers.phrases import PAIR, WIDER_PAIR, phrase_matrix, phrase_pairs, read_phrases, wordnet_folder
from initializers.settings import Settings

# Clue → the card a person means, as in "fire truck"; every card is a board word or not, every
# clue a hint of the vocabulary or not: both ways of reading a word are exercised.
EVERYDAY = [("fire", "truck"), ("manta", "ray"), ("hot", "dog"), ("ice", "cream"), ("fire", "engine"),
            ("post", "office"), ("polar", "bear"), ("teddy", "bear"), ("piggy", "bank"),
            ("credit", "card"), ("fairy", "tale"), ("spider", "web")]


@pytest.fixture(scope="module")
def phrases(tmp_path_factory) -> datasets.Weights:
    """The phrases matrix from a fresh install: no sources folder, an empty cache."""
    root = tmp_path_factory.mktemp("phrases")
    return Catalog(Settings(root / "no-sources", root / "cache")).weights("phrases").without_backoff()


@pytest.mark.parametrize(("clue", "card"), EVERYDAY)
def test_an_everyday_compound_is_a_full_link_in_either_order(phrases, clue, card):
    assert phrases.hint_row(clue, [card])[0] == pytest.approx(1.0)
    assert phrases.hint_row(card, [clue])[0] == pytest.approx(1.0)


# The clues and cards above, crossed where no phrase holds both (ICE → BEAR would not do: "ice bear").
UNRELATED = [("magic", "hammer"), ("teddy", "office"), ("manta", "cream"), ("piggy", "engine"),
             ("credit", "ray"), ("fairy", "truck"), ("spider", "bank"), ("polar", "tale"),
             ("post", "web"), ("hot", "card"), ("ice", "office")]


@pytest.mark.parametrize(("clue", "card"), UNRELATED)
def test_unrelated_pairs_are_not_linked(phrases, clue, card):
    assert phrases.hint_row(clue, [card])[0] == 0
    assert phrases.hint_row(card, [clue])[0] == 0


def test_a_possessive_is_its_word(phrases):
    # Game 809: BULL 1 for DOG with EYE the assassin, a bull's-eye no reading had seen.
    assert ("bull", "eye") in set(read_phrases(wordnet_folder()))
    assert phrases.hint_row("bull", ["eye"])[0] == pytest.approx(1.0)
    assert phrases.hint_row("cat", ["eye"])[0] == pytest.approx(1.0)   # a cat's-eye


def test_inflected_forms_meet_on_their_lemma(phrases):
    assert phrases.hint_row("hot", ["dogs"])[0] == pytest.approx(1.0)
    assert phrases.hint_row("bears", ["polar"])[0] == pytest.approx(1.0)


def test_a_board_column_and_a_hint_row_agree(phrases):
    """The cached hint × board matrix says what the on-demand reading says."""
    board = [w for w in phrases.words if w in ("dog", "bear", "engine", "card", "bank")]
    assert board, "the board words hold none of the cards"
    hints = ["hot", "polar", "fire", "credit", "piggy", "magic"]
    rows = np.stack([phrases.hint_row(h, board) for h in hints])
    columns = phrases.matrix[[phrases.hint_index[h] for h in hints if h in phrases.hint_index]][
        :, [phrases.words.index(w) for w in board]]
    known = [i for i, h in enumerate(hints) if h in phrases.hint_index]
    np.testing.assert_array_equal(rows[known], columns)


def test_phrase_pairs_skip_function_words_and_fold_lemmas():
    pairs = set(phrase_pairs([("jack", "in", "the", "box"), ("hot", "dogs"), ("fire", "and", "brimstone")]))
    assert pairs == {("jack", "box", PAIR), ("hot", "dog", PAIR), ("fire", "brimstone", PAIR)}
    words, links = phrase_matrix([*pairs, ("hot", "dog", PAIR)])
    assert links.toarray().max() == 1 and (links != links.T).nnz == 0
    assert links[words.index("dog"), words.index("hot")] == 1


def test_two_words_of_a_longer_phrase_are_a_weaker_link_than_a_phrase_of_two():
    # CRAB-EATING DOG links CRAB and DOG less than DOG COLLAR does; a pair in both kinds of
    # phrase keeps its stronger link.
    pairs = list(phrase_pairs([("crab", "eating", "dog"), ("dog", "collar"), ("eating", "crab")]))
    assert ("crab", "dog", WIDER_PAIR) in pairs and ("dog", "collar", PAIR) in pairs
    words, links = phrase_matrix(pairs)
    at = {w: k for k, w in enumerate(words)}
    assert links[at["dog"], at["crab"]] == WIDER_PAIR == links[at["crab"], at["dog"]]
    assert links[at["dog"], at["collar"]] == PAIR and links[at["eat"], at["crab"]] == PAIR
    from models.phrases import TWO_WORDS

    assert TWO_WORDS == PAIR   # what the game reads as a phrase of two words is what is built


def test_wordnet_ships_tens_of_thousands_of_phrases():
    phrases = list(read_phrases(wordnet_folder()))
    assert len(phrases) > 60_000
    assert ("fire", "engine") in phrases and ("hot", "dog") in phrases


def test_the_embedded_default_has_the_phrases_and_wordnets_relations_among_its_partners(tmp_path):
    weights, partners = datasets.load_with_partners(None, sources=tmp_path / "none",
                                                    cache_dir=tmp_path / "cache")
    assert weights.name == "sbert"
    assert [p.name for p in partners] == ["phrases", "wordnet"] == list(datasets.EMBEDDED[1:])
    phrases, wordnet = (p.without_backoff() for p in partners)
    assert phrases.hint_row("polar", ["bear"])[0] == pytest.approx(1.0)
    assert wordnet.hint_row("puppy", ["dog", "lemon"]).tolist() == [1.0, 0.0]


def test_phrases_stay_out_of_the_recipe():
    """A matrix of its own for the model of people: the combinations play as before."""
    assert all("phrases" not in parts for parts in datasets.COMBINED.values())
    assert datasets.BASE["phrases"] == ()


def test_a_closed_compound_of_the_list_is_found_in_either_order_and_for_a_clue_asked_twice():
    from models.phrases import compounds

    found = compounds(["hammer", "head", "cat", "hammer"], ["head", "hammer", "shark"])
    assert found.tolist() == [[True, False, False], [False, True, False], [False, False, False],
                              [True, False, False]]
    vocabulary = ("cat", "hammer", "head")
    index = {hint: row for row, hint in enumerate(vocabulary)}
    assert compounds(vocabulary, ["head"], index)[:, 0].tolist() == [False, True, False]


def test_a_phrase_is_known_when_a_compound_or_when_the_norms_link_it_too():
    from models.phrases import known_phrases

    phrases = np.array([[1.0, 1.0, 1.0, 0.0]], np.float32)      # three phrases, one card without
    said = np.array([[0.0, 0.01, 0.0, 0.3]], np.float32)       # one person said the second card
    compound = np.array([[True, False, False, False]])
    assert known_phrases(phrases, said, compound).tolist() == [[1.0, 1.0, 0.0, 0.0]]
    assert known_phrases(phrases, None, compound).tolist() == phrases.tolist()   # no norms: two words
    longer = np.array([[1.0, 0.75, 0.0, 0.0]], np.float32)   # the second of a longer phrase only
    assert known_phrases(longer, None, compound).tolist() == [[1.0, 0.0, 0.0, 0.0]]
    assert known_phrases(longer, said, compound).tolist() == [[1.0, 0.75, 0.0, 0.0]]   # the norms say it
