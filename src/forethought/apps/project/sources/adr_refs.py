"""ADR identifiers, ref keys and the references a Supersedes line makes.

An identifier is read from the file name ("ODH-ADR-Operator-0007-auth-crd.md" -> ODH-ADR-Operator-0007,
"0007-use-x.md" -> 0007) or else the title ("7. Use X", "ADR-7: Use X"). A ref key is the file's stem
from its identifier on, lower-cased, so that two ADRs sharing a number stay distinct and a link to
the file names it. A reference without a link ("Supersedes ADR-0003") becomes "adr:adr-0003",
which the folder reader resolves by number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from forethought.apps.project.sources.markdown import plain

__all__ = ["AdrId", "adr_id", "key_of", "refs_in"]


@dataclass(frozen=True)
class AdrId:
    text: str  # as written: "ODH-ADR-Operator-0007", "0007"
    number: int
    series: str  # lower-cased, without the number: "odh-adr-operator", "adr", ""


_ID_IN_STEM = re.compile(
    r"(?<![A-Za-z0-9-])((?:[A-Za-z][A-Za-z0-9]*-)*?(?:adr|ADR|Adr)(?:[-_][A-Za-z]+)*?[-_]?(\d{1,6}))(?![0-9])"
)
_NUMBER_FIRST = re.compile(r"(\d{1,6})(?=$|[-_. ])")
_ID_IN_TEXT = re.compile(r"(?<![\w-])((?:[A-Za-z][A-Za-z0-9]*-)*?ADR(?:-[A-Za-z]+)*?[- ]?#?(\d{1,6}))(?![\d])", re.I)
_TITLE_NUMBER = re.compile(r"\s*(?:ADR[-\s]?)?#?(\d{1,6})\s*[.:)\-–—]\s+", re.I)


def adr_id(stem: str, title: str = "") -> tuple[AdrId | None, int]:
    """The ADR identifier in a file name's stem (or its title's "7. Use X" / "ADR-7: Use X"),
    and where in the stem it starts (0 when taken from the title or absent)."""
    for pattern in (_ID_IN_STEM, _NUMBER_FIRST):
        match = pattern.search(stem) if pattern is _ID_IN_STEM else pattern.match(stem)
        if match:
            return _id(match.group(1), match.group(2) if pattern is _ID_IN_STEM else match.group(1)), match.start()
    if match := _TITLE_NUMBER.match(title):
        return _id(match.group(1), match.group(1)), 0
    if match := _ID_IN_TEXT.search(title):
        return _id(match.group(1), match.group(2)), 0
    return None, 0


def _id(text: str, number: str) -> AdrId:
    series = text[: len(text) - len(number)].rstrip("-_ #").lower().replace(" ", "-")
    return AdrId(text, int(number), series)


def key_of(stem: str) -> str:
    """The ref key of an ADR file: its stem from its identifier on, lower-cased, with spaces and
    underscores as dashes ("architecture-decision-records_operator_ODH-ADR-Operator-0007-auth-crd"
    -> "odh-adr-operator-0007-auth-crd"). A link to the file gives the same key."""
    _, at = adr_id(stem)
    return re.sub(r"[\s_]+", "-", stem[at:]).strip("-").lower() or stem.lower()


_LINK_TARGET = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def refs_in(value: str) -> list[str]:
    """The ADR refs a Supersedes / Superseded-by value names: links to `.md` files by their key,
    ADR identifiers ("ADR-0003", "ODH-ADR-Operator-0007") as "adr:<id>" for the folder reader to
    resolve. URLs to anything else (a pull request) and prose ("Data Connections") give nothing."""
    refs: list[str] = []
    rest = value
    for link in _LINK_TARGET.finditer(value):
        target = link.group(2).split("#")[0].split("?")[0]
        suffix = PurePosixPath(target).suffix.lower()
        if suffix in (".md", ".markdown"):
            refs.append("adr:" + key_of(PurePosixPath(target).stem))
        elif found := _ID_IN_TEXT.search(link.group(1)):
            refs.append("adr:" + _bare(found.group(1)))
        rest = rest.replace(link.group(0), " ")
    rest = re.sub(r"https?://\S+", " ", rest)
    refs.extend("adr:" + _bare(found.group(1)) for found in _ID_IN_TEXT.finditer(rest))
    if not refs and (number := re.fullmatch(r"\s*#?(\d{1,6})\s*", plain(rest))):
        refs.append("adr:" + number.group(1))
    return list(dict.fromkeys(refs))


def _bare(identifier: str) -> str:
    return re.sub(r"[\s_#]+", "-", identifier).replace("--", "-").strip("-").lower()
