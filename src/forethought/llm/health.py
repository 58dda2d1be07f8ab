"""health_check: is the configured chat model reachable? For `forethought doctor`; never raises."""

from __future__ import annotations

from typing import NamedTuple, Protocol, runtime_checkable

from forethought.llm.base import ChatModel, Message, ProviderError

__all__ = ["Health", "health_check"]


class Health(NamedTuple):
    reachable: bool
    detail: str


@runtime_checkable
class _Probing(Protocol):
    """A capability: a model that can check its server cheaply (OpenAICompatibleModel.probe)."""

    def probe(self, *, timeout_s: float = ...) -> str: ...


def health_check(model: ChatModel, *, timeout_s: float = 5.0) -> Health:
    """Ask the model's server whether it is there (GET /models, else a 1-token completion).

    Returns (reachable, one-line detail); every failure, expected or not, becomes (False, why).
    """
    try:
        if isinstance(model, _Probing):
            detail = model.probe(timeout_s=timeout_s)
        else:
            result = model.chat([Message(role="user", content="ping")], max_tokens=1)
            detail = f"answered a 1-token completion (finish_reason={result.finish_reason})"
    except ProviderError as exc:
        return Health(False, f"{exc.code}: {exc}")
    except Exception as exc:  # a doctor reports; it does not crash
        return Health(False, f"{model.describe()}: unexpected {type(exc).__name__}: {exc}")
    return Health(True, f"{model.describe()}: {detail}")
