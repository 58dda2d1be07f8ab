"""The store seam stays narrow: small contracts, each method documented, all owned by the root Store."""

from __future__ import annotations

import inspect
from abc import ABC

import pytest

from forethought.store import base, contracts
from forethought.store.base import Store

CONTRACTS = [getattr(contracts, name) for name in contracts.__all__]
ATTRIBUTES = {
    "spaces": "SpaceStore",
    "records": "RecordStore",
    "search": "SearchIndex",
    "outbox": "OutboxStore",
    "index_sync": "IndexSyncStore",
    "sessions": "SessionStore",
    "traces": "TraceStore",
    "keys": "KeyStore",
    "logins": "LoginStore",
    "limits": "LimitStore",
    "imports": "ImportJobStore",
    "audit": "AuditLog",
    "app_tables": "AppTables",
}


@pytest.mark.parametrize("contract", [*CONTRACTS, Store], ids=lambda c: c.__name__)
def test_no_contract_has_more_than_ten_abstract_methods(contract: type[ABC]) -> None:
    assert issubclass(contract, ABC)
    assert 1 <= len(contract.__abstractmethods__) <= 10, sorted(contract.__abstractmethods__)


@pytest.mark.parametrize("contract", [*CONTRACTS, Store], ids=lambda c: c.__name__)
def test_every_contract_and_method_says_what_it_does(contract: type[ABC]) -> None:
    assert inspect.getdoc(contract)
    for name in contract.__abstractmethods__:
        assert inspect.getdoc(getattr(contract, name)), f"{contract.__name__}.{name} has no docstring"


def test_the_root_store_owns_one_of_each_contract() -> None:
    assert {n: a for n, a in Store.__annotations__.items() if n in ATTRIBUTES} == ATTRIBUTES
    assert sorted(c.__name__ for c in CONTRACTS) == sorted(ATTRIBUTES.values())
    assert all(getattr(base, c.__name__) is c for c in CONTRACTS)  # importable from store.base


def test_a_backend_fills_every_contract_attribute(store: Store) -> None:
    for attribute, contract in ATTRIBUTES.items():
        assert isinstance(getattr(store, attribute), getattr(contracts, contract)), attribute
