"""A synthetic vault for benchmarks: N notes of about 1.6 KB each, like a real Obsidian vault.

Every note has frontmatter, a heading, three paragraphs, about five wikilinks and tags;
about 30 % live in `_stm/` as memories with decay fields, 40 % of those old enough to be
forgotten. Words follow a Zipf-like law (function words first, then a made-up vocabulary), so
posting lists have the skew a real vault has. The same seed gives the same vault.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

FOLDERS = ("Projects", "People", "Areas", "Reading", "Daily", "Notes", "Work", "Ideas")
SYLLABLES = (
    "ka", "lo", "mi", "ren", "to", "sa", "vel", "dor", "ni", "qua", "bri", "stel", "an", "or",
    "ex", "ly", "mon", "pra", "tek", "zu", "ha", "jo", "fin", "gra", "ul", "ves", "cor", "dia",
)  # fmt: skip
VOCABULARY_SIZE = 12_000
TAGS = (
    "project", "work", "reading", "health", "people", "idea", "meeting", "todo", "databases",
    "programming", "travel", "finance", "family", "writing", "music", "running",
)  # fmt: skip
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FUNCTION_WORDS = [
    "the", "and", "of", "to", "a", "in", "is", "it", "that", "for", "was", "on", "with", "as",
    "at", "by", "this", "from", "or", "but", "be", "are", "have", "had", "they", "we", "which",
    "their", "there", "were", "when", "what", "so", "than", "then", "them", "these", "will",
]  # fmt: skip


@dataclass(frozen=True)
class GeneratedVault:
    root: Path
    notes: int
    memories: int
    forgettable: int
    titles: tuple[str, ...]
    vocabulary: tuple[str, ...]


def _vocabulary(rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < VOCABULARY_SIZE:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    ordered = sorted(words)
    rng.shuffle(ordered)  # the frequency rank must not follow the alphabet
    # As in any natural text, the most frequent words are function words (which searches
    # leave out), then the made-up vocabulary follows the Zipf curve.
    return FUNCTION_WORDS + ordered


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class _Writer:
    def __init__(self, rng: random.Random, vocabulary: list[str], titles: list[str]) -> None:
        self.rng = rng
        self.vocabulary = vocabulary
        self.titles = titles
        # Zipf-like: word i is drawn with weight 1/(i+1).
        total, cumulative = 0.0, []
        for i in range(len(vocabulary)):
            total += 1.0 / (i + 1)
            cumulative.append(total)
        self.cumulative = cumulative

    def words(self, n: int) -> list[str]:
        return self.rng.choices(self.vocabulary, cum_weights=self.cumulative, k=n)

    def paragraph(self, links: int) -> str:
        words = self.words(self.rng.randint(42, 48))
        for _ in range(links):
            words.insert(self.rng.randrange(len(words)), f"[[{self.rng.choice(self.titles)}]]")
        sentences, start = [], 0
        while start < len(words):
            end = min(len(words), start + self.rng.randint(8, 16))
            sentence = " ".join(words[start:end])
            sentences.append(sentence[:1].upper() + sentence[1:] + ".")
            start = end
        return " ".join(sentences)

    def body(self, title: str, tags: list[str]) -> str:
        links = [2, 2, 1]
        paragraphs = [self.paragraph(n) for n in links]
        inline = " ".join(f"#{t}" for t in tags[:1])
        return f"# {title}\n\n" + "\n\n".join(paragraphs) + f"\n\n{inline}\n"


def generate_vault(
    root: Path, notes: int, *, seed: int = 7, stm_share: float = 0.3
) -> GeneratedVault:
    rng = random.Random(seed)
    vocabulary = _vocabulary(rng)
    names = vocabulary[len(FUNCTION_WORDS) :]
    titles: list[str] = []
    seen: set[str] = set()
    while len(titles) < notes:
        title = " ".join(rng.choice(names).capitalize() for _ in range(rng.randint(2, 3)))
        if title.lower() not in seen:
            seen.add(title.lower())
            titles.append(title)
    writer = _Writer(rng, vocabulary, titles)
    memories = forgettable = 0
    for i, title in enumerate(titles):
        tags = rng.sample(TAGS, rng.randint(1, 3))
        if rng.random() < stm_share:
            memories += 1
            old = rng.random() < 0.4
            forgettable += old
            age = timedelta(days=rng.uniform(120, 400) if old else rng.uniform(0, 20))
            last_used = NOW - age * (1.0 if old else rng.uniform(0, 1))
            front = (
                f"id: {uuid.UUID(int=rng.getrandbits(128))}\n"
                f"created: {_iso(NOW - age)}\nlast_used: {_iso(last_used)}\n"
                f"use_count: {1 if old else rng.randint(1, 6)}\nstrength: 1.0\nstatus: active\n"
                f"tags: [{', '.join(tags)}]\nentities: [{rng.choice(titles)}]\nsource: bench\n"
            )
            folder = "_stm"
        else:
            front = f"tags: [{', '.join(tags)}]\ncreated: {_iso(NOW - timedelta(days=i % 900))}\n"
            if i % 10 == 0:
                front += f"aliases: [{title.split()[0]}-{i}]\n"
            folder = FOLDERS[i % len(FOLDERS)]
        path = root / folder / f"{title}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\n{front}---\n{writer.body(title, tags)}", encoding="utf-8")
    (root / ".obsidian").mkdir(exist_ok=True)
    (root / ".obsidian" / "app.json").write_text("{}\n", encoding="utf-8")
    return GeneratedVault(root, notes, memories, forgettable, tuple(titles), tuple(vocabulary))
