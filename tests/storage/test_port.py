"""The port is split by concern, and each adapter implements every concern with the port's
signatures (a caller typed with one concern can be handed either adapter)."""

from __future__ import annotations

import inspect
from typing import Any, Protocol

import pytest

from bot.storage import SqliteStorage, Storage, StoragePort
from bot.storage.postgres import PostgresStorage

CONCERNS = [base for base in StoragePort.__bases__ if base is not Protocol]


def members(protocol: type) -> dict[str, Any]:
    """The methods and properties a protocol declares itself."""
    return {
        name: value
        for name, value in vars(protocol).items()
        if inspect.isfunction(value) or isinstance(value, property)
        if not name.startswith("_") or name in ("__aenter__", "__aexit__")
    }


def test_each_method_of_the_port_belongs_to_one_concern() -> None:
    owners: dict[str, list[str]] = {}
    for concern in CONCERNS:
        for name in members(concern):
            owners.setdefault(name, []).append(concern.__name__)
    shared = {name: where for name, where in owners.items() if len(where) > 1}
    assert not shared
    assert len(CONCERNS) == 9
    assert len(owners) == 32
    assert not members(StoragePort)  # the whole port adds nothing of its own


@pytest.mark.parametrize("adapter", [SqliteStorage, PostgresStorage])
def test_each_adapter_implements_every_concern(adapter: type) -> None:
    for concern in CONCERNS:
        assert concern in adapter.__mro__
        for name, declared in members(concern).items():
            own = inspect.getattr_static(adapter, name)
            assert own is not declared, f"{adapter.__name__} lacks {concern.__name__}.{name}"
            if isinstance(declared, property):
                assert isinstance(own, property), name
            elif name.startswith("__"):  # returns the adapter itself rather than `Self`
                assert inspect.signature(own).parameters == inspect.signature(declared).parameters
            else:
                assert inspect.iscoroutinefunction(own), name
                assert inspect.signature(own) == inspect.signature(declared), name


def test_storage_is_the_sqlite_adapter() -> None:
    assert Storage is SqliteStorage
