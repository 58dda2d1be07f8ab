"""Prompts: pure functions `build(context) -> list[Message]`, each beside the pydantic model of the
answer it expects. Memory text always reaches a model as delimited data (`memory_block`), never as
instructions; text a model must quote back verbatim (a draft) is fenced, not escaped.

- `extraction`: typed candidates with verbatim quotes out of a session (the LLM extractor);
- `applicability`: which recalled records apply to a task (the brief's LLM judge);
- `judge`: which records a draft violates, quoting the draft (the check's LLM judge);
- `ask`: an answer drawn only from memory, citing handles (reflect);
- `memory_block`: the block at the top of a generation system prompt, and the shared rendering.
"""
