"""Which part of a system a piece of text is about (its area), and the code identifiers it names.

Area inference is a keyword vote: each area has a list of terms (whole words, case-insensitive)
and each hit counts one; a hit inside a file path (`src/auth/session.ts`) counts two, because a
path is the strongest signal a task or a rule gives about where it applies. The highest score
wins, ties go to the more specific area (the order of `AREAS`), and no hit at all is "general".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from forethought.apps.project.kinds import AREAS

__all__ = ["AreaVote", "code_identifiers", "file_paths", "infer_area", "vote"]


def _split(terms: str) -> tuple[str, ...]:
    return tuple(terms.split(","))


# Terms are comma-separated regex fragments, matched as whole words. "header" is deliberately
# absent: a page header and an HTTP header are different areas; HTTP headers are caught by their
# names (X-...).
_TERMS: dict[str, tuple[str, ...]] = {
    "auth": _split(
        r"auth\w*,log-?in,log-?out,sign-?(?:in|up),sessions?,(?:refresh |access )?tokens?,jwt,oauth,oidc,"
        r"passwords?,cookies?,csrf,rbac,permissions?,roles?,requireRole,nextauth,sso,mfa,2fa,"
        r"credentials?,api[ _]?keys?,keychain,secure-?store,authz,admin ?groups,allowed ?groups,"
        r"brute-force,credential-stuffing"
    ),
    "payments": _split(
        r"payments?,stripe,checkout,invoices?,refunds?,billing,charge[sd]?,money,cents,currency,paypal,"
        r"subscriptions?,coupons?,pricing,prices?"
    ),
    "db": _split(
        r"databases?,db,prisma,postgres(?:ql)?,mysql,mariadb,sqlite,sql,sqlalchemy,migrations?,indexe?s?,"
        r"quer(?:y|ies),orm,hibernate,redis,pgbouncer,connection[_ ]limit,connection pool,pool size,"
        r"tables?,columns?,schema\.prisma,warehouse,dbt,tsvector,n\+1,transactions?,DATABASE_URL,"
        r"PrismaClient"
    ),
    "deploy": _split(
        r"deploy\w*,releases?,rollouts?,staging,production,prod,pipelines?,ci,cd,github actions,helm,"
        r"argocd,gitops,vercel,dockerfile,canary,rollbacks?,hotfix(?:es)?,testflight,app store,"
        r"feature flags?,release job,entrypoint"
    ),
    "testing": _split(
        r"tests?,testing,unit tests?,e2e,end-to-end,playwright,cypress,jest,vitest,pytest,fixtures?,"
        r"mocks?,coverage,flaky,regression tests?,snapshots?"
    ),
    "observability": _split(
        r"log(?:s|ging|ged)?,loggers?,pino,tracing,traces?,metrics,opentelemetry,otel,tempo,prometheus,"
        r"grafana,perses,sentry,alert(?:s|ing)?,monitoring,instrumentation,sampling"
    ),
    "infra": _split(
        r"kubernetes,k8s,clusters?,namespaces?,operators?,crds?,istio,mesh,sidecars?,ingress,gateways?,"
        r"certificates?,cert-manager,tls,mtls,configmaps?,terraform,dns,pvc,pods?,containers?,cosign,"
        r"signing,signatures?,kustomize,replicas,controllers?,clusterissuers?,knative,kserve"
    ),
    "frontend": _split(
        r"ui,ux,components?,css,tailwind,react,jsx,tsx,buttons?,pages?,dark-?mode,themes?,toggle,navbar,"
        r"sidebar,modals?,shadcn,storybook,frontend,useEffect,server components?,screenshots?,browser,"
        r"(?:date-?)?pickers?,dropdowns?,tooltips?,icons?,layouts?,stylesheets?,animations?,a11y,accessibility"
    ),
    "api": _split(
        r"apis?,endpoints?,routes?,route handlers?,rest,graphql,requests?,responses?,status codes?,"
        r"payloads?,envelopes?,json,openapi,grpc,webhooks?,zod,X-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+,"
        r"(?:GET|POST|PUT|PATCH|DELETE)s?"
    ),
    "process": _split(
        r"prs?,pull requests?,code reviews?,reviewers?,branch(?:es)?,commits?,changelog,labels?,issues?,"
        r"adrs?,licen[cs]es?,apache-2\.0,triage[sd]?,untriaged"
    ),
}
# HTTP verbs are only meaningful in capitals ("POST", not "post a comment").
_CASE_SENSITIVE = {r"(?:GET|POST|PUT|PATCH|DELETE)s?", r"X-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+"}


def _compile(terms: Iterable[str]) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    plain = [t for t in terms if t not in _CASE_SENSITIVE]
    exact = [t for t in terms if t in _CASE_SENSITIVE]
    loose = re.compile(r"(?<![\w-])(?:" + "|".join(plain) + r")(?![\w-])", re.IGNORECASE)
    strict = re.compile(r"(?<![\w-])(?:" + "|".join(exact) + r")(?![\w])") if exact else None
    return loose, strict


_PATTERNS = {area: _compile(terms) for area, terms in _TERMS.items()}
_PATH = re.compile(r"(?<![\w@/.-])(?:[\w@.-]+/)+[\w.*<>-]+|\b[\w-]+\.(?:tsx?|jsx?|py|go|ya?ml|sql|prisma|json|md)\b")
_SEGMENT = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_IDENTIFIER = re.compile(
    r"`(?P<tick>[^`\n]{2,80})`"  # anything in backticks
    r"|(?<![\w@/.-])(?P<code>"
    r"@[\w-]+/[\w.-]+"  # scoped npm package
    r"|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?"  # dotted: localStorage.setItem, moment.js
    r"|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?:\(\))?"  # camelCase
    r"|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+"  # PascalCase with an inner capital
    r"|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+"  # snake_case / SCREAMING_CASE
    r"|X-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+"  # custom HTTP header
    r"|[a-z][\w]*\(\)"  # call()
    r")(?![\w$])"
)


@dataclass
class AreaVote:
    """The score of each area for a text, with the words that scored (for reasons shown to users)."""

    scores: dict[str, int] = field(default_factory=dict)
    hits: dict[str, list[str]] = field(default_factory=dict)

    def add(self, area: str, term: str, weight: int) -> None:
        self.scores[area] = self.scores.get(area, 0) + weight
        terms = self.hits.setdefault(area, [])
        if term not in terms:
            terms.append(term)

    def best(self) -> str:
        if not self.scores:
            return "general"
        top = max(self.scores.values())
        return next(area for area in AREAS if self.scores.get(area) == top)

    def areas(self) -> list[str]:
        """Every area that scored, strongest first."""
        return sorted(self.scores, key=lambda a: (-self.scores[a], AREAS.index(a)))


def file_paths(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in _PATH.finditer(text)]


def vote(text: str) -> AreaVote:
    result = AreaVote()
    paths = file_paths(text)
    words = _PATH.sub(" ", text)  # a path's segments count once, as the path, below
    for area, (loose, strict) in _PATTERNS.items():
        for pattern in (loose, strict):
            if pattern is None:
                continue
            for match in pattern.finditer(words):
                result.add(area, match.group(0), 1)
        for path in paths:
            if any(loose.fullmatch(segment) for segment in _SEGMENT.findall(path)):
                result.add(area, path, 2)
    return result


def infer_area(text: str) -> str:
    return vote(text).best()


def code_identifiers(text: str) -> list[str]:
    """Code-shaped tokens a text names (PrismaClient, lib/db.ts, X-ApexCart-CSRF, moment.js), in order."""
    found: list[str] = []
    for match in _IDENTIFIER.finditer(text):
        token = (match.group("tick") or match.group("code") or "").strip()
        if token and token not in found:
            found.append(token)
    for path in file_paths(text):
        if path not in found:
            found.append(path)
    return found
