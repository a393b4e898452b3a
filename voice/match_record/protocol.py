"""The printable match protocol: an A4 PDF in Greek, as a federation's result sheet."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from functools import cache
from importlib.resources import files
from itertools import accumulate, zip_longest
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fpdf import FPDF
from fpdf.fonts import FontFace

from rules.errors import RefereeError
from rules.phases import Played, played
from rules.state import PlayerState
from rules.statistics import written
from rules.summary import innings_points
from voice.match_record.database import LoadedMatch
from voice.translation import N_

FONTS = Path("/usr/share/fonts/truetype/dejavu")  # Debian's fonts-dejavu-core
REGULAR, BOLD = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"
HALL_TIME = ZoneInfo("Europe/Athens")  # the protocol's clock unless the export names another
LINE = 6  # mm: the height of a line of text
SIGN_SPACE = 14  # mm: the room above a line to sign
SECTION = FontFace(emphasis="BOLD", fill_color=(230, 230, 230))  # a set's or extension's row


class NoFont(RefereeError):
    """The font the protocol is printed in is not installed."""


@cache
def words() -> dict[str, Any]:
    """The protocol's Greek words, from `protocol.toml`."""
    text = files("voice.match_record").joinpath("protocol.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def protocol_pdf(loaded: LoadedMatch, zone: ZoneInfo = HALL_TIME) -> bytes:
    """The match's protocol: header, each inning with running totals, totals, result, signatures;
    its date and times in the hall's time `zone`."""
    if not REGULAR.exists() or not BOLD.exists():
        raise NoFont(N_("the protocol is printed in DejaVu Sans, not found in {fonts}"),
                     fonts=FONTS)
    w = words()
    pdf = FPDF(format="A4")
    pdf.set_title(f"{w['title']} {loaded.id}")
    pdf.add_font("DejaVu", "", str(REGULAR))
    pdf.add_font("DejaVu", "B", str(BOLD))
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 16)
    pdf.cell(0, 10, f"{w['title']} · {w['match']} {loaded.id}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    for label, value in _header(loaded, zone):
        _line(pdf, label, value)
    pdf.ln(3)
    phases = played(loaded.match)
    _innings_table(pdf, loaded, phases)
    pdf.ln(4)
    _totals_table(pdf, loaded)
    pdf.ln(4)
    for label, value in _result(loaded, phases):
        _line(pdf, label, value)
    pdf.ln(10)
    _signatures(pdf, loaded)
    return bytes(pdf.output())


def _header(loaded: LoadedMatch, zone: ZoneInfo) -> list[tuple[str, str]]:
    w, setup = words(), loaded.setup
    started = local(loaded.created, zone)
    ended = local(loaded.events[-1].created, zone) if loaded.match.over and loaded.events else None
    if setup.handicap is None:
        distance = str(setup.distance)
    else:
        pairs = zip(setup.players, setup.handicap, strict=True)
        distance = " · ".join(f"{player} {d}" for player, d in pairs)
    limit = w["no_limit"] if setup.innings_limit is None else str(setup.innings_limit)
    tie = w[f"on_tie_{setup.on_tie}"].format(points=setup.playoff_points)
    sets = [] if setup.sets is None else [(w["sets"], w["sets_format"].format(sets=setup.sets))]
    return [
        (w["discipline"], w["disciplines"].get(setup.discipline, setup.discipline)),
        (w["distance"], distance),
        *sets,
        (w["innings_limit"], limit),
        (w["on_tie"], tie),
        (w["players"], " – ".join(setup.players)),
        (w["date"], f"{started:%d/%m/%Y}"),
        (w["started"], f"{started:%H:%M}"),
        (w["ended"], "" if ended is None else f"{ended:%H:%M}"),
        (w["hall"], setup.hall or ""),
        (w["table"], setup.table or ""),
        (w["referee"], setup.referee or ""),
        (w["scorer"], setup.scorer or ""),
    ]


def local(iso: str, zone: ZoneInfo) -> datetime:
    """A time the record wrote (ISO, UTC) as the clocks of the hall's time `zone` read it.

    >>> f"{local('2026-07-01T17:05:00+00:00', ZoneInfo('Europe/Athens')):%d/%m/%Y %H:%M}"
    '01/07/2026 20:05'
    """
    when = datetime.fromisoformat(iso)
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(zone)


def _innings_table(pdf: FPDF, loaded: LoadedMatch, phases: list[Played]) -> None:
    """Each inning's points and the running total; when the match went through more than one
    phase, a row heads each: the set, the extension or the play-off."""
    w, match = words(), loaded.match
    pdf.set_font("DejaVu", "", 9)
    with pdf.table(
        col_widths=(14, 20, 20, 20, 20), text_align="CENTER", num_heading_rows=2
    ) as table:
        names = table.row()
        names.cell(w["inning"], rowspan=2)
        for player in match.players:
            names.cell(player.surname, colspan=2)
        labels = table.row()
        for _ in match.players:
            labels.cell(w["points"])
            labels.cell(w["running"])
        for cells in _rows(loaded, phases):
            row = table.row()
            if isinstance(cells, str):
                row.cell(cells, colspan=5, align="L", style=SECTION)
            else:
                for cell in cells:
                    row.cell(cell)


def _rows(loaded: LoadedMatch, phases: list[Played]) -> Iterator[str | list[str]]:
    """The innings table's rows: each phase's heading (when there are more than one), then its
    innings (the inning number, each player's points and running total, of the set in sets)."""
    match = loaded.match
    columns = [innings_points(match, i) for i in (0, 1)]
    totals = [list(accumulate(c, initial=0)) for c in columns]  # before each inning
    ends = [p.before for p in phases[1:]] + [(len(columns[0]), len(columns[1]))]
    set_begins = phases[0].before
    for phase, end in zip(phases, ends, strict=True):
        if phase.phase.number == 0:
            set_begins = phase.before  # the running total starts again with each set
        if len(phases) > 1:
            yield _phase_text(match.players, phase)
        innings = [range(phase.before[i], end[i]) for i in (0, 1)]
        for numbers in zip_longest(*innings, fillvalue=None):
            cells = [_inning_label(numbers)]
            for i, number in enumerate(numbers):
                if number is None:
                    cells += ["", ""]
                else:
                    running = totals[i][number + 1] - totals[i][set_begins[i]]
                    cells += [str(columns[i][number]), str(running)]
            yield cells


def _inning_label(numbers: tuple[int | None, ...]) -> str:
    """A row's inning number: each player's, from 1, when they differ (after a set won
    without the equalising inning).

    >>> _inning_label((4, 4)), _inning_label((5, None)), _inning_label((5, 4))
    ('5', '6', '6/5')
    """
    given = [str(n + 1) for n in numbers if n is not None]
    return given[0] if len(set(given)) == 1 else "/".join(given)


def _phase_text(players: Sequence[PlayerState], phase: Played) -> str:
    """«2ο σετ · 2η παράταση έως 33 · μία στεκιά τη σειρά · πρώτη στεκιά: Β»: the targets
    counted in its set, one for both unless a handicap gives each his own."""
    w, state = words(), phase.phase
    parts = [] if phase.set is None else [w["set_number"].format(number=phase.set)]
    if state.number:
        kind = w["playoff"] if state.playoff else w["extension"]
        parts.append(kind.format(number=state.number))
    elif phase.set is None:
        parts.append(w["match"])
    own = [t - s for t, s in zip(state.targets, phase.set_start, strict=True)]
    targets = str(own[0]) if own[0] == own[1] else _each(players, own)  # each his own: handicap
    parts[-1] += " " + w["to_targets"].format(targets=targets)
    if state.single_stroke:
        parts.append(w["single_stroke"])
    if state.breaker is not None:
        parts.append(w["started_by"].format(player=players[state.breaker].surname))
    return " · ".join(parts)


def _totals_table(pdf: FPDF, loaded: LoadedMatch) -> None:
    w, match = words(), loaded.match
    pdf.set_font("DejaVu", "", 10)
    with pdf.table(col_widths=(30, 20, 20, 20, 25), text_align="CENTER") as table:
        heading = table.row()
        for label in (w["totals"], w["total_points"], w["innings"], w["average"],
                      w["highest_run"]):
            heading.cell(label)
        for p in match.players:
            row = table.row()
            for value in (p.surname, p.points, p.innings, written(p.points, p.innings),
                          p.highest_run):
                row.cell(str(value))


def _result(loaded: LoadedMatch, phases: list[Played]) -> list[tuple[str, str]]:
    w, match, setup = words(), loaded.match, loaded.setup
    players = match.players
    if setup.sets is None:
        first = phases[0].phase.breaker
        starters = "" if first is None else match.surname(first)
    else:
        starters = " · ".join(
            f"{w['set_number'].format(number=p.set)} {match.surname(p.phase.breaker)}"
            for p in phases if p.phase.number == 0 and p.phase.breaker is not None
        )
    extensions = [_phase_text(players, p) for p in phases if p.phase.number]
    breaks = ", ".join(p.surname for p in players if p.break_taken) or w["no_break"]
    if match.winner is not None:
        result = match.surname(match.winner)
    else:
        result = w["draw"] if match.drawn else w["unfinished"]
    sets = [] if setup.sets is None else [(w["sets"], _each(players, match.sets))]
    used = [p.time_outs for p in players]
    time_outs = [] if setup.shot_clock is None else [(w["time_outs"], _each(players, used))]
    listed = extensions or [w["no_extension"]]  # one line each, the label on the first
    return [
        *sets, (w["first_stroke"], starters),
        (w["extensions"], listed[0]), *(("", text) for text in listed[1:]),
        (w["breaks"], breaks), *time_outs, (w["winner"], result),
    ]


def _each(players: Iterable[PlayerState], values: Iterable[int]) -> str:
    """«Α 2 · Β 1»: a number for each player."""
    return " · ".join(f"{p.surname} {v}" for p, v in zip(players, values, strict=True))


def _signatures(pdf: FPDF, loaded: LoadedMatch) -> None:
    """Lines to sign: the officials' (referee, scorer) side by side, then the players'; all on
    one page."""
    w, setup = words(), loaded.setup
    if pdf.will_page_break(LINE + 2 * (SIGN_SPACE + 2 * LINE)):
        pdf.add_page()
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, LINE, w["signatures"], new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    officials = [f"{w['referee']}: {setup.referee or ''}", f"{w['scorer']}: {setup.scorer or ''}"]
    players = [f"{w['player_signature']}: {name}" for name in setup.players]
    width = (pdf.w - pdf.l_margin - pdf.r_margin) / 2
    for signers in (officials, players):
        pdf.ln(SIGN_SPACE)
        for _ in signers:
            pdf.cell(width - 6, LINE, "", border="T")
            pdf.cell(6, LINE, "")
        pdf.ln(LINE)
        for signer in signers:
            pdf.cell(width, LINE, signer)
        pdf.ln(LINE)


def _line(pdf: FPDF, label: str, value: str) -> None:
    """«Label: value»; an empty label continues the line above's list."""
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(45, LINE, f"{label}:" if label else "")
    pdf.set_font("DejaVu", "", 10)
    pdf.multi_cell(0, LINE, value, align="L", new_x="LMARGIN", new_y="NEXT")
