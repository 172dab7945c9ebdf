"""Credentials written in words: a credential's name near a value that looks like one.

    wifi password hunter4                 the name, then the value
    my PIN is four nine two two           name, a joining word, the value (digits spelled out)
    hunter4 is the wifi password          the value, then the name
    use 8842 for the alarm                "use" the value for what it opens
    alarm is 8842 to disarm               what a code opens, then digits
    to disarm the alarm, enter 8842       what to type to open it

The names and joining words come in seven languages (`core/credential_words.py`). A name
alone is no credential ("my PIN changed last week", "the password manager is 1Password"):
the value after it must look like one, and how it must look depends on how sure the name is.
A password may be any word ("the password is marmalade") unless it is ordinary talk ("is too
short", "ist abgelaufen"); a PIN or a code must be digits; a "key" or a "clave" must hold a
digit or a symbol ("the key is under the mat" is no key).

Each finder yields (kind, start, end) spans of the value alone, so a redacted text keeps its
words. Every pattern is anchored at a name found first, and reads a bounded window around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cortexgraph_vault.core.credential_words import (
    ANSWER_NAMES,
    CODE_QUALIFIERS,
    CODE_WORDS,
    DIGIT_WORDS,
    GENERAL_WORDS,
    GUARDED_NAMES,
    JOINING_WORDS,
    KEY_IN_VERBS,
    LOCKED_THINGS,
    MEASURE_WORDS,
    NOT_A_VALUE,
    NUMBER_NAMES,
    OF_WORDS,
    OPEN_VERBS,
    OPENS_WITH,
    ORDINARY_ENDINGS,
    PASSWORD_COMPOUND_ENDS,
    PASSWORD_NAMES,
    PASSWORD_SHORTHANDS,
    PASSWORD_THINGS,
    REPEAT_WORDS,
    TENS_WORDS,
    THE_WORDS,
    USE_AS_WORDS,
    USE_WORDS,
    alternation,
)

Span = tuple[str, int, int]

PASSWORD = "a password or passcode"
NUMBER = "a PIN or access code"
ANSWER = "a security answer"
GUARDED = "a password or secret value"

_START = r"(?<![\w])"
_END = r"(?![\w])"
_WORD = r"[^\W\d_][\w'’-]*"

# Every name, by how sure it is, and the kind of value it names. A compound ending in a
# password name is one ("WLAN-Passwort", "Routerpasswort"); "code" alone is a name only with
# what it opens (checked after).
_NAMES = {
    "answer": (ANSWER, alternation(ANSWER_NAMES)),
    "guarded": (GUARDED, alternation(GUARDED_NAMES)),
    "number": (
        NUMBER,
        alternation(CODE_QUALIFIERS)
        + r"(?:[\s-]+(?:panel|system|keypad|box|lock))?[\s-]?codes?|"
        + alternation(NUMBER_NAMES),
    ),
    "password": (
        PASSWORD,
        r"(?:[^\W\d_]{2,20}-?)?"
        + alternation(PASSWORD_COMPOUND_ENDS)
        + "|"
        + alternation(PASSWORD_NAMES),
    ),
    "short": (PASSWORD, alternation(PASSWORD_SHORTHANDS)),
    "code": (NUMBER, alternation(CODE_WORDS)),
    "thing": (NUMBER, alternation(LOCKED_THINGS)),
    "target": (PASSWORD, alternation(PASSWORD_THINGS)),
}
_NAME = re.compile(
    "(?i)" + _START + "(?:" + "|".join(f"(?P<{g}>{p})" for g, (_, p) in _NAMES.items()) + ")" + _END
)
_NAME_KIND = {group: kind for group, (kind, _) in _NAMES.items()}


def _hints(*lists: tuple[str, ...]) -> re.Pattern[str]:
    """The first four letters of each phrase's first word, found in lower-cased text: any
    text holding a phrase holds one of these, and most text holds none, so the patterns are
    not run over it at all."""
    starts = {p.lower().split()[0][:4] for names in lists for p in names}
    return re.compile("|".join(re.escape(s) for s in sorted(starts, key=len, reverse=True)))


_NAME_HINTS = _hints(
    ANSWER_NAMES,
    GUARDED_NAMES,
    NUMBER_NAMES,
    PASSWORD_NAMES,
    PASSWORD_COMPOUND_ENDS,
    CODE_QUALIFIERS,
    CODE_WORDS,
    PASSWORD_SHORTHANDS,
)
_THING_HINTS = _hints(LOCKED_THINGS)
_USE_HINTS = _hints(USE_WORDS)

# "for the NAS", "du wifi", "de la caja fuerte", "dell'allarme": what the name is of.
_OF = (
    r"(?P<of>\s+(?:" + alternation(OF_WORDS) + r"\s+(?:" + alternation(THE_WORDS) + r"\s+)?"
    r"|(?:dell|dall|all|nell|d|l)['’])" + _WORD + r"(?:\s+" + _WORD + r"){0,2})?"
)
_JOIN = (
    r"(?P<join>\s*(?P<mark>:|=|→|->|=>|⇒)\s*|\s+[-–—]\s+|['’]s\s+"
    r"|\s+(?P<said>" + alternation(JOINING_WORDS) + r")(?:\s*:)?\s+)"
)
_QUOTED = (
    r"(?P<quoted>\"[^\"\n]{2,80}\"|'[^'\n]{2,80}'|“[^”\n]{2,80}”|«[^»\n]{2,80}»|„[^“\n]{2,80}“)"
)
_SPELLED_WORD = _START + alternation(DIGIT_WORDS | TENS_WORDS | REPEAT_WORDS) + _END
_SPELLED = r"(?P<spelled>" + _SPELLED_WORD + r"(?:(?:\s*[,-]\s*|\s+)" + _SPELLED_WORD + "){1,15})"
# Digits in groups, perhaps with the star or hash a keypad wants, or one capital ("4521B").
_DIGITS = (
    r"(?P<digits>(?<![$€£+])[*#]?\d(?:[ -]?\d){2,15}(?:[#*]|[A-Z](?![\w]))?)(?![\w])(?![.,]\d)"
)
_TOKEN = r"(?P<token>[^\s\"“”«»„]{1,120})"
_VALUE = "(?:" + _QUOTED + "|" + _SPELLED + "|" + _DIGITS + "|" + _TOKEN + ")"

_AFTER_NAME = re.compile(r"(?i)" + _OF + _JOIN + _VALUE)
_RIGHT_AFTER = re.compile(r"(?i)\s+" + _VALUE)
# "mot de passe Gmail est …", "contraseña Netflix: …": where the name comes first, what it
# opens may follow it without a preposition.
_BRAND_THEN_JOIN = re.compile(r"\s+[A-Z][\w.&-]{1,30}" + _JOIN + _VALUE)
_CODE = f"(?:{_SPELLED}|{_DIGITS})"
_OPENS_WITH = re.compile(
    rf"(?i)\s+{alternation(OPENS_WITH)}\s+(?:(?:the\s+)?(?:code|pin|combination)\s+)?{_CODE}"
)
# The value before the name: "hunter4 is the wifi password", "4921 est mon code PIN".
_JOINS_BEFORE = ("is", "was", "ist", "war", "est", "c'est", "c’est", "es", "era", "è", "é")
_BEFORE_NAME = re.compile(
    rf"(?i)(?:^|(?<=\s)|(?<=[(\[\"“])){_VALUE}\s+{alternation(_JOINS_BEFORE)}"
    rf"\s+(?P<the>{alternation(THE_WORDS)})\s+(?P<between>(?:[\w-]+\s+|\w+['’]){{0,2}})$"
)
# "use hunter4 for the wifi", "utilise 8842 pour l'alarme".
_USE_AS = frozenset(USE_AS_WORDS)
_USE_FOR = re.compile(
    rf"(?i){_START}{alternation(USE_WORDS)}\s+{_VALUE}\s+{alternation(USE_AS_WORDS)}"
    rf"\s+(?:(?P<the>{alternation(THE_WORDS)})\s+|(?:l|dell|all)['’])?"
    r"(?P<between>(?:[\w-]+\s+|\w+['’]){0,2})$"
)
# The name ends its clause: punctuation, a joining word, or a capital starting a sentence.
_CLAUSE_END = (
    r"\s*(?:$|[.,;:!?)\]\n\"'»”]|[-–—]\s|\s+(?-i:[A-ZÀ-Þ])|(?i:\s+(?:and|but|so|or|which|that|because|und|aber|"
    r"oder|weil|et|mais|ou|car|y|pero|porque|e|ma|perché|mas|en|maar|omdat|dus|too|as\s+well)\b))"
)
# The name, with what it is of, ends its clause: "hunter4 is the password *for the NAS*."
_ENDS_CLAUSE = re.compile(r"(?i)" + _OF + _CLAUSE_END)
# After digits that a thing opens with: the end of the clause or what to do next.
_THING_CODE_END = re.compile(
    r"(?i)\s*(?:$|[.,;:!?)\]\n]|[-–—+#*]|\s+(?-i:[A-ZÀ-Þ])|\s+(?:to|then|and|press|plus|followed|um|zum|pour|para|"
    r"per|om|dann|puis|luego|poi|depois|dan|und|et|y|e|en)\b)"
)
_OPEN_THEN_KEY_IN = re.compile(
    rf"(?i){_START}(?:to|in\s+order\s+to|zum|um|pour|para|per|om)\s+{alternation(OPEN_VERBS)}"
    rf"{_END}[^.;\n]{{0,60}}?{_START}{alternation(KEY_IN_VERBS)}\s+{_CODE}"
)
_KEY_IN_TO_OPEN = re.compile(
    rf"(?i){_START}{alternation(KEY_IN_VERBS)}\s+{_CODE}\s+"
    r"(?:to|on|at|into|in|for|um|zum|auf|pour|sur|para|en|per|su|om|op|voor)\s+"
    rf"(?:(?:{alternation(THE_WORDS)})\s+|l['’])?"
    rf"(?:{alternation(OPEN_VERBS)}|{alternation(LOCKED_THINGS)}|get){_END}"
)
_YEAR_DATE = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")
# Tokens with digits that are not made up: times, ordinals, versions, decades, quantities.
_ORDINARY_TOKEN = re.compile(
    r"(?i)(?:\d{1,2}(?::\d{2})?(?:am|pm|h|hrs?|uhr)(?:\d{2})?|\d{1,2}[:h]\d{2}|\d+(?:st|nd|rd|th|e|er|ème|º|ª)"
    r"|v?\d+(?:\.\d+)+|\d+s|[$€£]?\d+(?:[.,]\d+)*[$€£%]?|\d+(?:k|m|g|kg|km|cm|mm|gb|mb|tb|ms|px|x|°c?)"
    r"|\d+-(?:character|char|digit|letter|day|hour|minute|year|week|month)s?)"
)
_THE = frozenset(w for w in THE_WORDS if " " not in w)
_OPENS_NEXT = re.compile(r"(?i)\s+(?:to|um|zum|pour|para|per|om)\s+" + alternation(OPEN_VERBS))
_ENGLISH_JOINS = frozenset({"is", "was", "are", "changed", "set", "now", "has"})
_LOCKED = re.compile(r"(?i)" + _START + alternation([*LOCKED_THINGS, *PASSWORD_THINGS]) + _END)
_CLAUSE_STARTS = ",;:(/|\n-–—"


def spelled_digit_count(spelled: str) -> int:
    """How many digits a number written out stands for ("four nine two two" → 4)."""
    count = 0
    for word in re.findall(r"[^\W\d_]+", spelled.lower()):
        if word in TENS_WORDS:
            count += 2
        elif word in DIGIT_WORDS or word in REPEAT_WORDS:
            count += 1
    return count


def _bare(token: str) -> str:
    return token.strip(".,;:!?)([]{}").strip()


def made_up(token: str) -> bool:
    """A token no dictionary holds: letters with digits or symbols in it ("hunter4",
    "Tr0ub4dor&3", "Blue-Otter-19"), and not a time, an ordinal, a version or a quantity."""
    bare = _bare(token)
    if len(bare) < 4 or not any(ch.isalpha() for ch in bare):
        return False
    if _ORDINARY_TOKEN.fullmatch(bare) or "://" in bare:
        return False
    has_digit = any(ch.isdigit() for ch in bare)
    inner_symbol = any(not ch.isalnum() and ch not in "-'’" for ch in bare)
    return has_digit or (inner_symbol and len(bare) >= 6)


def plain_word_is_value(token: str) -> bool:
    """After "password is": a word is a value unless it is ordinary talk ("is on", "is too",
    "ist abgelaufen", "est trop") or has the ending of an adjective ("complicated")."""
    bare = _bare(token)
    low = bare.lower()
    if len(bare) < 3 or low in NOT_A_VALUE or low in DIGIT_WORDS or low in TENS_WORDS:
        return False
    last = low.rsplit("-", 1)[-1]
    if last in NOT_A_VALUE:
        return False
    return not (low.isalpha() and low.endswith(ORDINARY_ENDINGS) and len(low) > 5)


def _digits_are_a_code(value: str, text: str, end: int, least: int) -> bool:
    digits = sum(ch.isdigit() for ch in value)
    if not least <= digits <= 16 or _YEAR_DATE.fullmatch(value):
        return False
    following = re.match(r"\s*([^\s,.;:!?]+)", text[end : end + 40])
    return following is None or following.group(1).lower() not in MEASURE_WORDS


def _looks_like_a_time(value: str) -> bool:
    """An alarm clock's "0630" is a time, not the alarm's code."""
    return len(value) == 4 and value.isdigit() and int(value[:2]) < 24 and int(value[2:]) < 60


def _least_digits(kind: str) -> int:
    """A PIN may be three digits (a CVV); a password of digits alone is at least four."""
    return 3 if kind == NUMBER else 4


def _value(
    m: re.Match[str], kind: str, text: str, *, plain: bool, least: int
) -> tuple[int, int] | None:
    """The span of the value a match found, if it is one for a name of this kind; `plain`:
    an ordinary-looking word may be the value (a password joined by "is" or ":")."""
    found = m.groupdict()
    if found.get("quoted"):
        return m.span("quoted")
    if found.get("spelled") and spelled_digit_count(found["spelled"]) >= 3:
        return m.span("spelled")
    if found.get("digits"):
        start, end = m.span("digits")
        return (start, end) if _digits_are_a_code(found["digits"], text, end, least) else None
    token = found.get("token")
    if not token:
        return None
    bare = _bare(token)
    start = m.start("token") + token.find(bare)
    end = start + len(bare)
    if kind == NUMBER:
        return (start, end) if made_up(bare) and sum(ch.isdigit() for ch in bare) >= 3 else None
    if made_up(bare) or (kind in (PASSWORD, ANSWER) and plain and plain_word_is_value(bare)):
        return start, end
    return None


def _opens_something(text: str, start: int, end: int) -> bool:
    return _LOCKED.search(text, start, end) is not None


def _short_name_stands_alone(text: str, start: int) -> bool:
    """ "pw: hunter4", "WiFi pw: …", "the pw is …" — but not "boarding pass: AB1234"."""
    before = text[max(0, start - 40) : start].rstrip()
    if not before or before[-1] in _CLAUSE_STARTS:
        return True
    word = re.findall(r"[\w'’-]+$", before)
    return bool(word) and (word[0].lower() in _THE or _LOCKED.fullmatch(word[0]) is not None)


def _joined_in_english(m: re.Match[str]) -> bool:
    said = m.group("said")
    return said is not None and said.split()[0].lower() in _ENGLISH_JOINS


def _after_name(
    text: str, kind: str, group: str, name_start: int, name_end: int
) -> Iterator[tuple[int, int]]:
    """Values after the name: joined to it ("is", ":", "lautet") or right after it."""
    least = _least_digits(kind)
    limit = min(len(text), name_end + 260)
    m = _AFTER_NAME.match(text, name_end, limit)
    if m is not None:
        of = m.span("of") if m.group("of") else (name_end, name_end)
        # a plain word is a password after a mark or in English ("ist abgelaufen" is no
        # password, and no list of such words is ever whole in seven languages)
        plain = bool(m.group("mark")) or kind == ANSWER or _joined_in_english(m)
        if group == "code" and not _opens_something(text, *of):
            pass  # "the code is on GitHub"
        elif group == "short" and not (m.group("mark") or _joined_in_english(m)):
            pass
        elif group == "thing":
            span = _value(m, kind, text, plain=False, least=3)
            if span is not None and (m.group("spelled") or _code_of_a_thing(text, *span)):
                yield span
        else:
            span = _value(m, kind, text, plain=plain, least=least)
            if span is not None:
                yield span
    if group == "password" and not text[name_start:name_end].lower().startswith(("pass", "pw")):
        brand = _BRAND_THEN_JOIN.match(text, name_end, limit)
        if brand is not None and made_up(brand.group("token") or ""):
            span = _value(brand, kind, text, plain=False, least=least)
            if span is not None:
                yield span
    if group in ("password", "number", "guarded", "short"):
        right = _RIGHT_AFTER.match(text, name_end, limit)
        # "pass Qwerty123" but not "pass the salt"
        if right is not None and (group != "short" or made_up(right.group("token") or "")):
            span = _value(right, kind, text, plain=False, least=least)
            if span is not None:
                yield span
    if group == "thing":
        opens = _OPENS_WITH.match(text, name_end, limit)
        if opens is not None:
            span = _value(opens, kind, text, plain=False, least=3)
            if span is not None:
                yield span


def _code_of_a_thing(text: str, start: int, end: int) -> bool:
    """ "the alarm is 8842" ends its clause or says what to do next ("to disarm", "then
    the hash key"); "the safe is 1990 vintage" and "my alarm is 0630" do not."""
    if _THING_CODE_END.match(text, end) is None:
        return False
    return not _looks_like_a_time(text[start:end]) or _OPENS_NEXT.match(text, end) is not None


def _before_name(
    text: str, kind: str, group: str, name_start: int, name_end: int
) -> Iterator[tuple[int, int]]:
    """Values before the name: "hunter4 is my wifi password", "use 8842 for the alarm". The
    name must end its clause: "1Password is my password *manager*" names no password."""
    ends = _ENDS_CLAUSE.match(text, name_end)
    if ends is None:
        return
    if group == "code" and not (ends.group("of") and _opens_something(text, *ends.span("of"))):
        return
    # the value and a few words: "use | hunter4 | for | the | home | wifi"; a number spelled
    # out is a few words itself. Read only when a word that joins them is there.
    window_start = max(0, name_start - 90)
    window = text[window_start:name_start]
    tail = window.lower().split()[-6:]
    patterns = []
    if group not in ("thing", "target") and any(w in _JOINS_BEFORE for w in tail):
        patterns.append(_BEFORE_NAME)
    if any(w in _USE_AS for w in tail):
        patterns.append(_USE_FOR)
    for pattern in patterns:
        m = pattern.search(window)
        if m is None or _general(m.group("between")):
            continue
        plain = group in ("password", "answer")
        span = _value(m, kind, window, plain=plain, least=_least_digits(kind))
        if span is not None:
            yield window_start + span[0], window_start + span[1]


def _general(between: str) -> bool:
    """ "1234 is the *most common* PIN" speaks of PINs in general."""
    return any(w.lower() in GENERAL_WORDS for w in re.findall(r"\w+", between))


def phrase_spans(text: str, low: str, digits: int) -> Iterator[Span]:
    """`low` is `text.lower()`; `digits` how many digits the text holds."""
    if not (
        _NAME_HINTS.search(low)
        or (digits >= 3 and _THING_HINTS.search(low))
        or _USE_HINTS.search(low)
    ):
        return
    for m in _NAME.finditer(text):
        group = m.lastgroup
        assert group is not None
        kind = _NAME_KIND[group]
        if group == "short" and not _short_name_stands_alone(text, m.start()):
            continue
        if group != "target":  # "wifi" is a name only in "use hunter4 for the wifi"
            for start, end in _after_name(text, kind, group, m.start(), m.end()):
                yield kind, start, end
        for start, end in _before_name(text, kind, group, m.start(), m.end()):
            yield kind, start, end
    if digits >= 3:
        for pattern in (_OPEN_THEN_KEY_IN, _KEY_IN_TO_OPEN):
            for m in pattern.finditer(text):
                span = _value(m, NUMBER, text, plain=False, least=3)
                if span is not None:
                    yield NUMBER, *span
