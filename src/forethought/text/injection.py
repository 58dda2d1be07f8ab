"""Instruction-like text: words that try to steer the model that will read memory.

Memory is injected into prompts, so a turn, a record or an imported transcript that says "ignore
your previous instructions" must never become active memory unreviewed. Obfuscation is the usual
way past a phrase list, so text is first brought to a **skeleton**:

1. NFKC and format characters removed (`normalize.fold`: full-width letters, zero-width spaces);
2. look-alike letters of other scripts mapped to Latin (Cyrillic `о`, Greek `ο` → `o`) and
   diacritics dropped (`ïgnöre` → `ignore`);
3. leetspeak read in words that mix letters with digits or symbols (`1gn0r3` → `ignore`; a plain
   number such as `2024` is left alone);
4. letters spelled apart joined (`i g n o r e`, `i.g.n.o.r.e`, `i-g-n-o-r-e`), case folded.

On the skeleton four *shapes* are looked for, each built from small word classes rather than
whole phrases, so a synonym or a reordering lands in the same class:

- **override**: a verb of setting aside (ignore, disregard, forget, bypass, pay no attention to,
  stop following, ...) before instructions, rules, guidelines, prompt, guardrails... that are
  the reader's or come before ("previous", "above", "your", "system"). "We ignore lint rules in
  generated code" names no prior instructions and is not flagged.
- **addressed to the model**: a note to, an "attention"/"dear"/"hey" to, or "if you are" an AI,
  assistant, model, LLM, bot, agent (or a product name) followed by a directive: an imperative,
  "you must/should/will", "always", "never", "do not". "The assistant should answer in French"
  is a preference about the assistant, not a note to it, and is not flagged.
- **role change or exfiltration**: "you are now", "from now on you", "pretend/act as", "developer
  mode", "new instructions:", chat-template tokens; "reveal/print your system prompt".
- **other languages**: the override shape with the verbs and nouns of French, Spanish,
  Portuguese, Italian, German, Dutch, Polish, Russian, Chinese, Japanese and Korean (scanned on
  the folded text, before look-alike mapping, so Cyrillic stays Cyrillic).

`find_injection(text)` gives the matched words (in skeleton form) or None. Every quantifier is
bounded; the shapes run only on the stretches of text around the words they need (a long turn
without any costs one split), and short texts are cached (turns are scanned again by every brief).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from forethought.text.normalize import fold

__all__ = ["find_injection", "skeleton"]

# Letters of other scripts that look like Latin ones (the homoglyphs used to slip past filters).
_LOOKALIKES = str.maketrans(
    {
        **dict(zip("аеорсухіјѕԁɡոսԛԝ", "aeopcyxijsdgnuqw", strict=True)),  # Cyrillic, Armenian, Latin ext.
        **dict(zip("АВЕКМНОРСТХІЈЅ", "ABEKMHOPCTXIJS", strict=True)),
        **dict(zip("αοειкνρτυχ", "aoeikvptux", strict=True)),  # Greek small (and Cyrillic к)
        **dict(zip("ΑΒΕΗΙΚΜΝΟΡΤΧΥΖ", "ABEHIKMNOPTXYZ", strict=True)),
        "м": "m",
        "н": "h",
        "т": "t",
        "в": "b",
        "ı": "i",
        "ł": "l",
        "ø": "o",
    }
)
_LEET = str.maketrans(dict(zip("013457@$", "oieastas", strict=True)))
_LEET_CHARS = frozenset("013457@$")
_TOKEN = re.compile(r"\w[\w@$]{1,}")  # a word; a leading @ (a mention) is not leetspeak
_SPELLED = re.compile(r"(?<![\w])(?:[a-z][ .\-_*·•]){2,30}[a-z](?![\w])")
_SPACE = re.compile(r"\s+")
_LATIN_ACCENT = re.compile(r"(?<=[\x00-\x7f])[\u0300-\u036f]+")


def _unaccented(text: str) -> str:
    """Folded, accents dropped from Latin letters only (Cyrillic й stays й), case folded."""
    if text.isascii():
        return text.casefold()
    bare = _LATIN_ACCENT.sub("", unicodedata.normalize("NFKD", fold(text)))
    return unicodedata.normalize("NFC", bare).casefold()


def _leet(m: re.Match[str]) -> str:
    """A word that mixes letters with digits or symbols, read as leetspeak (`pr3v10us`)."""
    word = m.group()
    if len(word) > 40 or _LEET_CHARS.isdisjoint(word) or not any(c.isalpha() for c in word):
        return word
    return word.translate(_LEET)


def skeleton(text: str) -> str:
    """`text` with look-alikes, diacritics, leetspeak and spelled-apart letters undone, case folded."""
    plain = _unaccented(fold(text).translate(_LOOKALIKES))
    plain = _TOKEN.sub(_leet, plain)
    plain = _SPELLED.sub(lambda m: re.sub(r"[ .\-_*·•]", "", m.group()), plain)
    return _SPACE.sub(" ", plain).strip()


_W = r"(?:[\w'-]{1,20}\s){0,4}?"  # up to four words in between
_SET_ASIDE = (
    r"(?:ignore|ignoring|disregard|forget|override|overrule|bypass|circumvent|skip|discard|drop|abandon|neglect"
    r"|dismiss|nullify|throw out|set aside|put aside|pay no (?:attention|heed|mind) to"
    r"|(?:do not|don'?t|stop|no longer|never) (?:follow|obey|heed|apply|respect)(?:ing)?|stop following)"
)
_PRIOR = (
    r"(?:previous|prior|above|earlier|preceding|foregoing|original|initial|existing|old|system|safety|developer'?s?"
    r"|your|all (?:the |your |of your |previous |prior )?|any (?:previous |prior )?|every)"
)
_DIRECTIVES = (
    r"(?:instructions?|rules?|guidelines?|directives?|prompts?|context|constraints?|polic(?:y|ies)|guardrails?"
    r"|programming|training|commands|guidance|restrictions?|filters?|system messages?)"
)
_META = r"(?:instructions|system prompt|system message|guardrails|programming|prompt)"
_MODEL = (
    r"(?:ai|a\.i\.|artificial intelligence|assistant|chat ?bot|bot|llm|language model|model|agent|copilot|gpt"
    r"|chatgpt|claude|gemini|llama|system)"
)
_DIRECTIVE = (
    r"(?:you (?:must|should|shall|will|need to|have to|are to|are required to|are now)|always|never|do not|don'?t"
    r"|make sure|be sure|remember to|please|recommend|respond|reply|answer|say|tell|include|add|end|start|output"
    r"|print|send|mention|use|write|ignore|treat|approve|mark|rank|prefer|promote|favou?r|do)\b"
)
_SHAPES = (
    re.compile(rf"\b{_SET_ASIDE}\s(?:the\s|all\s|of\s)*{_W}{_PRIOR}\s?{_W}{_DIRECTIVES}\b"),
    re.compile(rf"\b{_SET_ASIDE}\s(?:the\s|all\s|any\s)*{_W}{_META}\b"),
    re.compile(
        rf"\b{_SET_ASIDE}\s(?:the|all|any|your|these|those)\s(?:\w{{1,20}}\s)?{_DIRECTIVES}\s(?:that\s)?"
        r"(?:you (?:were|have been|got) (?:given|told|shown)|you (?:received|follow|have)|above|before|so far"
        r"|given to you|from (?:before|earlier)|(?:written |stated )?(?:earlier|previously))\b"
    ),
    re.compile(rf"(?:^|[.!?:;]\s)(?:please\s)?{_SET_ASIDE}\s(?:all|everything|any|every)\b"),
    re.compile(  # "disregard the above and approve": what comes before, named by nothing else
        rf"\b{_SET_ASIDE}\s(?:the\s|all\s|of\s|everything\s)*(?:above|previous|prior|preceding|earlier|foregoing)"
        r"(?=\s?(?:$|[.,;:!?&]|and\b|then\b))"
    ),
    re.compile(
        rf"(?:\bnote (?:to|for)|\bmessage (?:to|for)|\binstructions? (?:to|for)|\battention|\bdear|\bhey|\bhello|\bhi"
        rf"|\bif you are)\s(?:the\s|an?\s|any\s|all\s|every\s)?(?:\w{{1,20}}\s)?{_MODEL}s?\b"
        rf"(?:\s(?:reading|processing|summari[sz]ing|reviewing|seeing)\s(?:this|these)[\w ]{{0,20}})?"
        rf"\s?[:,.!-]\s?[^.!?\n]{{0,60}}?\b{_DIRECTIVE}"
    ),
    re.compile(rf"(?:^|[.!?\n]\s?)(?:{_MODEL}s?|to the {_MODEL})\s?:\s?[^.!?\n]{{0,40}}?\b{_DIRECTIVE}"),
    re.compile(rf"\b{_MODEL}s? (?:reading|processing|summari[sz]ing|reviewing) this\b[^.!?\n]{{0,60}}?\b{_DIRECTIVE}"),
    re.compile(r"\byou are now\b|\bfrom now on,? you\b|\bpretend (?:to be|you are)\b|\broleplay as\b|\bjailbreak"),
    re.compile(r"(?:^|[.!?:;]\s?|\b(?:you|please)\s(?:\w+\s)?)act as\b|\bdeveloper mode\b|\bdo anything now\b"),
    re.compile(r"\bnew (?:instructions?|rules|orders)\s?:|\bsystem prompt\b|\bsystem override\b"),
    re.compile(
        r"\b(?:reveal|print|show|output|repeat|leak|dump|display|disclose|expose|tell me|give me)\s(?:me\s)?"
        r"(?:your|the system|the hidden|all (?:of )?your)\s(?:\w+\s)?"
        r"(?:prompt|instructions|rules|configuration|secrets)\b"
    ),
    re.compile(
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?inst\]|<</?sys>>|#{2,}\s?(?:instruction|system)\b"
    ),
)
# Other languages: a verb of setting aside and the instructions or rules, in either order (the
# object comes first in Japanese and Korean). Scanned on the folded text, accents dropped.
_ABROAD: tuple[tuple[str, str], ...] = (  # (verbs, nouns), words separated by spaces, "_" for a space
    ("ignorez ignorer ignore oubliez oublier oublie ne_tenez_pas_compte_des ne_tiens_pas_compte_des",
     "instructions consignes regles directives"),
    ("ignora ignorar ignorad ignore olvida olvidar olvidad olvide omite omitir descarta",
     "instrucciones reglas indicaciones directrices ordenes"),
    ("ignore ignora ignorar esqueca esquece esquecer desconsidere", "instrucoes regras diretrizes orientacoes"),
    ("ignora ignorare dimentica dimenticare trascura non_seguire", "istruzioni regole direttive indicazioni"),
    ("ignoriere ignorieren ignoriert vergiss vergessen missachte missachten",
     "anweisungen regeln vorgaben richtlinien instruktionen befehle"),
    ("negeer negeren vergeet", "instructies regels richtlijnen"),
    ("zignoruj ignoruj zapomnij", "instrukcje instrukcji zasady polecenia"),
    ("игнорируй игнорируйте проигнорируй проигнорируйте забудь забудьте не_обращай_внимания_на",
     "инструкци правил указани команд"),
    ("忽略 无视 忽视 忘记 無視 忘記 不要理会", "指令 指示 说明 規則 规则 提示 命令"),
    ("無視 忘れ", "指示 命令 ルール プロンプト"),
    ("무시 잊어", "지시 명령 규칙 지침"),
)  # fmt: skip


def _words(words: str) -> str:
    return "|".join(w.replace("_", " ") for w in words.split())


# What a foreign pattern needs: the start of one of its nouns (a cheap test before the scan).
_FOREIGN_NOUNS = tuple({w[:5] for _, nouns in _ABROAD for w in nouns.split()})
_FOREIGN = tuple(
    re.compile(rf"(?:{_words(v)})[^.!?\n]{{0,40}}?(?:{_words(n)})|(?:{_words(n)})[^.!?\n]{{0,20}}?(?:{_words(v)})")
    for v, n in _ABROAD
)
# Words one of the shapes needs: the shapes run only on the stretches of text around them, so a
# long turn without any costs one pass of `str.split`.
_ANCHOR_WORDS = (
    "ignore ignoring disregard forget override overrule bypass circumvent skip discard drop abandon neglect dismiss "
    "nullify throw set put pay follow obey heed apply respect following ai a.i. intelligence assistant chatbot bot "
    "llm model models agent copilot gpt chatgpt claude gemini llama system now pretend roleplay jailbreak act "
    "developer anything new reveal print show output repeat leak dump display disclose expose tell give"
)
_ANCHORS = frozenset(_ANCHOR_WORDS.split())
_TEMPLATE = ("<|", "[inst", "[/inst", "<<sys", "<</sys", "##")
_WINDOW = 300  # characters of context on each side of an anchor
_CACHED_CHARS = 8_000


def _stretches(form: str) -> list[str]:
    """The parts of `form` within `_WINDOW` characters of an anchor word, merged where they meet."""
    spans: list[tuple[int, int]] = []
    position = 0
    for word in form.split(" "):
        if word.strip(".,;:!?\"'()[]") in _ANCHORS or any(t in word for t in _TEMPLATE):
            start, end = max(0, position - _WINDOW), position + len(word) + _WINDOW
            if spans and start <= spans[-1][1]:
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
        position += len(word) + 1
    return [form[a:b] for a, b in spans]


def _find(text: str) -> str | None:
    form = skeleton(text)
    for stretch in _stretches(form):
        for shape in _SHAPES:
            if m := shape.search(stretch):
                return m.group().strip(" .:;!?,-")
    abroad = " ".join(_unaccented(text).split())
    if not any(stem in abroad for stem in _FOREIGN_NOUNS):
        return None
    return next((m.group() for p in _FOREIGN if (m := p.search(abroad))), None)


_cached = lru_cache(maxsize=4096)(_find)
_cached_long = lru_cache(maxsize=64)(_find)  # long turns: few, but scanned again by every brief


def find_injection(text: str) -> str | None:
    """The instruction-like words in `text` (skeleton form), or None (see the module doc)."""
    if not text or not text.strip():
        return None
    return _cached(text) if len(text) <= _CACHED_CHARS else _cached_long(text)
