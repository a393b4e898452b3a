"""«διόρθωση»: the headset names the event withdrawn."""

import pytest

from phrases.render import render
from rules.announcement import Announcement, Code, forms


@pytest.mark.parametrize("kind", sorted(forms(Code.WITHDRAWN)))
def test_the_headset_names_every_event_undo_can_withdraw(kind):
    utterance = render(Announcement(Code.WITHDRAWN, variant=kind))
    assert utterance.channel == "headset"
    assert utterance.text.startswith("ακυρώθηκε: ") and utterance.display


@pytest.mark.parametrize(
    "kind,player,text",
    [
        ("point_out", None, "ακυρώθηκε: πόντος έξω"),
        ("a_cheval_anchor", None, "ακυρώθηκε: ασεβάλ άγκυρα"),
        ("ball_off", None, "ακυρώθηκε: εκτός τραπεζιού"),
        ("starts", "Κωνσταντίνου", "ακυρώθηκε: ξεκινά Κωνσταντίνου"),
    ],
)
def test_the_withdrawn_event_is_named_as_the_referee_said_it(kind, player, text):
    assert render(Announcement(Code.WITHDRAWN, variant=kind, player=player)).text == text
