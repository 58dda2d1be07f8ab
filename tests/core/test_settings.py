"""Settings are built at the edge from defaults, forethought.toml and the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from forethought import InvalidInput
from forethought.settings import DEFAULT_DB, Settings


def test_defaults_mean_the_heuristic_mode(tmp_path: Path) -> None:
    settings = Settings.load({}, cwd=tmp_path)
    assert (settings.db, settings.embedder, settings.workspace) == (DEFAULT_DB, "minilm", "default")
    assert settings.llm.provider == "none" and settings.config_file is None


def test_the_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    (tmp_path / "forethought.toml").write_text(
        '[forethought]\ndb = "from-file.db"\nembedder = "hashing"\n'
        '[llm]\nprovider = "openai_compatible"\nbase_url = "http://127.0.0.1:8080/v1"\nmodel = "m1"\n'
    )
    settings = Settings.load({"FORETHOUGHT_DB": "from-env.db", "FORETHOUGHT_LLM_MODEL": "m2"}, cwd=tmp_path)
    assert settings.db == "from-env.db" and settings.embedder == "hashing"
    assert settings.llm.provider == "openai_compatible" and settings.llm.resolved_model == "m2"
    assert settings.config_file == str(tmp_path / "forethought.toml")


def test_groq_key_selects_groq_and_never_shows_the_key(tmp_path: Path) -> None:
    settings = Settings.load({"GROQ_API_KEY": "gsk_test_not_a_real_key_123456"}, cwd=tmp_path)
    assert settings.llm.provider == "groq" and settings.llm.resolved_model == "llama-3.3-70b-versatile"
    assert "gsk_test" not in repr(settings)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[llm]\napi_key = "sk-in-a-file"\n', "environment"),
        ("[forethought]\ncolour = 'blue'\n", "unknown"),
        ("not = [valid toml", "not valid TOML"),
        ('[llm]\nprovider = "openai_compatible"\n', "base URL"),
    ],
)
def test_bad_files_are_refused_clearly(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "forethought.toml").write_text(content)
    with pytest.raises(InvalidInput, match=message):
        Settings.load({}, cwd=tmp_path)


def test_an_explicit_config_path_must_exist(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no file"):
        Settings.load({"FORETHOUGHT_CONFIG": str(tmp_path / "missing.toml")}, cwd=tmp_path)


def test_the_recall_engine_comes_from_the_file_or_the_environment(tmp_path: Path) -> None:
    assert Settings.load({}, cwd=tmp_path).recall.engine == "builtin"
    (tmp_path / "forethought.toml").write_text('[recall]\nengine = "hindsight"\nhindsight_url = "http://127.0.0.1:1"\n')
    recall = Settings.load({}, cwd=tmp_path).recall
    assert (recall.engine, recall.hindsight_url, recall.hindsight_bank) == (
        "hindsight",
        "http://127.0.0.1:1",
        "forethought",
    )
    env = {"FORETHOUGHT_RECALL_ENGINE": "builtin", "FORETHOUGHT_HINDSIGHT_BANK": "team"}
    assert Settings.load(env, cwd=tmp_path).recall.model_dump() == {
        "engine": "builtin",
        "hindsight_url": "http://127.0.0.1:1",
        "hindsight_bank": "team",
    }


def test_a_hindsight_engine_without_a_url_or_an_unknown_engine_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="URL"):
        Settings.load({"FORETHOUGHT_RECALL_ENGINE": "hindsight"}, cwd=tmp_path)
    with pytest.raises(InvalidInput, match="builtin"):
        Settings.load({"FORETHOUGHT_RECALL_ENGINE": "elastic"}, cwd=tmp_path)
    (tmp_path / "forethought.toml").write_text("[recall]\nurl = 'x'\n")
    with pytest.raises(InvalidInput, match="unknown"):
        Settings.load({}, cwd=tmp_path)
