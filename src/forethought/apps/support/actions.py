"""The troubleshooting vocabulary: paraphrases of an action mapped to one canonical name.

"restart bluetooth", "turned Bluetooth off and on again" and "toggle BT" are one action, so a
failed fix recommended again in other words is still caught. `normalise_action` is the public
entry point (the check stage reuses it); `find_actions` returns every mention with its span, which
the extractor needs to judge tense and negation around it. Entries are tried in order and an
earlier entry wins an overlap, so specific phrasings ("reinstall the drivers") come before general
ones ("reinstall").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ACTIONS",
    "Action",
    "ActionMention",
    "action_label",
    "action_stems",
    "find_actions",
    "next_step",
    "normalise_action",
]

_D = r"(?:(?:the|your|my|our|its|this|both|all\s+(?:the\s+)?)\s+)?"  # an optional determiner
_DEVICE = (
    r"(?:phone|iphone|smartphone|laptop|computer|pc|mac|macbook|chromebook|tablet|ipad|device|tv|television|console|"
    r"xbox|playstation|ps5|printer|watch|smartwatch|speaker|headphones|earbuds|airpods|headset|camera|controller|"
    r"mouse|keyboard|monitor)"
)


@dataclass(frozen=True)
class Action:
    name: str  # canonical, lower case
    label: str  # for statements: "restarting Bluetooth"
    area: str  # which next-step ladder it belongs to
    stems: tuple[str, ...]  # verbs that refer back to it ("Cleared it." → clear cache)
    patterns: tuple[re.Pattern[str], ...]


def _a(name: str, label: str, area: str, stems: str, *patterns: str) -> Action:
    return Action(name, label, area, tuple(stems.split()), tuple(re.compile(p, re.I) for p in patterns))


ACTIONS: tuple[Action, ...] = (
    _a("update drivers", "updating the drivers", "network", "update reinstall roll",
       rf"\b(?:updat|upgrad|re-?install|roll\w*\s+back)\w*\s+{_D}(?:[\w-]+\s+){{0,2}}?drivers?\b",
       r"\bdrivers?\s+updates?\b"),
    _a("update firmware", "updating the firmware", "bluetooth", "update flash upgrade",
       rf"\b(?:updat|upgrad|flash|install)\w*\s+{_D}(?:[\w-]+(?:'s|’s)?\s+){{0,2}}?firmware\b",
       r"\bfirmware\s+(?:update|upgrade)\w*", r"\bcheck\w*\s+for\s+(?:an?\s+|any\s+)?firmware\s+updates?\b"),
    _a("update the app", "updating the app", "app", "update upgrade",
       rf"\b(?:updat|upgrad)\w*\s+{_D}(?:[\w-]+\s+)?(?:app|apps|application|zoom|outlook|teams|slack|spotify|netflix|"
       r"chrome|browser|client)\b", r"\blatest\s+version\s+of\s+(?:the\s+)?(?:app|zoom|outlook)\b"),
    _a("update software", "updating the operating system", "device", "update upgrade install",
       rf"\b(?:updat|upgrad)\w*\s+{_D}(?:operating\s+system|os|ios|android|windows|macos|system|software)\b",
       r"\b(?:system|software|os|ios|android|windows|macos)\s+updates?\b",
       r"\binstall\w*\s+(?:the\s+)?latest\s+(?:system\s+|software\s+)?updates?\b"),
    _a("restart bluetooth", "restarting Bluetooth", "bluetooth", "restart reboot toggle turn cycle",
       rf"\b(?:re-?start|reboot|reset|cycl|power[- ]cycl|toggl)\w*\s+{_D}(?:bluetooth|bt)\b",
       rf"\b(?:turn|switch|flip)\w*\s+{_D}(?:bluetooth|bt)\s+(?:off\s+and\s+(?:back\s+)?on|on\s+and\s+off)\b",
       r"\b(?:bluetooth|bt)\s+(?:off\s+and\s+(?:back\s+)?on|on\s+and\s+off)\b"),
    _a("restart router", "restarting the router", "network", "restart reboot unplug reset",
       rf"\b(?:re-?start|reboot|reset|power[- ]cycl|unplug|cycl)\w*\s+{_D}(?:wi-?fi\s+|wireless\s+|internet\s+)?"
       r"(?:router|modem|gateway|access\s+point)\b"),
    _a("reset network settings", "resetting the network settings", "network", "reset",
       rf"\breset\w*\s+{_D}(?:[\w-]+(?:'s|’s)?\s+){{0,2}}?network\s+settings\b",
       r"\bnetwork\s+(?:settings\s+)?reset\b"),
    _a("forget wifi network", "forgetting and rejoining the Wi-Fi network", "network", "forget",
       rf"\bforg[eo]t\w*\s+{_D}(?:wi-?fi\s+|wireless\s+|home\s+)?network\b", rf"\bforg[eo]t\w*\s+{_D}wi-?fi\b"),
    _a("re-pair device", "re-pairing the device", "bluetooth", "pair re-pair repair unpair forget",
       r"\b(?:unpair|forg[eo]t|remov|disconnect)\w*\s+(?:[\w'-]+\s+){0,6}?(?:and|then)\s+(?:then\s+)?(?:re-?)?pair\w*"
       r"(?:\s+(?:it|them))?(?:\s+again)?", r"\bre-pair\w*",
       r"\bpair\w*\s+(?:it|them|(?:the\s+|your\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)\s+again\b", r"\bunpair\w*",
       rf"\bforg[eo]t\w*\s+{_D}(?:[\w-]+\s+)?(?:headphones|earbuds|airpods|device|speaker|watch|controller|mouse|"
       r"keyboard|headset)\b"),
    _a("reset password", "resetting the password", "account", "reset change",
       rf"\b(?:reset|chang)\w*\s+{_D}password\b", r"\bpassword\s+reset\b"),
    _a("factory reset", "a factory reset", "device", "reset wipe",
       r"\bfactory[- ]reset\w*",
       r"\breset\w*\s+(?:it\s+|them\s+|the\s+\w+\s+)?to\s+factory(?:\s+(?:settings|defaults))?",
       r"\bhard[- ]reset\w*", r"\bmaster\s+reset\b", rf"\bwip\w*\s+{_D}(?:device|phone|tablet)\b",
       rf"\breset\w*\s+{_D}(?:[\w-]+\s+)?{_DEVICE}\b", r"\breset(?:ting|s)?\s+(?:it|them)\b"),
    _a("restart device", "restarting the device", "device", "restart reboot cycle turn",
       rf"\b(?:re-?start|reboot|power[- ]cycl|hard[- ]restart)\w*\s+{_D}(?:[\w-]+\s+){{0,2}}?(?:{_DEVICE}|it|them|"
       r"everything|both)\b",
       rf"\b(?:turn|switch|power)\w*\s+(?:it|them|{_D}(?:[\w-]+\s+)?{_DEVICE})\s+off\s+and\s+(?:back\s+)?on\b",
       r"\b(?:re-?start|reboot|power[- ]cycl)\w*\b(?!\s+(?:the\s+|your\s+|my\s+)?(?:bluetooth|bt|router|modem|app|"
       r"zoom|outlook|browser)\b)"),
    _a("reinstall the app", "reinstalling the app", "app", "reinstall",
       r"\b(?:uninstall\w*\s+and\s+)?re-?install\w*\b", r"\bdelet\w*\s+(?:the\s+)?app\s+and\s+(?:re-?)?download\w*"),
    _a("clear cache", "clearing the cache", "app", "clear delete empty",
       rf"\b(?:clear|delet|empt|wip)\w*\s+(?:out\s+)?{_D}(?:[\w'’-]+\s+){{0,2}}?(?:cache|caches|cookies|browsing\s+data|"
       r"app\s+data|storage)\b", r"\bcache\s+clear\w*"),
    _a("log out and back in", "logging out and back in", "account", "log sign",
       r"\b(?:log|sign)(?:ged|ging|s)?\s+(?:out|off)\b", r"\b(?:log|sign)(?:ged|ging|s)?\s+back\s+in\b",
       r"\bremov\w*\s+(?:the\s+|your\s+)?account\b[^.!?]{0,40}?\badd\w*\s+it\s+(?:back|again)\b"),
    _a("disable vpn", "turning off the VPN", "network", "disable turn disconnect",
       rf"\b(?:turn|switch|shut)\w*\s+off\s+{_D}vpn\b", rf"\b(?:disabl|disconnect|deactivat|paus|clos)\w*\s+{_D}vpn\b",
       rf"\bturn\w*\s+{_D}vpn\s+off\b", r"\bvpn\s+off\b", r"\bwithout\s+(?:the\s+)?vpn\b"),
    _a("disable extensions", "disabling browser extensions", "browser", "disable remove turn",
       rf"\b(?:disabl|remov|deactivat)\w*\s+{_D}(?:browser\s+)?(?:extensions|add-?ons|plugins|ad-?blockers?)\b",
       rf"\bturn\w*\s+off\s+{_D}(?:browser\s+)?(?:extensions|add-?ons|plugins|ad-?blockers?)\b"),
    _a("try another browser", "trying another browser", "browser", "try switch",
       r"\b(?:a\s+different|another|other)\s+browser\b", r"\bswitch\w*\s+(?:to\s+)?(?:chrome|firefox|safari|edge)\b"),
    _a("change wifi channel", "changing the Wi-Fi channel", "network", "change switch",
       r"\bchang\w*\s+(?:the\s+)?(?:wi-?fi\s+|wireless\s+|router(?:'s)?\s+)?channels?\b",
       r"\bdifferent\s+(?:wi-?fi\s+)?channel\b", r"\b5\s?ghz\b"),
    _a("reposition router", "moving the router", "network", "move",
       r"\bmov\w*\s+(?:the\s+|your\s+|my\s+|it\s+)?(?:router\s+|modem\s+)?(?:closer|nearer)\b",
       rf"\bmov\w*\s+{_D}(?:router|modem)\b", r"\breposition\w*"),
    _a("disable battery saver", "turning off battery saver", "power", "disable turn",
       r"\b(?:turn\w*\s+off|disabl\w*|switch\w*\s+off)\s+(?:the\s+)?(?:battery|power)[- ](?:saver|saving)(?:\s+mode)?"),
    _a("enable battery saver", "turning on battery saver", "power", "enable turn",
       r"\b(?:(?:turn|switch)\w*\s+on\s+|enabl\w*\s+|activat\w*\s+)?(?:the\s+)?(?:battery|power)[- ](?:saver|saving)"
       r"(?:\s+mode)?"),
    _a("replace battery", "replacing the batteries", "power", "replace swap change",
       rf"\b(?:replac|swap|chang)\w*\s+(?:out\s+)?{_D}(?:[\w-]+\s+)?batter(?:y|ies)\b",
       r"\b(?:new|fresh)\s+batter(?:y|ies)\b"),
    _a("check cables", "trying another cable or charger", "power", "check swap reseat try",
       r"\b(?:a\s+different|another|other|a\s+new|the\s+original|a\s+certified|an?\s+official|a\s+genuine)\s+"
       r"(?:[\w-]+\s+)?(?:cable|cord|charger|adapter|outlet)\b",
       rf"\b(?:check|reseat|unplug|re-?plug|secur|tighten)\w*\s+(?:and\s+re-?plug\w*\s+)?{_D}(?:[\w-]+\s+)?"
       r"(?:cables?|cords?|connections?|plugs?)\b"),
    _a("use a wired connection", "using a wired connection", "network", "plug use connect switch",
       r"\b(?:wired|ethernet)\s+(?:ethernet\s+)?(?:connection|cable)\b",
       r"\bplug\w*\s+in\s+(?:an?\s+|the\s+)?ethernet\b",
       r"\b(?:use|try|switch\w*\s+to)\s+(?:an?\s+)?ethernet\b"),
    _a("clean device", "cleaning the device", "power", "clean",
       r"\bclean(?:ed|ing|s)?\s+(?:out\s+)?(?:the|your|my|it|them|its|both)\b",
       r"\b(?:run\w*\s+(?:the\s+|a\s+)?)?(?:print\s?head|head|nozzle)\s+clean\w*(?:\s+(?:cycle|utility))?"),
    _a("change audio output", "choosing the right audio output", "device", "select change switch set",
       r"\b(?:select|chang|switch|set)\w*\s+(?:[\w-]+\s+){0,5}?(?:audio\s+|sound\s+|playback\s+)?output(?:\s+device)?\b",
       r"\bdefault\s+(?:audio\s+|sound\s+|playback\s+)device\b"),
    _a("close other apps", "closing other apps", "app", "close quit",
       r"\b(?:clos|quit)\w*\s+(?:all\s+|any\s+)?(?:the\s+)?(?:other|background|unused)\s+(?:apps|applications|programs|"
       r"tabs|windows)\b"),
    _a("clear paper jam", "clearing the paper jam", "print", "clear check remove",
       r"\b(?:clear|remov|fix|check)\w*\s+(?:the\s+|a\s+|any\s+)?(?:paper\s+jam|jammed\s+paper|stuck\s+paper|torn\s+paper)",
       r"\bcheck\w*\s+(?:the\s+)?(?:paper\s+)?tray\b"),
    _a("toggle airplane mode", "toggling airplane mode", "network", "toggle turn",
       r"\b(?:toggl|turn|switch|cycl)\w*\s+(?:on\s+|off\s+)?(?:airplane|flight|aeroplane)\s+mode\b"),
    _a("run diagnostics", "running the diagnostics", "device", "run",
       r"\brun\w*\s+(?:the\s+|a\s+)?(?:[\w-]+\s+)?(?:diagnostics?|troubleshooter|self-?test)\b"),
)  # fmt: skip
_BY_NAME = {action.name: action for action in ACTIONS}
# What to try next after a failure, per area; the last resort is a person.
_LADDERS = {
    "bluetooth": ("restart bluetooth", "re-pair device", "update firmware", "reset network settings", "factory reset"),
    "network": ("restart router", "forget wifi network", "reposition router", "change wifi channel",
                "use a wired connection", "update drivers", "reset network settings"),
    "app": ("clear cache", "update the app", "log out and back in", "reinstall the app", "update software"),
    "browser": ("clear cache", "disable extensions", "try another browser"),
    "power": ("check cables", "clean device", "replace battery"),
    "device": ("restart device", "update software", "run diagnostics", "factory reset"),
    "print": ("clear paper jam", "restart device", "update drivers"),
    "account": ("reset password", "log out and back in"),
}  # fmt: skip


_AND_OBJECT = re.compile(
    r"\s*(?:,\s*)?(?:and|&)\s+(?:then\s+)?(?P<object>(?:(?:the|your|my|our)\s+)?[\w-]+(?:\s+[\w-]+)?)", re.I
)


@dataclass(frozen=True)
class ActionMention:
    action: Action
    start: int
    end: int


def _free(found: list[ActionMention], start: int, end: int) -> bool:
    return end > start and not any(m.start < end and start < m.end for m in found)


def _shared_verb(text: str, found: list[ActionMention]) -> list[ActionMention]:
    """'restart the printer and your router': the verb also governs the second object."""
    extra: list[ActionMention] = []
    for mention in found:
        verb = text[mention.start : mention.end].split()[0]
        tail = _AND_OBJECT.match(text, mention.end)
        if tail is None or not _free(found + extra, tail.start("object"), tail.end("object")):
            continue
        for other in _mentions(f"{verb} {tail.group('object')}"):
            if other.action is not mention.action:
                extra.append(ActionMention(other.action, tail.start("object"), tail.end("object")))
                break
    return extra


def _mentions(text: str) -> list[ActionMention]:
    found: list[ActionMention] = []
    for action in ACTIONS:
        for pattern in action.patterns:
            found.extend(
                ActionMention(action, m.start(), m.end())
                for m in pattern.finditer(text)
                if _free(found, m.start(), m.end())
            )
    return found


def find_actions(text: str) -> list[ActionMention]:
    """Every action named in `text`, in order; where two overlap, the earlier vocabulary entry wins."""
    found = _mentions(text)
    return sorted([*found, *_shared_verb(text, found)], key=lambda m: m.start)


def normalise_action(text: str) -> str:
    """The canonical name of the first action `text` names ("toggle BT" → "restart bluetooth"); text
    naming no known action comes back lower-cased with fillers ("please", "try", "the") removed."""
    if mentions := find_actions(text):
        return mentions[0].action.name
    words = re.sub(r"[^\w\s/-]", " ", text.lower()).split()
    filler = {"please", "try", "trying", "tried", "to", "the", "your", "my", "a", "an", "again", "just", "can", "you"}
    return " ".join(w for w in words if w not in filler) or text.strip().lower()


def action_label(name: str) -> str:
    """How a statement names an action: the vocabulary's label, else the name as given."""
    action = _BY_NAME.get(name)
    return action.label if action else name


def action_stems(name: str) -> tuple[str, ...]:
    """The verbs that refer back to an action ("Cleared it." → clear cache); none for an unknown name."""
    action = _BY_NAME.get(name)
    return action.stems if action else ()


def next_step(tried: set[str], failed_action: str) -> str:
    """A next step in the failed action's area that has not been tried yet, else escalation."""
    action = _BY_NAME.get(failed_action)
    for name in _LADDERS.get(action.area if action else "device", ()):
        if name not in tried:
            return _BY_NAME[name].label
    return "escalating to a specialist (repair or replacement)"
