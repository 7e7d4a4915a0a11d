"""The initializers behind `datasets`: sources → readers → tables → `model.Weights`, cached.

vocabulary (lemmas, the hint words), sources (the sources folder, fingerprints, errors),
readers (USF, EAT, books), corpus (lemmatised corpus, collocation and association counts),
tables (weights for any word), fasttext_vectors, sbert, cache (arrays beside the matrices),
recipe (which initializers, their parts and weights), availability (which the sources allow, and
what is missing), store (the catalog's caches: fresh or stale, read and written), builders (each
initializer's table from its sources), notices (the catalog's lines), catalog (loads or builds
them, once each: a facade over those).
"""
