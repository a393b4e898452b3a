"""What `listen` and `run` share: the recognition pipeline loaded, and what it can hear said."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rules.vocabulary import Vocabulary
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.profile import Profile
from voice.settings import Settings

if TYPE_CHECKING:  # vosk loads only when a model is used, not on every `referee` command
    from voice.hearing.listener import Listener


def start_listener(
    model: Path,
    vocabulary: Vocabulary,
    table: PhraseTable | None,
    settings: Settings,
    profile: Profile,
    early: bool = False,
    prog: str = "referee listen",
) -> Listener:
    """Load the model and the pipeline with the threshold, endpoint and aliases in force, and
    say on stderr what it can hear, and how fast."""
    from voice.hearing.listener import describe, load_listener

    listener = load_listener(model, vocabulary, table, settings.threshold, early,
                             settings.endpoint_ms, profile.aliases)
    sys.stderr.writelines(f"{prog}: {line}\n" for line in describe(listener, model))
    return listener
