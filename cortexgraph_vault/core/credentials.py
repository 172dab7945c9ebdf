"""Credentials said in plain words, and numbers that carry their own check digits.

"The wifi password at home is hunter2-Garden!", "My bank PIN is 4921", a card number, an
IBAN or a social security number: no token format gives these away, so each is recognised by
its label and the shape of the value after it, and numbers by their checksum (Luhn for cards,
mod 97 for IBANs) so that an order number or a phone number is not taken for one.

Each finder yields (kind, start, end) spans of the value alone, so a redacted text keeps its
words ("The wifi password at home is [redacted]").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cortexgraph_vault.core.english import STOP_WORDS, word_set

Span = tuple[str, int, int]

# A label may be followed by one short phrase before its value: "password *at home* is",
# "PIN *for the garage door*:". Only prepositional phrases, so "password manager is ..."
# (a different thing) is not read as a password.
_PHRASE = (
    r"(?:\s+(?:for|of|to|at|on|in|from)(?:\s+(?:the|my|our|his|her|their|a))?(?:\s+[\w'-]+){1,2})?"
)
_IS = r"(?:\s*(?::|=|-)\s*|\s+(?:is|was|are)\s*:?\s*)"
_QUOTED = r"(?P<quoted>\"[^\"\n]{2,80}\"|'[^'\n]{2,80}'|“[^”\n]{2,80}”)"
_WORD = r"(?P<word>[^\s\"'“”]{3,200})"

# Words that follow "password is" without being one: "is on the sticker", "is too long".
_NOT_A_VALUE = STOP_WORDS | word_set(
    """
    expired expiring changed reset rotated stored saved kept written wrong correct incorrect
    required needed mandatory optional invalid valid weak strong long short easy hard simple
    new old same different unknown blank empty missing lost forgotten secret private shared
    case-sensitive sensitive hidden visible set unset enabled disabled locked unlocked stuck
    redacted
    """
)

_PASSWORD = re.compile(
    r"(?i)(?<![\w-])(?:wi-?fi\s+)?(?:password|passwd|passcode|passphrase|pass\s+phrase|pwd)"
    + _PHRASE + _IS + r"(?:" + _QUOTED + "|" + _WORD + ")"
)  # fmt: skip
_SECURITY_ANSWER = re.compile(
    r"(?i)(?<![\w-])(?:security\s+answer|answer\s+to\s+(?:my|the|her|his)\s+security\s+question|"
    r"security\s+question(?:'s)?\s+answer|mother'?s\s+maiden\s+name)"
    + _IS + r"(?:" + _QUOTED + "|" + _WORD + ")"
)  # fmt: skip
_DIGITS = r"(?P<digits>\d(?:[ -]?\d){2,15})(?![\d])"
_PIN = re.compile(
    r"(?i)(?<![\w-])(?:pin(?:\s+(?:code|number))?|cvv2?|cvc|card\s+security\s+code|"
    r"(?:alarm|door|gate|garage|safe|lock|locker|entry|keypad|unlock|building|"
    r"verification|2fa|otp)\s+code|combination)"
    + _PHRASE + r"(?:" + _IS + r"|\s+)" + _DIGITS
)  # fmt: skip
_NATIONAL_ID = re.compile(
    r"(?i)(?<![\w-])(?:ssn|social\s+security\s+(?:number|no\.?|#)|social\s+insurance\s+number|"
    r"national\s+(?:id|identity|insurance)\s+(?:number|no\.?|card)|passport\s+(?:number|no\.?)|"
    r"tax\s+(?:id|identification)(?:\s+number)?|driver'?s\s+licen[cs]e\s+(?:number|no\.?)|"
    r"id\s+card\s+number)"
    + _IS + r"(?P<id>[A-Z0-9](?:[ -]?[A-Z0-9]){4,20})(?![\w])"
)  # fmt: skip
_ID_WORDS = ("ssn", "social", "national", "passport", "tax", "licen", "id card")
# US social security numbers as written (never 000/666/9xx, never a 00 group or 0000 serial).
_SSN = re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
# UK national insurance numbers: two letters (from the allowed set), six digits, A–D.
_NINO = re.compile(
    r"(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D](?![A-Za-z0-9])"
)
# A run of digits in groups; a run after "+" or inside a longer run is a phone number or an id.
# Not glued to a word or a decimal point: "word0.4242…" (a float's digits) is no card.
_NUMBER_RUN = re.compile(r"(?<![\w+.])(?<!\d[ -])\d(?:[ -]?\d){12,18}(?!\d|\.\d)(?![ -]\d)")
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![a-z0-9])")


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(compact: str) -> bool:
    """ISO 13616: move the country and check digits to the end, letters to numbers, mod 97."""
    if not 15 <= len(compact) <= 34 or not compact[2:4].isdigit():
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def _value_span(match: re.Match[str], *groups: str) -> tuple[int, int] | None:
    for name in groups:
        value = match.group(name)
        if value is not None:
            start, end = match.span(name)
            # The sentence's own punctuation is not part of the value ("is 7733, press").
            return start, end - (len(value) - len(value.rstrip(".,;:")))
    return None


def _plain_word_is_value(word: str) -> bool:
    """After "password is": a word is a value unless it is ordinary talk ("is on", "is too")."""
    bare = word.strip(".,;:!?)([]").lower()
    return len(bare) >= 3 and bare not in _NOT_A_VALUE


_NO_DIGITS = str.maketrans("", "", "0123456789")


def credential_spans(text: str, low: str | None = None) -> Iterator[Span]:
    """`low` is `text.lower()` when the caller has it. Each finder runs only when the text
    holds the word or the digits it needs (most text holds neither)."""
    low = text.lower() if low is None else low
    digits = len(text) - len(text.translate(_NO_DIGITS))
    if "pass" in low or "pwd" in low:
        for m in _PASSWORD.finditer(text):
            if m.group("quoted") or _plain_word_is_value(m.group("word")):
                start, end = _value_span(m, "quoted", "word") or m.span()
                yield "a password or passcode", start, end
    if "answer" in low or "maiden" in low:
        for m in _SECURITY_ANSWER.finditer(text):
            if m.group("quoted") or _plain_word_is_value(m.group("word")):
                start, end = _value_span(m, "quoted", "word") or m.span()
                yield "a security answer", start, end
    if digits < 3:
        return
    if any(w in low for w in ("pin", "cvv", "cvc", "code", "combination")):
        for m in _PIN.finditer(text):
            if sum(ch.isdigit() for ch in m.group("digits")) >= 3:
                yield "a PIN or access code", *m.span("digits")
    if any(w in low for w in _ID_WORDS) and digits >= 4:
        for m in _NATIONAL_ID.finditer(text):
            if sum(ch.isdigit() for ch in m.group("id")) >= 4:
                yield "a national id number", *m.span("id")
    if digits >= 9 and "-" in text:
        for m in _SSN.finditer(text):
            yield "a national id number", *m.span()
    if digits >= 6:
        for m in _NINO.finditer(text):
            yield "a national id number", *m.span()
    if digits >= 13:
        yield from _card_spans(text)
    yield from _iban_spans(text)


def _card_spans(text: str) -> Iterator[Span]:
    for m in _NUMBER_RUN.finditer(text):
        digits = re.sub(r"[ -]", "", m.group(0))
        # Card networks issue numbers starting 2–6 (Mastercard, Amex, Visa, Discover, ...).
        if 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn_valid(digits):
            yield "a payment card number", *m.span()


def _iban_spans(text: str) -> Iterator[Span]:
    for m in _IBAN.finditer(text):
        raw = m.group(0)
        # The run may have swallowed a following capitalised word ("DE89 … 00 FOR"): try it
        # whole, then ending at each earlier group.
        ends = [len(raw), *(i for i in range(len(raw) - 1, 14, -1) if raw[i] == " ")]
        for end in ends:
            if iban_valid(raw[:end].replace(" ", "")):
                yield "a bank account number (IBAN)", m.start(), m.start() + end
                break
