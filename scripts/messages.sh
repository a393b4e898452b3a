#!/bin/sh
# The command line's message catalogue: extract the English messages (ours and argparse's),
# merge them into voice/locale/el/LC_MESSAGES/referee.po, then compile the .mo the package ships.
set -eu
cd "$(dirname "$0")/.."
PY=.venv/bin/python
ARGPARSE=$($PY -c 'import argparse; print(argparse.__file__)')
.venv/bin/pybabel -q extract --no-location --omit-header -k N_ -o /tmp/referee.pot voice "$ARGPARSE"
.venv/bin/pybabel -q update -D referee -i /tmp/referee.pot -d voice/locale -l el --no-fuzzy-matching
.venv/bin/pybabel -q compile -D referee -d voice/locale -l el
