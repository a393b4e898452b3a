"""`referee demo` without a sound card: the whole match voiced into one WAV file."""

import io
import wave
from importlib.resources import files

import numpy as np

from voice.cli.demo import demo


def test_demo_voices_every_pa_announcement_into_a_wav(tmp_path):
    script = files("voice.cli").joinpath("demo.txt").read_text(encoding="utf-8").splitlines()
    out = io.StringIO()
    path = demo(script, tmp_path / "wav", out, speaker=None)
    printed = out.getvalue()
    pa_lines = printed.count("[PA]")
    assert "ΝΙΚΗΤΗΣ: Κωνσταντίνου" in printed and "RESTÉES DEDANS" in printed
    with wave.open(str(path)) as wav:
        seconds = wav.getnframes() / wav.getframerate()
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    # Each announcement is at least a short word plus the gap after it.
    assert seconds > pa_lines * 0.6
    assert np.sqrt(np.mean(samples.astype(float) ** 2)) > 300
    assert f"{pa_lines} announcements" in printed


def test_without_a_sound_card_a_wav_folder_that_cannot_be_written_stops_demo_before_a_word(
    referee, sound_devices, monkeypatch
):
    monkeypatch.setattr(sound_devices, "query_devices", lambda: [])  # no sound card
    done = referee("demo", "--wav", "/proc")  # no one, root included, can make a file there
    assert done.code == 2 and done.out == ""
    assert done.err.startswith("referee demo: error: cannot write into the --wav folder /proc: ")
    assert done.err.count("\n") == 1


def test_demo_speaks_the_hall_s_language(tmp_path):
    from voice import translation

    script = ["πόντος", "άστοχο"]
    for language, said, summed in (("el", "διαιτητής: πόντος", "χωρίς κάρτα ήχου: 1 ανακοίνωση"),
                                   ("en", "referee: πόντος", "no sound card: 1 announcement,")):
        translation.use(language)
        try:
            out = io.StringIO()
            demo(script, tmp_path / language, out, speaker=None)
        finally:
            translation.use("en")
        assert out.getvalue().startswith(said + "\n") and summed in out.getvalue()
