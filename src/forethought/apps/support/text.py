"""What the support rules read in a sentence: symptoms, products, outcomes, hedges and references.

Every span is a slice of the text it came from, so evidence quotes stay verbatim.
"""

from __future__ import annotations

import re
from functools import lru_cache

from forethought.text.words import STOPWORDS

__all__ = [
    "AGENT_HOLD",
    "FAILED",
    "HEDGE",
    "HISTORY",
    "NEGATION",
    "PARTIAL",
    "RECURRED",
    "REFER_BACK",
    "REFER_NOUN",
    "STILL",
    "SUCCEEDED",
    "SYMPTOM_USE",
    "attempted",
    "clause_prefix",
    "complaint",
    "outcome",
    "phrase_prefix",
    "product",
    "stated",
    "symptoms",
]

_WINDOW = 300
_CLAUSE_START = re.compile(r"[,;:—–]|\s-\s|\b(?:but|although|though|however|so|because|since|or)\b", re.I)


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_SYMPTOMS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, _c(pattern))
    for name, pattern in (
        ("disconnects", r"\bdisconnect\w*|\bdrop(?:s|ping|ped)?\s+(?:the\s+)?(?:internet\s+)?(?:connection|signal|"
         r"out|calls?)|\bkeeps?\s+dropping\b|\bcut(?:s|ting)?\s+out\b|\bdrops\s+every\b"),
        ("won't connect", r"\b(?:won't|can't|cannot|unable\s+to|doesn't|does\s+not|isn't|fails?\s+to)\s+(?:\w+\s+)?"
         r"connect\w*"),
        ("won't pair", r"\b(?:won't|can't|cannot|doesn't|not|fails?\s+to)\s+pair\w*"),
        ("no sound", r"\bno\s+(?:sound|audio)\b|\bsound\s+(?:\w+\s+){0,3}?(?:stopped|isn't|doesn't|not)\s+work\w*|"
         r"\bcan't\s+hear\b|\bonly\s+plays?\s+(?:from|in|on)\s+(?:the\s+)?(?:left|right)\b|\bcrackl\w*|\bstatic\b|"
         r"\bbuzz\w*"),
        ("crashes", r"\bcrash\w*|\bforce[- ]clos\w*|\bkeeps?\s+closing\b"),
        ("freezes", r"\bfreez\w*|\bfrozen\b|\bhangs?\b|\bunresponsive\b|\bstuck\s+on\b|\blag(?:s|ging)?\b"),
        ("won't turn on", r"\b(?:won't|doesn't|does\s+not|will\s+not)\s+(?:turn|power|switch|boot)\s+on\b"),
        ("won't charge", r"\b(?:won't|doesn't|isn't|not|stopped)\s+charg\w*"),
        ("battery drain", r"\bbattery\s+(?:\w+\s+)?(?:drains?|draining|dies|dying)\b|\bdrains?\s+(?:the\s+)?battery\b"),
        ("slow", r"\b(?:really\s+|very\s+|super\s+)?slow\b|\bsluggish\b|\bbuffer\w*"),
        ("overheating", r"\boverheat\w*|\bgets?\s+(?:really\s+|very\s+)?hot\b"),
        ("no internet", r"\bno\s+internet\b|\bcan't\s+get\s+online\b|\b(?:is|went|goes|shows?|says?)\s+(?:it's\s+)?"
         r"offline\b"),
        ("flickers", r"\bflicker\w*"),
        ("erratic", r"\bjump(?:s|ing|y)\s+around\b|\berratic\w*|\bghost\s+(?:touch|typing)\w*"),
        ("print quality", r"\bblank\s+pages?\b|\bstreak\w*|\bsmudg\w*"),
        ("logs out", r"\blogs?\s+me\s+out\b|\bkeeps?\s+logging\s+me\s+out\b|\bgetting\s+logged\s+out\b"),
        ("won't play", r"\b(?:won't|doesn't|can't|not)\s+play\w*|\bskip(?:s|ping)\s+(?:songs|tracks)\b"),
        ("login fails", r"\b(?:can't|cannot|unable\s+to)\s+(?:log|sign)\s*in\b|\blocked\s+out\b|\bkeeps?\s+asking\s+"
         r"for\s+(?:my\s+)?password\b|\bpassword\s+is\s+wrong\b"),
        ("won't sync", r"\b(?:won't|doesn't|not|isn't|stopped|fails?\s+to)\s+sync\w*"),
        ("won't load", r"\b(?:won't|doesn't|not|isn't)\s+load\w*|\bstuck\s+loading\b|\bblank\s+screen\b"),
        ("restarts itself", r"\bkeeps?\s+(?:restarting|rebooting)\b|\brestarts\s+(?:itself|randomly|on\s+its\s+own)\b|"
         r"\bboot\s*loop\b"),
        ("won't send", r"\b(?:won't|can't|doesn't|not)\s+send\w*"),
        ("jams", r"\bjams?\b|\bjamm\w*"),
        ("sticky keys", r"\bsticky\b"),
        ("error", r"\berror\b"),
        ("not working", r"\bstopped\s+working\b|\b(?:isn't|is\s+not|not|doesn't|does\s+not)\s+(?:\w+\s+)?"
         r"work(?:ing)?\b|\bbroken\b|\bbroke\b|\b(?:having\s+)?(?:trouble|problems?|issues?)\s+with\b"),
    )
)  # fmt: skip
_DEVICES = (
    r"bulb|light|lights|plug|lock|hub|kindle|e-reader|ps5|ps4|drone|fridge|washer|dryer|vacuum|soundbar|tv\s+remote|"
    r"headphones|earbuds|airpods|headset|speaker|soundbar|laptop|notebook|computer|pc|desktop|macbook|chromebook|"
    r"phone|iphone|smartphone|tablet|ipad|router|modem|printer|tv|television|remote|watch|smartwatch|keyboard|mouse|"
    r"monitor|camera|webcam|console|xbox|playstation|controller|thermostat|doorbell"
)
_SERVICES = r"app|account|email|site|website|browser|wifi|wi-fi|internet|connection"
_PRODUCT = _c(
    rf"\b(?:my|the|our|this|their)\s+(?P<phrase>(?:[\w-]+\s+){{0,2}}?(?:{_DEVICES}|{_SERVICES})(?:\s+(?:{_DEVICES}))*)\b"
    r"(?P<modifier>\s+(?:cache|settings|app|history|data|extensions?|update|firmware|drivers?|battery|cable|charger|"
    r"port|password|cookies))?"
)
_COMPLAINT = _c(
    r"\b(?:won't|can't|cannot|doesn't|does\s+not|isn't|is\s+not|aren't|are\s+not|don't|stopped|no\s+longer|fails?\s+to|"
    r"refuses\s+to|keeps?\s+\w+ing|stuck)\b"
)
_BARE_DEVICE = _c(rf"\b(?P<phrase>(?:{_DEVICES}|{_SERVICES}))\b")
_CONNECTIVITY = _c(r"\b(?:wifi|wi-fi|internet|connection)$")
_BRAND = re.compile(
    r"\b(?:Outlook|Zoom|Netflix|Spotify|Teams|Slack|Chrome|Gmail|Safari|Firefox|WhatsApp|AirPods|Kindle)\b"
)

