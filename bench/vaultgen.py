"""A synthetic vault for benchmarks: N notes of about 1.6 KB each, like a real Obsidian vault.

Every note has frontmatter, a heading, three paragraphs, about five wikilinks and tags;
about 30 % live in `_stm/` as memories with decay fields, 40 % of those old enough to be
forgotten. Notes hold code as often as the notes of a real vault do (`CODE_SHARES`). Words follow a Zipf-like law (function words first, then a made-up vocabulary), so
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
# The share of notes holding each kind of code, as in Obsidian's help vault (its 173 English
# notes): a fenced block in 25 %, a list nested by four spaces or a tab in 24 % (a tab in 45 % of
# those), a code span in 69 %. It holds no indented code block; a vault written before fences
# were common does, hence a few. Code is drawn from its own random stream, so the rest of a
# note is the same as in a vault without code.
CODE_SHARES = {"fenced": 0.25, "nested": 0.24, "span": 0.69, "indented": 0.03}
FENCES = {
    "bash": ("git -C ~/{0} log --oneline -- {1}.md", "cd ~/{0}/{1}", "{0} --{1} {2}.json"),
    "python": ("def {0}({1}):", "    return {1}.{2}()", "{0} = {1}({2}=True)"),
    "yaml": ("{0}: {1}", "  - {2}", "{0}_{1}: 3"),
    "md": ("![[{0} {1}.png]]", "> [!note] {0}", "- [ ] {0} {1} {2}"),
}
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
    def __init__(
        self, rng: random.Random, vocabulary: list[str], titles: list[str], seed: int
    ) -> None:
        self.rng = rng
        self.vocabulary = vocabulary
        self.titles = titles
        # Zipf-like: word i is drawn with weight 1/(i+1).
        total, cumulative = 0.0, []
        for i in range(len(vocabulary)):
            total += 1.0 / (i + 1)
            cumulative.append(total)
        self.cumulative = cumulative
        self.code_rng = random.Random(f"code {seed}")

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
        rng = self.code_rng
        if rng.random() < CODE_SHARES["span"]:
            words = paragraphs[0].split(" ")
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(1, len(words) - 1)
                if words[i].isalpha():
                    words[i] = rng.choice(("`{}`", "`{}()`", "`{}.md`")).format(words[i])
            paragraphs[0] = " ".join(words)
        if rng.random() < CODE_SHARES["fenced"]:
            language = rng.choice(list(FENCES))
            lines = rng.choices(FENCES[language], k=rng.randint(2, 8))
            code = "\n".join(line.format(*self.code_words(3)) for line in lines)
            paragraphs.insert(1, f"```{language}\n{code}\n```")
        if rng.random() < CODE_SHARES["nested"]:
            indent = "\t" if rng.random() < 0.45 else "    "
            items = [f"- {' '.join(self.code_words(5))}"]
            items += [f"{indent}- {' '.join(self.code_words(4))}" for _ in range(rng.randint(1, 3))]
            paragraphs.insert(-1, "\n".join(items))
        if rng.random() < CODE_SHARES["indented"]:
            lines = (f"    {a} = {b}({c})" for a, b, c in (self.code_words(3) for _ in range(3)))
            paragraphs.insert(-1, "\n".join(lines))
        inline = " ".join(f"#{t}" for t in tags[:1])
        return f"# {title}\n\n" + "\n\n".join(paragraphs) + f"\n\n{inline}\n"

    def code_words(self, n: int) -> list[str]:
        return self.code_rng.choices(self.vocabulary, cum_weights=self.cumulative, k=n)


def generate_vault(
    root: Path, notes: int, *, seed: int = 7, stm_share: float = 0.3, now: datetime = NOW
) -> GeneratedVault:
    """`notes` notes under `root`, their times measured back from `now` (a test passes its
    clock, so the vault's ages are the same whichever date the test runs at)."""
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
    writer = _Writer(rng, vocabulary, titles, seed)
    memories = forgettable = 0
    for i, title in enumerate(titles):
        tags = rng.sample(TAGS, rng.randint(1, 3))
        if rng.random() < stm_share:
            memories += 1
            old = rng.random() < 0.4
            forgettable += old
            age = timedelta(days=rng.uniform(120, 400) if old else rng.uniform(0, 20))
            last_used = now - age * (1.0 if old else rng.uniform(0, 1))
            front = (
                f"id: {uuid.UUID(int=rng.getrandbits(128))}\n"
                f"created: {_iso(now - age)}\nlast_used: {_iso(last_used)}\n"
                f"use_count: {1 if old else rng.randint(1, 6)}\nstrength: 1.0\nstatus: active\n"
                f"tags: [{', '.join(tags)}]\nentities: [{rng.choice(titles)}]\nsource: bench\n"
            )
            folder = "_stm"
        else:
            front = f"tags: [{', '.join(tags)}]\ncreated: {_iso(now - timedelta(days=i % 900))}\n"
            if i % 10 == 0:
                front += f"aliases: [{title.split()[0]}-{i}]\n"
            folder = FOLDERS[i % len(FOLDERS)]
        path = root / folder / f"{title}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\n{front}---\n{writer.body(title, tags)}", encoding="utf-8")
    (root / ".obsidian").mkdir(exist_ok=True)
    (root / ".obsidian" / "app.json").write_text("{}\n", encoding="utf-8")
    return GeneratedVault(root, notes, memories, forgettable, tuple(titles), tuple(vocabulary))
