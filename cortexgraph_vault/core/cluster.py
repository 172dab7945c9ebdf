"""Similarity of memories, near-duplicate pairs and clusters (pure: values in, values out).

Similarity is the cosine of TF-IDF vectors built from a memory's words (lower-cased,
stop words dropped, light suffix stemming) plus its entities and tags as features of their
own. One cosine keeps the measure symmetric whether or not a memory has tags, and it lets
candidate generation be exact (below). On the labelled pairs in
`tests/core/labelled_pairs.jsonl` it separates duplicates from merely related
memories better than rapidfuzz's token ratios, which score a short memory contained in a
longer one, or two dates in the same sentence, as near-identical (the test prints both).

No pass over all pairs: features are ordered rarest first, and each memory is indexed under
its shortest prefix whose remaining weight could not reach the threshold on its own (prefix
filtering, Bayardo et al. 2007). Two memories whose cosine reaches the threshold always
share a prefix feature, so only memories sharing a rare word, entity or tag are compared,
and none that could reach the threshold is missed.

Clusters are single-linkage: the strongest links are joined first, and a link that would
make a cluster larger than `max_size` is skipped. A cluster's id is a hash of its sorted
member ids, so the same members give the same id in every process and on every run.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from cortexgraph_vault.core.english import word_set
from cortexgraph_vault.core.relevance import STOP_WORDS

ENTITY_WEIGHT = 1.0
TAG_WEIGHT = 0.5
MERGE_COHESION = 0.75  # a cluster this cohesive holds one fact said several times
LINK_COHESION = 0.4  # below this its members are too loosely tied to be worth a link

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Kept although short or common: they change what a memory says.
_MEANINGFUL = frozenset({"not", "no", "never", "without", "before", "after", "only"})
_STOP = (
    STOP_WORDS
    | word_set("she he her his him us am been being would should could can also just all any")
    | word_set("s t into over very up out")
) - _MEANINGFUL


@dataclass(frozen=True)
class ClusterDoc:
    """What similarity looks at: the memory's key (its id, or path without one) and text."""

    key: str
    text: str
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()


@dataclass(frozen=True)
class SimilarPair:
    a: str
    b: str
    similarity: float


@dataclass(frozen=True)
class Cluster:
    id: str
    members: tuple[str, ...]  # keys, sorted
    cohesion: float  # mean similarity over every pair of members
    action: str  # "merge" | "link" | "ignore"


def cluster_id(keys: Iterable[str]) -> str:
    """Stable: the same members give the same id, whatever order they come in."""
    joined = "\n".join(sorted(set(keys)))
    return "cl-" + hashlib.sha256(joined.encode("utf-8")).hexdigest()[:16]


