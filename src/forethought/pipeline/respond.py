"""Generation: the reply, with the memory block at the top of the system prompt.

With a model, the block goes first (recalled facts read as ground truth there), then the app's
persona and rules, then the recent conversation. Without one, the heuristic responder assembles
a reply from the memory that applies — labelled as such, never pretending to be a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from forethought.apps.base import App
from forethought.domain import Role, Turn
from forethought.llm.base import ChatModel, Message, Usage
from forethought.pipeline.reports import Brief, Violation
from forethought.prompts.memory_block import escape

__all__ = ["HEURISTIC_NOTE", "Reply", "generate"]

HISTORY_TURNS = 12
HEURISTIC_NOTE = "(heuristic mode: no language model is configured, so this reply is assembled from memory)"


@dataclass(frozen=True)
class Reply:
    text: str
    mode: str
    usage: Usage = field(default_factory=Usage)


def _system(app: App, brief: Brief, feedback: Sequence[Violation]) -> str:
    parts = []
    if brief.block:
        parts.append(brief.block)
    parts.append(app.persona)
    parts.append(
        "Use the memory above when it applies; do not contradict it. If it says something was tried"
        " and failed, do not suggest it again. If you have no memory about something, say so."
    )
    if feedback:
        # Record text and the draft's words are data here too: escaped, one line each.
        lines = "\n".join(
            f'- {escape(v.message)} (memory {v.handle}; your text: "{escape(v.excerpt)}")' for v in feedback
        )
        parts.append(f"Your previous draft went against memory:\n{lines}\nWrite a new reply that does not.")
    return "\n\n".join(parts)


def _history(turns: Sequence[Turn]) -> list[Message]:
    out = []
    for turn in list(turns)[-HISTORY_TURNS:]:
        if turn.role in (Role.USER, Role.AGENT):
            out.append(Message(role="user" if turn.role is Role.USER else "assistant", content=turn.text))
    return out


def generate(
    app: App,
    brief: Brief,
    history: Sequence[Turn],
    message: str,
    *,
    model: ChatModel | None,
    feedback: Sequence[Violation] = (),
) -> Reply:
    """The draft reply. Raises ProviderError when the model fails (the turn decides the fallback)."""
    if model is None:
        return heuristic_reply(brief)
    messages = [
        Message(role="system", content=_system(app, brief, feedback)),
        *_history(history),
        Message(role="user", content=message),
    ]
    result = model.chat(messages, max_tokens=800, temperature=0.2)
    return Reply(text=result.text.strip(), mode=f"llm:{model.name}", usage=result.usage)


def heuristic_reply(brief: Brief) -> Reply:
    if not brief.used:
        body = "I have no memory that applies to this yet."
    else:
        lines = [f"- {item.record.statement} [{item.record.handle}]" for item in brief.used]
        body = "Here is what I remember that applies:\n" + "\n".join(lines)
    return Reply(text=f"{HEURISTIC_NOTE}\n{body}", mode="heuristic")
