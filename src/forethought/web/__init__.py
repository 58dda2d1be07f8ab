"""The web workspace: server-rendered pages over the same façade as the HTTP API.

`create_app` mounts `router`; the pages live under `/web` (and `/` leads there). Log in with an
API key; every page acts only on that key's workspace. See docs/web.md.
"""

from forethought.web.routes import router

__all__ = ["router"]
