"""The hint vocabulary and lemmas: one spelling on which hints, corpus tokens and board words meet."""

from __future__ import annotations

import functools

from common import CONTENT_TAGS, lemma_of, lemmatizer


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
    from stop_words import get_stop_words
    from wordfreq import top_n_list, word_frequency

    stop = set(get_stop_words("en"))
    common = set(top_n_list("en", band))
    frequency: dict[str, float] = {}
    for word in top_n_list("en", scan):
        if not (word.isascii() and word.isalpha()) or word in stop:
            continue  # a stop word's forms ("does") must not leak in as rare lemmas ("doe")
        found = lemmatizer().getAllLemmas(word)
        if not any(tag in found for tag in CONTENT_TAGS):
            continue
        lemma = lemma_of(word)
        if len(lemma) >= 3 and lemma.isalpha() and lemma not in stop and lemma in common:
            frequency[lemma] = frequency.get(lemma, 0.0) + word_frequency(word, "en")
    return sorted(frequency, key=lambda lemma: -frequency[lemma])[:size]


@functools.cache
def corpus_function_words() -> frozenset[str]:
    """Stop words dropped from the corpus: those that cannot be a noun, or are auxiliaries.

    The stop-words list also holds card words ("fire", "line", "ring"); a stop word
    with a noun reading stays in the corpus unless it is an auxiliary ("will", "can").
    """
    from stop_words import get_stop_words

    words = set()
    for word in get_stop_words("en"):
        found = lemmatizer().getAllLemmas(word)
        if "NOUN" not in found or "AUX" in found:
            words.add(word.replace("\u2019", "'"))
    return frozenset(words)