HEDGE = _c(
    r"\b(?:will|going\s+to|gonna|should|could|can|might|may|want\s+to|need\s+to|have\s+to|plan(?:ning)?\s+to|if|"
    r"whether|how\s+(?:do|can|should)\s+i|how\s+to|let\s+me|told\s+me\s+to|asked\s+me\s+to|said\s+to|suggested|"
    r"recommended|supposed\s+to|hopefully|hope|unless|in\s+case|before\s+i)\b|'ll\b|'d\b"
)
NEGATION = _c(r"\b(?:haven't|have\s+not|hasn't|didn't|did\s+not|not|never|don't|do\s+not|without\s+(?:trying|doing))\b")
# Phrases that report a failure, and say which step failed by referring back to it ("that didn't help").
FAILED = _c(
    r"\b(?:didn't|did\s+not|doesn't|does\s+not|hasn't|has\s+not|won't)\s+(?:\w+\s+)?(?:help|work|fix|change|solve|"
    r"do\s+anything|make\s+(?:a|any)\s+difference)\b|\bno\s+(?:luck|change|difference|dice|improvement|joy)\b|"
    r"\bsame\s+(?:problem|issue|thing|result)\b|\bnothing\s+(?:helped|changed|worked)\b|\bdid\s+nothing\b|"
    r"\bmade\s+no\s+difference\b|\bto\s+no\s+avail\b|\b(?:not|isn't)\s+fixed\b|\bwas\s+useless\b|"
    r"\bstill\s+(?:not\s+working|broken|the\s+same|frozen|stuck|dead|happening|won't|doesn't|can't)\b|"
    r"\b(?:isn't|is\s+not|not|doesn't|does\s+not)\s+(?:\w+\s+)?(?:working|work)\b"
)
STILL = _c(r"\bstill\b|\bkeeps?\s+\w+ing\b")  # a state that only reads as failure after a stated attempt
PARTIAL = _c(
    r"\b(?:a\s+(?:bit|little)|slightly|somewhat|kind\s+of|kinda|much)\s+better\b|\bbetter\s+but\b|"
    r"\bhelped\s+(?:a\s+(?:bit|little)|somewhat|slightly|partially)\b|\bless\s+(?:often|frequent|frequently)\b|"
    r"\bimproved\s+(?:a\s+bit|slightly|somewhat|but)\b|\bpartly\b|\bpartially\b|\bnot\s+as\s+(?:often|bad)\b"
)
SUCCEEDED = _c(
    r"\b(?:that|this|it)\s+(?:fixed|solved|resolved|did)\s+(?:it|the\s+(?:trick|problem|issue))\b|\bfixed\s+it\b|"
    r"\bdid\s+the\s+trick\b|\b(?:works?|working|loads?|loading|printing|prints|connects?|connecting|charges?|charging|"
    r"syncs?|syncing)\s+(?:fine\s+|perfectly\s+|great\s+|properly\s+|normally\s+|again\s+)*now\b|"
    r"\bnow\s+(?:it\s+)?(?:works|working|loads)\b|\b(?:it|that)\s+worked\b|\bthat\s+did\s+it\b|\bproblem\s+solved\b|"
    r"\ball\s+good\s+now\b|\bback\s+to\s+normal\b|\b(?:been|is|it's)\s+(?:stable|fine|perfect)\b|"
    r"\bno\s+more\s+(?:drops|disconnects|disconnections|crashes|freezing|lag|problems|issues)\b|"
    r"\b(?:another|the\s+new|a\s+different)\s+[\w-]+\s+works\b|\bworks\s+(?:fine|perfectly|great)\b|"
    r"\b(?:it's|its|is)\s+(?:fixed|resolved|solved)\b|\b(?:working|works)\s+again\b|\b(?:seems?|looks?|is|it's|all)\s+"
    r"(?:to\s+be\s+)?(?:fine|good|ok|okay)\s+now\b|\b(?:is|are|it's)\s+gone\b|\b(?:it|and)\s+works\W*$|"
    r"\bnormally\s+now\b"
)
HISTORY = _c(
    r"\b(?:last\s+(?:week|month|year|time)|(?:back\s+)?in\s+(?-i:[A-Z][a-z]+|\d{4})|ago|before|previously|earlier|"
    r"used\s+to|had\s+(?:fixed|solved|resolved|worked|helped))\b"
)
RECURRED = _c(
    r"\bagain\b|\bcame\s+back\b|\bcoming\s+back\b|\b(?:is|are|it's|they're)\s+back\b|\breturned\b|\bre-?appeared\b|"
    r"\brecurr\w*"
)
# "Tried that", "did that", "done it": an attempt of the step the agent just suggested.
REFER_BACK = _c(
    r"\b(?:tried|did|done)\s+(?:that|it|this|those|both|them|all\s+(?:of\s+)?(?:that|them|those))\b|"
    r"^\W*(?:(?:ok(?:ay)?|yes|yep|yeah|sure)\W+)?(?:done|did\s+so)\b(?!\s+\w)"
)
# "did the reset", "tried the update": a noun naming the suggested step.
REFER_NOUN = _c(r"\b(?:did|done|tried|ran|finished)\s+(?:the|a|that)\s+(?P<noun>[\w-]+)")
# What an agent says when narrating, forbidding or conditioning a step rather than suggesting it.
AGENT_HOLD = _c(
    r"\b(?:if|since|because|already|you've|you\s+have|you\s+had|you\s+tried|you\s+did|you\s+said|you\s+mentioned|"
    r"don't|do\s+not|no\s+need|instead\s+of|rather\s+than|before\s+you|avoid|didn't|wouldn't|unless|after\s+you|"
    r"i've|i\s+have|i\s+just|we've|we\s+have)\b"
)
# "keeps restarting", "getting logged out": an action word used for a symptom.
SYMPTOM_USE = _c(r"\b(?:keeps?|kept|started|starts|getting|got|been|being|randomly)\s+$")
_PAST_IRREGULAR = frozenset(["reset", "did", "ran", "forgot", "took", "put", "set", "shut", "rebuilt"])
_QUESTION = _c(r"^\W*(?:should|can|could|would|do|does|is|are|will|shall|may|how|what|which|why)\b[^.!]*\?\s*$")
_ATTEMPT_CUE = _c(r"\b(?:tried|did|done|already|after)\b")
# "not sure it worked", "no evidence that it worked": a success phrase that is not a report of one.
_DOUBT = _c(r"\b(?:not|never|whether|unless|doubt\w*|no\s+(?:evidence|proof|idea|sign)|don't\s+know)\b")
_SENTENCE_HEDGE = _c(r"\b(?:hopefully|if|fingers\s+crossed|we'll\s+see|let\s+you\s+know|should)\b")


