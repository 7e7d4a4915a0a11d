"""Foreign means unread: no foreign agent's model or data is among what the game's AI reads.

The AI's loaded weights read, through datasets' recipe, an SBERT model (a
package or a path), the corpus files (collocations, fastText), USF, EAT and
WordNet's files (phrases, from a package).
`ai_reads` lists those as resolved paths and model names; `clash` says why one
foreign source is among them (or None). A foreign source the AI comes to read
stops being foreign and is dropped from the tier; the bench refuses to run the
tier with fewer than MIN_FOREIGN foreign sources left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lab.foreign.vectors import SOURCES, Provenance

MIN_FOREIGN = 2


class NotForeign(Exception):
    """Fewer than MIN_FOREIGN foreign sources are left unread by the AI."""


@dataclass(frozen=True)
class AIReads:
    """What the game's AI reads: files and folders (resolved), and model names."""

    paths: frozenset[Path]
    models: frozenset[str]


def model_path(model: str) -> Path | None:
    """The folder of an SBERT model: the path given, or the default model's package folder."""
    from common import DEFAULT_SBERT_MODEL
    from datasets import packaged_minilm

    if Path(model).exists():
        return Path(model).resolve()
    if model == DEFAULT_SBERT_MODEL:
        try:
            return Path(packaged_minilm()).resolve()
        except RuntimeError:
            return None
    return None


def base_initializers(weights: Mapping[str, object]) -> frozenset[str]:
    """The base initializers under every loaded matrix, backoffs included."""
    from datasets import leaves

    return frozenset().union(*(leaves(n) for w in weights.values() for n in w.reads()))


def sbert_models(weights: Mapping[str, object], default: str) -> frozenset[str]:
    """The SBERT models the loaded weights encode with (their extenders say which)."""
    found = {default}
    for w in weights.values():
        for m in (w, getattr(w, "backoff", None)):
            name = getattr(getattr(m, "extender", None), "model_name", None)
            if name:
                found.add(name)
    return frozenset(found)


def ai_reads(weights: Mapping[str, object], sources: Path, sbert_model: str | None = None,
             fasttext_model: Path | None = None) -> AIReads:
    """Every file and model that the loaded weights read, from the sources folder given."""
    import datasets
    from common import DEFAULT_SBERT_MODEL

    bases = base_initializers(weights)
    paths: set[Path] = set()
    models: set[str] = set()
    if "sbert" in bases:
        for model in sbert_models(weights, sbert_model or DEFAULT_SBERT_MODEL):
            models.add(Path(model).name)
            if (folder := model_path(model)) is not None:
                paths.add(folder)
    if {"phrases", "wordnet"} & set(bases) and (folder := datasets.wordnet_folder()) is not None:
        paths.add(folder.resolve())
    for base in bases:
        for source in datasets.BASE.get(base, ()):
            if base == "fasttext" and fasttext_model is not None:
                paths.add(Path(fasttext_model).resolve())
                continue
            paths.update(p.resolve() for p in datasets.SOURCES[source].files(Path(sources)))
            paths.add((Path(sources) / datasets.SOURCES[source].folder).resolve())
    return AIReads(frozenset(paths), frozenset(models))


def overlaps(a: Path, b: Path) -> bool:
    """Whether one path is the other or lies inside it."""
    return a == b or a.is_relative_to(b) or b.is_relative_to(a)


def clash(provenance: Provenance, reads: AIReads) -> str | None:
    """Why the AI reads this foreign source (its model by name, or one of its files), or None."""
    if provenance.model.lower() in {m.lower() for m in reads.models}:
        return f"the AI's SBERT model is {provenance.model}"
    for mine in (p.resolve() for p in provenance.files):
        for theirs in reads.paths:
            if overlaps(mine, theirs):
                return f"the AI reads {theirs}, which holds or is {mine}"
    return None


def isolated(names: Iterable[str], reads: AIReads) -> tuple[list[str], dict[str, str]]:
    """The named sources the AI does not read, and why each other one is not foreign."""
    keep, dropped = [], {}
    for name in names:
        reason = clash(SOURCES[name].provenance(), reads)
        if reason is None:
            keep.append(name)
        else:
            dropped[name] = reason
    return keep, dropped


def check(reads: AIReads) -> list[str]:
    """The registered sources the AI does not read; NotForeign when fewer than MIN_FOREIGN."""
    keep, dropped = isolated(SOURCES, reads)
    if len(keep) < MIN_FOREIGN:
        why = "; ".join(f"{k}: {v}" for k, v in dropped.items())
        raise NotForeign(f"only {len(keep)} foreign source(s) left that the AI does not read "
                         f"(at least {MIN_FOREIGN} needed): {why}")
    return keep
