"""A project's compare page: one coding task answered by the configured model with and without the
memory block, every answer checked blind (see `forethought.projects.compare`), and the runs kept.

The form takes the task, the files it touches (one a line) and the rounds (1–5). A finished run is
kept with the project and opens on a page of its own: per round each arm's violations and the
rules broken, each arm's mean and spread, the fairness line, and both answers (as text). Earlier
runs are listed newest first. With no model configured the page says so and how to configure
one, and offers no run: compare never fakes a baseline.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request, Response
from fastapi.responses import RedirectResponse

from forethought.errors import InvalidInput
from forethought.llm.base import ProviderError
from forethought.projects.compare import MAX_FILE_PATHS, MAX_PATH_CHARS, MAX_TASK_CHARS, NO_MODEL
from forethought.projects.compare_runs import get_run, list_runs, run_and_keep
from forethought.web.deps import FormProjectDep, Place, ProjectDep
from forethought.web.errors import PageRoute
from forethought.web.render import page

__all__ = ["MAX_ROUNDS", "router"]

router = APIRouter(prefix="/web/apps/{app}/{subject}/compare", route_class=PageRoute, include_in_schema=False)

MAX_ROUNDS = 5  # rounds a page runs while the browser waits (the API and CLI allow more)
RUNS_SHOWN = 20
Rounds = Annotated[int, Form(ge=1, le=MAX_ROUNDS)]


def _form(request: Request, place: Place, *, task: str = "", paths: str = "", repeat: int = 3,
          error: str | None = None, status: int = 200, before: str | None = None) -> Response:  # fmt: skip
    runs = list_runs(place.memory, place.scope, limit=RUNS_SHOWN + 1, before_id=before)
    return page(
        request,
        "compare.html",
        place=place,
        status=status,
        title="Compare",
        no_model=NO_MODEL if place.memory.model is None else None,
        task=task,
        paths=paths,
        repeat=repeat,
        max_rounds=MAX_ROUNDS,
        max_task=MAX_TASK_CHARS,
        runs=runs[:RUNS_SHOWN],
        older=runs[RUNS_SHOWN - 1].id if len(runs) > RUNS_SHOWN else None,
        error=error,
    )


@router.get("")
def compare_page(
    request: Request, place: ProjectDep, before: Annotated[str | None, Query(max_length=64)] = None
) -> Response:
    """The form and the runs kept, newest first (`before`: the runs older than that one)."""
    return _form(request, place, before=before)


@router.post("")
def run(
    request: Request,
    place: FormProjectDep,
    task: Annotated[str, Form(max_length=MAX_TASK_CHARS + 1000)] = "",
    paths: Annotated[str, Form(max_length=MAX_FILE_PATHS * (MAX_PATH_CHARS + 2))] = "",
    repeat: Rounds = 3,
) -> Response:
    """Run compare and open the kept run; bad input, no model or a run whose every round failed
    comes back on the form with the reason."""
    files = [line.strip() for line in paths.splitlines() if line.strip()]
    try:
        if not task.strip():
            raise InvalidInput("task: say what the model should write")
        done = run_and_keep(place.memory, place.scope, task, repeat=repeat, file_paths=files)
    except InvalidInput as exc:
        return _form(request, place, task=task, paths=paths, repeat=repeat, error=str(exc), status=422)
    except ProviderError as exc:
        return _form(request, place, task=task, paths=paths, repeat=repeat, error=str(exc), status=502)
    return RedirectResponse(place.url(f"compare/{done.id}"), status_code=303)


@router.get("/{run_id}")
def kept_run(request: Request, place: ProjectDep, run_id: str) -> Response:
    """One kept run (404 for an id of another project or workspace)."""
    done = get_run(place.memory, place.scope, run_id)
    return page(request, "compare_run.html", place=place, title="Compare run", run=done)
