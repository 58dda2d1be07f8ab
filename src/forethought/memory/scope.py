"""The one way to name a subject: a Scope is (app, space key, space), resolved once.

Every front end — the HTTP API, the web workspace, the MCP server, the CLI and the Python API —
turns "who is asking" (a workspace) plus an app name and a subject id into a Scope through
`resolve_scope`, and passes that Scope to every call it makes for the request or turn. The space
row behind it is looked up at most once per Scope, lazily: reading a subject that was never
written creates nothing, and the first write creates its space.

A Scope is bound to the store that resolved it (space ids are keyed by that store's secret), so a
Scope made by one memory is refused by another instead of addressing a space it does not own.
"""

from __future__ import annotations

from collections.abc import Callable

from forethought.apps.base import App
from forethought.domain import Space, SpaceKey
from forethought.errors import InvalidInput, NotFound, validation_reason
from forethought.plugins import registry

__all__ = ["Scope", "SpaceResolver", "UnknownApp", "find_app", "resolve_scope"]

# (key, create) -> Space; raises NotFound when the space does not exist and create is False.
SpaceResolver = Callable[..., Space]


class UnknownApp(NotFound):
    """An app name that no installed app answers to (a 404 on the API and the workspace)."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown app {name!r} (known: {', '.join(known)})")
        self.name = name
        self.known = known


class Scope:
    """Who a call is about: the app, the space key, and (looked up once) the space."""

    __slots__ = ("_resolver", "_space", "_state", "app", "key")

    def __init__(self, app: App, key: SpaceKey, resolver: SpaceResolver) -> None:
        self.app = app
        self.key = key
        self._resolver = resolver
        self._space: Space | None = None
        self._state = "unknown"  # "unknown" | "absent" | "present"

    @property
    def subject(self) -> str:
        return self.key.subject_id

    @property
    def workspace(self) -> str:
        return self.key.workspace

    def bound_to(self, resolver: SpaceResolver) -> bool:
        return self._resolver == resolver

    def space(self) -> Space:
        """The space, created on first use (writes call this)."""
        if self._space is None:
            self._space = self._resolver(self.key, create=True)
            self._state = "present"
        return self._space

    def existing(self) -> Space | None:
        """The space if it exists, else None — never creating it (reads call this)."""
        if self._state == "unknown":
            try:
                self._space = self._resolver(self.key, create=False)
                self._state = "present"
            except NotFound:
                self._state = "absent"
        return self._space

    def require(self) -> Space:
        """The space of a call that acts on something already stored: NotFound when it never was."""
        found = self.existing()
        if found is None:
            raise NotFound(f"no space for {self.key.subject_type} {self.key.subject_id!r}")
        return found

    def forget_space(self) -> None:
        """The space was erased: the next write creates it afresh."""
        self._space = None
        self._state = "absent"

    def __repr__(self) -> str:
        return f"Scope(app={self.app.name!r}, key={self.key!r})"


def find_app(app: App | str) -> App:
    """The app itself, or the installed app of that name (UnknownApp otherwise)."""
    if isinstance(app, App):
        return app
    plugins = registry()
    try:
        return plugins.app(app)
    except InvalidInput:
        raise UnknownApp(app, plugins.names("app")) from None


def resolve_scope(
    resolver: SpaceResolver, workspace: str, app: App | str, subject_id: str, *, field: str = "subject"
) -> Scope:
    """The Scope of `subject_id` under `app` in `workspace`. The workspace always comes from the
    caller's identity (an API key, a browser session, the CLI's settings), never from the client's
    request; `field` names the argument in the error a malformed subject id gets."""
    resolved = find_app(app)
    try:
        key = SpaceKey(workspace=workspace, subject_type=resolved.subject_type, subject_id=subject_id)
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise InvalidInput(f"{field}: {validation_reason(exc)}") from None
    return Scope(resolved, key, resolver)
