"""The README stays short and leads with its two commands; every link in it and in docs/
resolves; the generated pages are what the code gives now; every dependency has its row."""

import re
import tomllib
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

from voice.cli import reference

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
START = """# carom-referee — the carom billiards referee's voice assistant

```sh
bash scripts/setup.sh && .venv/bin/referee demo
.venv/bin/python -m pytest -q
```
"""


def test_the_readme_is_short_and_starts_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert text.startswith(START)


def anchors(page: Path) -> set[str]:
    """The ids MkDocs gives the headings of `page` (Python-Markdown's toc slugs)."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#{1,6} +(.+?) *$", text, re.MULTILINE)
    return {slugify(re.sub(r"[`*]", "", heading), "-") for heading in headings}


def links(page: Path) -> list[str]:
    """The relative links of `page`, outside code blocks."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def broken(page: Path) -> list[str]:
    """The relative links of `page` to a file that is missing, or to a heading it lacks."""
    found = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_file() or (anchor and anchor not in anchors(file)):
            found.append(target)
    return found


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda page: page.name)
def test_every_relative_link_resolves(page: Path):
    assert broken(page) == []


def test_a_missing_page_or_heading_is_a_broken_link(tmp_path: Path):
    (tmp_path / "other.md").write_text("# Other\n\n## The part: here\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[a](other.md) [b](other.md#the-part-here) [c](gone.md) [d](other.md#gone) "
        "[e](https://example.org/gone.md)\n```\n[f](in-code.md)\n```\n", encoding="utf-8"
    )
    assert broken(page) == ["gone.md", "other.md#gone"]


@pytest.mark.parametrize("name", sorted(reference.PAGES))
def test_the_generated_page_is_what_the_code_gives(name: str, monkeypatch: pytest.MonkeyPatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.setenv(variable, "C")
    checked_in = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert checked_in == reference.PAGES[name](), (
        f"docs/{name} is stale: LANGUAGE=C .venv/bin/python -m voice.cli.reference"
    )


def test_the_cli_reference_has_every_subcommand():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    from voice.cli.main import COMMANDS

    names = {module.__name__.rpartition(".")[2] for module in COMMANDS}
    assert {name for name in names if f"\n## referee {name}\n" not in page} == set()


def test_every_announcement_form_is_listed():
    from phrases.bank import bank

    page = (ROOT / "docs" / "announcements.md").read_text(encoding="utf-8")
    assert [key for key in bank().templates if f"| `{key}` |" not in page] == []


def test_every_dependency_has_its_row():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [*project["build-system"]["requires"], *project["project"]["dependencies"]]
    wanted += [spec for extra in project["project"]["optional-dependencies"].values()
               for spec in extra]
    names = {re.split(r"[^A-Za-z0-9._-]", spec, maxsplit=1)[0] for spec in wanted}
    page = (ROOT / "docs" / "dependencies.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| ([A-Za-z0-9._-]+) \|", page, re.MULTILINE))
    assert names - rows == set()
