"""What a sentence is about, as a fact that can change: its slot, its holder, its value.

A *slot* is a kind of fact a person holds one value of at a time — where they live, who
employs them, which phone they carry. Statements name a slot by their phrasing ("I live in",
"moved to Berlin", "my manager is"), questions by the words that ask for it ("which city",
"who is the boss"). The lists below are kinds of phrasing, not particular sentences; a slot
not listed is still found by the words two sentences share (core/replacement.py).

The *holder* is whose fact it is: the person speaking (I, my, we, our, the user), a named
person ("Sam", "Mia"), or a relative ("my sister", "Maya's sister"): "Maya likes hiking" and
"Maya's sister lives in Lyon" share a name but not a holder.

Pure: no files, no clock.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from cortexgraph_vault.core.english import STOP_WORDS, any_of, word_set
from cortexgraph_vault.core.enrich import extract_entities

T = TypeVar("T")


def _cased(*alternatives: str) -> re.Pattern[str]:
    """Patterns whose capitals matter: "moved to Berlin" names a place, "moved to 10:15" not."""
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


_CAP = r"[A-Z][\w\-]+"
_CAR_MAKES = (
    "volkswagen|vw|toyota|honda|ford|tesla|kia|hyundai|bmw|audi|mercedes|volvo|skoda|renault|"
    "peugeot|citroen|citroën|fiat|nissan|mazda|subaru|polestar|opel|cupra|dacia|lexus|"
    "jeep|chevrolet|chevy|porsche|suzuki|mitsubishi|byd|rivian"
)
_TRADES = (
    "engineer|developer|programmer|designer|manager|analyst|consultant|nurse|teacher|doctor|"
    "scientist|researcher|architect|lawyer|accountant|intern|director|editor|writer|"
    "product owner|tester|administrator|admin|technician|chef|pharmacist|paramedic"
)


@dataclass(frozen=True)
class Slot:
    name: str
    states: tuple[re.Pattern[str], ...]  # a statement giving the slot's value
    asks: re.Pattern[str]  # a question asking for it
    single: bool = True  # one value at a time: a new value replaces the old one


def _slot(name: str, *states: re.Pattern[str], asks: re.Pattern[str], single: bool = True) -> Slot:
    return Slot(name, states, asks, single)


SLOTS: tuple[Slot, ...] = (
    _slot(
        "home",
        any_of(
            r"\b(?:live|lives|living|lived|reside|resides|residing)\s+(?:now\s+)?(?:in|at|near|outside)\b",
            r"\b(?:new|our|my)\s+(?:flat|apartment|house|place|home|address)\b",
            r"\b(?:moved|moving|move|relocated|relocating)\s+(?:house|flats?|apartments?|cities|countries|abroad|back home)\b",
            r"\b(?:rent|rents|own|owns|bought|buy|share|shares)\s+an?\s+(?:\w+\s+){0,2}(?:flat|apartment|house|home|place|studio|condo|cottage|bungalow|room)\b",
            r"\bhome is\b",
            r"\bbased\s+in\b",
            r"\bhome\s*town\b",
            r"\bneighbou?rhood\b",
        ),
        _cased(
            rf"\b(?:[Mm]oved|[Mm]oving|[Rr]elocated|[Rr]elocating)\s+(?:back\s+)?(?:to|into)\s+(?:the\s+)?{_CAP}",
            rf"\b(?:flat|apartment|house|studio|condo)\s+in\s+{_CAP}",
        ),
        asks=any_of(
            r"\b(?:live|lives|living|reside|resides|based|address|hometown)\b",
            r"\b(?:which|what)\s+(?:city|town|country|neighbou?rhood|district|part of town)\b",
            r"\bwhere\b.*\b(?:home|house|flat|apartment)\b",
        ),
    ),
    _slot(
        "employer",
        _cased(
            rf"\b(?:[Ww]orks?|[Ww]orking|[Ww]orked)\s+(?:\w+\s+){{0,4}}(?:at|for)\s+(?:the\s+)?{_CAP}",
            rf"\b(?:[Jj]oined|[Jj]oining|[Hh]ired\s+by|[Ee]mployed\s+(?:at|by))\s+(?:the\s+)?{_CAP}",
            rf"\b(?:job|position|role|offer)\s+(?:\w+\s+){{0,2}}(?:at|with)\s+(?:the\s+)?{_CAP}",
            rf"\b(?:{_TRADES})\s+(?:at|for|with)\s+(?:the\s+)?{_CAP}",
        ),
        any_of(
            r"\b(?:employer|new job|my job|left the company|changed jobs|laid off)\b",
            r"\bquit\s+(?:my|the|\w+)\s+(?:\w+\s+)?job\b",
            r"\bwork\w*\s+(?:for|at)\s+(?:the|a|an)\s+(?:[\w']+\s+){0,2}(?:council|department|ministry|agency|university|hospital|company|firm|startup|bank|school|charity|clinic|studio|agency)\b",
        ),
        asks=any_of(
            r"\b(?:employ\w*|employer|company|firm|works?\s+(?:at|for)|job)\b",
            # "where do I work?", not "where do I work out?"
            r"\bwhere\s+(?:do|does|did)\s+(?:\w+\s+){1,2}work(?!\s+out)\b",
        ),
    ),
    _slot(
        "job_title",
        any_of(
            r"\b(?:work|works|working)\s+as\s+(?:an?\s+)?\w+",
            rf"\b(?:i'm|i am|is|was|works as|became)\s+an?\s+(?:\w+\s+){{0,2}}(?:{_TRADES})\b",
            r"\b(?:promoted|promotion)\s+to\b",
            r"\bjob\s+title\b",
            r"\bchanged\s+careers?\b",
            r"\b(?:now|became|become)\s+(?:an?\s+)?(?:\w+\s+)?(?:engineer|designer|manager|teacher|nurse|doctor|developer|lead|director|analyst|consultant)\b",
            r"\b(?:teaches|taught|teaching)\b",
        ),
        asks=any_of(
            r"\b(?:job|title|role|position|career|profession|occupation)\b",
            r"\bdo(?:es)?\s+for\s+(?:work|a living)\b",
        ),
    ),
    _slot(
        "manager",
        any_of(r"\b(?:manager|boss|supervisor|line manager|team lead)\b", r"\breports?\s+to\b"),
        asks=any_of(r"\b(?:manager|boss|supervisor|report\w*\s+to|team lead)\b"),
    ),
    _slot(
        "partner",
        any_of(
            r"\b(?:my|our|his|her)\s+(?:partner|wife|husband|girlfriend|boyfriend|spouse|fianc[eé]e?)\b",
            r"\b(?:married|engaged|dating|broke up|divorced)\b",
        ),
        asks=any_of(r"\b(?:partner|wife|husband|girlfriend|boyfriend|spouse|married|dating)\b"),
    ),
    _slot(
        "phone",
        any_of(
            r"\b(?<!head)(?<!micro)(?<!ear)(?<!saxo)(?<!xylo)\w*phone(?:\s+\d+\w*)?\b",
            r"\bandroid phone\b",
            r"\bgalaxy\s+s\d+",
            r"\bpixel\s+\d+\w*",
            r"\b(?:oneplus|xiaomi|motorola|nokia|huawei)\b",
        ),
        asks=any_of(r"\b(?:phone|iphone|smartphone|mobile)\b"),
    ),
    _slot(
        "car",
        any_of(
            r"\b(?:car|drive\s+an?|drives\s+an?|vehicle|sedan|hatchback|suv|ev)\b",
            rf"\b(?:{_CAR_MAKES})\b",
        ),
        asks=any_of(r"\b(?:car|cars|drive|drives|vehicle)\b"),
    ),
    _slot(
        "computer",
        any_of(r"\b(?:laptop|macbook|thinkpad|desktop pc|workstation)\b"),
        asks=any_of(r"\b(?:laptop|computer|macbook|machine)\b"),
    ),
    _slot(
        "diet",
        any_of(
            r"\b(?:vegetarian|vegan|pescatarian|keto|paleo|diet|gluten[- ]free|dairy[- ]free|halal|kosher)\b",
            r"\b(?:eat|eats|eating|ate)\s+(?:no\s+)?(?:meat|fish|dairy|eggs|pork|beef|sugar)\b",
            r"\b(?:stopped|quit|gave up)\s+(?:eating\s+)?(?:meat|fish|dairy|eggs|sugar)\b",
        ),
        asks=any_of(r"\b(?:eat|eats|diet|food|vegetarian|vegan|meat)\b"),
    ),
    _slot(
        "school",
        any_of(
            r"\b(?:school|elementary|kindergarten|nursery|academy|preschool|high school|university|college)\b",
            r"\b(?:attends|attending|enrolled)\b",
        ),
        asks=any_of(r"\b(?:school|attend\w*|study|studies|university|college|kindergarten)\b"),
    ),
    _slot(
        "gym",
        any_of(
            r"\b(?:\w*gym|gyms|work\s*out|workouts?|working out|exercise|fitness class|personal trainer|yoga class|crossfit)\b"
        ),
        asks=any_of(r"\b(?:gym|work\s*out|workouts?|exercise|train|training|fitness)\b"),
    ),
    _slot(
        "sport",
        any_of(
            r"\b(?:play|plays|playing|played)\s+(?:in\s+)?(?:[\w\-]+\s+){0,3}(?:football|soccer|tennis|basketball|volleyball|badminton|squash|hockey|rugby|cricket|golf|padel|league)\b",
            r"\b(?:took up|taking up|take up|stopped|quit|gave up)\s+(?:\w+\s+){0,2}(?:football|soccer|tennis|swimming|running|cycling|climbing|bouldering|rowing|yoga|boxing|skiing|golf|padel)\b",
            r"\b(?:hobby|hobbies|sport)\b",
        ),
        asks=any_of(r"\b(?:sport|sports|hobby|hobbies|play|plays)\b"),
    ),
    _slot(
        "language_learning",
        _cased(
            rf"\b(?:[Ll]earning|[Ss]tudying|[Pp]ractis?c?ing|[Ll]essons\s+in|[Cc]lasses\s+in)\s+{_CAP}"
        ),
        any_of(r"\b(?:duolingo|babbel|language exchange|language class)\b"),
        asks=any_of(r"\blearn\w*\b.*\blanguage\b", r"\blanguage\b.*\blearn\w*\b", r"\bstudying\b"),
    ),
    _slot(
        "programming_language",
        any_of(
            r"\b(?:write|writes|writing|code|coding|program|programming)\s+(?:\w+\s+){0,2}(?:in\s+)?(?:python|go|golang|rust|java|kotlin|scala|typescript|javascript|ruby|php|elixir|c\+\+|c#|swift|haskell|clojure)\b",
            r"\bprogramming language\b",
        ),
        asks=any_of(r"\bprogramming language\b", r"\bcode\s+in\b"),
    ),
    _slot(
        "editor",
        any_of(
            r"\b(?:vs\s*code|vscode|vim|neovim|emacs|intellij|pycharm|webstorm|sublime text|helix|nano)\b",
            r"\b(?:my|our)\s+(?:text\s+)?(?:editor|ide)\b",
            r"\b(?:editor|ide)\s+(?:of choice|is)\b",
        ),
        asks=any_of(r"\b(?:editor|ide)\b"),
    ),
    _slot(
        "doctor",
        # who the doctor is, not a doctor doing something ("the doctor switched my pill")
        any_of(
            r"\b(?:my|our|family|new|a|the kids'|the children's)\s+(?:gp|doctor|physician|pediatrician|paediatrician)\b",
            r"\b(?:gp|doctor|physician|pediatrician|paediatrician)\s+is\b",
            r"\bregistered with\b",
        ),
        _cased(r"\bD[Rr]\.?\s+[A-Z]\w+"),
        asks=any_of(r"\b(?:gp|doctor|physician)\b"),
    ),
    _slot("dentist", any_of(r"\b(?:dentist|dental)\b"), asks=any_of(r"\b(?:dentist|dental)\b")),
    _slot(
        "bank",
        any_of(r"\b(?:bank|banking|current account|savings account|salary account)\b"),
        asks=any_of(r"\b(?:bank|account)\b"),
    ),
    _slot(
        "pet",
        any_of(r"\b(?:cat|cats|dog|dogs|puppy|kitten|pet|pets|rabbit|hamster|parrot)\b"),
        asks=any_of(r"\b(?:cat|cats|dog|dogs|pet|pets)\b"),
        single=False,
    ),
    _slot("rent", any_of(r"\b(?:rent|mortgage|landlord)\b"), asks=any_of(r"\b(?:rent|mortgage)\b")),
    _slot(
        "salary",
        any_of(r"\b(?:salary|paid|earn|earns|pay rise|raise)\b"),
        asks=any_of(r"\b(?:salary|earn|earns|paid)\b"),
    ),
    _slot(
        "commute",
        any_of(
            r"\b(?:commute|commutes|commuting)\b",
            r"\b(?:bike|cycle|drive|train|bus)\s+to\s+work\b",
        ),
        asks=any_of(r"\b(?:commute|get to work)\b"),
    ),
    _slot(
        "remote_work",
        any_of(r"\b(?:work(?:ing)? from home|wfh|remote|in the office|hybrid)\b"),
        asks=any_of(r"\b(?:remote\w*|from home|wfh|in the office|hybrid)\b"),
    ),
    _slot(
        "theme",
        any_of(r"\b(?:dark|light)\s+(?:mode|theme)\b", r"\btheme\b"),
        asks=any_of(r"\b(?:theme|dark mode|light mode)\b"),
    ),
    _slot(
        "coffee",
        any_of(
            r"\b(?:coffees?|espressos?|lattes?|cappuccinos?|flat whites?|americanos?|cortados?|macchiatos?|mochas?)\b"
        ),
        asks=any_of(r"\b(?:coffee)\b"),
    ),
    _slot("tea", any_of(r"\btea\b"), asks=any_of(r"\btea\b")),
    _slot(
        "medication",
        any_of(
            r"\b(?:take|takes|taking|prescribed|switched)\s+(?:\w+\s+){0,3}(?:pill|pills|tablets?|medication|medicine|inhaler)\b",
            r"\bfor\s+(?:my\s+)?(?:hay fever|allergies|migraines?|asthma|blood pressure)\s+i\s+take\b",
            r"\b\w{3,}(?:zine|dine|pril|olol|statin|mab|prazole|tadine|izine)\b",
        ),
        asks=any_of(r"\b(?:medication|medicine|pill|pills|take for|prescri\w+)\b"),
    ),
    _slot(
        "timezone",
        any_of(
            r"\btime\s*zone\b",
            r"\butc\s*[+-]\s*\d+\b",
            r"\b(?:cet|cest|pst|pdt|est|edt|gmt|bst)\b",
            r"\b(?:central|eastern|western|pacific|mountain|greenwich|british summer)\s+(?:european\s+|standard\s+)?time\b",
        ),
        asks=any_of(r"\btime\s*zone\b"),
    ),
)

# Words that find the memories stating a slot, for a question that names none of their words.
SLOT_SEEDS: dict[str, str] = {
    "home": "live lives living moved relocated flat apartment house home city based",
    "employer": "work works job company employer joined hired engineer developer designer "
    "analyst consultant nurse teacher manager",
    "job_title": "job role title works engineer career promoted",
    "manager": "manager boss supervisor reports",
    "partner": "partner wife husband girlfriend boyfriend married",
    "phone": "phone iphone pixel galaxy fairphone oneplus samsung",
    "car": "car drive drives vehicle " + _CAR_MAKES.replace("|", " "),
    "computer": "laptop macbook thinkpad computer",
    "diet": "vegetarian vegan pescatarian diet meat fish eat",
    "school": "school attends academy elementary primary kindergarten university",
    "gym": "gym workout exercise training fitness",
    "sport": "play football tennis swimming running cycling sport league",
    "language_learning": "learning lessons duolingo tutor language",
    "programming_language": "write code python go rust java typescript kotlin",
    "editor": "editor ide vim neovim emacs vscode",
    "doctor": "doctor gp physician clinic",
    "dentist": "dentist dental",
    "bank": "bank account salary",
    "pet": "cat dog pet",
    "rent": "rent mortgage landlord",
    "salary": "salary paid earn",
    "commute": "commute bike train cycle office",
    "remote_work": "remote home office hybrid",
    "theme": "theme dark light mode",
    "coffee": "coffee espresso latte cappuccino flat white americano cortado macchiato",
    "tea": "tea",
    "medication": "take pill medication tablets",
    "timezone": "time zone timezone",
}

_FAVOURITE = any_of(r"\b(?:favou?rite|go-to)\s+((?:[a-z]+\s+)?[a-z]+)")


# Nouns that turn a slot word before them into a modifier: a "phone plan", a "dentist
# appointment" or a "coffee grinder" is not the phone, the dentist or the coffee.
_HEADS = word_set(
    """
    plan plans bill bills case cover call calls number charger contract appointment appointments
    bag grinder machine maker notes review kit card app screen battery insurance repair repairs
    membership fee fees clinic practice visit check-up checkup cup mug order mode settings key
    keys seat seats park parking wash
    """
)
_NEXT_WORD = re.compile(r"(?:['’]s)?\s+([\w\-]+)")


def _states(pattern: re.Pattern[str], text: str) -> int | None:
    """Where `pattern` first states its slot in `text` (not as a modifier), if it does."""
    for m in pattern.finditer(text):
        following = _NEXT_WORD.match(text, m.end())
        if following is None or following.group(1).lower() not in _HEADS:
            return m.start()
    return None


# A save compares itself with the same candidate memories' texts as the saves before it: what
# a memory-sized text states is remembered by text (pure functions of it).
REMEMBERED_TEXT = 4096


def remembered_by_text(of_text: Callable[[str], T]) -> Callable[[str], T]:
    """`of_text`, its answers for texts up to REMEMBERED_TEXT long remembered."""
    remembered = lru_cache(maxsize=4096)(of_text)
    return lambda text: of_text(text) if len(text) > REMEMBERED_TEXT else remembered(text)


def slot_starts(text: str, among: frozenset[str] | None = None) -> dict[str, int]:
    """Each slot a statement gives a value of (of `among`, if given), and where it first does."""
    return {k: at for k, at in _all_starts(text) if among is None or k in among}


@remembered_by_text
def _all_starts(text: str) -> tuple[tuple[str, int], ...]:
    starts: dict[str, int] = {}
    for slot in SLOTS:
        for pattern in slot.states:
            at = _states(pattern, text)
            if at is not None:
                starts[slot.name] = min(starts.get(slot.name, at), at)
    for m in _FAVOURITE.finditer(text):
        starts.setdefault(f"favourite {_favourite_key(m.group(1))}", m.start())
    return tuple(starts.items())


LEADING_SPAN = 40  # characters from the first slot a statement states to another it leads with


def leading_slots(text: str) -> frozenset[str]:
    """The slots a statement is mainly about: the first it states, and those stated within a
    few words of it (clauses joined by "so", "and", a comma) — "I registered with a new GP,
    closer to the new flat" is about the doctor, not the home."""
    starts = slot_starts(text)
    if not starts:
        return frozenset()
    first = min(starts.values())
    return frozenset(name for name, at in starts.items() if at - first <= LEADING_SPAN)


