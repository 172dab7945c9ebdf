"""Everyday words that mean the same in what people tell an assistant about themselves, and
the kinds of things they ask about by name.

A query word in a group also matches the group's other words (query side only, at a lower
weight than the word itself), as a search engine's synonym filter does. A question often names
a kind ("does she play an instrument", "what does she drink") where the memory names the
thing ("guitar lessons", "coffee with oat milk"): a kind of `KINDS` also matches its members,
one way only (asking about coffee is not asking about tea). The bundled vector
model is good at "food allergies" → "allergic to peanuts" but not at "boss" → "manager";
this short list covers the relations people ask about most: work, family, home, health,
money, time. Pure data: stems are computed by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

from cortexgraph_vault.core.english import phrases

GROUPS: tuple[tuple[str, ...], ...] = tuple(
    tuple(group.split())
    for group in phrases(
        """
        boss manager supervisor superior, job work career employment occupation profession,
        employer company firm workplace, colleague coworker teammate,
        salary pay wage income paycheck earn, meeting standup, kid child son daughter,
        wife husband spouse partner boyfriend girlfriend fiance fiancee, mom mother mum parent,
        dad father parent, sibling brother sister, friend buddy pal, pet dog cat puppy kitten,
        home house apartment flat, car vehicle auto, doctor physician gp dentist,
        allergy allergic intolerance intolerant, injury injured hurt sprain fracture,
        commute commuting, gift present, sick ill illness disease condition,
        medicine medication meds prescription pill, food meal dish cuisine eat diet,
        drink beverage, hobby pastime interest, vacation holiday trip travel, birthday bday,
        phone mobile cell smartphone, computer laptop pc, movie film, book novel,
        school college university, teacher professor instructor, study learn course class,
        like love enjoy prefer favourite favorite, dislike hate avoid, buy purchase bought,
        move relocate moved, deadline due
        """
    )
    # the words of the tools people keep their notes in
    + phrases(
        """
        picture image photo screenshot, website site webpage,
        settings preferences configuration config options, math mathematical equation latex,
        delete remove erase, restore recover undelete, shortcut hotkey keybinding,
        merge combine, template boilerplate, domain url, alias nickname, folder directory,
        embed transclude transclusion, revision version, plugin extension addon
        """
    )
)


_DRINKS = "coffee tea juice water beer wine milk soda espresso latte smoothie cocoa"
_ANIMALS = "dog cat puppy kitten rabbit hamster parrot bird fish turtle horse"
_SPORTS = (
    "running football soccer tennis swimming cycling skiing hiking climbing basketball golf "
    "yoga handball hockey rowing boxing"
)
_WORKOUTS = "gym run jog swim cycle yoga weightlifting strength training pilates crossfit"
_FAMILY = (
    "mother father mom mum dad parent sister brother sibling aunt uncle cousin grandmother "
    "grandfather grandma grandpa son daughter child wife husband"
)
_TRANSPORT = "car bike bicycle bus train tram subway metro scooter taxi"
_LANGUAGES = (
    "english spanish french german swedish italian japanese chinese portuguese dutch russian "
    "arabic korean norwegian danish finnish"
)
KINDS: dict[str, str] = {
    "drink": _DRINKS,
    "beverage": _DRINKS,
    "caffeine": "coffee tea espresso latte cola",
    "instrument": "guitar piano violin drums cello flute ukulele bass saxophone trumpet",
    "music": "guitar piano violin drums singing choir band concert playlist",
    "animal": _ANIMALS,
    "pet": _ANIMALS,
    "sport": _SPORTS,
    "exercise": _WORKOUTS,
    "workout": _WORKOUTS,
    "fitness": _WORKOUTS,
    "weekend": "saturday sunday",
    "weekday": "monday tuesday wednesday thursday friday",
    "family": _FAMILY,
    "relative": _FAMILY,
    "parent": "mother father mom mum dad",
    "sibling": "sister brother",
    "money": "salary income pay earn wage savings budget raise bonus rent",
    "transport": _TRANSPORT,
    "commute": _TRANSPORT,
    "vehicle": "car bike bicycle scooter motorcycle van",
    "meal": "breakfast lunch dinner brunch supper",
    "language": _LANGUAGES,
    "live": "home house apartment flat rent neighbourhood neighborhood",
    "relax": "sauna spa massage meditation bath nap",
    "relaxation": "sauna spa massage meditation bath nap",
    "plant": "houseplant flower garden gardening herb",
    "gardening": "houseplant plant flower garden herb",
    "injury": "knee ankle wrist shoulder back",
    "celebrate": "birthday anniversary party wedding",
    "os": "linux windows macos fedora ubuntu debian",
    "editor": "vim neovim emacs vscode",
}


def synonym_map(stem: Callable[[list[str]], list[str]]) -> dict[str, tuple[str, ...]]:
    """Stem → the stems of its synonyms (a word in several groups gets all of them), and of
    the members of the kind it names."""
    out: dict[str, set[str]] = {}
    for group in GROUPS:
        stems = stem(list(group))
        for s in stems:
            out.setdefault(s, set()).update(t for t in stems if t != s)
    for kind, members in KINDS.items():
        (s,) = stem([kind])
        out.setdefault(s, set()).update(t for t in stem(members.split()) if t != s)
    return {s: tuple(sorted(others)) for s, others in out.items()}
