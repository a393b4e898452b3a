"""Greek on the command line: the catalogue is complete and compiled, the language follows the
locale or the hall's settings, and the frictions a newcomer met are gone."""

from __future__ import annotations

import argparse
import ast
import errno
import gettext
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

import phrases
import rules.errors
from rules.command import Command, Kind
from rules.errors import RefereeError
from rules.match import ReplayError, replay
from rules.state import MAX_DISTANCE, Setup, SetupError
from tests.support.referee import Ran
from voice import translation
from voice.cli.main import COMMANDS, parser
from voice.scoreboard.connections import refusal

PACKAGES = tuple(Path(p.__file__).parent for p in (translation, rules.errors, phrases))
CATALOGUE = translation.LOCALE / "el" / "LC_MESSAGES" / f"{translation.DOMAIN}.po"
TRANSCRIPT = "Κωνσταντίνου 3\n"
SETUP = ("--discipline", "libre", "--distance", "10", "--players", "Κωνσταντίνου,Γιάσπερς")


@pytest.fixture(autouse=True)
def _english_again() -> object:
    """Each test's language choice ends with it."""
    yield
    translation.use("en")


def used() -> set[object]:
    """Every message the code and argparse show a person, as Babel extracts them."""
    voice = Path(translation.__file__).parent
    ours = extract_from_dir(voice, keywords=DEFAULT_KEYWORDS)
    theirs = extract_from_file("python", argparse.__file__, keywords=DEFAULT_KEYWORDS)
    return {found[2] for found in [*ours, *((0, *m) for m in theirs)]}


def test_every_message_has_greek() -> None:
    with CATALOGUE.open("rb") as file:
        greek = {m.id: m.string for m in read_po(file) if m.id}
    missing = [m for m in used() if not greek.get(m if isinstance(m, str) else tuple(m))]
    assert missing == []


def test_the_compiled_catalogue_matches_the_po() -> None:
    with CATALOGUE.open("rb") as file:
        messages = [m for m in read_po(file) if m.id and isinstance(m.id, str)]
    with CATALOGUE.with_suffix(".mo").open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    assert [compiled.pgettext(m.context, m.id) if m.context else compiled.gettext(m.id)
            for m in messages] == [m.string for m in messages]


def test_greek_lines_write_the_decimal_comma_english_the_point() -> None:
    line = translation.Line(translation.N_("the PA's echo in the microphone, {db:.1f} dB, kept "
                                           "for the next session"), db=-11.5)
    assert str(line) == "the PA's echo in the microphone, -11.5 dB, kept for the next session"
    translation.use("el")
    assert line.shown() == ("η ηχώ του PA στο μικρόφωνο, -11,5 dB, κρατήθηκε για την επόμενη "
                            "συνεδρία")
    for number, shown in ((np.float32(-11.5), "-11,5"), (np.int64(-11), "-11,0")):  # numpy's
        assert f"μικρόφωνο, {shown} dB" in translation.Line(line.template, db=number).shown()
    words = translation.Line(translation.N_("match {match} recorded in {path}; listening on "
                                            "{mic}"), match=12, path="a.b", mic="mic 1.5")
    assert words.shown() == "ο αγώνας 12 καταγράφεται στο a.b· ακούω από mic 1.5"  # words as given


def greek_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "el_GR.UTF-8")


