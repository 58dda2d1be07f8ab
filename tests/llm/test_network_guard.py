"""Inside the suite no real provider can be reached, and trying fails fast as ProviderUnavailable."""

from __future__ import annotations

import pytest

from forethought.llm import Message, OpenAICompatibleModel, ProviderUnavailable

from .conftest import KEY


def test_the_real_groq_url_cannot_be_reached() -> None:
    # Fails in DNS on a machine without internet, at the suite's connect guard otherwise.
    model = OpenAICompatibleModel.groq(KEY, max_retries=0, connect_timeout_s=2)
    with model, pytest.raises(ProviderUnavailable) as caught:
        model.chat([Message(role="user", content="hi")])
    assert KEY not in str(caught.value)


def test_the_guard_refuses_a_public_address_and_the_client_reports_it() -> None:
    # An address literal needs no DNS, so this reaches socket.connect and the guard itself.
    model = OpenAICompatibleModel.local("https://203.0.113.7/v1", "m", max_retries=0, connect_timeout_s=2)
    with model, pytest.raises(ProviderUnavailable, match="loopback only"):
        model.chat([Message(role="user", content="hi")])
