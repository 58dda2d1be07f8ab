"""The HTTP API: a thin FastAPI front end over the `Forethought` façade (see docs/api.md).

from forethought.server import ServerSettings, create_app
app = create_app(Forethought.open("memory.db"), ServerSettings())
"""

from forethought.server.app import create_app
from forethought.server.services import Services
from forethought.server.settings import ServerSettings

__all__ = ["ServerSettings", "Services", "create_app"]