def test_a_greek_locale_gets_greek_errors_and_help(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    greek_locale(monkeypatch)
    missing = tmp_path / "none.sqlite3"
    ran = referee("matches", "--db", missing)
    assert (ran.code, ran.err) == (2, f"referee matches: σφάλμα: δεν υπάρχει αρχείο αγώνων στο "
                                      f"{missing}· ξεκινήστε αγώνα με `referee simulate --db "
                                      f"{missing}`\n")
    helped = referee("simulate", "--help")
    assert "χρήση: referee simulate" in helped.out and "επιλογές:" in helped.out
    assert "Παίζει νέο, καταγεγραμμένο αγώνα" in helped.out


def test_the_halls_setting_chooses_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    settings = tmp_path / "carom-referee" / "settings.toml"
    settings.parent.mkdir()
    settings.write_text('[messages]\nlanguage = "el"\n', encoding="utf-8")
    ran = referee("simulate", *SETUP, "--db", tmp_path / "m.sqlite3", stdin=TRANSCRIPT)
    assert ran.err.startswith(f"ο αγώνας 1 καταγράφεται στο {tmp_path / 'm.sqlite3'}\n")


def test_a_c_locale_gets_english(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.setenv("LANG", "C")
    ran = referee("matches", "--db", tmp_path / "none.sqlite3")
    assert ran.err.startswith("referee matches: error: there is no match record at ")


def test_an_uncatalogued_fault_is_all_english() -> None:
    translation.use("el")
    assert translation.fault(RefereeError("no catalogue holds {this}", this="Α")) is None


def test_a_fault_quoting_pythons_words_is_all_english() -> None:
    translation.use("el")
    with pytest.raises(SetupError) as caught:  # tuple(5): Python's TypeError, quoted
        Setup.from_dict({"discipline": "libre", "distance": 10, "players": 5, "first": 0})
    assert translation.gettext(caught.value.message) != caught.value.message  # catalogued
    assert translation.fault(caught.value) is None


@pytest.mark.parametrize(("args", "greek"), [
    (("--distance", "0"), f"η απόσταση πρέπει να είναι 1 έως {MAX_DISTANCE} πόντοι, όχι 0"),
    (("--players", "Κωνσταντίνου,Κωνσταντίνου"),
     "τα δύο επώνυμα πρέπει να διαφέρουν: 'Κωνσταντίνου'"),
    (("--sets", "2"), "τα σετ (στα καλύτερα N) πρέπει να είναι μονός αριθμός από 1 έως 9, όχι 2"),
    (("--sets", "3", "--on-tie", "draw"),
     "ένα σετ δεν λήγει ισόπαλο: κρίνετε την ισοβαθμία με extension ή playoff"),
    (("--time-outs", "2"),
     "τα τάιμ άουτ θέλουν χρονόμετρο χτυπήματος: δώστε και τα δευτερόλεπτά του"),
])
def test_a_bad_setup_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...], greek: str,
) -> None:
    greek_locale(monkeypatch)
    ran = referee("simulate", *SETUP, *args, "--db", tmp_path / "m.sqlite3", stdin=TRANSCRIPT)
    assert (ran.code, ran.err) == (2, f"referee simulate: σφάλμα: {greek}\n")
    assert not re.search(r"\b(error|the|is|not|must|a|to|by)\b", ran.err)


def test_a_refused_replay_in_greek() -> None:
    translation.use("el")
    with pytest.raises(ReplayError) as caught:
        replay(Setup("three-cushion", 50, ("Κωνσταντίνου", "Γιάσπερς")),
               [Command(Kind.POINT), Command(Kind.ENTREES)])
    assert translation.fault(caught.value) == (
        "η καταγεγραμμένη εντολή 2 (ENTRÉES) απορρίπτεται: no_zones")  # the kind by its name


def test_a_fault_quoting_an_uncatalogued_one_is_all_english(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    greek_locale(monkeypatch)
    table = tmp_path / "t.toml"
    table.write_text('"two words" = \n', encoding="utf-8")  # TOML's own words say what is wrong
    ran = referee("understand", "--phrase-table", table, stdin="πόντος\n")
    assert ran.err == (f"referee understand: error: --phrase-table: phrase table {table}: "
                       "Invalid value (at line 1, column 15)\n")


@pytest.mark.parametrize(("args", "greek"), [
    (("simulate", *SETUP, "--first", "Nobody"),
     "το --first 'Nobody' δεν είναι κανένας από τους παίκτες ('Κωνσταντίνου', 'Γιάσπερς')"),
    (("simulate", "--discipline", "libre", "--distance", "10", "--players", "Α"),
     'το --players θέλει ακριβώς δύο επώνυμα "A,B", δόθηκε \'Α\''),
    (("export", "1", "--format", "pdf"), "ένα PDF γράφεται σε αρχείο: προσθέστε --output FILE"),
    (("correct", "1", "--inning", "1", "--insert", "--points", "2"),
     "το --insert δεν παίρνει --player ή --points: ο γύρος δεν έχει πόντο"),
    (("serve", "--host", "0.0.0.0"),
     "το --host 0.0.0.0 αφήνει άλλους υπολογιστές να συνδεθούν: δώστε και διακριτικό "
     "(--token generate, --token-file ή $REFEREE_TOKEN), ώστε μόνο ο διαιτητής να ελέγχει "
     "τον αγώνα"),
])
def test_usage_errors_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...], greek: str,
) -> None:
    greek_locale(monkeypatch)
    ran = referee(*args, "--db", tmp_path / "m.sqlite3")
    assert (ran.code, ran.err) == (2, f"referee {args[0]}: σφάλμα: {greek}\n")