def phrase_prefix(sentence: str, at: int) -> str:
    """The words of `sentence` before `at`, back to the last punctuation: "Since X didn't help, try
    Y" keeps "Since" in X's prefix (where `clause_prefix` would start after it)."""
    before = sentence[max(0, at - _WINDOW) : at]
    starts = [m.end() for m in re.finditer(r"[,;:—–]|\s-\s", before)]
    return before[starts[-1] if starts else 0 :]


def clause_prefix(sentence: str, at: int) -> str:
    """The words of `sentence` before position `at`, back to the start of their clause."""
    before = sentence[max(0, at - _WINDOW) : at]  # a clause is never longer than this; keeps long input linear
    starts = [m.end() for m in _CLAUSE_START.finditer(before)]
    return before[starts[-1] if starts else 0 :]


def symptoms(sentence: str) -> list[str]:
    return [name for name, pattern in _SYMPTOMS if pattern.search(sentence)]


def complaint(sentence: str) -> bool:
    """A negated or stuck verb ("won't wake", "aren't arriving", "sync stopped"): a problem of some kind."""
    return bool(_COMPLAINT.search(sentence))


def product(sentence: str) -> str | None:
    """The device or app the sentence is about: the first one named, passing over connectivity ("my
    wifi keeps dropping on my work laptop" → "work laptop") and modifiers ("the browser cache"),
    else a named brand ("Outlook")."""
    found = list(_PRODUCT.finditer(sentence))
    phrases = [m.group("phrase") for m in found]
    owned = [
        m.group("phrase") for m in found if not _CONNECTIVITY.search(m.group("phrase")) and not m.group("modifier")
    ]
    if owned or phrases:
        return (owned or phrases)[0]
    if brand := _BRAND.search(sentence):
        return brand.group(0)
    bare = _BARE_DEVICE.search(sentence)
    return bare.group(0) if bare else None


