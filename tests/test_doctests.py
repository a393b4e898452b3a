"""The examples in the docstrings run as doctests: the pure core's (rules/, phrases/) and the
edge's (voice/)."""

import doctest
import importlib
import pkgutil

import pytest

import phrases
import rules
import voice

MODULES = sorted(
    info.name for package in (rules, phrases)
    for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
)
EDGE = sorted(info.name for info in pkgutil.walk_packages(voice.__path__, "voice."))
# The examples a reader needs first: apply, parse, expand, render, and the forms kept on disk.
EXAMPLES = {"rules.match.apply", "rules.grammar.parse", "rules.sentences.expand",
            "phrases.render.render", "rules.command.Command.to_dict", "rules.state.Setup.to_dict"}


@pytest.mark.core
@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_each_module_hold(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.failed == 0


@pytest.mark.core
def test_the_examples_a_reader_needs_are_there():
    finder = doctest.DocTestFinder()
    found = {test.name for name in MODULES for test in finder.find(importlib.import_module(name))
             if test.examples}
    assert found >= EXAMPLES


def test_the_examples_in_the_edges_modules_hold():
    results = {name: doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
               for name in EDGE}
    assert [name for name, result in results.items() if result.failed] == []
    assert sum(result.attempted for result in results.values()) >= 18  # all of them were found