def test_a_settings_error_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    greek_locale(monkeypatch)
    settings = tmp_path / "s.toml"
    settings.write_text("[speech]\nloud = 1\n", encoding="utf-8")
    ran = referee("config", "show", "--config", settings)
    assert ran.err.startswith(f"referee config: σφάλμα: {settings}: άγνωστο κλειδί speech.loud· "
                              "η [speech] έχει τα voice, driver, ")


def families(kind: type) -> set[str]:
    """The names of `kind`'s subclasses, at any depth."""
    children = kind.__subclasses__()
    return {child.__name__ for child in children}.union(*(families(c) for c in children))


def test_no_message_is_an_f_string() -> None:
    """An f-string message cannot be catalogued: each of our errors, and argparse's type errors,
    take a template and its fields."""
    names = "|".join(sorted(families(RefereeError) | {"ArgumentTypeError"}))
    found = [f"{path.relative_to(package.parent)}: {hit.group()!r}"
             for package in PACKAGES for path in sorted(package.rglob("*.py"))
             for hit in re.finditer(rf"\b({names})\(\s*f[\"']", path.read_text(encoding="utf-8"))]
    assert found == []


def test_every_fault_of_the_rules_and_the_bank_has_greek() -> None:
    """rules/ and phrases/ cannot mark their templates (they do not import voice/): each of
    their errors is built from a literal template, which the catalogue holds in Greek."""
    names = families(RefereeError)
    calls = [node for package in PACKAGES[1:] for path in sorted(package.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) in names]
    with CATALOGUE.open("rb") as file:
        greek = {m.id: m.string for m in read_po(file) if m.id}
    templates = [call.args[0].value if isinstance(call.args[0], ast.Constant)
                 else ast.unparse(call.args[0]) for call in calls]
    assert len(templates) > 50  # every SetupError, ReplayError, CommandError, GrammarError…
    assert [t for t in templates if not greek.get(t)] == []


def test_version_prints_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit):
        parser().parse_args(["--version"])
    assert capsys.readouterr().out == f"referee {version('carom-referee')}\n"


def test_bare_referee_prints_the_help(referee: Callable[..., Ran]) -> None:
    ran = referee()
    assert ran.code == 2 and ran.out.startswith("usage: referee") and "simulate" in ran.out


def test_every_subcommand_says_what_it_does() -> None:
    commands = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert len(commands) == len(COMMANDS)
    assert all(command.description for command in commands.values())


def test_simulate_at_a_terminal_says_how_to_end(tmp_path: Path) -> None:
    main, terminal = os.openpty()
    os.write(main, b"\x04")  # Ctrl-D, waiting in the terminal: the input ends at once
    try:
        done = subprocess.run(
            [sys.executable, "-m", "voice.cli.main", "simulate", *SETUP, "--db",
             str(tmp_path / "m.sqlite3")],
            stdin=terminal, capture_output=True, text=True, timeout=60,
        )
    finally:
        os.close(main)
        os.close(terminal)
    assert done.returncode == 0
    assert done.stderr.startswith("type one phrase a line; Ctrl-D ends the input\n")


