"""The hall's fixtures: one throwaway PostgreSQL cluster for the folder, a new database per test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.support.postgres import NOT_INSTALLED, Cluster, binaries, cluster

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed: pip install "
                              "'.[hall]' (the test extra has it)")
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A running cluster for every hall test (initdb takes seconds: made once)."""
    if binaries() is None:
        pytest.skip(NOT_INSTALLED)
    with cluster() as made:
        yield made


@pytest.fixture
def hall_url(postgres: Cluster) -> str:
    """A libpq URL to a new, empty database of the cluster, password and all."""
    name = f"hall_{next(_numbers)}"
    if not postgres.running():  # a test that stopped it and failed before starting it again
        postgres.start()
    with psycopg.connect(postgres.url(), autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return postgres.url(name)
