"""Where a rule applies and what a draft is: the scope the check stage gates its patterns by.

A draft is described by `DraftFacts`: its path (when the caller knows which file it writes) and
its tags — a language from the file's extension (`.py` → python, `.tsx` → tsx and typescript),
else read cheaply off the content (a shebang, `package main`, `import x from '...'`, `def`,
`SELECT ... FROM`), plus `ci` for a CI workflow and `migrations` for a schema migration.

A rule's `RuleScope` is read off its own words (statement and evidence) and its `area:` tag:
- tags: language words ("python", "typescript", "sql", "css", "migrations", "CI"), the extensions
  of the files it names (`src/lib/money.ts`, `*.module.css`), and the frontend area's languages;
- dirs: the folders it is about ("in tools/", "under src/payments/");
- exempt: where what it forbids is allowed ("outside internal/store" exempts internal/store;
  "only in CI" exempts CI files);
- production: the rule places itself in production ("in production", "prod config"), so a file
  whose path names another place (`values-dev.yaml`, `tests/`, `config/staging/`, tagged
  `not-production`) is outside it.

`forbid_applies` keeps a forbid pattern off a draft clearly outside the rule (a language the rule
is not about, a place it exempts; with an exempt folder and no path it stays quiet);
`require_applies` lets a require pattern fire only where the rule's scope positively matches the
draft (a rule that names no scope at all keeps the old behaviour: the caller's relevance gate).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from forethought.domain import Record

__all__ = ["DraftFacts", "RuleScope", "draft_facts", "forbid_applies", "require_applies", "rule_scope"]

# Extension → the tags a file of that kind carries.
_EXTENSIONS: dict[str, tuple[str, ...]] = {
    ".py": ("python",), ".pyi": ("python",), ".ts": ("typescript",), ".tsx": ("tsx", "typescript"),
    ".js": ("javascript",), ".jsx": ("jsx", "javascript"), ".mjs": ("javascript",), ".cjs": ("javascript",),
    ".go": ("go",), ".sql": ("sql",), ".css": ("css",), ".scss": ("css",), ".sh": ("shell",),
    ".bash": ("shell",), ".yml": ("yaml",), ".yaml": ("yaml",), ".proto": ("proto",), ".rs": ("rust",),
    ".c": ("c",), ".h": ("c",), ".java": ("java",), ".kt": ("kotlin",), ".rb": ("ruby",), ".toml": ("toml",),
    ".json": ("json",), ".md": ("markdown",), ".html": ("html",),
}  # fmt: skip
# A word a rule uses for a kind of file → the tag it means.
_WORDS: dict[str, str] = {
    "python": "python", "typescript": "typescript", "tsx": "tsx", "javascript": "javascript", "jsx": "jsx",
    "golang": "go", "sql": "sql", "css": "css", "scss": "css", "shell": "shell", "bash": "shell",
    "yaml": "yaml", "protobuf": "proto", "protos": "proto", "rust": "rust", "migration": "migrations",
    "migrations": "migrations", "ci": "ci", "dockerfile": "docker", "kotlin": "kotlin", "ruby": "ruby",
}  # fmt: skip
_AREA_TAGS: dict[str, tuple[str, ...]] = {"frontend": ("typescript", "javascript", "css", "html", "json")}
_WORD = re.compile(r"(?<![\w./-])(" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")(?![\w/-])", re.I)
_KINDS = r"(?:files?|code|tools?|scripts?|models?|components?|tests?|modules?|UI|backend|frontend)"
_LANG = r"(?P<lang>" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
# A language said as the rule's place ("in Python", "in the Python code", "Python tools"), not in passing.
_STRICT = re.compile(
    r"\b(?:in|inside|within|for)\s+(?:the\s+|any\s+)?(?:\w+\s+)?" + _LANG + r"(?![\w/-])"
    r"|(?<![\w./-])" + _LANG.replace("lang", "lang2") + r"\s+" + _KINDS + r"\b",
    re.I,
)
_FILE = re.compile(r"(?<![\w])[\w*./-]{0,120}?(\.[A-Za-z]{1,5})(?![\w-])")
_DIR = r"`?(?P<dir>[\w.-]+(?:/[\w.*-]+)*/?)`?"
_IN_DIR = re.compile(r"\b(?:in|under|inside|within)\s+" + _DIR, re.I)
_OUTSIDE = re.compile(r"\boutside(?:\s+of)?\s+(?:the\s+)?" + _DIR, re.I)
_ONLY_IN = re.compile(r"\bonly\s+(?:in|inside|within|from|on)\s+(?:the\s+)?(?P<what>[\w./-]+)", re.I)
_CI_PATH = re.compile(r"(?:^|/)(?:\.github/workflows/|\.gitlab-ci|\.circleci/|Jenkinsfile|azure-pipelines)")
_CI_CONTENT = re.compile(r"^\s*runs-on:|^\s*(?:jobs|stages|pipeline):\s*$", re.M)
# A path naming a place that is not production (`values-dev.yaml`, `tests/`, `config/staging/`).
_NOT_PROD_PATH = re.compile(r"(?:^|[/._-])(?:dev|develop|development|local|staging|stage|test|tests|testing|spec|specs"
                            r"|sandbox|qa|fixtures?|examples?|mocks?)(?=$|[/._-])", re.I)  # fmt: skip
# A rule placing itself in production ("in production", "prod config", "production Deployments").
_PROD_RULE = re.compile(r"\b(?:in|on|for)\s+(?:the\s+)?prod(?:uction)?\b|\bprod(?:uction)?\s+"
                        r"(?:config|configs|clusters?|environments?|deploy\w*|settings|builds?|images?|databases?)\b",
                        re.I)  # fmt: skip
_MIGRATION = re.compile(r"\bclass\s+Migration\s*\(|^\s*(?:ALTER|CREATE|DROP)\s+TABLE\b", re.M | re.I)
# Cheap content sniffs, first match wins; each is anchored at a line start so prose rarely trips one.
_SNIFFS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\A#![^\n]*\bpython"), "python"),
    (re.compile(r"\A#![^\n]*\b(?:ba|z|da)?sh\b"), "shell"),
    (re.compile(r"^package\s+\w+\s*$", re.M), "go"),
    (re.compile(r"^\s*import\s+(?:type\s+)?(?:[\w*{][^\n]{0,200}\s)?from\s+['\"]", re.M), "typescript"),
    (re.compile(r"^\s*(?:def\s+\w+\s*\(|from\s+[\w.]+\s+import\s|import\s+[\w.]+\s*$)", re.M), "python"),
    (re.compile(r"^\s*(?:select|insert\s+into|update|delete\s+from|alter\s+table|create\s+table)\b", re.M | re.I),
     "sql"),
)  # fmt: skip


@dataclass(frozen=True)
class DraftFacts:
    """What the check stage knows about a draft: its path (None when not given) and its tags."""

    path: str | None
    tags: frozenset[str]


@dataclass(frozen=True)
class RuleScope:
    """The files a rule is about (`tags`, `dirs`), the languages it names as its place (`strict_tags`,
    the only ones that keep a forbid off a draft) and where what it forbids is allowed (`exempt_*`)."""

    tags: frozenset[str] = frozenset()
    strict_tags: frozenset[str] = frozenset()
    dirs: tuple[str, ...] = ()
    exempt_tags: frozenset[str] = frozenset()
    exempt_dirs: tuple[str, ...] = ()
    production: bool = False  # the rule is about production ("in production"): not a dev or test file

    @property
    def named(self) -> bool:
        """Whether the rule says anything about which files it is about."""
        return bool(self.tags or self.dirs)


def _path_tags(path: str) -> set[str]:
    name = PurePosixPath(path.replace("\\", "/")).name.lower()
    tags = set(_EXTENSIONS.get(PurePosixPath(name).suffix, ()))
    if _CI_PATH.search(path.replace("\\", "/")):
        tags.add("ci")
    if "migration" in path.lower():
        tags.add("migrations")
    if _NOT_PROD_PATH.search(path.replace("\\", "/")):
        tags.add("not-production")
    return tags


def _content_tags(text: str) -> set[str]:
    head = text[:20_000]
    tags: set[str] = set()
    for rx, tag in _SNIFFS:
        if rx.search(head):
            tags.add(tag)
            break
    if _CI_CONTENT.search(head):
        tags.add("ci")
    if _MIGRATION.search(head):
        tags.add("migrations")
    return tags


def draft_facts(draft: str, path: str | None = None) -> DraftFacts:
    """The draft's path and tags: the extension's language when the path has one, else the content's."""
    tags = _path_tags(path) if path else set()
    language = tags - {"ci", "migrations", "not-production"}
    content = _content_tags(draft)
    tags |= content if not language else content & {"ci", "migrations"}
    return DraftFacts(path=path.replace("\\", "/") if path else None, tags=frozenset(tags))