def slots_stated(text: str, among: frozenset[str] | None = None) -> frozenset[str]:
    """The slots a statement gives a value of (a favourite thing counts as its own slot)."""
    return frozenset(slot_starts(text, among))


def slots_asked(text: str) -> frozenset[str]:
    """The slots a question asks for: those named first ("which colour theme do I like in my
    editor?" asks for a theme, not an editor)."""
    first: dict[str, int] = {}
    for s in SLOTS:
        m = s.asks.search(text)
        if m is not None:
            first[s.name] = m.start()
    for m in _FAVOURITE.finditer(text):
        first.setdefault(f"favourite {_favourite_key(m.group(1))}", m.start())
    if not first:
        return frozenset()
    at = min(first.values())
    return frozenset(name for name, start in first.items() if start == at)


def _favourite_key(words: str) -> str:
    parts = [w for w in words.lower().split() if w not in STOP_WORDS and w not in _NOT_A_THING]
    return parts[-1].removesuffix("s") if parts else "thing"


_NOT_A_THING = frozenset(["is", "was", "are", "were", "has", "had", "of", "for", "in", "on", "at"])


def single_valued(slot: str) -> bool:
    return next((s.single for s in SLOTS if s.name == slot), True)


# Who holds a fact ------------------------------------------------------------------------

