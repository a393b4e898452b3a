"""The hall's schema: versioned migrations, applied once, refused when newer; settings hide the
password."""

from __future__ import annotations

import psycopg
import pytest

from voice.hall.schema import LATEST, NewerHall, migrate, migrations


def test_migrations_are_numbered_from_one_without_gaps():
    assert [version for version, _ in migrations()] == list(range(1, LATEST + 1))


def test_migrating_twice_applies_each_migration_once(hall_url):
    with psycopg.connect(hall_url) as db:
        assert migrate(db) == 0
        assert migrate(db) == LATEST
        versions = db.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert versions == [(v,) for v in range(1, LATEST + 1)]


def test_a_hall_migrated_by_a_newer_version_is_refused_untouched(hall_url):
    with psycopg.connect(hall_url) as db:
        migrate(db)
        db.execute("INSERT INTO schema_version (version) VALUES (%s)", (LATEST + 1,))
        db.commit()
        with pytest.raises(NewerHall, match=f"schema {LATEST + 1}, newer"):
            migrate(db)


def test_config_show_hides_the_password_of_the_hall(referee, tmp_path):
    settings = tmp_path / "settings.toml"
    settings.write_text('[hall]\nname = "Academy"\npush = "postgresql://t3:s3cret@hall/db"\n')
    done = referee("config", "show", "--config", settings)
    assert done.code == 0, done.err
    assert "s3cret" not in done.out
    assert '"user=t3 dbname=db host=hall"' in done.out
