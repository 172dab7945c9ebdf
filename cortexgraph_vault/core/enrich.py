"""Auto-enrichment of a memory at save: entities, links to vault notes, strength and tags.

Entities come first from the person's own vault (note titles and aliases, see `gazetteer`),
then from known technical terms, then from capitalised phrases. Each match consumes its words,
so "Project Atlas" is one entity, not "Project" and "Atlas". At most ten are kept, the vault's
own names first, then ordered longest first as CortexGraph orders them.

Strength starts at 1.0 for a plain statement. Importance markers raise it; "critical" or
"never forget" raises it to the ceiling of 2.0; a long, detailed memory earns a little more.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cortexgraph_vault.core.english import (
    COMMON_WORDS,
    NOISE_ACRONYMS,
    STOP_WORDS,
    any_of,
    phrases,
    word_set,
)
from cortexgraph_vault.core.gazetteer import (
    Gazetteer,
    Name,
    Token,
    singular,
    tokenize,
    word_key,
)
from cortexgraph_vault.core.tags import normalize_tag

MAX_ENTITIES = 10
MAX_TAGS = 5

TECH_TERMS = phrases(
    """
    Python, TypeScript, JavaScript, Rust, Go, Java, Kotlin, Swift, Ruby, PHP, Haskell, Elixir,
    Erlang, Scala, Clojure, Zig, OCaml, Lua, Perl, Dart, SQL, Postgres, PostgreSQL, MySQL, SQLite,
    MongoDB, Redis, Cassandra, DynamoDB, Elasticsearch, ClickHouse, Kafka, RabbitMQ, NATS, Docker,
    Kubernetes, Helm, Terraform, Ansible, ArgoCD, Proxmox, AWS, GCP, Azure, RDS, S3, Lambda, React,
    Vue, Svelte, Angular, Astro, Next.js, Node.js, Node, Deno, Bun, Django, Flask, FastAPI, Rails,
    Spring, GraphQL, REST, gRPC, HTTP, WebSocket, MCP, Linux, macOS, Windows, Git, GitHub, GitLab,
    Neovim, Vim, Emacs, VS Code, Obsidian, Slack, Jira, Linear, Notion, Grafana, Prometheus,
    PyTorch, TensorFlow, pytest, Claude, ChatGPT, GPT-4, LLM, CRDT, OAuth, JWT, YAML, JSON, CSV,
    Markdown, Nginx, Stripe
    """
)
_SYMBOL_TAGS = {"C++": "cpp", "C#": "csharp", "F#": "fsharp", ".NET": "dotnet"}
_SYMBOL_TERMS = re.compile(r"(?<![\w+#])(C\+\+|C#|F#|\.NET)(?![\w+#])")

# Importance markers: (pattern, label). A critical marker lifts strength to the ceiling.
_CRITICAL = any_of(
    r"\b(critical(?:ly)?|crucial|vital|never forget|must never|life[- ]threatening|"
    r"under no circumstances|absolutely (?:must|never|essential|critical)|"
    r"extremely important|super important)\b",
)
_IMPORTANT = any_of(
    r"\b(important|remember (?:that|this)|don'?t forget|do not forget|note that|keep in mind|"
    r"make sure|essential|urgent|high priority|always remember|must always)\b|"
    r"^\s*remember\b[:,]?",
)


@dataclass(frozen=True, slots=True)
class Entity:
    name: str  # canonical: the note's title, the term's usual spelling, or the phrase as written
    source: str  # "vault" | "term" | "name"
    link: str | None = None  # wikilink target when the entity is a vault note
    text: str = ""  # as it appears in the text


@dataclass(frozen=True, slots=True)
class Importance:
    strength: float
    markers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Enrichment:
    entities: tuple[Entity, ...]
    strength: float
    markers: tuple[str, ...]
    tags: tuple[str, ...]

    @property
    def entity_names(self) -> list[str]:
        return [e.name for e in self.entities]

    @property
    def links(self) -> list[str]:
        return list(dict.fromkeys(f"[[{e.link}]]" for e in self.entities if e.link))


@functools.cache
def tech_gazetteer() -> Gazetteer:
    # "git", "vim", "aws" in lower case are how people type, not names: a short term counts
    # only as spelled ("Git", "AWS"); longer ones ("python", "kubernetes") in any case.
    return Gazetteer((Name(term, term) for term in TECH_TERMS), exact_case_up_to=3)


def extract_entities(
    text: str, vault: Gazetteer | None = None, limit: int = MAX_ENTITIES
) -> list[Entity]:
    tokens = tokenize(text)
    taken: set[int] = set()
    found: list[tuple[int, Entity]] = []
    if vault is not None:
        for m in vault.find(text, tokens, taken):
            found.append((m.start, Entity(m.name.target, "vault", m.name.link, m.text)))
    for m in tech_gazetteer().find(text, tokens, taken):
        found.append((m.start, Entity(m.name.target, "term", None, m.text)))
    for sm in _SYMBOL_TERMS.finditer(text):
        found.append((sm.start(), Entity(sm.group(1), "term", None, sm.group(1))))
    if not _shouting(text):
        for start, phrase in _capitalised_phrases(text, tokens, taken):
            found.append((start, Entity(phrase, "name", None, phrase)))
    return _rank(found, limit)


def _rank(found: list[tuple[int, Entity]], limit: int) -> list[Entity]:
    priority = {"vault": 0, "term": 1, "name": 2}
    seen: set[str] = set()
    unique: list[tuple[int, Entity]] = []
    for start, e in sorted(found, key=lambda f: (priority[f[1].source], f[0])):
        if e.name.casefold() not in seen:
            seen.add(e.name.casefold())
            unique.append((start, e))
    kept = unique[:limit]
    kept.sort(key=lambda f: (-len(f[1].name), f[0]))  # longer = more specific
    return [e for _, e in kept]


def _shouting(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) > 0.6 * len(letters)


def _capitalised_phrases(
    text: str, tokens: Sequence[Token], taken: set[int]
) -> list[tuple[int, str]]:
    """Runs of capitalised words not already matched, minus sentence starters and noise."""

    def usable(i: int) -> bool:
        tok = tokens[i]
        return (
            i not in taken
            and tok.text[:1].isupper()
            and singular(tok.key) not in STOP_WORDS
            and tok.text not in NOISE_ACRONYMS
        )

    runs: list[list[int]] = []
    for i in range(len(tokens)):
        if not usable(i):
            continue
        if runs and runs[-1][-1] == i - 1 and _joins(text, tokens[i - 1], tokens[i]):
            runs[-1].append(i)
        else:
            runs.append([i])
    out: list[tuple[int, str]] = []
    for run in runs:
        if len(run) == 1 and _names_no_one(text, tokens, run[0]):
            continue
        if tokens[run[0]].initial:
            while len(run) > 1 and tokens[run[0]].key in COMMON_WORDS:
                run = run[1:]
            if len(run) == 1 and _reads_as_verb(tokens, run[0], taken):
                continue
        if len(run) == 1 and len(tokens[run[0]].text) < 2:
            continue
        start, end = tokens[run[0]].start, tokens[run[-1]].end
        phrase = " ".join(text[start:end].split())
        out.append((start, re.sub(r"['’]s$", "", phrase)))  # "Priya's" → "Priya"
    return out


_DETERMINERS = word_set(
    """
    the a an this that my our your his her their its every each no
    """
)


def _names_no_one(text: str, tokens: Sequence[Token], i: int) -> bool:
    """A lone capitalised common word that is a field's name (`Title: …`, `Status: done`) or
    a noun (`The Title says it all`), not the name of someone or something (`Lena: …` is)."""
    tok = tokens[i]
    if text[tok.end : tok.end + 1] == ":" and tok.key in COMMON_WORDS:
        return True
    return tok.key in COMMON_WORDS and i > 0 and tokens[i - 1].key in _DETERMINERS


# After an imperative ("Ask Priya", "Bought a bike", "Reread DDIA") comes its object.
_OBJECT_STARTERS = word_set(
    """
    the a an my our your this that these those it them him her me us to up out off some all any
    every more back
    """
)


def _reads_as_verb(tokens: Sequence[Token], i: int, taken: set[int]) -> bool:
    """A lone capitalised word opening a sentence: a common word, or a verb before its object."""
    tok = tokens[i]
    if tok.key in COMMON_WORDS and tok.text[1:] == tok.text[1:].lower():
        return True
    if i + 1 >= len(tokens) or tokens[i + 1].initial:
        return False
    after = tokens[i + 1]
    return i + 1 in taken or after.text[:1].isupper() or after.key in _OBJECT_STARTERS


def _joins(text: str, prev: Token, tok: Token) -> bool:
    gap = text[prev.end : tok.start]
    if gap in (" ", "-"):
        return True
    return len(prev.text) == 1 and gap == ". "  # "Ursula K. Le Guin"


def importance(text: str, entity_count: int) -> Importance:
    critical = [m.group(0).strip().lower() for m in _CRITICAL.finditer(text)]
    important = [m.group(0).strip(" :,").lower() for m in _IMPORTANT.finditer(text)]
    markers = tuple(dict.fromkeys(critical + important))
    strength = 1.0 + 0.3 * min(2, len(set(important)))
    if critical:
        strength += 1.0
    detailed = len(text) >= 300
    if detailed:
        strength += 0.1
    if entity_count >= 3 and (detailed or markers):
        strength += 0.1
    return Importance(round(min(2.0, strength), 2), markers)


def suggest_tags(
    text: str, entities: Sequence[Entity], vault_tags: Iterable[str], limit: int = MAX_TAGS
) -> list[str]:
    """The vault's own tags that the text or its entities name, then tags for technical terms."""
    words = {singular(word_key(t.text)) for t in tokenize(text)}
    entity_keys = {_tag_key(e.name) for e in entities}
    out: list[str] = []
    for tag in sorted(set(vault_tags)):
        last = _tag_word(tag)
        if last is None:
            continue
        if _tag_key(tag) in entity_keys or (
            len(last) >= 3 and last not in STOP_WORDS and last in words
        ):
            out.append(tag)
    for e in entities:
        if e.source == "term":
            tag = _SYMBOL_TAGS.get(e.name) or normalize_tag(e.name)
            if tag and tag not in out:
                out.append(tag)
    return out[:limit]


@functools.lru_cache(maxsize=4096)
def _tag_key(text: str) -> str:
    # cached: each save compares every tag of the vault with its words (pure, a str in)
    return singular("".join(c for c in text.casefold() if c.isalnum()))


@functools.lru_cache(maxsize=4096)
def _tag_word(tag: str) -> str | None:
    """The tag's last part as a word of text ("projects/side-quests" → "sidequest"); None for
    a tag of no parts."""
    parts = [p for p in tag.split("/") if p]
    return singular(parts[-1].replace("-", "").replace("_", "")) if parts else None


def enrich(text: str, vault: Gazetteer | None = None, vault_tags: Iterable[str] = ()) -> Enrichment:
    entities = extract_entities(text, vault)
    imp = importance(text, len(entities))
    tags = suggest_tags(text, entities, vault_tags)
    return Enrichment(tuple(entities), imp.strength, imp.markers, tuple(tags))