def test_resume_and_correct_say_the_match_and_the_record(
    referee: Callable[..., Ran], tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    referee("simulate", *SETUP, "--db", db, stdin="πόντος\nάστοχο\n")  # inning 1 played
    resumed = referee("resume", "--db", db, stdin=TRANSCRIPT)
    corrected = referee("correct", "1", "--inning", "1", "--player", "Κωνσταντίνου",
                        "--points", "2", "--db", db)
    assert [resumed.err.splitlines()[0], corrected.err.splitlines()[0]] == [
        f"match 1 recorded in {db}"] * 2


def test_serve_refuses_a_missing_record(referee: Callable[..., Ran], tmp_path: Path) -> None:
    ran = referee("serve", "--db", tmp_path / "typo.sqlite3")
    assert ran.code == 2 and "give --create" in ran.err and ran.err.count("\n") == 1
    assert not (tmp_path / "typo.sqlite3").exists()


def test_serve_creates_one_when_asked(referee: Callable[..., Ran], tmp_path: Path) -> None:
    with socket.socket() as taken:  # the port is busy: serve stops after opening the record
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ran = referee("serve", "--create", "--db", tmp_path / "new.sqlite3", "--port", port)
    assert ran.code == 2 and "cannot listen" in ran.err
    assert (tmp_path / "new.sqlite3").exists()


def test_config_takes_a_device_id_as_a_number(
    referee: Callable[..., Ran], tmp_path: Path
) -> None:
    settings = tmp_path / "s.toml"
    settings.write_text("[devices]\nmic = 2\n", encoding="utf-8")
    ran = referee("config", "show", "--config", settings)
    assert ran.code == 0
    assert [line.split()[:2] for line in ran.out.splitlines() if "devices.mic" in line] == [
        ["devices.mic", '"2"']]


def test_the_spelling_warning_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    greek_locale(monkeypatch)
    ran = referee("simulate", "--discipline", "libre", "--distance", "10", "--players",
                  "ΚΩΝΣΤΑΝΤΙΝΟΥ,Γιάσπερς", "--db", tmp_path / "m.sqlite3", stdin=TRANSCRIPT)
    assert ran.err.startswith(
        "προειδοποίηση: το --players 'ΚΩΝΣΤΑΝΤΙΝΟΥ' είναι γραμμένο με κεφαλαία και η ελληνική "
        "φωνή μπορεί να το πει λάθος· προσθέστε πώς προφέρεται: "
        "\"ΚΩΝΣΤΑΝΤΙΝΟΥ=<ελληνικά, με τόνο>\"\n")


def test_config_show_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    greek_locale(monkeypatch)
    settings = tmp_path / "s.toml"
    settings.write_text("[speech]\nchime = false\n", encoding="utf-8")
    shown = referee("config", "show", "--config", settings).out.splitlines()
    assert shown[0] == f"αρχείο ρυθμίσεων αίθουσας: {settings}"
    rows = {key: rest for key, *rest in (re.split(r"\s{2,}", line) for line in shown[1:])}
    assert rows["speech.chime"] == ["false", "αρχείο αίθουσας"]
    assert rows["devices.mic"] == ["(δεν ορίστηκε)", "προεπιλογή"]


def test_the_connection_refusal_in_greek() -> None:
    translation.use("el")
    head, _, body = refusal().partition(b"\r\n\r\n")
    assert body.decode() == ("πάρα πολλές συνδέσεις από αυτή τη διεύθυνση: κλείστε μερικές και "
                             "δοκιμάστε ξανά")
    assert f"Content-Length: {len(body)}".encode() in head


@pytest.mark.parametrize(("args", "stdin", "greek"), [
    (("model", "check", "{tmp}/none"), "",  # ModelError
     "δεν υπάρχει μοντέλο vosk στο {tmp}/none· κατεβάστε"),
    (("understand", "--phrase-table", "{tmp}/t.toml"), "πόντος\n",  # PhraseTableError
     "το κλειδί 'two words' του πίνακα φράσεων πρέπει να είναι ακριβώς μία λέξη"),
    (("understand", "--profile", "{tmp}/none.toml"), "πόντος\n",  # ProfileError, ENOENT
     "δεν διαβάζεται το προφίλ {tmp}/none.toml: δεν υπάρχει τέτοιο αρχείο ή φάκελος"),
    (("listen", "--model", "{tmp}", "--wav", "{tmp}/t.toml"), "",  # WavError
     "--wav {tmp}/t.toml: δεν είναι αρχείο WAV (λείπει η κεφαλίδα RIFF/WAVE)"),
    (("simulate", *SETUP, "--db", "{tmp}/m.sqlite3"), "+abc\n",  # TranscriptError
     "η τυπική είσοδος: το '+abc' δεν είναι χρόνος που περνά"),
    (("correct", "1", "--inning", "1", "--points", "x"), "",  # argparse's type error
     "όρισμα --points: το 'x' δεν είναι ακέραιος αριθμός"),
    (("serve", "--port", "0"), "", "όρισμα --port: το '0' δεν είναι αριθμός θύρας (1-65535)"),
])
def test_the_errors_of_each_kind_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...], stdin: str, greek: str,
) -> None:
    greek_locale(monkeypatch)
    (tmp_path / "t.toml").write_text('"two words" = "πόντος"\n', encoding="utf-8")
    ran = referee(*(a.format(tmp=tmp_path) for a in args), stdin=stdin)
    assert ran.code == 2 and greek.format(tmp=tmp_path) in ran.err
    assert not re.search(r"\b(error|the|is|not|cannot|no)\b", ran.err)


