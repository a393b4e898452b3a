"""The Layout section of docs/architecture.md names the tree as it is: no module missing, none
made up."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "phrases", "voice")
NAMED = (*PACKAGES, "bench", "tests")  # folders whose modules the layout may name


def layout_section() -> str:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return page.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]


def test_every_package_and_module_is_in_the_layout():
    text = layout_section()
    missing = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.name != "__init__.py" and "__pycache__" not in path.parts
        and not re.search(rf"\b{re.escape(path.stem)}\b", text)
    ]
    folders = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "voice").iterdir())
        if path.is_dir() and path.name != "__pycache__" and f"{path.name}/" not in text
    ]
    assert missing == [] and folders == []


def test_every_module_the_layout_names_exists():
    named = set(re.findall(r"\b([a-z_]+)\.py\b", layout_section()))
    modules = {path.stem for folder in NAMED for path in (ROOT / folder).rglob("*.py")}
    assert named - modules == set()
