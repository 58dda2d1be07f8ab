"""The organisation rule set over HTTP: one per workspace, inherited by every project of it.

The set's rulebook and its documents hang under the app (`/v1/apps/project/organisation`): the
set belongs to the caller's workspace, never to a subject a client names. A project's exceptions
hang under the project (`.../subjects/{project}/organisation/overrides`): listing them, setting
one (the reason is required and kept in the rule's audit trail) and restoring the rule. What the
documents propose waits in the set's own inbox, `/v1/apps/project/subjects/_organisation/inbox`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from forethought.domain.times import MAX_TIME_CHARS, parse_time
from forethought.projects.documents import file_texts
from forethought.projects.org import Override, overrides, refuse_reserved, set_override, workspace_org
from forethought.projects.rulebook import build_rulebook, render
from forethought.server.deps import CallerDep, PageDep, Subject
from forethought.server.errors import ApiError
from forethought.server.pagination import slice_sorted
from forethought.server.routes.paths import SUBJECT
from forethought.server.routes.project import PROJECT_APP, ProjectDep
from forethought.server.schemas.common import ERRORS, Page, RecordOut
from forethought.server.schemas.organisation import OverrideIn, OverrideOut
from forethought.server.schemas.project import DocumentsIn, DocumentsOut, RulebookFormat, RulebookOut

__all__ = ["ORGANISATION", "router"]

ORGANISATION = "/v1/apps/{app}/organisation"
router = APIRouter(tags=["project"], responses=ERRORS)


def organisation(
    caller: CallerDep,
    app: Annotated[str, Path(description="project: the organisation rule set is the project app's.")],
) -> Subject:
    """The organisation rule set of the caller's workspace, as a subject (404 for another app)."""
    name = caller.memory.app(app).name  # an unknown app is a 404 naming the known ones
    if name != PROJECT_APP:
        raise ApiError(404, "not_found", f"app {name!r} has no organisation rule set: it belongs to the project app")
    return Subject(caller, workspace_org(caller.memory, caller.workspace))


OrganisationDep = Annotated[Subject, Depends(organisation)]


def a_project(project: ProjectDep) -> Subject:
    """The project subject, when it is a project and not the organisation rule set itself (422)."""
    refuse_reserved(project.scope.subject)
    return project


NamedProjectDep = Annotated[Subject, Depends(a_project)]


@router.get(f"{ORGANISATION}/rulebook", summary="The organisation rules in force, as Markdown or a rule file",
            response_model=RulebookOut)  # fmt: skip
def organisation_rulebook(
    org: OrganisationDep,
    format: Annotated[RulebookFormat, Query(description="md, or agents / claude / cursor file content.")] = "md",
    as_of: Annotated[str | None, Query(max_length=MAX_TIME_CHARS, description="An ISO 8601 date or time.")] = None,
) -> RulebookOut:
    when = None if as_of is None else parse_time(as_of, field="as_of")
    book = build_rulebook(org.memory, org.scope, as_of=when)
    return RulebookOut(
        format=format, as_of=book.as_of, text=render(book, format), rules=[RecordOut.of(r) for r in book.rules],
        truncated=book.truncated,
    )  # fmt: skip


@router.post(f"{ORGANISATION}/documents", summary="File organisation rule files and ADRs sent as text (each once)",
             response_model=DocumentsOut)  # fmt: skip
def organisation_documents(org: OrganisationDep, body: DocumentsIn) -> DocumentsOut:
    """Read as `POST .../documents` of a project reads them; the candidates wait in the
    organisation rule set's inbox (`subjects/_organisation/inbox`)."""
    return DocumentsOut.of(file_texts(org.memory, org.scope, [(f.path, f.text) for f in body.files]))


def _override_key(override: Override) -> str:
    return override.record.id


@router.get(f"{SUBJECT}/organisation/overrides", summary="The organisation rules this project overrides",
            response_model=Page[OverrideOut])  # fmt: skip
def list_overrides(project: NamedProjectDep, page: PageDep) -> Page[OverrideOut]:
    found = list(overrides(project.memory, project.scope).values())
    items, cursor = slice_sorted(found, _override_key, page.cursor, page.limit)
    return Page(items=[OverrideOut.of(o, project.scope.subject) for o in items], next_cursor=cursor)


@router.post(f"{SUBJECT}/organisation/overrides/{{record_id}}", response_model=OverrideOut,
             summary="Exempt this project from one organisation rule (audited on the rule)")  # fmt: skip
def override(project: NamedProjectDep, record_id: str, body: OverrideIn) -> OverrideOut:
    """`record_id` names an active organisation rule (its id or handle); overriding it again
    replaces the reason."""
    done = set_override(project.memory, project.scope, record_id, reason=body.why)
    return OverrideOut.of(done, project.scope.subject)


@router.post(f"{SUBJECT}/organisation/overrides/{{record_id}}/restore", response_model=OverrideOut,
             summary="Lift this project's override: it inherits the organisation rule again")  # fmt: skip
def restore(project: NamedProjectDep, record_id: str, body: OverrideIn) -> OverrideOut:
    """422 when the project does not override the rule."""
    done = set_override(project.memory, project.scope, record_id, reason=body.why, restore=True)
    return OverrideOut.of(done, project.scope.subject)