def test_a_refused_correction_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "m.sqlite3"
    referee("simulate", *SETUP, "--db", db, stdin="πόντος\nάστοχο\n")
    greek_locale(monkeypatch)
    ran = referee("correct", "1", "--inning", "1", "--player", "Κωνσταντίνου", "--points", "-1",
                  "--db", db)
    assert ran.err.startswith("referee correct: σφάλμα: αγώνας 1: μια προσπάθεια δεν μπορεί να "
                              "έχει αρνητικούς πόντους (-1)· δεν άλλαξε τίποτα")


def test_speech_voicing_and_fetch_faults_in_greek(tmp_path: Path) -> None:
    from voice.hearing.fetch import FetchError, fetch
    from voice.speaking.drivers import SpeechError, driver_name
    from voice.speaking.voicing import Voicing, VoicingError

    translation.use("el")
    (tmp_path / "m").mkdir()
    faults = []
    for kind, attempt in ((SpeechError, lambda: driver_name("nope")),
                          (VoicingError, lambda: Voicing(None, pause_ms=-1)),  # type: ignore[arg-type]
                          (FetchError, lambda: fetch("https://x", None, tmp_path, "m", print))):
        with pytest.raises(kind) as caught:
            attempt()
        faults.append(translation.fault(caught.value))
    assert faults == ["δεν υπάρχει οδηγός ομιλίας 'nope': χρησιμοποιήστε espeak, sapi5, nsss",
                      "η παύση πρέπει να είναι 0 έως 2000 ms, όχι -1",
                      f"το {tmp_path / 'm'} υπάρχει ήδη· σβήστε το για να το κατεβάσετε ξανά"]


@pytest.mark.parametrize(("code", "greek"), [
    (errno.ENOENT, "δεν υπάρχει τέτοιο αρχείο ή φάκελος"),
    (errno.EACCES, "δεν επιτρέπεται η πρόσβαση"),
    (errno.ENOSPC, "δεν έμεινε χώρος στον δίσκο"),
    (errno.EROFS, "το σύστημα αρχείων είναι μόνο για ανάγνωση"),
    (errno.EBUSY, "η συσκευή ή ο πόρος είναι απασχολημένος"),
])
def test_the_common_os_faults_in_greek(code: int, greek: str) -> None:
    error = OSError(code, os.strerror(code))
    assert translation.reason(error) == os.strerror(code)  # English as the OS says it
    translation.use("el")
    assert translation.gettext(translation.reason(error)) == greek


def test_a_rare_os_fault_keeps_the_line_english(tmp_path: Path) -> None:
    from voice.hearing.profile import ProfileError, load_profile

    looped = tmp_path / "p.toml"
    looped.symlink_to(looped)  # ELOOP: the catalogue does not hold the OS's words for it
    translation.use("el")
    with pytest.raises(ProfileError) as caught:
        load_profile(looped)
    assert translation.fault(caught.value) is None
    assert str(caught.value) == f"cannot read the profile {looped}: {os.strerror(errno.ELOOP)}"


def test_the_summary_agrees_with_its_counts(referee: Callable[..., Ran], tmp_path: Path) -> None:
    ran = referee("simulate", *SETUP, "--db", tmp_path / "m.sqlite3", stdin="πόντος\nάστοχο\n")
    first = ran.out.splitlines()[-3]
    assert first.startswith("Κωνσταντίνου: 1 πόντος, 1 προσπάθεια, μέσος όρος 1,000")
    ran = referee("simulate", *SETUP, "--db", tmp_path / "n.sqlite3",
                  stdin="πόντος\nπόντος\nάστοχο\nάστοχο\nάστοχο\n")
    assert ran.out.splitlines()[-3].startswith("Κωνσταντίνου: 2 πόντοι, 2 προσπάθειες")