def stem(word: str) -> str:
    """A light English suffix stripper: enough to meet `prefers`/`prefer`, `moved`/`move`."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2] if not word.endswith("eed") else word[:-1]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def text_features(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


def suggested_action(cohesion: float, merge_at: float = MERGE_COHESION) -> str:
    if cohesion >= merge_at:
        return "merge"
    return "link" if cohesion >= LINK_COHESION else "ignore"


class SimilarityModel:
    """TF-IDF vectors of a set of memories; inverse document frequency from that set."""

    def __init__(self, docs: Sequence[ClusterDoc]) -> None:
        self.docs = list(docs)
        self.keys = [d.key for d in self.docs]
        raw: list[dict[str, float]] = []
        df: Counter[str] = Counter()
        for doc in self.docs:
            weights: dict[str, float] = {}
            for word, count in Counter(text_features(doc.text)).items():
                weights["w:" + word] = 1.0 + math.log(count)
            for entity in doc.entities:
                name = " ".join(entity.lower().split())
                if name:
                    weights["e:" + name] = ENTITY_WEIGHT
            for tag in doc.tags:
                if tag.strip():
                    weights["t:" + tag.strip().lower()] = TAG_WEIGHT
            raw.append(weights)
            df.update(weights.keys())
        n = len(self.docs)
        self.df = df
        # Pairs the last similar_pairs call judged: every pair, each scored or ruled out by the
        # bound of what its shared features could reach (exact, so no pair is skipped).
        self.compared = 0
        self.vectors: list[dict[str, float]] = []
        for weights in raw:
            vec = {f: w * (math.log((1 + n) / (1 + df[f])) + 1.0) for f, w in weights.items()}
            norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
            self.vectors.append({f: v / norm for f, v in vec.items()})

    def __len__(self) -> int:
        return len(self.docs)

    def similarity(self, i: int, j: int) -> float:
        a, b = self.vectors[i], self.vectors[j]
        if len(a) > len(b):
            a, b = b, a
        return min(1.0, sum(v * b.get(f, 0.0) for f, v in a.items()))

    def candidate_pairs(self, threshold: float) -> set[tuple[int, int]]:
        """Every pair that could reach `threshold`, found through shared rare features."""
        order = {f: (count, f) for f, count in self.df.items()}
        index: dict[str, list[int]] = {}
        pairs: set[tuple[int, int]] = set()
        for i, vec in enumerate(self.vectors):
            feats = sorted(vec, key=order.__getitem__)
            remaining = 1.0  # squared norm of the features not yet in the prefix
            for f in feats:
                if math.sqrt(max(remaining, 0.0)) < threshold - 1e-9:
                    break
                remaining -= vec[f] * vec[f]
                if self.df[f] < 2:
                    continue  # no other memory has it
                bucket = index.setdefault(f, [])
                for j in bucket:
                    pairs.add((j, i))
                bucket.append(i)
        return pairs

    def similar_pairs(self, threshold: float) -> list[tuple[int, int, float]]:
        """(i, j, similarity) of every pair at or above `threshold`, strongest first."""
        candidates = self.candidate_pairs(threshold)
        self.compared = len(self.docs) * (len(self.docs) - 1) // 2
        found = [(i, j, s) for i, j in candidates if (s := self.similarity(i, j)) >= threshold]
        found.sort(key=lambda t: (-t[2], self.keys[t[0]], self.keys[t[1]]))
        return found

    def cohesion(self, members: Sequence[int]) -> float:
        pairs = list(combinations(members, 2))
        if not pairs:
            return 1.0
        return sum(self.similarity(i, j) for i, j in pairs) / len(pairs)


def duplicate_pairs(model: SimilarityModel, threshold: float) -> list[SimilarPair]:
    pairs = []
    for i, j, s in model.similar_pairs(threshold):
        a, b = sorted((model.keys[i], model.keys[j]))
        pairs.append(SimilarPair(a, b, round(s, 4)))
    return pairs


def find_clusters(
    model: SimilarityModel,
    threshold: float,
    max_size: int,
    *,
    merge_at: float = MERGE_COHESION,
) -> list[Cluster]:
    """Single-linkage clusters of two or more members, most cohesive first."""
    parent = list(range(len(model)))
    size = [1] * len(model)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j, _ in model.similar_pairs(threshold):
        ri, rj = root(i), root(j)
        if ri == rj or size[ri] + size[rj] > max_size:
            continue
        if size[ri] < size[rj]:
            ri, rj = rj, ri
        parent[rj] = ri
        size[ri] += size[rj]
    groups: dict[int, list[int]] = {}
    for i in range(len(model)):
        if size[root(i)] > 1:
            groups.setdefault(root(i), []).append(i)
    clusters = []
    for members in groups.values():
        coh = round(model.cohesion(members), 4)
        keys = tuple(sorted(model.keys[i] for i in members))
        clusters.append(Cluster(cluster_id(keys), keys, coh, suggested_action(coh, merge_at)))
    clusters.sort(key=lambda c: (-c.cohesion, c.id))
    return clusters
