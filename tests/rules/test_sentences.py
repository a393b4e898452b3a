"""Sentence templates: alternatives, optional words, slots and synonyms expand to sentences."""

import pytest

from rules.errors import RefereeError
from rules.sentences import GrammarError, expand


def said(template: str, **synonyms: str) -> list[str]:
    named = {name: expand(text) for name, text in synonyms.items()}
    return [" ".join(sentence) for sentence in expand(template, named)]


def test_alternatives_and_optional_words_give_every_combination_in_order():
    assert said("(πόντος|καραμπόλα) αντρέ [άγκυρα]") == [
        "πόντος αντρέ", "πόντος αντρέ άγκυρα", "καραμπόλα αντρέ", "καραμπόλα αντρέ άγκυρα",
    ]


def test_alternatives_may_be_several_words_and_stand_at_the_top_level():
    assert said("α σεβάλ | ασεβάλ") == ["α σεβάλ", "ασεβάλ"]


def test_groups_nest():
    assert said("a [b [c|d e]] (f|[g] h)") == [
        "a f", "a h", "a g h",
        "a b f", "a b h", "a b g h",
        "a b c f", "a b c h", "a b c g h",
        "a b d e f", "a b d e h", "a b d e g h",
    ]


def test_slots_are_kept_as_written():
    assert expand("αντρέ [{frames}]") == [("αντρέ",), ("αντρέ", "{frames}")]


def test_synonyms_stand_for_their_sentences():
    assert said("<carom> έξω", carom="πόντος | πόντο") == ["πόντος έξω", "πόντο έξω"]


def test_repeats_are_dropped():
    assert said("(a|a) [b|b]") == ["a", "a b"]


@pytest.mark.parametrize(
    "template,fault",
    [
        ("(a|b", "'(' is not closed by ')'"),
        ("[a) b", "'[' is not closed by ']'"),
        ("a)", "unexpected ')'"),
        ("a ] b", "unexpected ']'"),
        ("(a|)", "an empty alternative"),
        ("| a", "an empty alternative"),
        ("a ()", "an empty alternative"),
        ("", "an empty alternative"),
        ("[a]", "no word at all"),
        ("[a] [b]", "no word at all"),
        ("a {frames", "unexpected '{'"),
        ("a <> b", "unexpected '<'"),
        ("<carom> έξω", "no synonyms '<carom>'"),
    ],
)
def test_a_bad_template_is_an_error_that_quotes_it(template, fault):
    with pytest.raises(GrammarError) as error:
        expand(template)
    assert str(error.value).startswith(f"sentence template {template!r}: ")
    assert fault in str(error.value)
    assert isinstance(error.value, RefereeError) and isinstance(error.value, ValueError)
