"""The typed packages say so: each ships a `py.typed` marker (PEP 561)."""

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["rules", "phrases", "voice"])
def test_each_package_has_a_py_typed_marker_listed_as_package_data(package):
    assert (ROOT / package / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in data["tool"]["setuptools"]["package-data"][package]