_SELF = any_of(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us|the user|user's)\b",
)
RELATIVES = (
    "sister|brother|mother|mom|mum|father|dad|parents?|son|daughter|kids?|children|child|"
    "wife|husband|partner|girlfriend|boyfriend|spouse|grandmother|grandfather|grandma|grandpa|"
    "aunt|uncle|cousin|niece|nephew|friend|colleague|neighbou?r|roommate|flatmate|boss|manager"
)
_RELATIVE = re.compile(
    rf"\b(?:(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|(?P<owner>[A-Z]\w+)['’]s)\s+)"
    rf"(?P<rel>(?:\w+\s+)?(?:{RELATIVES}))\b"
)


@dataclass(frozen=True)
class Holder:
    """Whose fact a sentence states: the speaker, named people, relatives."""

    self_: bool
    names: frozenset[str]  # capitalised names, lower-cased
    relatives: frozenset[str]  # "sister", "daughter": the people named only by a relation


@lru_cache(maxsize=2048)
def entities_of(text: str) -> tuple[tuple[str, str, int], ...]:
    """(name, source, where) of the names in a text (core/enrich.py), kept for texts met
    again: a save weighs each candidate's text against the new one several times."""
    return tuple((e.name, e.source, text.find(e.text)) for e in extract_entities(text))


