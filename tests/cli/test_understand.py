"""`referee understand`: transcripts → the commands the live loop would act on, and the corpus
of recognition errors held to the targets (no wrong command, no false command)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.understand import TARGET, read_corpus, tally, understood
from rules.command import Command, Kind
from rules.discipline import discipline
from rules.vocabulary import Vocabulary
from tests.support.korean import TABLE
from voice.hearing.listener import Listener
from voice.hearing.phrase_table import PhraseTable
from voice.hearing.profile import load_profile
from voice.hearing.recognise import LoadedModel


def test_the_corpus_has_at_most_one_wrong_or_false_command_in_a_hundred():
    rows = read_corpus()
    result = tally(zip(rows, understood(rows), strict=True))
    print(f"\n{result.line('understand.tsv')}")
    assert result.commands >= 30 and result.others >= 30
    assert result.wrong <= TARGET * result.commands
    assert result.false <= TARGET * result.others


def test_understand_answers_as_the_live_loop_does(
    referee, korean_model: LoadedModel, table_file: Path, tmp_path: Path
) -> None:
    profile = tmp_path / "p.toml"
    profile.write_text('threshold = 70.0\n[aliases]\n"αστοχο διορθωση" = "άστοχο"\n',
                       encoding="utf-8")
    texts = [*(r.heard for r in read_corpus()), "엄마", "그 라디오", "ξεκινά γιάσπερ",
             "Άστοχο Διόρθωση", "άστοχα"]
    given = tmp_path / "heard.txt"
    given.write_text("\n".join(texts) + "\n", encoding="utf-8")
    code, out, err = referee("understand", "--input", str(given), "--players",
                             "Jaspers=Γιάσπερς,Παπαδόπουλος", "--profile", str(profile),
                             "--phrase-table", str(table_file))
    assert code == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    vocabulary = Vocabulary(("Jaspers", "Παπαδόπουλος"), discipline("libre"),
                            ("Γιάσπερς", "Παπαδόπουλος"))
    listener = Listener(korean_model, vocabulary, table=PhraseTable(TABLE), threshold=70.0,
                        aliases=load_profile(profile).aliases)
    live = [listener.understand(text) for text in texts]
    assert [(a["heard"], a["command"], a["confidence"]) for a in answers] == [
        (text, command.to_dict() if command else None, round(confidence, 1))
        for text, (command, confidence) in zip(texts, live, strict=True)]
    assert answers[-3]["command"] == {"kind": "starts", "player": "Jaspers"}
    assert answers[-2]["command"] == {"kind": "miss"}  # the profile's alias


def test_understand_reads_standard_input_and_takes_a_threshold(referee) -> None:
    code, out, _ = referee("understand", "--threshold", "90", stdin="άστοχα\nΠόδος\n")
    assert code == 0
    assert [json.loads(line)["command"] for line in out.splitlines()] == [
        None, Command(Kind.POINT).to_dict()]


def test_understand_refuses_players_it_cannot_read(referee) -> None:
    code, _, err = referee("understand", "--players", "A,B,C")
    assert code == 2 and '--players needs exactly two surnames "A,B"' in err
