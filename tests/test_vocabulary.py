"""The committed hint vocabulary and board-word list."""

from stop_words import get_stop_words
from wordfreq import top_n_list

from common import board_words, hint_words
from initializers.vocabulary import build_hint_words


def test_committed_hint_words_are_what_the_builder_makes():
    assert list(hint_words()) == build_hint_words()


def test_hint_words_are_common_alphabetic_content_lemmas():
    hints = hint_words()
    assert len(hints) == 10_000 == len(set(hints))
    common, stop = set(top_n_list("en", 30_000)), set(get_stop_words("en"))
    assert all(h.isascii() and h.isalpha() and len(h) >= 3 for h in hints)
    assert not set(hints) & stop
    assert set(hints) <= common
    assert {"ocean", "music", "fruit", "weapon"} <= set(hints)
    assert not {"graffito", "pantie", "john", "london"} & set(hints)


def test_board_words_are_our_own_list_of_about_400_words():
    words = board_words()
    assert 380 <= len(words) <= 500 and len(set(words)) == len(words)
    assert all(w.isalpha() and w.islower() for w in words)
