"""The throwaway cluster itself: it runs, takes the password, and stops when asked."""

from __future__ import annotations

import psycopg
import pytest

from tests.support.postgres import Cluster


def test_the_cluster_takes_its_password_and_refuses_another(postgres: Cluster) -> None:
    with psycopg.connect(postgres.url()) as db:
        assert db.execute("SELECT current_user").fetchone() == ("referee",)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(postgres.url(password="wrong"))
