"""Words a dictionary links (initializers/relations.py): WordNet's synonyms, pointers and glosses."""

from __future__ import annotations

from pathlib import Path

from initializers.phrases import wordnet_folder
from initializers.relations import read_synsets, relation_matrix

# Three synsets in WordNet's data format: `offset lex_file pos word_count (word lex_id)…
# pointer_count (symbol offset pos source/target)… | gloss`.
DATA_NOUN = """  1 This software and database is being provided to you, the LICENSEE, by
00000001 05 n 02 puppy 0 pup 0 001 @ 00000002 n 0000 | a young dog; "the puppy chewed the shoe"
00000002 05 n 01 dog 0 001 ~ 00000001 n 0000 | a domesticated carnivore that barks
00000003 05 n 01 comet 0 000 | a heavenly body of ice and dust with a tail
"""


def planted(tmp_path: Path) -> Path:
    (tmp_path / "data.noun").write_text(DATA_NOUN, encoding="latin-1")
    for other in ("data.verb", "data.adj", "data.adv"):
        (tmp_path / other).write_text("", encoding="latin-1")
    return tmp_path


def test_a_synset_line_gives_its_lemmas_pointers_and_gloss(tmp_path):
    synsets = {key: rest for key, *rest in read_synsets(planted(tmp_path))}
    assert synsets[("n", "00000001")][:2] == [["puppy", "pup"], [("n", "00000002")]]
    assert synsets[("n", "00000003")][:2] == [["comet"], []]
    assert synsets[("n", "00000002")][2].startswith("a domesticated carnivore")


def test_synonyms_pointers_and_definitions_link_words_and_examples_do_not(tmp_path):
    words, links = relation_matrix(planted(tmp_path))

    def linked(a: str, b: str) -> bool:
        return a in words and b in words and links[words.index(a), words.index(b)] == 1

    assert linked("puppy", "pup") and linked("puppy", "dog") and linked("dog", "puppy")   # either way
    assert linked("dog", "carnivore") and linked("comet", "tail") and linked("puppy", "young")
    assert linked("dog", "bark") and not linked("dog", "barks")   # a definition's words as lemmas
    assert not linked("puppy", "shoe")                  # an example, not the definition
    assert not linked("comet", "of") and "a" not in words   # function words link nothing
    assert (links != links.T).nnz == 0


def test_wordnet_links_what_people_link():
    words, links = relation_matrix(wordnet_folder())
    index = {w: i for i, w in enumerate(words)}
    for a, b in (("puppy", "dog"), ("wheel", "car"), ("hot", "cold"), ("tooth", "bite"), ("ship", "vessel")):
        assert links[index[a], index[b]] == 1, (a, b)
    assert links[index["sweet"], index["lime"]] == 0   # SWEET 2 for TOOTH and LIME (issue 45)
