"""Shared fixtures: the Flask app and its test client. And the runs of marked tests only
(-m timing, -m slow) skip collecting the schemathesis modules, whose tests carry no mark."""

from pathlib import Path

import pytest

from referee.app import create_app

# Collecting these builds every operation's schemathesis test, coverage cases included: some
# 7 s per pytest process. None of their tests is marked slow or timing (checked below).
UNMARKED_ONLY = {Path(__file__).parent / "api" / "test_contract.py",
                 Path(__file__).parent / "api" / "matches" / "test_matches_contract.py"}
MARKS = ("slow", "timing")


def pytest_ignore_collect(collection_path, config):
    """A run of ``-m timing`` or ``-m slow`` selects no unmarked test: skip these modules."""
    if config.option.markexpr in MARKS and collection_path in UNMARKED_ONLY:
        return True
    return None


def pytest_itemcollected(item):
    if item.path in UNMARKED_ONLY and any(item.get_closest_marker(mark) for mark in MARKS):
        raise pytest.UsageError(f"{item.nodeid} is marked slow or timing: take its module out of UNMARKED_ONLY "
                                "(tests/conftest.py), or the marked runs never collect it")


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()
