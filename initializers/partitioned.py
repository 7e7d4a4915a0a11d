"""Collocation counts by partitions of the corpus: each range of tokens counted alone into a sparse
matrix, on the workers of a Dask cluster, and the matrices summed there. The counts equal those of
`neighbour_counts` and `sentence_counts` over the whole corpus (see `partitions` for why)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import sparse

from common import progress
from initializers.corpus import Corpus, lexicon_hint_rows, neighbour_block, partitions, sentence_block

# Tokens per partition: small enough that a worker counting sentences stays in a modest memory
# (docs/decisions/0028-dask.md; lab/benchmarks/dask_scaling.py measures it).
PARTITION_TOKENS = 2_000_000

BLOCKS: dict[str, Callable[[np.ndarray, np.ndarray, int], sparse.csr_matrix]] = {
    "neighbour": neighbour_block,
    "sentence": sentence_block,
}


def partitioned_counts(corpus: Corpus, hints: Sequence[str], kind: str, connection: Any = None,
                       size: int = PARTITION_TOKENS) -> sparse.csr_matrix:
    """hints × lexicon counts of `kind` ('neighbour' or 'sentence'), partition by partition:
    on the cluster behind the Dask client `connection`, else one after another in this process."""
    block, rows_of = BLOCKS[kind], lexicon_hint_rows(corpus, hints)
    ranges = partitions(corpus.tokens, size)
    if connection is None or not ranges:
        parts = (block(corpus.tokens[a:b], rows_of, len(hints)) for a, b in ranges)
        total = sparse.csr_matrix((len(hints), len(rows_of)), dtype=np.float32)
        for part in progress(parts, total=len(ranges), desc=f"{kind} counts", unit="part", leave=False):
            total = _add(total, part)
        return total
    return _on_cluster(connection, block, [corpus.tokens[a:b] for a, b in ranges], rows_of, len(hints))


def _on_cluster(connection: Any, block: Callable, slices: list[np.ndarray], rows_of: np.ndarray,
                n_hints: int) -> sparse.csr_matrix:
    """Each slice counted on a worker (the hint rows sent to every worker once), then summed
    pairwise on the workers: only the total comes back."""
    from distributed import as_completed

    rows = connection.scatter(rows_of, broadcast=True, hash=False)
    parts = connection.scatter(slices, hash=False)
    counted = connection.map(block, parts, rows_of=rows, n_hints=n_hints, pure=False)
    for _ in progress(as_completed(counted), total=len(counted), desc="counting partitions",
                      unit="part", leave=False):
        pass
    while len(counted) > 1:
        pairs = [counted[i:i + 2] for i in range(0, len(counted), 2)]
        counted = [connection.submit(_add, *pair, pure=False) if len(pair) == 2 else pair[0]
                   for pair in pairs]
    return counted[0].result()


def _add(*matrices: sparse.spmatrix) -> sparse.csr_matrix:
    """The sum of sparse matrices of one shape, as CSR."""
    total = sparse.csr_matrix(matrices[0])
    for matrix in matrices[1:]:
        total = total + matrix
    return total.tocsr()
