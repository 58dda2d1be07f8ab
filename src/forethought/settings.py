"""Settings: one typed object, built only at entry points (CLI, server, MCP).

Sources, later ones winning: defaults; a `forethought.toml` (the path in FORETHOUGHT_CONFIG, else
./forethought.toml when it exists); environment variables. The library never reads either —
entry points pass the process environment to `Settings.load(environ)` and pass what it holds explicitly.

forethought.toml:

    [forethought]
    db = ".forethought/forethought.db"
    embedder = "minilm"          # or "hashing"
    workspace = "default"

    [recall]                     # who answers recall: "builtin" (default) or "hindsight"
    engine = "hindsight"
    hindsight_url = "http://127.0.0.1:8888"
    hindsight_bank = "forethought"

    [llm]                        # keys: provider, model, base_url, timeout_s, max_retries, structured_output
    provider = "openai_compatible"
    base_url = "http://127.0.0.1:8080/v1"

API keys belong in the environment (GROQ_API_KEY, OPENAI_API_KEY, FORETHOUGHT_LLM_API_KEY), never in
the file; a key found in the file is refused.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from forethought.errors import InvalidInput
from forethought.llm.config import LLMSettings

__all__ = ["DEFAULT_DB", "RecallSettings", "Settings"]

DEFAULT_DB = str(Path(".forethought") / "forethought.db")
_LLM_KEYS = set(LLMSettings.model_fields) - {"api_key"}  # the key is refused separately, with its own message


class RecallSettings(BaseModel):
    """Which engine answers recall; Hindsight needs its server's URL (FORETHOUGHT_RECALL_ENGINE,
    FORETHOUGHT_HINDSIGHT_URL, FORETHOUGHT_HINDSIGHT_BANK override the file's [recall] table)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    engine: Literal["builtin", "hindsight"] = "builtin"
    hindsight_url: str | None = None
    hindsight_bank: str = "forethought"

    @classmethod
    def load(cls, file: Mapping[str, Any], environ: Mapping[str, str], where: str) -> RecallSettings:
        unknown = set(file) - set(cls.model_fields)
        if unknown:
            raise InvalidInput(f"{where}: unknown [recall] keys: {', '.join(sorted(unknown))}")
        picked = dict(file)
        for key in cls.model_fields:
            env = environ.get(f"FORETHOUGHT_{'RECALL_' if key == 'engine' else ''}{key.upper()}", "").strip()
            if env:
                picked[key] = env
        if picked.get("engine", "builtin") not in ("builtin", "hindsight"):
            raise InvalidInput(f"recall engine {picked['engine']!r}: use 'builtin' or 'hindsight'")
        if picked.get("engine") == "hindsight" and not picked.get("hindsight_url"):
            raise InvalidInput("the hindsight recall engine needs its server's URL (FORETHOUGHT_HINDSIGHT_URL)")
        return cls(**picked)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    db: str = DEFAULT_DB
    embedder: str = "minilm"
    workspace: str = "default"
    llm: LLMSettings = LLMSettings()
    recall: RecallSettings = RecallSettings()
    config_file: str | None = None  # where the file settings came from, for `doctor`

    @classmethod
    def load(cls, environ: Mapping[str, str], *, cwd: Path | None = None) -> Settings:
        path = _config_path(environ, cwd or Path.cwd())
        file = _read(path) if path else {}
        core = file.get("forethought", {})
        tables = (core, file.get("llm", {}), file.get("recall", {}))
        if not all(isinstance(t, dict) for t in tables):
            raise InvalidInput(f"{path}: [forethought], [llm] and [recall] must be tables")
        unknown = set(core) - {"db", "embedder", "workspace"}
        if unknown:
            raise InvalidInput(f"{path}: unknown [forethought] keys: {', '.join(sorted(unknown))}")
        llm_file: dict[str, Any] = file.get("llm", {})
        if "api_key" in llm_file:
            raise InvalidInput(f"{path}: API keys go in the environment, not in the file")
        if set(llm_file) - _LLM_KEYS:
            raise InvalidInput(f"{path}: unknown [llm] keys: {', '.join(sorted(set(llm_file) - _LLM_KEYS))}")
        # The file's [llm] values act as FORETHOUGHT_LLM_* defaults that the environment overrides.
        merged = {f"FORETHOUGHT_LLM_{k.upper()}": str(v) for k, v in llm_file.items()}
        merged.update(environ)

        def pick(name: str, env: str, default: str) -> str:
            value = environ.get(env, "").strip() or core.get(name)
            return str(value) if value else default

        return cls(
            db=pick("db", "FORETHOUGHT_DB", DEFAULT_DB),
            embedder=pick("embedder", "FORETHOUGHT_EMBEDDER", "minilm"),
            workspace=pick("workspace", "FORETHOUGHT_WORKSPACE", "default"),
            llm=LLMSettings.from_env(merged),
            recall=RecallSettings.load(file.get("recall", {}), environ, str(path)),
            config_file=str(path) if path else None,
        )


def _config_path(environ: Mapping[str, str], cwd: Path) -> Path | None:
    explicit = environ.get("FORETHOUGHT_CONFIG", "").strip()
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise InvalidInput(f"FORETHOUGHT_CONFIG: no file at {path}")
        return path
    default = cwd / "forethought.toml"
    return default if default.is_file() else None


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path}: cannot read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{path}: not valid TOML ({exc})") from None