def holder_of(text: str, *, question: bool = False) -> Holder:
    """Whose fact a text states. Names count where they are a sentence's subject ("Mia moved
    school", "our daughter Mia attends…"), not a place or product met later, nor the owner of
    a relative ("Maya's sister": the sister holds it); in a question, wherever they are. A
    sentence with no subject at all ("Moved back to Denver.") is the speaker's own."""
    entities = [(name, at) for name, source, at in entities_of(text) if source == "name"]
    relatives = {
        m.group("rel").split()[-1].lower(): m
        for m in _RELATIVE.finditer(text)
        if _leads(text, m.start(), 2)
    }
    for m in _PLURAL_OWNERS.finditer(text):
        if _leads(text, m.start(), 1):
            relatives.setdefault(m.group("rel").lower(), m)
    owners = {
        m.group("owner").casefold()
        for m in relatives.values()
        if "owner" in m.groupdict() and m.group("owner")
    }
    apposed = {m.end() for m in relatives.values()}
    names = set()
    for name, at in entities:
        key = name.casefold()
        if key in owners:
            continue
        if question or _leads(text, at, 1) or any(0 < at - end <= 2 for end in apposed):
            names.add(key)
    self_ = bool(_SELF.search(text)) or not (names or relatives or _THIRD.search(text))
    return Holder(self_, frozenset(names), frozenset(relatives))


