"""Credentials said in plain words, and numbers that carry their own check digits.

"The wifi password at home is hunter2-Garden!", "My bank PIN is 4921", a card number, an
IBAN or a social security number: no token format gives these away. Words are read by
`core/credential_phrases.py`; numbers are recognised by their label, their shape and their
checksum (Luhn for cards, mod 97 and the country's length for IBANs), so that an order
number, a phone number, a record id or a hash is not taken for one.

Each finder yields (kind, start, end) spans of the value alone, so a redacted text keeps its
words ("The wifi password at home is [redacted]").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cortexgraph_vault.core.credential_phrases import phrase_spans
from cortexgraph_vault.core.credential_words import ID_LABELS
from cortexgraph_vault.core.english import phrases

Span = tuple[str, int, int]

_IS = r"(?:\s*(?::|=|-)\s*|\s+(?:is|was|are)\s*:?\s*)"
_NATIONAL_ID = re.compile(
    r"(?i)(?<![\w-])(?:ssn|social\s+security\s+(?:number|no\.?|#)|social\s+insurance\s+number|"
    r"national\s+(?:id|identity|insurance)\s+(?:number|no\.?|card)|passport\s+(?:number|no\.?)|"
    r"tax\s+(?:id|identification)(?:\s+number)?|driver'?s\s+licen[cs]e\s+(?:number|no\.?)|"
    r"id\s+card\s+number)" + _IS + r"(?P<id>[A-Z0-9](?:[ -]?[A-Z0-9]){4,20})(?![\w])"
)
_ID_WORDS = ("ssn", "social", "national", "passport", "tax", "licen", "id card")
# US social security numbers as written (never 000/666/9xx, never a 00 group or 0000 serial).
_SSN = re.compile(r"(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
# UK national insurance numbers: two letters (from the allowed set), six digits, A–D.
_NINO = re.compile(
    r"(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D](?![A-Za-z0-9])"
)
# A card number as people write it: one run of 13–19 digits, or groups of four (Amex and
# Diners 4-6-5 and 4-6-4) split by one kind of separator. Never part of a longer token: digits
# glued to letters, or joined by a dash or a dot to more of the token ("5297-9123-723605" in
# the record id d6755870-be0a-5297-9123-723605b93ccf), are an id or a hash; a run after "+",
# "#" or another group of digits is a phone or an order number; "0.4242…" is a float.
_NUMBER_RUN = re.compile(
    r"(?<![\w+.#/])(?<![\w][-.:])(?<!\d[ -])"
    r"(?:\d{13,19}|\d{4}(?P<s>[ -])\d{4}(?P=s)\d{4}(?P=s)\d{1,4}(?:(?P=s)\d{1,3})?"
    r"|\d{4}(?P<a>[ -])\d{6}(?P=a)\d{4,5})"
    r"(?![\w])(?![-.:/]\w)(?![ -]\d)"
)
_CARD_WORDS = phrases(
    "card, visa, mastercard, amex, discover, karte, carte, tarjeta, carta, cartão, kaart"
)
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![a-z0-9])")
# ISO 13616's registry: each country's IBANs have one length, so an upper-case hash that
# happens to pass mod 97 (one in 97 do) is not taken for an account.
IBAN_LENGTHS = {
    country: int(length)
    for country, length in re.findall(
        r"([A-Z]{2})(\d+)",
        """
    AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28
    EE20 EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26
    IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18
    NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24
    TR26 UA29 VA22 VG24 XK20
    """,
    )
}


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
    if IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact[2:4].isdigit():
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


_NO_DIGITS = str.maketrans("", "", "0123456789")


def credential_spans(text: str, low: str | None = None) -> Iterator[Span]:
    """`low` is `text.lower()` when the caller has it. Each finder runs only when the text
    holds the word or the digits it needs (most text holds neither)."""
    low = text.lower() if low is None else low
    digits = len(text) - len(text.translate(_NO_DIGITS))
    yield from phrase_spans(text, low, digits)
    if digits < 3:
        return
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
        if digits[0] in "23456" and luhn_valid(digits) and not _labelled_an_id(text, m.start()):
            yield "a payment card number", *m.span()


def _labelled_an_id(text: str, start: int) -> bool:
    """ "order number 4012…", "IMEI 4901…", "the serial number is 4111…": the words just
    before a number say it is an id, and none of them says card."""
    before = re.findall(r"[^\W\d_][\w-]*", text[max(0, start - 40) : start].lower())[-4:]
    if any(w.startswith(_CARD_WORDS) for w in before):
        return False
    return any(w in ID_LABELS for w in before)


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