def test_status_lines_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.vosk_model import fake_static_model
    from voice.cli import devices as devices_command
    from voice.devices import Device

    greek_locale(monkeypatch)
    model = fake_static_model(tmp_path / "m", "<eps> 0\nπόντος 1\n")
    found = [Device(0, "USB headset", 1, 2, 48000.0)]
    monkeypatch.setattr(devices_command, "devices", lambda: found)
    listed = referee("devices").out
    monkeypatch.setattr(devices_command, "devices", list)
    assert [listed, referee("devices").out, referee("model", "check", model).out] == [
        "  0  1 είσ., 2 έξ.   USB headset  (48000 Hz)\n",
        "καμία συσκευή ήχου: ο υπολογιστής δεν έχει κάρτα ήχου (το PortAudio δεν βρήκε καμία)· "
        "το `referee listen --wav FILE` δουλεύει και χωρίς\n",
        f"{model}: χρήσιμο μοντέλο vosk· γραμματικές την ώρα της χρήσης: όχι (στατικός HCLG.fst: "
        "ελεύθερη αναγνώριση)· λεξιλόγιο: 2 λέξεις (από το graph/words.txt)\n",
    ]


# What a person reads is written through the catalogue: a call that shows a line (a log, a
# stream's write, print) holds no English words of its own, but for these, with their reasons.
SHOWN = {"log", "write", "writelines", "print"}
CATALOGUED = {"_", "gettext", "ngettext", "N_", "Line"}
NOT_WORDS = {
    "voice/cli/model.py": "the progress bar's prefix is the command's own name",
    "voice/cli/reference.py": "regenerates docs/ for a contributor, run with LANGUAGE=C",
}


def english(node: ast.AST) -> list[str]:
    """The English words `node` writes outside the catalogue's calls, JSON, keys and names."""
    if isinstance(node, ast.Call):
        if called(node) in CATALOGUED or called(node) == "dumps":
            return []
        return [w for part in (node.func, *node.args, *(k.value for k in node.keywords))
                for w in english(part)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.findall(r"[A-Za-z]{2,}", node.value)
    if isinstance(node, ast.Attribute | ast.Subscript):  # a name, or a key
        return english(node.value)
    if isinstance(node, ast.Dict):  # its keys are names
        return [w for value in node.values for w in english(value)]
    return [w for child in ast.iter_child_nodes(node) for w in english(child)]


def written_in_english(root: Path) -> list[str]:
    """Each call under `root` that shows a line with English words of its own, and the words."""
    found = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root.parent).as_posix()
        shown = [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.Call) and called(node) in SHOWN]
        found += [f"{name}:{call.lineno}: {' '.join(words)}" for call in shown
                  if (words := [w for a in call.args for w in english(a)])
                  and name not in NOT_WORDS]
    return found


def called(call: ast.Call) -> str | None:
    """The name a call calls: `log` of `self.log(…)`."""
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


def test_no_line_a_person_reads_is_english_alone() -> None:
    """The live loop's log, the record's writer, the outbox, the announcer and each command's
    status lines: each a catalogued template (`_`, or a `Line` with its fields)."""
    assert written_in_english(Path(translation.__file__).parent) == []