def _dir(raw: str) -> str | None:
    """A folder named in a rule ('tools/', 'internal/store', 'db/migrations/*.sql' → 'db/migrations/')."""
    parts = [p for p in raw.strip("`.,;:").split("/") if p]
    while parts and ("*" in parts[-1] or "." in parts[-1].lstrip(".")):
        parts.pop()  # a file or glob: its folder is the place
    if not parts or ("/" not in raw and not raw.endswith("/")):
        return None  # a bare word ("in Python", "in production") is not a folder
    return "/".join(parts) + "/"


def _text_tags(text: str) -> set[str]:
    tags = {_WORDS[m.group(1).lower()] for m in _WORD.finditer(text)}
    for m in _FILE.finditer(text):
        tags |= set(_EXTENSIONS.get(m.group(1).lower(), ()))
    return tags


def rule_scope(record: Record) -> RuleScope:
    """The scope a record's statement, evidence and `area:` tag give it (see the module doc)."""
    text = " ".join([record.statement, *(e.quote for e in record.evidence)])
    area = {t for tag in record.tags if tag.startswith("area:") for t in _AREA_TAGS.get(tag.removeprefix("area:"), ())}
    tags = _text_tags(text) | area
    dirs = {d for m in _IN_DIR.finditer(text) if (d := _dir(m.group("dir")))}
    exempt_dirs = {d for m in _OUTSIDE.finditer(text) if (d := _dir(m.group("dir")))}
    exempt_tags: set[str] = set()
    for m in _ONLY_IN.finditer(text):
        what = m.group("what")
        if (d := _dir(what)) is not None:
            exempt_dirs.add(d)
        elif what.lower() in _WORDS:
            exempt_tags.add(_WORDS[what.lower()])
    strict = area | {_WORDS[(m.group("lang") or m.group("lang2")).lower()] for m in _STRICT.finditer(text)}
    tags -= exempt_tags
    return RuleScope(
        production=_PROD_RULE.search(record.statement) is not None,
        tags=frozenset(tags),
        strict_tags=frozenset(strict - exempt_tags),
        dirs=tuple(sorted(dirs - exempt_dirs)),
        exempt_tags=frozenset(exempt_tags),
        exempt_dirs=tuple(sorted(exempt_dirs)),
    )


def _under(path: str, dirs: Iterable[str]) -> bool:
    padded = "/" + path.lstrip("./")
    return any(("/" + d) in padded for d in dirs)


def forbid_applies(scope: RuleScope, draft: DraftFacts) -> bool:
    """Whether a forbid pattern of the rule may fire on the draft (False only when clearly outside)."""
    if scope.exempt_tags & draft.tags or (scope.production and "not-production" in draft.tags):
        return False
    if scope.exempt_dirs and (draft.path is None or _under(draft.path, scope.exempt_dirs)):
        return False
    languages = draft.tags - {"ci", "migrations", "not-production"}
    strict = scope.strict_tags - {"ci", "migrations"}
    return not (strict and languages and not languages & scope.strict_tags)


def require_applies(scope: RuleScope, draft: DraftFacts) -> bool:
    """Whether a require pattern of the rule may fire on the draft: only where its scope matches."""
    if not forbid_applies(scope, draft):
        return False
    if not scope.named:
        return True
    if scope.dirs and draft.path is not None:
        return _under(draft.path, scope.dirs) and (not scope.tags or bool(scope.tags & draft.tags))
    return bool(scope.tags & draft.tags)