def stated(sentence: str, start: int) -> bool:
    """Whether the step named at `start` is told as real, not planned, asked about, or denied."""
    if _is_question(sentence):
        return False
    prefix = clause_prefix(sentence, start)
    return not (
        HEDGE.search(prefix) or NEGATION.search(prefix) or SYMPTOM_USE.search(sentence[max(0, start - 40) : start])
    )


@lru_cache(maxsize=256)
def _is_question(sentence: str) -> bool:
    return bool(_QUESTION.search(sentence))


def attempted(sentence: str, start: int, end: int) -> bool:
    """Whether the customer says they did the step named at `start:end` ("I restarted", "tried
    clearing", "after I re-paired"); the bare noun ("the factory reset") is not enough."""
    if not stated(sentence, start):
        return False
    words = [w.lower().strip(",.") for w in sentence[start:end].split()]
    verb = words[1] if len(words) > 1 and words[0] in ("power", "hard", "soft") else words[0]  # "power cycled"
    past = verb.endswith("ed") or verb in _PAST_IRREGULAR
    return past or bool(_ATTEMPT_CUE.search(clause_prefix(sentence, start)))


# A state said to be fine ("X is fine", "Y works great now"): a resolution only when X is the
# problem itself ("it", "the connection" of a connection problem), not something else that is fine.
_FINE_STATE = _c(
    r"\b(?:is|are|been|it's|its|seems?|looks?|all)\s+(?:to\s+be\s+)?(?:fine|good|ok|okay|stable|perfect)\b|"
    r"\bworks?\s+(?:fine|perfectly|great)\b"
)  # not "the lag is gone": a symptom that went away is about the problem whatever its name
_ABOUT_IT = _c(r"\b(?:it|that|this|everything|all|things|problem|issue|fix)\b|^\W*$|^\W*(?:and|so|now)\W*$")
_SUBJECT_WORDS = re.compile(r"[a-z][a-z0-9-]{2,}")


