"""Dependencies every route declares with `Annotated`: the services, the authenticated caller,
the subject (space) a route addresses, and paging parameters.

Identity comes first: `get_caller` resolves the API key to its workspace before anything touches
memory, and `get_subject` builds the space key from that workspace — never from anything the
client sends — so a key of one workspace has no way to name another workspace's space.

Capability comes second: routes that manage keys or erase memory declare `AdminDep` or
`AdminSubjectDep`, which answer 403 to a member key. An admin key is still confined to its own
workspace like every other key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Query, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from forethought.domain.keys import ADMIN, MEMBER, KeyRole
from forethought.facade import Forethought, Scope
from forethought.server.errors import ApiError
from forethought.server.ratelimit import Verdict
from forethought.server.services import Services

__all__ = [
    "AdminDep",
    "AdminSubjectDep",
    "Caller",
    "CallerDep",
    "PageDep",
    "PageParams",
    "ServicesDep",
    "Subject",
    "SubjectDep",
    "client_address",
    "get_admin",
    "get_admin_subject",
    "get_caller",
    "get_services",
    "get_subject",
    "too_many_failures",
]

_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer ft_...`")
_header_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="An API key, as a header of its own.")


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


@dataclass(frozen=True)
class Caller:
    """The authenticated API key: its id, its workspace, its role, and the memory acting as it."""

    key_id: str
    workspace: str
    memory: Forethought
    role: KeyRole = MEMBER

    @property
    def admin(self) -> bool:
        return self.role == ADMIN


def client_address(request: Request) -> str:
    """The peer's address, for the budgets of failed authentication (never a forwarded header)."""
    return request.client.host if request.client is not None else "unknown"


def rate_limited(services: Services, verdict: Verdict, why: str) -> ApiError:
    """The 429 for a spent budget, counted, with when to come back."""
    services.metrics.rate_limited()
    return ApiError(429, "rate_limited", why, headers={"Retry-After": str(verdict.retry_after_s)})


def too_many_failures(services: Services, verdict: Verdict) -> ApiError:
    why = f"too many failed authentications from this address or for this key; try again in {verdict.retry_after_s} s"
    return rate_limited(services, verdict, why)


def get_caller(
    request: Request,
    services: ServicesDep,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    header_key: Annotated[str | None, Depends(_header_key)],
) -> Caller:
    presented = bearer.credentials if bearer is not None else header_key
    challenge = {"WWW-Authenticate": "Bearer"}
    if not presented:
        raise ApiError(401, "unauthorized", "an API key is required (Authorization: Bearer <key>)", headers=challenge)
    key = services.memory.authenticate(presented)
    if key is None:
        failed = services.guard.failed(client_address(request), presented)
        if not failed.allowed:
            raise too_many_failures(services, failed)
        raise ApiError(401, "unauthorized", "unknown or revoked API key", headers=challenge)
    verdict = services.limiter.take(key.id)
    if not verdict.allowed:
        raise rate_limited(
            services, verdict, f"over the rate limit of {services.limiter.rate:g} requests a second for this key"
        )
    return Caller(key.id, key.workspace, services.memory.acting_as(f"key:{key.id}"), key.role)


CallerDep = Annotated[Caller, Depends(get_caller)]


def _forbidden(caller: Caller) -> ApiError:
    return ApiError(
        403,
        "forbidden",
        f"key {caller.key_id} is a member key; managing keys and erasing memory need an admin key of"
        " this workspace (made with `forethought keys create --admin`, or by an admin key over the API)",
    )


def get_admin(caller: CallerDep) -> Caller:
    """The caller, when its key is an admin key (else 403)."""
    if not caller.admin:
        raise _forbidden(caller)
    return caller


AdminDep = Annotated[Caller, Depends(get_admin)]


@dataclass(frozen=True)
class Subject:
    """The subject a route addresses: its Scope, resolved once from the caller's workspace (never
    from the request), the app and the subject id in the path."""

    caller: Caller
    scope: Scope

    @property
    def memory(self) -> Forethought:
        return self.caller.memory


def get_subject(
    caller: CallerDep,
    app: Annotated[str, Path(description="The app: generic, career, support, project (or a plugin's).")],
    subject_id: Annotated[str, Path(description="The subject within the app: a student, customer, project.")],
) -> Subject:
    return Subject(caller, caller.memory.scope(app, subject_id, workspace=caller.workspace, field="subject_id"))


SubjectDep = Annotated[Subject, Depends(get_subject)]


def get_admin_subject(subject: SubjectDep) -> Subject:
    """The subject, for a route that erases: only an admin key of the workspace (else 403)."""
    if not subject.caller.admin:
        raise _forbidden(subject.caller)
    return subject


AdminSubjectDep = Annotated[Subject, Depends(get_admin_subject)]


@dataclass(frozen=True)
class PageParams:
    limit: int
    cursor: str | None


def get_page(
    limit: Annotated[int, Query(ge=1, le=200, description="Items per page (1-200).")] = 50,
    cursor: Annotated[str | None, Query(max_length=512, description="`next_cursor` of the previous page.")] = None,
) -> PageParams:
    return PageParams(limit, cursor)


PageDep = Annotated[PageParams, Depends(get_page)]
