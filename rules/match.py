"""The pure rules core: `apply(match, command)` gives the next match and what to announce.

A refused or announce-only command returns the very same `Match` object, so callers record a
command exactly when `new is not old`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from rules import spots, zones
from rules.announcement import Announcement, refused
from rules.command import Command, Kind
from rules.state import Match, Pause, Phase, PlayerState, Setup, Zone, new_match

Result = tuple[Match, list[Announcement]]

BREAK_SECONDS = 5 * 60  # Article 5: one five-minute break per player
WARNING_SECONDS = BREAK_SECONDS - 60  # the one-minute warning

CAROMS = {
    Kind.POINT,
    Kind.POINT_OUT,
    Kind.POINT_OUT_ANCHOR,
    Kind.POINT_ENTREES,
    Kind.POINT_ENTREES_ANCHOR,
}


class ReplayError(ValueError):
    """A recorded command that the rules no longer accept."""


def apply(match: Match, command: Command) -> Result:
    """The match after `command`, and the announcements in speaking order."""
    refusal = _refusal(match, command)
    if refusal:
        return match, [refusal]
    new, said = _HANDLERS[command.kind](match, command)
    if new is not match and command.kind is not Kind.UNDO:
        new = replace(new, history=match.history + (command,))
    return new, said


def replay(setup: Setup, commands: Iterable[Command]) -> Match:
    """The match that a record of accepted commands leads to; ReplayError if one is refused."""
    match = new_match(setup)
    for number, command in enumerate(commands, 1):
        new, said = apply(match, command)
        if new is match:
            reason = said[0].variant if said else "it changes nothing"
            raise ReplayError(f"recorded command {number} ({command.kind}) is refused: {reason}")
        match = new
    return match


def _refusal(match: Match, command: Command) -> Announcement | None:
    """Why `command` cannot be taken now, if it cannot."""
    kind = command.kind
    if kind in (Kind.UNDO, Kind.SCORE, Kind.TICK):
        return None
    if match.winner is not None:
        return refused("match_over")
    if match.pause is not None and kind is not Kind.BREAK_END:
        return refused("in_break", match.surname(match.pause.player))
    if match.at_table is None and kind is not Kind.STARTS:
        return refused("awaiting_start")
    reason = match.rules.refusal(kind)
    if reason is None and command.frames and match.rules.zone != "frame":
        reason = "no_frames"
    return refused(reason) if reason else None


# --- strokes -------------------------------------------------------------------------------


def _carom(match: Match, command: Command) -> Result:
    """A carom: RESTÉES DEDANS if it left the balls in a zone with no carom left, else a point."""
    kind = command.kind
    if kind is Kind.POINT:
        stay = match.zones
    elif kind is Kind.POINT_OUT_ANCHOR:
        stay = tuple(z for z in match.zones if z.kind != "anchor")
    else:
        stay = ()
    blocked = zones.blocking(stay)
    if blocked:
        # The carom is not scored and the turn passes; the balls stay in the zone.
        said = [Announcement("restees_dedans", variant=blocked.kind)]
        return _end_inning(replace(match, touchent=False), said)
    kept, calls = zones.after_carom(stay)
    if kind in (Kind.POINT_ENTREES, Kind.POINT_ENTREES_ANCHOR):
        kept = _entered(match, anchor=kind is Kind.POINT_ENTREES_ANCHOR, frame=None)
        calls = _positions(kept, command.frames)
    scored, said = _score(replace(match, zones=kept, touchent=False))
    if _reached(scored, scored.at_table) or scored.phase.single_stroke:
        return _end_inning(scored, said)
    return scored, said + calls


def _score(match: Match) -> Result:
    """One more point to the player at the table: surname–points, then the reminder."""
    player = match.at_table
    run = match.run + 1
    before = match.players[player]
    after = replace(before, points=before.points + 1, highest_run=max(before.highest_run, run))
    match = replace(match, run=run, players=_with(match.players, player, after))
    said = [Announcement("score", player=after.surname, points=run)]
    reminder = match.rules.reminder
    if match.phase.target - after.points == reminder:
        said.append(Announcement("for_five" if reminder == 5 else "for_three"))
    return match, said


def _miss(match: Match, command: Command) -> Result:
    """A miss or a foul: the inning ends."""
    return _end_inning(replace(match, touchent=False), [])


def _fault_six(match: Match, command: Command) -> Result:
    """Fault 6: in libre the break position is set for the opponent; elsewhere a foul."""
    said = []
    if match.rules.fault_six_respot:
        said.append(Announcement("respot", variant="for_opponent"))
        match = replace(match, zones=())
    return _end_inning(replace(match, touchent=False), said)


def _ball_off(match: Match, command: Command) -> Result:
    """Balls off the table: a foul; each ball is placed for the player to play next."""
    if not command.balls:
        return match, [refused("which_ball")]
    off = set(command.balls)
    for ball, over in command.covered:
        if ball not in off or over in off or over == ball:
            return match, [refused("bad_cover")]
    ended, said = _end_inning(replace(match, touchent=False, zones=()), [])
    if ended.at_table is None:
        return ended, said
    placed = spots.place(match, command.balls, command.covered, ended.at_table)
    return ended, [Announcement("ball_off_table", spots=placed), *said]


# --- positions -----------------------------------------------------------------------------


def _entered(match: Match, anchor: bool, frame: tuple[Zone, ...] | None) -> tuple[Zone, ...]:
    """The zones after the balls come in: a fresh frame, plus a fresh anchor if `anchor`."""
    rules = match.rules
    if frame is None:
        frame = (zones.entered(zones.frame_kind(rules), rules),)
    return frame + ((zones.entered("anchor", rules),) if anchor else ())


def _entrees(match: Match, command: Command) -> Result:
    """The object balls came into a frame (or triangle), or into an anchor within its frame."""
    anchor = command.kind is Kind.ENTREES_ANCHOR
    frame = tuple(z for z in match.zones if z.kind != "anchor") if anchor else ()
    new = _entered(match, anchor, frame or None)
    return replace(match, zones=new), _positions(new, command.frames)


def _positions(entered: tuple[Zone, ...], frames: tuple[int, ...]) -> list[Announcement]:
    """The calls for zones the balls came into; the frame's names the frames the referee did."""
    said = [zones.position(z) for z in entered]
    return [replace(a, frames=frames) if a.variant == "frame" else a for a in said]