# a full stop after a title ("Dr. Moreau") ends no sentence
# "the kids' pediatrician": the kids hold it
_PLURAL_OWNERS = re.compile(
    r"\b(?:[Tt]he|[Oo]ur|[Mm]y)\s+(?P<rel>kids|children|parents|boys|girls|twins)['’]\s",
)
_SENTENCE_START = re.compile(
    r"(?:^|(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bSt)(?<!\bMrs)(?<!\bProf)[.!?;]\s+)"
)
_THIRD = any_of(r"^\W*(?:he|she|they|his|her|their|it|its)\b")


def _leads(text: str, at: int, words: int) -> bool:
    """Whether what starts at `at` opens its sentence, after at most `words` words."""
    start = max((m.end() for m in _SENTENCE_START.finditer(text, 0, at + 1)), default=0)
    return len(text[start:at].split()) <= words


def same_holder(a: Holder, b: Holder, slots: frozenset[str] = frozenset()) -> bool:
    """Whether two texts can be about one person's one fact.

    A shared name joins them; a relative holding the fact on one side only ("Maya's sister")
    parts them unless a shared name says who that relative is ("our daughter Mia" / "Mia").
    A relation that is itself the slot ("my manager is…") is no other holder.
    """
    shared_names = bool(_people(a.names) & _people(b.names))
    if not shared_names:
        own = _slot_relatives(slots)
        if a.relatives - own != b.relatives - own:
            return False
    if shared_names:
        return True
    if a.self_ and b.self_:
        return True
    return not (a.names or b.names) and not (a.relatives or b.relatives)