def _someone_else_fine(sentence: str, success: re.Match[str], problem: str | None) -> bool:
    """True when a "... is fine" success names a subject other than the problem ("downstairs is
    fine" about a wifi drop upstairs)."""
    if not _FINE_STATE.search(success.group(0)):
        return False
    subject = clause_prefix(sentence, success.start())
    if _ABOUT_IT.search(subject):
        return False
    theirs = [w for w in _SUBJECT_WORDS.findall((problem or "").lower()) if w not in STOPWORDS]
    # the same word, inflected or not: "the connection is fine" of "it keeps disconnecting"
    return not any(w[:5] == p[:5] or p.startswith(w) or w.startswith(p)
                   for w in _SUBJECT_WORDS.findall(subject.lower()) if w not in STOPWORDS for p in theirs)  # fmt: skip


def outcome(sentence: str, problem: str | None = None) -> tuple[str | None, bool]:
    """(outcome, referential) of a customer sentence. Referential outcomes ("that didn't help",
    "that fixed it") may attach to the agent's last suggestion; a bare "still ..." may not.
    `problem` is the customer's problem as stated, so that "the TV is fine" about a broken
    router is not a success."""
    if _SENTENCE_HEDGE.search(sentence):
        return None, False
    if PARTIAL.search(sentence):
        return "partial", True
    if FAILED.search(sentence):
        return "failed", True
    if (success := SUCCEEDED.search(sentence)) and not _DOUBT.search(sentence[: success.start()]):
        return (None, False) if _someone_else_fine(sentence, success, problem) else ("succeeded", True)
    return ("failed", False) if STILL.search(sentence) else (None, False)