def test_status_lines_of_the_record_and_the_settings_in_greek(
    referee: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "m.sqlite3"
    referee("simulate", *SETUP, "--db", db, stdin="πόντος\nάστοχο\n")
    settings = tmp_path / "s.toml"
    settings.write_text("[speech]\nrate = 1000\n", encoding="utf-8")
    greek_locale(monkeypatch)
    heading, row = referee("matches", "--db", db).out.splitlines()
    refused = referee("config", "show", "--config", settings).err
    assert heading.split()[:4] == ["αγώνας", "δημιουργία", "(UTC)", "αγώνισμα"]
    assert row.endswith("σε εξέλιξη, στο τραπέζι: Γιάσπερς")
    assert refused.startswith(f"referee config: σφάλμα: {settings}: speech.rate = 1000: "
                              "επιτρέπεται: ακέραιος αριθμός λέξεων το λεπτό από 80 έως 450")


def test_calibrate_s_report_and_listen_s_lines_in_greek() -> None:
    from voice.cli.calibrate import report_lines, table_lines
    from voice.cli.listen import show
    from voice.hearing.calibration import Judged, Learned, Outcome, Refused, Report, Take
    from voice.hearing.listener import Heard
    from voice.hearing.profile import Profile
    from voice.settings import Settings

    heard = Heard("πόντος βγήκε", "πόντος έξω", Command(Kind.POINT_OUT), 80.0, early=False,
                  replaces=Command(Kind.MISS))
    judged = (Judged(Take("πόντος έξω", 1, b""), (heard,), Outcome.RIGHT, 0.02),)
    refused = Refused("εξω", "σκορ", translation.Line(
        translation.N_("«{word}» is a word of another command ({kinds})"), word="εξω",
        kinds=(Kind.OUT, Kind.POINT_OUT)))
    learned = Learned(Profile({"ποντος βγηκε": "πόντος έξω"}, 290, 80.0), (refused,))
    report = Report(judged, 240, 290, (), learned)
    translation.use("el")
    lines = [*table_lines(judged), *report_lines(report, Settings()), show(1.5, heard)]
    assert [line.split() for line in lines[:2]] == [
        ["φράση", "λήψη", "ακούστηκε", "εντολή", "αποτέλεσμα", "βεβαιότητα", "αποκωδικοποίηση"],
        ["πόντος", "έξω", "1", "πόντος", "βγήκε", "(=", "πόντος", "έξω)", "πόντος", "έξω", "σωστό",
         "80", "20", "ms"]]
    assert lines[2:] == [
        "ποσοστό λάθους εντολών σε 1 λήψεις: 0,0 % (0 λάθος, 0 μη κατανοητές) με τέλος φράσης "
        "150 ms, κατώφλι 80",
        "μεγαλύτερη παύση μέσα σε φράση πολλών λέξεων: 240 ms· προτεινόμενο τέλος φράσης: 290 ms",
        "προφίλ: τέλος φράσης 290 ms, κατώφλι 80, ψευδώνυμα: 1",
        "  ψευδώνυμο «ποντος βγηκε» → «πόντος έξω»",
        "  απορρίφθηκε το ψευδώνυμο «εξω» → «σκορ»: το «εξω» είναι λέξη άλλης εντολής (έξω, "
        "πόντος έξω)",
        "μία λήψη ανά φράση: καμία δεν κρατήθηκε έξω για να δοκιμαστεί σε αυτήν το προφίλ "
        "(--takes 2 ή περισσότερες)",
        "  1,50 s  «πόντος βγήκε» = «πόντος έξω» → πόντος έξω  (βεβαιότητα 80· αντικαθιστά την "
        "πρόωρη εντολή άστοχο)",
    ]


def test_a_line_with_a_field_in_foreign_words_is_all_english() -> None:
    line = translation.Line(translation.N_("not pushed yet: {error}"),
                            error=RefereeError(translation.N_("the hall's database {target}: "
                                                              "{error}"), target="host=hall",
                                               error=translation.Foreign("connection refused")))
    translation.use("el")
    assert line.shown() == str(line) == (
        "not pushed yet: the hall's database host=hall: connection refused")
    assert translation.Line(translation.N_("not pushed yet: {error}"), error=RefereeError(
        translation.N_("the hall's database {target}: {error}"), target="host=hall",
        error=translation.reason(OSError(errno.ENOENT, os.strerror(errno.ENOENT))))).shown() == (
        "δεν στάλθηκε ακόμη: η βάση της αίθουσας host=hall: δεν υπάρχει τέτοιο αρχείο ή φάκελος")


def test_listen_s_line_names_a_rival_reading_in_greek_and_its_json_holds_it() -> None:
    from voice.cli.listen import heard_json, show
    from voice.hearing.listener import Heard

    heard = Heard("엄마", "πόντος", Command(Kind.POINT), 100.0, early=False, rival="πόντος έξω")
    assert json.loads(heard_json(Path("a.wav"), 1.5, heard))["rival"] == "πόντος έξω"
    assert show(1.5, heard).endswith("(may as well be «πόντος έξω»: asked again)")
    translation.use("el")
    assert show(1.5, heard).endswith("(μπορεί εξίσου να είναι «πόντος έξω»: ζητείται ξανά)")
