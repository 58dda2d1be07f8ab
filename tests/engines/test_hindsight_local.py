"""The local Hindsight launcher's pure parts: the child's environment and a missing install."""

from __future__ import annotations

from pathlib import Path

import pytest

from forethought.embed.hashing import HashingEmbedder
from forethought.engines.hindsight.base import HindsightUnavailable
from forethought.engines.hindsight.local import LocalHindsight, free_port, server_env


def test_the_child_keeps_the_parent_environment_but_none_of_its_hindsight_or_openai_settings() -> None:
    parent = {
        "PATH": "/usr/bin",
        "HINDSIGHT_API_HOST": "0.0.0.0",
        "HINDSIGHT_API_LLM_PROVIDER": "openai",
        "OPENAI_API_KEY": "sk-not-for-the-child",
    }
    env = server_env(parent, dsn="postgresql://x@127.0.0.1:1/h", port=4321, embeddings_url="http://e/v1", model="m")
    assert env["PATH"] == "/usr/bin"
    assert "OPENAI_API_KEY" not in env
    assert env["HINDSIGHT_API_HOST"] == "127.0.0.1"
    assert env["HINDSIGHT_API_LLM_PROVIDER"] == "none"
    assert env["HINDSIGHT_API_PORT"] == "4321"
    assert env["HINDSIGHT_API_DATABASE_URL"] == "postgresql://x@127.0.0.1:1/h"
    assert env["HINDSIGHT_API_EMBEDDINGS_OPENAI_BASE_URL"] == "http://e/v1"
    assert env["HINDSIGHT_API_EMBEDDINGS_OPENAI_MODEL"] == "m"
    assert parent["HINDSIGHT_API_HOST"] == "0.0.0.0"  # the parent's mapping is left alone


def test_a_missing_install_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(HindsightUnavailable, match="make hindsight"):
        LocalHindsight("postgresql://x@127.0.0.1:1/h", HashingEmbedder(), venv=tmp_path, parent_env={})


def test_free_port_is_a_loopback_port() -> None:
    assert 0 < free_port() < 65536
