"""Word lists the enrichment and intent heuristics share (common English words and stop words),
and the one way they write a pattern of alternatives.

A vault note titled "Go", "Rest" or "Home" must not turn every "go", "rest" or "home" in a
chat into a link, and a capitalised word at the start of a sentence ("This", "Remember",
"What") is not a name. These lists are how the heuristics tell.
"""

from __future__ import annotations

import re


def word_set(text: str) -> frozenset[str]:
    """Words separated by white space, apostrophes dropped ("don't" → "dont", as keys are)."""
    return frozenset(text.replace("'", "").split())


def phrases(text: str) -> tuple[str, ...]:
    """Phrases separated by commas, in order; a line break inside one counts as a space."""
    return tuple(p for p in (" ".join(part.split()) for part in text.split(",")) if p)


def any_of(*alternatives: str) -> re.Pattern[str]:
    """A pattern matching any of these patterns (or the one given), in any case."""
    return re.compile("|".join(f"(?:{a})" for a in alternatives), re.IGNORECASE)


# Function words, pronouns, question words, discourse markers and chat verbs: never an entity
# on their own, and dropped from the front of a capitalised run ("Remember Jonas" → "Jonas").
STOP_WORDS = word_set(
    """
    a about above after again against all also always am an and any anyway are as at be because
    been before being below between both but by can cannot could did do does doing done down
    during each either else even ever every few for from further had has have having he her here
    hers herself him himself his how however i i'd i'll i'm i've if in into is it it's its itself
    just least less let let's like may maybe me might mine more most much must my myself neither
    never no nor not now of off often on once only or other our ours ourselves out over own
    perhaps please probably quite rather really same shall she should since so some still such
    than that that's the their theirs them themselves then there these they this those though
    through thus to too under until up upon us very via was we we're we've were what what's when
    where whether which while who whom whose why will with within without would yes yet you your
    yours yourself yourselves
    hi hello hey thanks thank thx ok okay sure cool nice great yeah yep nope lol haha hmm oh ah
    wow well sorry bye cheers fyi btw tbh imo idk pls plz asap tl dr
    remember remind recall note notes save keep forget don't doesn't didn't can't won't isn't
    aren't wasn't weren't shouldn't wouldn't couldn't
    important critical crucial essential vital urgent
    today tonight tomorrow yesterday now later soon
    monday tuesday wednesday thursday friday saturday sunday
    january february march april june july august september october november december
    """
)

# Frequent English words that are also plausible one-word note titles or product names. A vault
# note (or term) whose whole name is one of these only matches with the exact case, mid-sentence.
COMMON_WORDS = word_set(
    """
    go going gone went run running rest key keys home work working job jobs time times day days
    week weeks month months year years life health career money family friends people person
    project projects plan plans goal goals idea ideas task tasks todo inbox daily journal log
    reading books book music travel trip food coffee tea lunch dinner breakfast sleep exercise
    meeting meetings notes note list lists index readme archive draft drafts template templates
    ideas area areas resource resources review reviews weekly monthly summary summaries topic
    topics question questions answer answers problem problems issue issues bug bugs fix change
    changes test tests build release releases deploy design code data base link links page pages
    home office team teams company client clients customer customers user users service services
    server servers system systems network setup setting settings config configuration tool tools
    game games movie movies film films show shows art writing reading learning study school
    class classes course courses lesson lessons language languages word words thing things
    stuff place places city cities country house room car cars bike phone computer laptop desk
    chair window windows door apple apples orange oranges rust swift ruby go pearl
    shell fish zip mail email post posts message messages chat chats call calls talk talks
    point points way ways part parts side sides end start stop open close light dark red green
    blue black white gold silver new old good bad big small long short high low early late
    first last next best better worse right left top bottom main core base basic simple
    spring summer autumn fall winter may march will mark bill rose grace hope joy faith sky
    sun moon star stars water fire earth air wind river sea lake garden park street road
    health running cooking baking gardening fitness yoga swimming cycling hiking climbing
    finance finances budget tax taxes insurance bank banking invest investing
    linear notion slack teams zoom signal bear things craft obsidian node react flask rails bun
    spring express
    favourite favourites favorite favorites colour colours color colors usual preferred
    current default typical regular ideal perfect worst least most only own other same whole
    morning mornings evening evenings night nights afternoon weekend weekends breakfast
    sister sisters brother brothers mother father mom mum dad parents parent kids kid children
    child son sons daughter daughters wife husband partner boyfriend girlfriend friend boss
    colleague colleagues neighbour neighbor birthday birthdays anniversary allergy allergies
    allergic vegetarian vegan pescatarian gluten dairy loves love likes hates dislikes prefers
    prefer wants needs uses lives works worked moved studied enjoys
    title titles name names subject status state type kind category priority description
    author owner date due deadline location source tag tags context result outcome version
    """
)

# Capitalised acronyms that are chat noise, not entities.
NOISE_ACRONYMS = word_set(
    "OK FYI TBH LOL IMO IMHO ASAP AM PM TL DR BTW IDK PLS OMG AFAIK IIRC ETA IT TV"
)

# Words of everyday talk that name no topic on their own: two sentences sharing "live",
# "days" or "plan" are not about the same thing. Recall and the supersession check weigh
# only the other words (and names) two texts share.
EVERYDAY_WORDS = word_set(
    """
    live lives lived living life day days daily time times week weeks weekly weekend weekends
    month months year years hour hours minute minutes moment today tonight morning mornings
    evening evenings night nights afternoon ahead ago past future soon lately recently later
    plan plans planning planned idea ideas thing things stuff lot lots bit kind sort way ways
    good great nice fine bad better best worse worst big small little long short high low
    new old first last next early late real true right wrong sure whole full half same other
    own different important hard easy free busy quick slow fun happy sad tired glad
    make makes made making get gets got getting go goes going went gone come comes came coming
    take takes took taking give gives gave given see sees saw seen look looks looked looking
    know knows knew think thinks thought feel feels felt want wants wanted need needs needed
    like likes liked love loves loved hate try tries tried trying use uses used using
    work works worked working job stay keep keeps kept let lets put say says said tell told ask
    left lose lost went wait waiting mind minds
    asked call called find found leave leaving start started stop stopped help helps helped
    talk talked mean means meant seem seems turn turns happen happens happened
    people person man woman guy guys everyone someone anyone nobody everybody somebody
    place places part parts point points end side area home world
    thanks thank please maybe really actually basically literally probably definitely
    something anything everything nothing much many more most few less least enough
    again still already also just even ever never always often sometimes usually
    these those this that here there where when what which who how why
    one two three four five six seven eight nine ten once twice
    team teams euro euros pound pounds dollar dollars percent cent cents km miles kg
    """
)