# Where one clause ends and the next, which may have another subject, begins: a sentence's
# end, a semicolon, or a comma before a joining word ("Priya left the company, so my new
# manager is Tom": Priya left, the manager is mine).
_CLAUSE_JOIN = any_of(r";\s*|,\s+(?=(?:so|and|but|because|while|whereas|although|though|then)\b)")


# "…; it's Dr. Haddad now": the clause goes on about the thing before, for the same holder
_THING_SUBJECT = any_of(r"\W*(?:it|it's|it’s|its|this|that|there|there's)\b")


def _clause_starts(text: str) -> list[int]:
    cuts = {m.end() for m in _SENTENCE_START.finditer(text)}
    cuts |= {m.end() for m in _CLAUSE_JOIN.finditer(text)}
    return sorted(cuts | {0})


def slot_holders(text: str, among: frozenset[str] | None = None) -> dict[str, Holder]:
    """Each slot a statement gives a value of (of `among`, if given), with whose it is: the
    holder of the clause that states it, so "Priya left the company, so my new manager is Tom"
    states Priya's employer and the speaker's manager. A clause with no subject of its own
    ("…and now teaches biology") has the one before it."""
    starts = slot_starts(text, among)
    if not starts:
        return {}
    cuts = _clause_starts(text)
    holders: list[Holder] = []
    for k, start in enumerate(cuts):
        clause = text[start : cuts[k + 1] if k + 1 < len(cuts) else len(text)]
        holder = holder_of(clause)
        has_subject = not _THING_SUBJECT.match(clause) and bool(
            holder.names or holder.relatives or _SELF.search(clause) or _THIRD.search(clause)
        )
        holders.append(holder if has_subject or not holders else holders[-1])
    return {slot: holders[bisect_right(cuts, at) - 1] for slot, at in starts.items()}


