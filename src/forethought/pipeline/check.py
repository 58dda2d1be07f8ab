"""Check: verification after generation. A draft is checked against the records it was written with
(or, given none, the current records recalled for it); every violation quotes the draft verbatim.

Sources (the first wins when two report the same excerpt for the same record):
- `pattern`: `check.forbid` regexes that match (excerpt: the matching lines, verbatim) and
  `check.require` regexes that never match (excerpt "": nothing to quote; with recalled records,
  only for records the heuristic judge finds applicable). Both are gated by scope
  (`check_scope`): the draft's `path` (else its content) against the rule's own words, evidence
  and area — a require fires only where the rule's scope matches the draft, a forbid never on a
  language the rule places itself outside or in a place it exempts ("outside internal/store").
  Run as written with `re.MULTILINE`; a pattern that does not compile, is too long or nests
  quantifiers (`(a+)+` can backtrack for ever) is skipped and reported. A match inside a comment
  (`text/comments`) is a mention: it neither breaks a forbid nor meets a require. Drafts over
  `MAX_DRAFT_CHARS` are refused.
- `value`: a line setting what a record fixes to another value (`check_values`: "1 KiB chunks"
  against `ChunkSize = 4096`, "Node 20" against `node:18`), for the kinds `App.checks_values`
  names, gated by scope as forbids are, and kept only if the line is about the rule at all
  (`VALUE_TOPIC_FLOOR`).
- `action`: a clause *recommending* an action a record says failed. It recommends when it or its
  sentence has a cue ("try", "you should", "let's", "I recommend", a leading imperative) and does
  not itself look back ("already", "tried", "didn't", "instead of"): "you already tried X" passes.
  It is that action when the app's `action_key` names the same one, when it holds every content
  word of the action (two at least), or when their embeddings reach `ACTION_SIMILARITY`.
- `policy`: the app's `policy_findings`. `judge`: the optional LLM judge, whose findings survive
  only citing a provided record by handle and quoting the draft (up to whitespace).
A record whose confidence is below `LOW_CONFIDENCE`, or of one of the app's `soft_kinds`, only ever warns.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Mapping, Sequence

from forethought.apps.base import App
from forethought.domain import Record, Status, handle_for
from forethought.domain.patterns import Budget, Pattern, PatternTimeout, compile_pattern
from forethought.embed.cache import embedded
from forethought.embed.onnx_minilm import MiniLMEmbedder
from forethought.errors import BackendError, InvalidInput
from forethought.llm.base import ChatModel, ProviderError, Usage
from forethought.llm.structured import complete_structured
from forethought.memory import Memory, Scope
from forethought.pipeline.brief import elapsed_ms
from forethought.pipeline.check_recall import Recalled, failed_action, recall_for
from forethought.pipeline.check_scope import (
    DraftFacts,
    RuleScope,
    draft_facts,
    forbid_applies,
    require_applies,
    rule_scope,
)
from forethought.pipeline.check_values import ValueConflict, value_conflicts
from forethought.pipeline.reports import CheckReport, Severity, SkippedPattern, Violation, ViolationSource
from forethought.prompts import judge
from forethought.text.comments import Comments, comment_spans
from forethought.text.sentences import sentences
from forethought.text.words import salient_words

__all__ = [
    "ACTION_SIMILARITY",
    "LOW_CONFIDENCE",
    "MAX_DRAFT_CHARS",
    "MAX_PATH_CHARS",
    "Recalled",
    "check_draft",
    "failed_action",
    "recall_for",
]

# Cosine similarity at which a recommended clause is the failed action in other words. Set on the
# shipped MiniLM model with generic pairs (not the bench fixtures): paraphrases of one action
# scored 0.74-0.92, different actions on the same topic up to 0.65. The hashing embedder scores
# surface overlap only, so there this catches near-copies and nothing else.
ACTION_SIMILARITY = 0.72
# A value conflict stands only if the line, with its path and the few lines above it, is at least
# faintly about the rule (MiniLM cosine): a number for another setting that shares a word with the
# rule ("retention-days" of a build artifact against a log-retention rule) scores near zero.
# Set on tuning data: every true value finding on the rule-vs-line corpus and tuning drafts
# scored 0.187 or more; findings on unrelated settings -0.03 to 0.095. Only with MiniLM (the
# hashing embedder's scores are surface overlap, not topic).
VALUE_TOPIC_FLOOR = 0.15
VALUE_TOPIC_MODEL = MiniLMEmbedder.name
VALUE_CONTEXT_LINES = 3
LOW_CONFIDENCE = 0.6
MAX_DRAFT_CHARS = 200_000
MAX_PATH_CHARS = 1_000
# `Violation.rule` for each way a draft can go against memory (what a trace keeps).
RULE_FORBIDDEN = "matches a pattern memory forbids"
RULE_REQUIRED = "misses a pattern memory requires"
RULE_VALUE = "sets a value memory fixes otherwise"
RULE_FAILED_ACTION = "recommends again an action that failed"
RULE_JUDGE = "contradicts memory (judge)"
RULE_POLICY = "goes against the app's policy"
MAX_CLAUSES = 400  # recommending clauses compared per draft (bounds the embedding call)
MIN_EXCERPT_CHARS = 4

_CLAUSE = re.compile(r"[;,:]|\s(?:but|so|then|because|since|whereas)\s|\s-\s", re.I)
_CUE = re.compile(r"\b(?:try|you (?:should|could|can|might|may|need to|must|have to|want to)|let'?s|let us|please"
                  r"|i(?:'d| would)? (?:recommend|suggest)|we (?:should|could)|make sure|go ahead|consider|next step"
                  r"|how about|why not|recommend|suggest)\b", re.I)  # fmt: skip
_BACK = re.compile(r"\b(?:already|tried|previously|earlier|last time|didn'?t|did not|doesn'?t|does not|don'?t"
                   r"|do not|never|avoid|instead of|rather than|no longer|won'?t|failed|stop)\b", re.I)  # fmt: skip
_LEAD = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:(?:first|then|next|also|now|finally|so|and|or|just)\b\W*)*", re.I)
IMPERATIVE = frozenset(  # verbs that open an instruction ("Restart the router.")
    """restart reboot reset reinstall install uninstall update upgrade downgrade clear delete remove turn toggle
    unpair pair re-pair forget disable enable check open close run switch change set use add store put apply
    contact email call send move plug unplug power hold press sign log replace rename rollback roll revert
    deploy migrate configure increase decrease raise lower flush rebuild refresh reconnect disconnect
    charge test retry keep wait ask submit rewrite wrap cache""".split()  # noqa: SIM905 - a word list
)


def check_draft(
    memory: Memory,
    scope: Scope,
    draft: str,
    *,
    records: Sequence[Record] | None = None,
    model: ChatModel | None = None,
    path: str | None = None,
    recalled: Recalled | None = None,
) -> CheckReport:
    """Violations of memory in `draft`; `records` are those the draft was written with, `path` the
    file the draft is for (it decides which rules' patterns apply; without it the content does).
    `recalled` is what `recall_for` found for the draft when the caller has recalled already."""
    if len(draft) > MAX_DRAFT_CHARS:
        raise InvalidInput(f"draft: longer than {MAX_DRAFT_CHARS} characters")
    app = scope.app
    start = time.perf_counter()
    timings: dict[str, float] = {}
    if recalled is not None:
        provided, relevant = recalled
    elif records is None:
        provided, relevant = recall_for(memory, scope, draft)
        timings["recall"] = elapsed_ms(start)
    else:
        provided = [r for r in records if r.status is Status.ACTIVE]
        relevant = {r.id for r in provided}
    facts = draft_facts(draft, path)
    scopes = {r.id: rule_scope(r) for r in provided}  # read once: patterns and values are gated by it
    found, skipped = _patterns(draft, provided, relevant, facts, scopes, path)
    found += _values(memory, app, draft, provided, facts, scopes, path)
    step = time.perf_counter()
    found += _actions(memory, app, draft, provided)
    timings["actions"] = elapsed_ms(step)
    by_id = {r.id: r for r in provided}
    for f in app.policy_findings(draft, provided):  # the app's excerpt, as the draft spells it where it can
        excerpt = _verbatim(draft, f.excerpt) or f.excerpt
        v = Violation(record_id=f.record_id, handle=handle_for(f.record_id), excerpt=excerpt, severity=f.severity,
                      message=f.message, suggestion=f.suggestion, source="policy", rule=RULE_POLICY)  # fmt: skip
        found.append(v)
    mode, degraded, usage, dropped = "heuristic", None, Usage(), 0
    if model is not None and (judged_records := [r for r in provided if r.id in relevant]) and draft.strip():
        step = time.perf_counter()
        try:
            judged, dropped, usage = _judge(model, draft, judged_records)
            found += judged
            mode = f"llm:{model.name}"
        except ProviderError as exc:
            degraded = f"llm:{model.name} failed ({exc.code}): {str(exc)[:200]}; deterministic checks only"
        timings["judge"] = elapsed_ms(step)
    violations = _settle(found, by_id, app.soft_kinds)
    timings["total"] = elapsed_ms(start)
    clean = not any(v.severity == "error" for v in violations)
    return CheckReport(violations=violations, dropped_judge_findings=dropped, skipped_patterns=skipped,
                       records_checked=len(provided), clean=clean, mode=mode, degraded=degraded, usage=usage,
                       timings_ms=timings)  # fmt: skip


def _patterns(
    draft: str,
    records: Sequence[Record],
    relevant: set[str],
    facts: DraftFacts,
    scopes: Mapping[str, RuleScope],
    path: str | None,
) -> tuple[list[Violation], list[SkippedPattern]]:
    found: list[Violation] = []
    skipped: list[SkippedPattern] = []
    comments = comment_spans(draft, path)  # a name in a comment is a mention: it neither breaks nor meets a rule
    budget = Budget()  # every pattern of this draft together; each run releases the GIL (domain/patterns.py)
    for record in records:
        if record.check is None:
            continue
        scope = scopes[record.id]
        forbids = record.check.forbid if forbid_applies(scope, facts) else ()
        requires = record.check.require if require_applies(scope, facts) else ()
        rules = [(p, True) for p in forbids] + [(p, False) for p in requires]
        for pattern, forbid in rules:
            compiled = compile_pattern(pattern)
            if isinstance(compiled, str):
                skipped.append(SkippedPattern(record_id=record.id, handle=record.handle, pattern=pattern,
                                              reason=compiled))  # fmt: skip
                continue
            try:
                if forbid:
                    used = [(a, b) for a, b in _in_code(compiled, draft, comments, budget) if b > a]
                    lines = {_line(draft, a, b) for a, b in used}
                    what = f"matches /{pattern}/, which memory forbids"
                    found += [_violation(record, line, "pattern", what, rule=RULE_FORBIDDEN) for line in sorted(lines)]
                elif record.id in relevant and next(_in_code(compiled, draft, comments, budget), None) is None:
                    what = f"never matches /{pattern}/, which memory requires"
                    found.append(_violation(record, "", "pattern", what, rule=RULE_REQUIRED))
            except PatternTimeout as exc:
                skipped.append(SkippedPattern(record_id=record.id, handle=record.handle, pattern=pattern,
                                              reason=str(exc)))  # fmt: skip
    return found, skipped


def _in_code(pattern: Pattern, draft: str, comments: Comments, budget: Budget) -> Iterator[tuple[int, int]]:
    """The (start, end) spans of `pattern`'s matches outside the draft's comments, within `budget`."""
    return ((a, b) for a, b in pattern.finditer(draft, budget) if not comments.covers(a))


def _values(memory: Memory, app: App, draft: str, records: Sequence[Record], facts: DraftFacts,
            scopes: Mapping[str, RuleScope], path: str | None) -> list[Violation]:  # fmt: skip
    fixing = [r for r in records if app.checks_values(r.kind) and forbid_applies(scopes[r.id], facts)]
    found: list[Violation] = []
    for c in _on_topic(memory, draft, value_conflicts(draft, fixing), path):
        if c.ruled_out:  # `expected` is the value the rule rules out ("60 days no longer", "not 1.75+")
            what, fix = f"sets `{c.found}`, which memory rules out ({c.expected})", "Use the value the rule fixes now."
        else:
            what, fix = f"sets `{c.found}` where memory says {c.expected}", f"Use {c.expected}, as memory says."
        found.append(_violation(c.record, c.line, "value", what, rule=RULE_VALUE, suggestion=fix))
    return found


def _on_topic(memory: Memory, draft: str, conflicts: list[ValueConflict], path: str | None) -> list[ValueConflict]:
    """The conflicts whose line (with the file's path and the lines above it) is about the rule at
    all, by VALUE_TOPIC_FLOOR; all of them when the embedder is not the one the floor was set on."""
    embedder = memory.embedder
    if not conflicts or embedder is None or embedder.name != VALUE_TOPIC_MODEL:
        return conflicts
    lines = [line.strip() for line in draft.splitlines()]
    windows = []
    for c in conflicts:
        at = lines.index(c.line) if c.line in lines else 0
        windows.append(" ".join([path or "", *lines[max(0, at - VALUE_CONTEXT_LINES) : at + 1]]).strip())
    try:
        vectors = embedded(embedder, [c.record.statement for c in conflicts] + windows)
    except BackendError:
        return conflicts  # the topic gate is lost; the value match itself still holds
    n = len(conflicts)
    return [c for i, c in enumerate(conflicts) if float(vectors[i] @ vectors[n + i]) >= VALUE_TOPIC_FLOOR]


def _line(draft: str, start: int, end: int) -> str:
    """The whole line(s) a match spans, verbatim (outer whitespace trimmed)."""
    first = draft.rfind("\n", 0, start) + 1
    last = draft.find("\n", max(end - 1, start))
    return draft[first : len(draft) if last < 0 else last].strip()


def _recommending(draft: str) -> list[tuple[str, str]]:
    """(sentence, clause) for each clause that recommends something (see the module doc)."""
    out: list[tuple[str, str]] = []
    for sentence in sentences(draft):
        parts = [p.strip() for p in _CLAUSE.split(sentence) if p and p.strip()]
        cued = _CUE.search(sentence) is not None or _imperative(sentence)
        out += [(sentence, p) for p in parts if not _BACK.search(p) and (cued or _imperative(p) or _CUE.search(p))]
        if len(out) >= MAX_CLAUSES:
            break
    return out[:MAX_CLAUSES]


def _imperative(text: str) -> bool:
    rest = _LEAD.sub("", text, count=1)
    first = rest.split(maxsplit=1)[0].lower() if rest.strip() else ""
    return first.strip(",.:;!?*`\"'") in IMPERATIVE


def _actions(memory: Memory, app: App, draft: str, records: Sequence[Record]) -> list[Violation]:
    failed = [(r, a) for r in records if (a := failed_action(r, app.failed_kinds))]
    clauses = _recommending(draft) if failed else []
    if not clauses:
        return []
    similarity = None
    if memory.embedder is not None:
        try:
            vectors = memory.embedder.embed([c for _, c in clauses] + [a for _, a in failed])
            similarity = vectors[: len(clauses)] @ vectors[len(clauses) :].T
        except BackendError:
            similarity = None  # paraphrase by embedding is lost; keys and words still match
    found: list[Violation] = []
    clause_keys = [app.action_key(c) for _, c in clauses]
    clause_words = [set(salient_words(c)) for _, c in clauses]
    for j, (record, action) in enumerate(failed):
        key, words = app.action_key(action), set(salient_words(action))
        for i, (sentence, _) in enumerate(clauses):
            if key is not None and clause_keys[i] == key:
                why = f"the same action ({key})"
            elif len(words) >= 2 and words <= clause_words[i]:
                why = "the same action in the same words"
            elif similarity is not None and float(similarity[i, j]) >= ACTION_SIMILARITY:
                why = f"the same action in other words (similarity {float(similarity[i, j]):.2f})"
            else:
                continue
            what, fix = f"recommends again what already failed: {why}", "Suggest a different step instead."
            found.append(_violation(record, sentence, "action", what, rule=RULE_FAILED_ACTION, suggestion=fix))
    return found


def _judge(model: ChatModel, draft: str, records: Sequence[Record]) -> tuple[list[Violation], int, Usage]:
    by_handle = {r.handle: r for r in records}
    messages = judge.build(judge.JudgeContext(draft, records))
    answer = complete_structured(model, messages, judge.Findings, max_tokens=1500)
    kept: list[Violation] = []
    dropped = 0
    for f in answer.value.findings:
        record = by_handle.get(f.handle.strip().strip("[]").lower())
        excerpt = _verbatim(draft, f.excerpt)
        if record is None or excerpt is None:
            dropped += 1
            continue
        message = " ".join(f.message.split())[:500] or "the judge found a violation"
        fix = " ".join(f.suggestion.split())[:500]
        kept.append(_violation(record, excerpt, "judge", message, rule=RULE_JUDGE, severity=f.severity, suggestion=fix))
    return kept, dropped, answer.usage


def _verbatim(draft: str, excerpt: str) -> str | None:
    """The draft's own text for `excerpt` when it is in the draft up to whitespace, else None."""
    tokens = excerpt.split()
    if len("".join(tokens)) < MIN_EXCERPT_CHARS:
        return None
    match = re.search(r"\s+".join(re.escape(t) for t in tokens), draft)
    return None if match is None else match.group(0)


def _violation(record: Record, excerpt: str, source: ViolationSource, what: str, *, rule: str,
               severity: Severity = "error", suggestion: str = "") -> Violation:  # fmt: skip
    fix = suggestion or f"Rewrite this to follow [{record.handle}], or say why it no longer applies."
    message = f"{what} — memory [{record.handle}] ({record.kind}): {record.statement}"
    return Violation(record_id=record.id, handle=record.handle, excerpt=excerpt, severity=severity, message=message,
                     suggestion=fix, source=source, rule=rule)  # fmt: skip


def _settle(found: list[Violation], by_id: dict[str, Record], soft: frozenset[str] = frozenset()) -> list[Violation]:
    """One violation per record and excerpt (the first source wins; a judge finding overlapping an
    earlier one for the same record is a repeat too); low-confidence records and the app's soft
    kinds (a preference) only warn."""
    seen: dict[str, list[str]] = {}
    out: list[Violation] = []
    for v in found:
        text, before = " ".join(v.excerpt.split()), seen.setdefault(v.record_id, [])
        if text in before or (v.source == "judge" and any(t and (t in text or text in t) for t in before)):
            continue
        before.append(text)
        record = by_id.get(v.record_id)
        if record is not None and record.confidence < LOW_CONFIDENCE and v.severity == "error":
            note = f" (memory confidence {record.confidence:.2f}: a warning only)"
            v = v.model_copy(update={"severity": "warning", "message": v.message + note})
        elif record is not None and record.kind in soft and v.severity == "error":
            v = v.model_copy(update={"severity": "warning", "message": v.message + f" ({record.kind}: a warning only)"})
        out.append(v)
    return out
