"""The examples in the pure core's docstrings (rules/, phrases/) run as doctests."""

import doctest
import importlib
import pkgutil

import pytest

import phrases
import rules

MODULES = sorted(
    info.name for package in (rules, phrases)
    for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
)
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
