"""Does a chat message hold something worth remembering, or ask about something remembered?

Each decision adds up weighted phrase signals (kinds of phrasing, never particular messages)
and turns the sum into a confidence with the logistic function: auto at 0.7 or more, ask
from 0.4, skip below. `should` is true from 0.5, the point where the signals for outweigh
those against. The reasoning lists the signals in plain words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cortexgraph_vault.core.english import STOP_WORDS, any_of, word_set
from cortexgraph_vault.core.gazetteer import tokenize
from cortexgraph_vault.core.secrets import find_secrets

AUTO_AT = 0.7
ASK_AT = 0.4
SHOULD_AT = 0.5


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str
    phrase: str
    weight: float
    meaning: str


@dataclass(frozen=True, slots=True)
class Intent:
    confidence: float
    decision: str  # "auto" | "ask" | "skip"
    signals: tuple[Signal, ...]
    reasoning: str

    @property
    def should(self) -> bool:
        return self.confidence >= SHOULD_AT


_I = r"\b(?:i|we)"
_PAST_VERBS = (
    r"(?:say|said|tell|told|mention|mentioned|decide|decided|agree|agreed|conclude|concluded|"
    r"choose|chose|pick|picked|settle|settled|discuss|discussed|talk|talked|plan|planned|note|noted)"
)
_DATE = (
    r"(?:\d{1,2}(?:st|nd|rd|th)?\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|tomorrow\b|next (?:week|month|year)\b)"
)
_WH = r"\b(?:what|whats|what's|who|whom|which|when|where|how|why)\b"

# Saving: what the message says about the person or their world.
SAVE_TRIGGER = any_of(
    r"(?<!do you )(?<!did you )(?<!do u )\bremember (?:that|this)\b",
    r"^\W*(?:please |pls )?remember\b(?!\s+(?:when|what|how|who|where|which|if|whether)\b)",
    r"\bplease remember\b",
    r"\b(?:can|could|would|will) (?:you|u) (?:please )?remember that\b",
    r"\b(?:don't|do not|never) forget\b",
    r"\bnote that\b",
    r"\bmake a note\b",
    r"\bkeep in mind\b",
    r"\bfor (?:future reference|the record)\b",
    r"\bsave this\b",
    r"\bfyi\b",
    r"\bjust so you know\b",
    r"\bheads up\b",
    r"\bfor your information\b",
)
IMPORTANCE = any_of(r"\b(?:critical|crucial|vital|essential|important|urgent)\b")
PREFERENCE = any_of(
    r"\bi(?:'m| am)? (?:really |also |much |generally |do |truly |honestly |kind of |actually )?(?:prefer|like|love|enjoy|hate|dislike|loathe|adore|avoid|want|can't stand|cannot stand)\b",
    r"\bi(?:'d| would) (?:rather|prefer)\b",
    r"\bmy (?:favou?rite|go-to)\b",
    r"\bi(?:'m| am) (?:not )?(?:a |a big |a huge |no )?fan of\b",
    r"\bi (?:always|never|usually|normally|typically|rarely|mostly|tend to)\b",
    r"\bi (?:don't|do not) (?:like|drink|eat|use|want|do|care for|enjoy)\b",
    r"\bi find (?:\w+ ){0,3}(?:overkill|annoying|useful|confusing|helpful|easier|harder|better|worse)\b",
    r"\bmy (?:rule|habit|routine|policy|preference)s?\b",
)
INSTRUCTION = any_of(
    r"\b(?:please )?(?:don't|do not|never) (?:ever )?(?:use|add|write|suggest|include|give|send|call|put|recommend|mention|show)\b",
    r"\bkeep (?:your|the) (?:answers|replies|responses|explanations|messages|summaries|code)\b",
    r"\bwhen you (?:explain|write|answer|reply|respond|suggest|give|review|recommend|summari[sz]e)\b",
    r"\b(?:call me|address me as)\b",
    r"^\W*(?:please )?(?:always|never|only) (?:answer|reply|respond|write|use|speak|talk|explain|give|show|include|format|suggest)\b",
)
DECISION = any_of(
    r"\b(?:decided|agreed|settled on|opted (?:for|to)|chose|chosen|picked|went with|going with|go with|signed up|booked|committed to)\b",
    r"\b(?:will|'ll) (?:use|keep|switch|move|go|stick)\b",
    r"\bswitch(?:ing|ed)? (?:\S+ ){0,3}to\b",
    r"\b(?:going forward|from now on|the plan is|final decision|decision made)\b",
    r"\bgoing to (?:stop|start|quit|switch|move|learn)\b",
    r"\bstarting (?:this|next|today|tomorrow|on)\b",
)
FACT = any_of(
    r"\bmy (?:[\w\-]+(?:'s)? ){0,2}(?:is|are|was|were|lives?|works?|runs?|owns?|has|starts?|ends?)\b",
    r"\bi(?:'m| am) (?:a|an|the|on|in|from|based|allergic|intolerant|lactose|gluten|diabetic|training|married|vegetarian|vegan|moving|only|currently|working|learning|responsible|\w+-\w+)\b",
    r"\bi(?:'m| am) (?:trying|aiming|working|saving up|learning) (?:to|on|for)\b",
    r"\bmy (?:goal|plan|target)\b",
    r"\bi (?:live|work|moved|studied|speak|run|drive|have|own|take|teach|commute|grew up|was born|get|lead|manage|use|wear|play|practi[cs]e|started|quit|stopped|gave up)\b",
    r"\b\w+ (?:prefers|likes|loves|hates|dislikes|can't stand|is allergic|owns|leads|manages|runs)\b",
    r"\bi go by\b",
    r"\bmy pronouns\b",
    r"\bi've been (?:using|working|living|doing|learning|running)\b",
    r"\bour (?:[\w\-]+ ){0,2}(?:is|are|runs?|uses?|lives?|goes|go|starts?|has|have)\b",
    r"\bwe (?:have|use|run|own|deploy|ship|release|meet)\b",
    r"\bi (?:already )?\w+ed (?:\S+ ){0,3}to (?:next |this )?\w+day\b",
)
SCHEDULE = any_of(
    r"\b(?:is|are) (?:coming|visiting|arriving|leaving|starting|due|scheduled|out|off|away|back)\b",
    r"\b(?:moved|rescheduled|postponed|cancelled|canceled|pushed) (?:\S+ ){0,3}to\b",
    rf"\b(?:is|are|was|'s) (?:on |due |at |in |by )?(?:the )?{_DATE}",
    r"\b(?:gets?|got) (?:wiped|deleted|reset|rotated|renewed)\b",
    r"\buntil (?:the )?(?:\d|next |\w+day\b)",
    r"\b(?:every|each) (?:day|week|month|year|morning|evening|night|quarter|sprint|\w+day)\b",
    r"\b(?:is|are) (?:on|off) (?:holiday|vacation|leave|call|sick leave|parental leave)\b",
    r"^(?:the|our) [\w\- ]{2,40}? (?:is|are|runs?|lives?|sits?) (?:in|on|at|behind|under)\b",
)
UNCERTAIN = any_of(
    r"\b(?:maybe|perhaps|possibly|probably|someday|idk|undecided|unsure|tempted|kinda thinking)\b",
    r"\bnot sure\b",
    r"\bi wonder\b",
    r"\b(?:thinking|thought) (?:about|of)\b",
    r"\bi was thinking\b",
    r"\bconsidering\b",
    r"\bi guess\b",
    r"\bwho knows\b(?=\W*(?:$|[,.;!?]))",
    r"\bhaven't decided\b",
    r"\bon the fence\b",
    r"\bat some point\b",
    r"\bcould be\b",
    r"\bmay or may not\b",
    r"\bstill debating\b",
    r"\b(?:don't|do not) know (?:if|whether)\b",
    r"\bpart of me\b",
    r"\bmight\b",
)
TROUBLE = any_of(
    r"\b(?:error|errors|exception|traceback|stack trace|failing|crash(?:es|ed|ing)?|broken|timing out|not working)\b",
    r"\b(?:doesn't|does not|won't|can't|cannot) (?:work|compile|start|build|run|load|connect)\b",
    r"\b(?:a|one|quick) question\b",
    r"\b(?:a|an|some|this|the same) (?:problem|issue|bug)s?\b",
    r"\b(?:need|want) (?:some )?help\b",
)
_SMALL_TALK_WORDS = word_set(
    """hi hello hey morning good evening night afternoon bye goodbye later thanks thank you thx ty
    ok okay cool nice great perfect awesome lol haha hah yes yeah yep no nope sure got it np no
    worries sorry hmm interesting exactly one lifesaver happy friday weekend welcome wow agreed
    right true indeed fine alright that's thats hilarious funny how are doing today for now a lot
    so much let me think about it please"""
)

# Recalling: the message asks about something the person said before.
RECALL_ASK = any_of(
    r"\b(?:do|did) (?:you|u) (?:still |even )?(?:remember|recall)\b",
    r"\b(?:can|could|would|will) (?:you|u) (?:still |even )?(?:remember|recall)\b(?! that)",
    r"(?<!n't )(?<!not )\bremind me\b(?! to\b)",
    r"\bwhat do you know about\b",
    rf"{_WH}.*\b(?:did|have|had) (?:i|we) (?:ever )?{_PAST_VERBS}\b",
    r"\b(?:did|have) i (?:ever )?(?:tell|told|mention|mentioned|say|said|share|shared)\b",
    r"\bdo (?:you|u) (?:know|have) (?:my|our|where|what|when|who|which|how)\b",
    r"\bwhat (?:you|u) (?:remember|recall|know) about\b",
    r"^\W*(?:please )?recall\b",
    rf"\b(?:did|have|had) (?:i|we) (?:ever |already )?{_PAST_VERBS}\b",
    r"^\W*remember when\b",
)
PAST_REFERENCE = any_of(
    rf"\b(?:earlier|before|last time|previously|the other day|last week|yesterday),? (?:i|we) {_PAST_VERBS}\b",
    rf"{_I} (?:told you|mentioned|said|talked about|discussed|had|liked|loved|recommended|visited|went to|decided|agreed|chose|picked|settled on|concluded|planned)\b",
    r"\bdid \w+ (?:recommend|suggest|say|tell|mention|give|send)\b.*\bme\b",
    r"\bwhat was (?:that|the name of that|it)\b",
    r"\bwhat was the \w+(?: \w+){0,3} (?:i|we)\b",
)
PERSONAL_QUESTION = any_of(
    r"\b(?:what|when|where|who|which|how)(?:'s|s| is| are| was| were) (?:my|our)\b",
    r"\bwhat (?:do|did|am) i\b",
    r"\bwhich \w+ (?:do|did|am) i\b",
    r"\bwho is my\b",
    r"\b(?:what|which)(?:'s|s| is| are| was| were) the (?:names?|age|date|address|number|time|day) of (?:my|our)\b",
    r"\bhow old (?:is|are) (?:my|our)\b",
    r"\bwhat did (?:i|we)\b",
    r"\b(?:when|where|what time|how often) do (?:i|we) (?:usually|normally|always|typically)\b",
)
HOW_TO = any_of(r"\bhow (?:do|can|should|would) i\b", r"\b(?:should|can) i\b")
AGAIN = any_of(r"\bagain\W*$")

_QUESTION_START = any_of(
    r"^\W*(?:(?:what|whats|what's|who|whom|which|how|why)\b|(?:when|where)(?:'s|\s+(?:is|are|was|were|do|does|did|can|will|should))\b|"
    r"(?:is|are|do|does|did|can|could|would|will|should|have|has|was|were|am)"
    r"\s+(?:you|u|i|we|it|there|my|our|your|the|this|that|they|he|she|any)\b)",
)
_REQUEST_START = any_of(
    r"^\W*(?:(?:please|pls|plz|just|now)\s+)?(?:write|generate|explain|show|give|make|help|fix|add|"
    r"create|list|translate|convert|refactor|summari[sz]e|draft|check|find|suggest|turn|rewrite|"
    r"review|debug|build|implement|tell|describe|compare|send|set up|update|delete|remove|rename|"
    r"format|sort|calculate|compute|run|test|optimi[sz]e|clean up|look at|read|analy[sz]e)\b",
)
_POLITE_REQUEST = any_of(
    r"\b(?:can|could|would|will) (?:you|u) (?:please )?(?!remember\b|recall\b|remind\b)\w+"
    r"|\bhelp me\b|\bi need you to\b|\bi want you to\b|\bi(?:'d| would) like (?:a|an|the|to|you)\b"
    r"|\bi need (?:a|an|some)\b",
)
_FIRST_PERSON = any_of(r"\b(?:i|i'm|i've|i'd|my|we|we're|our|us)\b")
_DETAIL = any_of(
    r"\d|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"january|february|march|april|may|june|july|august|september|october|"
    r"november|december|tomorrow|next week|next month)\b",
)


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    m = pattern.search(text)
    return m.group(0).strip() if m else None


def is_question(text: str) -> bool:
    return text.rstrip().endswith("?") or bool(_QUESTION_START.match(text))


def is_request(text: str) -> bool:
    return bool(_REQUEST_START.match(text) or _POLITE_REQUEST.search(text))


def is_small_talk(text: str) -> bool:
    words = [t.key for t in tokenize(text)]
    if not words:
        return True
    chatty = sum(w in _SMALL_TALK_WORDS for w in words)
    return chatty / len(words) >= 0.6 or (len(words) <= 2 and not _FIRST_PERSON.search(text))


def _concrete(text: str) -> bool:
    """Names, dates or numbers mid-sentence: the stuff facts are made of."""
    if _DETAIL.search(text):
        return True
    return any(
        t.text[:1].isupper() and not t.initial and t.key not in STOP_WORDS for t in tokenize(text)
    )


class _Signals(list[Signal]):
    def add(self, kind: str, phrase: str | None, weight: float, meaning: str) -> None:
        """A signal, when its phrase was found (None: not found)."""
        if phrase is not None:
            self.append(Signal(kind, phrase, weight, meaning))


def _decide(bias: float, signals: list[Signal], verdicts: Sequence[str]) -> Intent:
    z = bias + sum(s.weight for s in signals)
    confidence = round(1 / (1 + math.exp(-z)), 3)
    decision = "auto" if confidence >= AUTO_AT else "ask" if confidence >= ASK_AT else "skip"
    verdict = verdicts[0 if decision == "auto" else 1 if decision == "ask" else 2]
    said = "; ".join(f"{s.meaning} (“{s.phrase}”)" if s.phrase else s.meaning for s in signals)
    reasoning = f"{said or 'no signal either way'}. Confidence {confidence:.2f}: {verdict}."
    return Intent(confidence, decision, tuple(signals), reasoning)


def analyze_save(text: str) -> Intent:
    text = " ".join(text.split())
    signals = _Signals()
    add = signals.add

    explicit = _first(SAVE_TRIGGER, text)
    add("save_trigger", explicit, 3.0, "asks for it to be remembered")
    add("importance", _first(IMPORTANCE, text), 1.5, "marks it as important")
    add("preference", _first(PREFERENCE, text), 2.5, "states a preference")
    instruction = _first(INSTRUCTION, text)
    add("instruction", instruction, 2.5, "gives a standing instruction")
    add("decision", _first(DECISION, text), 2.5, "records a decision or commitment")
    add("fact", _first(FACT, text), 2.0, "states a fact about the person or their world")
    add("schedule", _first(SCHEDULE, text), 1.5, "states a plan, a date or where something lives")
    question, recall = is_question(text), _first(RECALL_ASK, text)
    if _FIRST_PERSON.search(text) and not question:
        add("first_person", _first(_FIRST_PERSON, text), 0.8, "speaks about themselves")
    if _concrete(text) and not question and len(text.split()) >= 4:
        add("detail", "", 1.0, "has concrete details (names, dates, numbers)")
    add("recall", recall, -3.0, "asks about something said before")
    if question and explicit is None:
        add("question", "", -3.0, "is a question, not a statement")
    if is_request(text) and explicit is None and instruction is None:
        add("request", "", -3.0, "asks for something to be done")
    doubts = [m.group(0) for m in UNCERTAIN.finditer(text)]
    if doubts:
        add("uncertain", doubts[0], -2.5, "sounds unsure")
    if len(doubts) > 1:
        add("uncertain", doubts[1], -1.0, "sounds unsure again")
    add("trouble", _first(TROUBLE, text), -2.5, "describes a problem to solve now")
    if is_small_talk(text):
        add("small_talk", "", -3.0, "is small talk")
    secrets = find_secrets(text)
    if secrets:
        # Outweighs every signal for saving together: a credential is never worth committing.
        kinds = ", ".join(f.kind for f in secrets)
        add("secret", "", -30.0, f"holds a credential ({kinds}); never save it")
    return _decide(-1.5, signals, ("save it", "ask before saving", "not worth saving"))


def analyze_recall(text: str, mentions: Sequence[str] = (), relevant: Sequence[str] = ()) -> Intent:
    """`mentions`: names of the person's own notes found in the message (vault entities).
    `relevant`: titles of the memories the message is about (core/use_relevance.py): the
    decision auto-recall reinforces by, so the two never disagree — a message with such a
    memory is worth a search, and one without is not, whatever its phrasing hints."""
    text = " ".join(text.split())
    signals = _Signals()
    add = signals.add

    question = is_question(text)
    recall = _first(RECALL_ASK, text)
    add("recall_phrase", recall, 3.0, "asks about something said before")
    if question:
        add(
            "past_reference",
            _first(PAST_REFERENCE, text),
            2.0,
            "refers back to an earlier conversation",
        )
        personal = _first(PERSONAL_QUESTION, text)
        if personal is not None and not HOW_TO.search(text):
            add("personal_question", personal, 2.0, "asks about the person's own things")
        if mentions:
            add("mentions", ", ".join(mentions[:3]), 1.0, "names something in the vault")
        if AGAIN.search(text):
            add("again", "again", 1.5, "asks for something again")
        if HOW_TO.search(text) and recall is None:
            add("how_to", _first(HOW_TO, text), -1.0, "asks how to do something")
    elif recall is None:
        add("statement", "", -2.5, "is a statement, not a question about the past")
    if recall is None and is_request(text):
        add("request", "", -2.0, "asks for something to be done")
    if is_small_talk(text):
        add("small_talk", "", -2.0, "is small talk")
    if relevant:
        add("memory", ", ".join(f"“{t}”" for t in relevant[:3]), 4.0, "a memory is about this")
    return _decide(-1.0, signals, ("search memory", "maybe search memory", "no need to search"))


# Words a search query is better without: the recall phrasing and conversational filler.
_QUERY_FILLER = STOP_WORDS | word_set(
    """say said tell told mention mentioned decide decided know knew again ever still far already
    remind remember recall think thought talk talked discuss discussed agree agreed conclude
    concluded choose chose pick picked settle settled share shared name thing things stuff
    anything something whats u any idea right wait hey okay so use uses using usually"""
)
# Words too general to be a topic of conversation on their own.
_GENERIC = word_set(
    """want need like make made get got going doing done using use used really thing things
    stuff good bad better best work working lot much many time today week day something anything
    everything nothing someone people way ways kind sort pretty actually basically setting
    trying start started help look looking think know sure thinking wondering"""
)


def recall_query(text: str) -> str | None:
    """The message as a search query: "What did I say about databases?" → "databases"."""
    words = [t for t in tokenize(text) if t.key not in _QUERY_FILLER]
    query = " ".join(t.text.removesuffix("'s").removesuffix("’s") for t in words)
    return query or None


def topics(text: str, entity_names: Sequence[str], limit: int = 5) -> list[str]:
    """What a message is about: its entities, then its distinctive words, in order of appearance."""
    out = list(dict.fromkeys(entity_names))
    covered = {t.key for name in out for t in tokenize(name)}
    for t in tokenize(text):
        key = t.key
        if len(key) < 4 or key in _QUERY_FILLER or key in _GENERIC or key in covered:
            continue
        if key.isdigit():
            continue
        covered.add(key)
        out.append(key)
    return out[:limit]
