"""The lab's reading of which kinds of WordNet phrase the norms know (lab/benchmarks/phrase_kinds.py)."""

from lab.benchmarks.phrase_kinds import kind, pairs


def test_a_phrase_is_side_by_side_x_of_y_or_other():
    assert kind(("fire", "engine")) == "side by side"
    assert kind(("note", "of", "hand")) == "X of Y"
    assert kind(("bed", "and", "breakfast")) == "other"


def test_a_phrase_links_a_hint_and_a_card_in_either_order_when_it_has_two_content_words():
    phrases = [("fire", "engine"), ("note", "of", "hand"), ("crab", "eating", "dog"), ("hot", "dog")]
    hints, cards = {"fire", "note", "hand", "hot", "crab"}, {"engine", "hand", "dog"}
    found = set(pairs(phrases, hints, cards))
    assert found == {("side by side", "fire", "engine"), ("X of Y", "note", "hand"),
                     ("side by side", "hot", "dog")}
