"""The hint vocabulary and lemmas: one spelling on which hints, corpus tokens and board words meet."""

from __future__ import annotations

import functools

# --- words and lemmas -------------------------------------------------------------

CONTENT_TAGS = ("NOUN", "VERB", "ADJ", "ADV")  # lemminflect's tags for content words


@functools.cache
def lemma_of(word: str) -> str:
    """The one lemma a word is counted under: itself when it is a content lemma, else its
    first noun, verb, adjective or adverb lemma, else the word itself (names, rare words).

    The hint vocabulary, the corpus and the association norms all go through this
    function, so that a hint, a corpus token and a board word meet on one spelling.
    """
    from lemminflect import getAllLemmas

    if " " in word:  # "pink panther": a multi-word entry is its own lemma
        return word
    found = getAllLemmas(word)
    if _is_lemma(word, found):
        return word
    return next((found[tag][0] for tag in CONTENT_TAGS if tag in found), word)


def _is_lemma(word: str, found: dict[str, tuple[str, ...]]) -> bool:
    return any(word in found.get(tag, ()) for tag in CONTENT_TAGS)


def build_hint_words(size: int = 10_000, scan: int = 60_000, band: int = 30_000) -> list[str]:
    """The `size` most frequent English content lemmas, most frequent first.

    Word forms from wordfreq's frequency list are folded onto their lemma
    (lemminflect), their frequencies summed. Kept: alphabetic lemmas of 3+
    letters that lemminflect knows as a noun, verb, adjective or adverb, that
    are not stop words, and that are themselves among the `band` most
    frequent words (the obscurity band: no "graffito" because "graffiti" is
    common). lemminflect's dictionary holds no proper nouns, abbreviations or
    web junk, so those fall out with it.
    """
    from lemminflect import getAllLemmas
    from stop_words import get_stop_words
    from wordfreq import top_n_list, word_frequency

    stop = set(get_stop_words("en"))
    common = set(top_n_list("en", band))
    frequency: dict[str, float] = {}
    for word in top_n_list("en", scan):
        if not (word.isascii() and word.isalpha()) or word in stop:
            continue  # a stop word's forms ("does") must not leak in as rare lemmas ("doe")
        found = getAllLemmas(word)
        if not any(tag in found for tag in CONTENT_TAGS):
            continue
        lemma = lemma_of(word)
        if len(lemma) >= 3 and lemma.isalpha() and lemma not in stop and lemma in common:
            frequency[lemma] = frequency.get(lemma, 0.0) + word_frequency(word, "en")
    return sorted(frequency, key=lambda lemma: -frequency[lemma])[:size]


@functools.cache
def _function_words() -> frozenset[str]:
    """Stop words dropped from the corpus: those that cannot be a noun, or are auxiliaries.

    The stop-words list also holds card words ("fire", "line", "ring"); a stop word
    with a noun reading stays in the corpus unless it is an auxiliary ("will", "can").
    """
    from lemminflect import getAllLemmas
    from stop_words import get_stop_words

    words = set()
    for word in get_stop_words("en"):
        found = getAllLemmas(word)
        if "NOUN" not in found or "AUX" in found:
            words.add(word.replace("\u2019", "'"))
    return frozenset(words)