def _out(match: Match, command: Command) -> Result:
    """The object balls are in no zone any more."""
    return (replace(match, zones=()) if match.zones else match), []


def _a_cheval(match: Match, command: Command) -> Result:
    """À CHEVAL: the object balls lie on either side of a line, so in no one zone."""
    new = replace(match, zones=()) if match.zones else match
    return new, [Announcement("a_cheval")]


def _libres(match: Match, command: Command) -> Result:
    """LIBRES: very close but not touching; information only."""
    return match, [Announcement("libres")]


def _touchent(match: Match, command: Command) -> Result:
    """TOUCHENT: libre re-spots at once; elsewhere only on request, and the referee is reminded."""
    said = [Announcement("touchent")]
    if match.rules.touchent_respot_mandatory:
        said.append(Announcement("respot", variant="break_position"))
        return replace(match, zones=(), touchent=False), said
    said.append(Announcement("touchent", variant="reminder"))
    return replace(match, touchent=True), said


def _respot(match: Match, command: Command) -> Result:
    """The player asks for the re-spot after TOUCHENT."""
    if not match.touchent:
        return match, [refused("no_touchent")]
    if match.rules.name == "three-cushion":
        # Case (b) of three-cushion: the same places as for balls off the table.
        placed = spots.place(match, ("white", "yellow", "red"), (), match.at_table)
        said = Announcement("respot", variant="spots", spots=placed)
    else:
        said = Announcement("respot", variant="break_position")
    return replace(match, zones=(), touchent=False), [said]


# --- turns, extensions and the break -------------------------------------------------------


def _reached(match: Match, player: int) -> bool:
    return match.players[player].points >= match.phase.target


def _end_inning(match: Match, said: list[Announcement]) -> Result:
    """The inning ends: the next inning, the equalising inning, a winner or an extension."""
    current = match.at_table
    breaker = match.phase.breaker
    other = 1 - current
    if current == breaker:
        equalising = _reached(match, current)
        return _start_inning(match, other, said, "equalising" if equalising else None)
    if _reached(match, current) and _reached(match, breaker):
        return _extension(match, said)
    if _reached(match, current) or _reached(match, breaker):
        winner = current if _reached(match, current) else breaker
        done = replace(match, at_table=None, winner=winner, run=0, touchent=False)
        return done, [*said, Announcement("winner", player=match.surname(winner))]
    return _start_inning(match, other, said, None)


def _start_inning(
    match: Match, player: int, said: list[Announcement], variant: str | None
) -> Result:
    """`player` comes to the table; zones still occupied start afresh for his run.

    UMB world rules 5.1.2: the caroms allowed in a zone are counted within a player's run.
    """
    rules = match.rules
    fresh = tuple(zones.entered(z.kind, rules) for z in match.zones)
    stats = match.players[player]
    innings = list(match.phase.innings)
    innings[player] += 1
    match = replace(
        match,
        at_table=player,
        run=0,
        zones=fresh,
        touchent=False,
        players=_with(match.players, player, replace(stats, innings=stats.innings + 1)),
        phase=replace(match.phase, innings=(innings[0], innings[1])),
    )
    turn = Announcement("turn", player=stats.surname, variant=variant)
    return match, [*said, turn, *(zones.position(z) for z in fresh)]


