"""Word lists the enrichment and intent heuristics share: common English words and stop words.

A vault note titled "Go", "Rest" or "Home" must not turn every "go", "rest" or "home" in a
chat into a link, and a capitalised word at the start of a sentence ("This", "Remember",
"What") is not a name. These lists are how the heuristics tell.
"""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """Words separated by white space, apostrophes dropped ("don't" → "dont", as keys are)."""
    return frozenset(text.replace("'", "").split())


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