def _people(names: frozenset[str]) -> frozenset[str]:
    return frozenset(n for n in names if n.split()[0] not in STOP_WORDS)


def _slot_relatives(slots: frozenset[str]) -> frozenset[str]:
    out = set()
    if "manager" in slots:
        out |= {"manager", "boss"}
    if "partner" in slots:
        out |= {"partner", "wife", "husband", "girlfriend", "boyfriend", "spouse"}
    return frozenset(out)


# Change --------------------------------------------------------------------------------

CHANGE_CUES = any_of(
    r"\b(?:moved|moving|relocated)\s+(?:\w+\s+){0,3}(?:to|into|from)\b",
    r"\bswitch(?:ed|ing)?\b",
    r"\bno longer\b",
    r"\b(?:not|n't)\s+(?:\w+\s+){0,4}any\s*more\b",
    r"\binstead\b",
    r"\bchang(?:ed|ing)\b",
    r"\b(?:left|quit|stopped|gave up|dropped|sold|replaced|upgraded|downgraded|traded)\b",
    r"\bused to\b",
    r"\b(?:transferred|rebooked|rescheduled|postponed|pushed|slipped|delayed|brought forward)\b",
    r"\b(?:raised|lowered|increased|decreased|went up|went down|cut)\s+(?:\w+\s+){0,3}to\b",
    r"\b(?:took|taken|taking)\s+(?:up|over)\b",
    r"\bhanded\s+(?:\w+\s+){0,4}over\b",
    r"\b(?:promoted|demoted|laid off|retired|broke up|divorced|went fully|registered with)\b",
    r"\bany\s*more\b",
    r"\bafter the move\b",
)
# Words that say a value is current without saying the old one went: enough beside a slot,
# never alone beside shared words ("the release notes need a new screenshot").
WEAK_CUES = any_of(
    r"\bnew\b",
    r"\bnow\b",
    r"\bthese days\b",
    r"\bnowadays\b",
    r"\bfrom now on\b",
    r"\b(?:started|starting|joined|adopted|became|turned|got)\b",
    r"\bsince\b",
)
# Words that add to a fact rather than replace it.
ADDING = any_of(r"\bas well\b", r"\balso\b", r"\btoo\b", r"\bin addition\b", r"\bbesides\b")


def change_cues(text: str) -> list[str]:
    """The phrases that say something changed, the clear ones first."""
    clear = [m.group(0).lower() for m in CHANGE_CUES.finditer(text)]
    return clear + [m.group(0).lower() for m in WEAK_CUES.finditer(text)]


def clear_change(text: str) -> bool:
    return bool(CHANGE_CUES.search(text))


def adds(text: str) -> bool:
    return bool(ADDING.search(text))


# Values ------------------------------------------------------------------------------------

_NUMBER = any_of(r"\b\d+(?:[.,:]\d+)*(?:\s*(?:am|pm|h))?\b")
_WHEN = any_of(
    r"\b(?:january|february|march|april|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
)


@remembered_by_text
def when_values(text: str) -> frozenset[str]:
    """Numbers, times, dates and weekdays: what a rescheduled event changes."""
    out = {m.group(0).lower().replace(" ", "") for m in _NUMBER.finditer(text)}
    out |= {m.group(0).lower().removesuffix("s") for m in _WHEN.finditer(text)}
    return frozenset(out)
