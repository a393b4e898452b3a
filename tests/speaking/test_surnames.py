"""Which surnames the Greek voice may misread without a spoken form."""

import pytest

from voice.speaking.surnames import spelling_doubt


@pytest.mark.parametrize(
    "surname,doubt",
    [
        ("Παπαδόπουλος", None),
        ("Κωνσταντίνου", None),
        ("Γιάσπερς", None),
        ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "in capitals"),  # espeak-ng: [papaðoˈpulos], not [papaˈðopulos]
        ("Παπαδοπουλος", "without an accent mark"),
        ("Jaspers", "in Latin letters"),  # read by English rules, in the English voice
        ("Müller", "in Latin letters"),
    ],
)
def test_capitals_a_missing_accent_and_latin_letters_are_doubts(surname, doubt):
    assert spelling_doubt(surname) == doubt