def _extension(match: Match, said: list[Announcement]) -> Result:
    """Article 4: a tie gives 10 % of the original distance more; from the second on, one stroke."""
    extra = max(1, -(-match.setup.distance // 10))
    number = match.phase.number + 1
    phase = Phase(
        target=match.phase.target + extra,
        breaker=None,
        number=number,
        single_stroke=number >= 2,
    )
    waiting = replace(match, phase=phase, at_table=None, run=0, zones=(), touchent=False)
    variant = "single_stroke" if phase.single_stroke else None
    return waiting, [
        *said,
        Announcement("extension", points=extra, variant=variant),
        Announcement("turn", variant="who_starts"),
    ]


def _starts(match: Match, command: Command) -> Result:
    """The referee says who starts: at an extension, or before the first stroke of the match."""
    player = _player_index(match, command.player)
    if player is None:
        return match, [refused("unknown_player", command.player)]
    if match.at_table is None:
        phase = replace(match.phase, breaker=player)
        return _start_inning(replace(match, phase=phase), player, [], "starts")
    if match.history or match.run:
        return match, [refused("already_started")]
    fresh = new_match(replace(match.setup, first=player))
    return replace(fresh, setup=match.setup), [
        Announcement("turn", player=match.surname(player), variant="starts")
    ]


def _break(match: Match, command: Command) -> Result:
    """Article 5: one five-minute break per player, only when it is his turn."""
    player = match.at_table
    if command.player is not None and _player_index(match, command.player) != player:
        return match, [refused("not_your_turn", command.player)]
    stats = match.players[player]
    if stats.break_taken:
        return match, [refused("break_taken", stats.surname)]
    taken = replace(stats, break_taken=True)
    new = replace(match, pause=Pause(player), players=_with(match.players, player, taken))
    return new, [Announcement("break_start", player=stats.surname)]


def _break_end(match: Match, command: Command) -> Result:
    """The player is back before the five minutes are up."""
    if match.pause is None:
        return match, [refused("no_break")]
    return _resume(match)


def _tick(match: Match, command: Command) -> Result:
    """Break time passing: the one-minute warning, then the end of the break."""
    pause = match.pause
    if pause is None or command.seconds is None:
        return match, []
    if command.seconds >= BREAK_SECONDS:
        return _resume(match)
    if command.seconds >= WARNING_SECONDS and not pause.warned:
        warned = replace(match, pause=replace(pause, warned=True))
        return warned, [Announcement("break_warning", player=match.surname(pause.player))]
    return match, []


def _resume(match: Match) -> Result:
    player = match.surname(match.pause.player)
    return replace(match, pause=None), [Announcement("break_end", player=player)]


# --- corrections ---------------------------------------------------------------------------


def _undo(match: Match, command: Command) -> Result:
    """Drop the last command the referee gave (not the clock's) and replay the rest."""
    spoken = [i for i, c in enumerate(match.history) if c.kind is not Kind.TICK]
    if not spoken:
        return match, [refused("nothing_to_undo")]
    last = spoken[-1]
    kept = match.history[:last] + match.history[last + 1 :]
    new = new_match(match.setup)
    for earlier in kept:
        new, _ = apply(new, earlier)
    return new, [_scores(new, "undo")]


def _repeat_score(match: Match, command: Command) -> Result:
    """«σκορ»: the score of both players."""
    return match, [_scores(match, None)]


def _scores(match: Match, variant: str | None) -> Announcement:
    totals = tuple((p.surname, p.points) for p in match.players)
    return Announcement("repeat_score", variant=variant, scores=totals)


# --- helpers -------------------------------------------------------------------------------


def _with(
    players: tuple[PlayerState, PlayerState], index: int, player: PlayerState
) -> tuple[PlayerState, PlayerState]:
    return (player, players[1]) if index == 0 else (players[0], player)


def _player_index(match: Match, surname: str | None) -> int | None:
    names = [p.surname for p in match.players]
    return names.index(surname) if surname in names else None


_HANDLERS: dict[Kind, Callable[[Match, Command], Result]] = {
    **{kind: _carom for kind in CAROMS},
    Kind.MISS: _miss,
    Kind.FOUL: _miss,
    Kind.FAULT_SIX: _fault_six,
    Kind.BALL_OFF: _ball_off,
    Kind.ENTREES: _entrees,
    Kind.ENTREES_ANCHOR: _entrees,
    Kind.OUT: _out,
    Kind.A_CHEVAL: _a_cheval,
    Kind.LIBRES: _libres,
    Kind.TOUCHENT: _touchent,
    Kind.RESPOT: _respot,
    Kind.BREAK: _break,
    Kind.BREAK_END: _break_end,
    Kind.TICK: _tick,
    Kind.UNDO: _undo,
    Kind.SCORE: _repeat_score,
    Kind.STARTS: _starts,
}
