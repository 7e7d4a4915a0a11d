"""What the initializers read, where they keep what they build and what they build it with: one
settings object, from the command line (cli.load_ai) or a script to the catalog."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    """The initializers' settings; None is the default of each.

    `sources`: the datasets folder (`--sources`, default data/sources/); `cache_dir`: the cached
    matrices (default data/cache/); `sbert_model`: a sentence-transformers model (default the
    packaged all-MiniLM-L6-v2); `fasttext_model`: pretrained vectors instead of training on the
    corpus; `rebuild`: initializers to rebuild first (an empty list: every available one; None:
    none); `scheduler`: a Dask scheduler to count collocations on (default: this process);
    `hints`, `words`: the hint vocabulary and the board words (default: the committed lists);
    `background`: leave the matrices made from the corpus, when not cached, to a build in a
    background process (initializers/background.py) rather than wait for them.
    """

    sources: Path | str | None = None
    cache_dir: Path | str | None = None
    sbert_model: str | None = None
    fasttext_model: Path | str | None = None
    rebuild: Sequence[str] | None = None
    scheduler: str | None = None
    hints: Sequence[str] | None = None
    words: Sequence[str] | None = None
    background: bool = False
