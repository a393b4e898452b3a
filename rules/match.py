"""The pure rules core: `apply(match, command)` gives the next match and what to announce.

A refused or announce-only command returns the very same `Match` object, so callers record a
command exactly when `new is not old`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from rules import corrections, innings_limit, sets, shot_clock, spots, warm_up, zones
from rules.announcement import Announcement, Code, Form, Reason, refused
from rules.command import Command, Kind
from rules.errors import RefereeError
from rules.state import Match, OnTie, Pause, Phase, PlayerState, Setup, Zone, evolve, new_match
from rules.zone_kind import ZoneKind

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


class ReplayError(RefereeError, ValueError):
    """A recorded command that the rules no longer accept."""


def apply(match: Match, command: Command) -> Result:
    """The match after `command`, and the announcements in speaking order.

    >>> from rules.command import Command, Kind
    >>> from rules.state import Setup, new_match
    >>> match = new_match(Setup("libre", 50, ("Jaspers", "Caudron")))
    >>> match, said = apply(match, Command(Kind.POINT))
    >>> match.players[0].points, [(str(a.code), a.player, a.points) for a in said]
    (1, [('score', 'Jaspers', 1)])
    >>> match, said = apply(match, Command(Kind.MISS))
    >>> match.surname(match.at_table), [(str(a.code), a.player) for a in said]
    ('Caudron', [('turn', 'Caudron')])
    """
    refusal = _refusal(match, command)
    if refusal:
        return match, [refusal]
    player = match.at_table
    # `_refusal` lets a play (`_PLAYS`) through only while a player is at the table.
    if command.kind in _PLAYS and player is not None:
        new, said = _PLAYS[command.kind](match, command, player)
    else:
        new, said = _HANDLERS[command.kind](match, command)
    if new is not match:
        new = shot_clock.follow(match, new, command)
    if new is not match and command.kind is not Kind.UNDO:
        new = evolve(new, history=match.history.then(command, match))
    return new, said


def replay(setup: Setup, commands: Iterable[Command]) -> Match:
    """The match that a record of accepted commands leads to; ReplayError if one is refused."""
    match = new_match(setup)
    for after, _ in steps(match, commands):
        match = after
    return match


def steps(match: Match, commands: Iterable[Command], first: int = 1) -> Iterator[Result]:
    """`match` taken through recorded commands numbered from `first`, each command's result in
    turn; ReplayError if one is refused."""
    for number, command in enumerate(commands, first):
        new, said = apply(match, command)
        if new is match:
            reason = said[0].variant if said else "it changes nothing"
            raise ReplayError("recorded command {number} ({kind}) is refused: {reason}",
                              number=number, kind=command.kind, reason=reason)
        match = new
        yield match, said


def _refusal(match: Match, command: Command) -> Announcement | None:
    """Why `command` cannot be taken now, if it cannot."""
    kind = command.kind
    if kind in (Kind.UNDO, Kind.SCORE, Kind.TICK, *corrections.KINDS):
        return None
    if match.over:
        return refused(Reason.MATCH_OVER)
    if match.warm_up is not None and kind is not Kind.WARM_UP_END:
        return refused(Reason.IN_WARM_UP, match.surname(match.warm_up.player))
    if match.pause is not None and kind is not Kind.BREAK_END:
        return refused(Reason.IN_BREAK, match.surname(match.pause.player))
    if match.at_table is None and kind is not Kind.STARTS:
        return refused(Reason.AWAITING_START)
    reason = match.rules.refusal(kind)
    if reason is None and command.frames and match.rules.zone is not ZoneKind.FRAME:
        reason = Reason.NO_FRAMES
    return refused(reason) if reason else None


# --- strokes -------------------------------------------------------------------------------


def _carom(match: Match, command: Command, player: int) -> Result:
    """A carom: RESTÉES DEDANS if it left the balls in a zone with no carom left, else a point."""
    kind = command.kind
    if kind is Kind.POINT:
        stay = match.zones
    elif kind is Kind.POINT_OUT_ANCHOR:
        stay = tuple(z for z in match.zones if z.kind is not ZoneKind.ANCHOR)
    else:
        stay = ()
    blocked = zones.blocking(stay)
    if blocked:
        # The carom is not scored and the turn passes; the balls stay in the zone.
        said = [Announcement(Code.RESTEES_DEDANS, variant=blocked.kind)]
        return _end_inning(evolve(match, touchent=False), player, said)
    kept, calls = zones.after_carom(stay)
    if kind in (Kind.POINT_ENTREES, Kind.POINT_ENTREES_ANCHOR):
        kept = _entered(match, anchor=kind is Kind.POINT_ENTREES_ANCHOR, frame=None)
        calls = _positions(kept, command.frames)
    scored, said = _score(evolve(match, zones=kept, touchent=False, astride=False), player)
    if _reached(scored, player) or scored.phase.single_stroke:
        return _end_inning(scored, player, said)
    return scored, said + calls


def _score(match: Match, player: int) -> Result:
    """One more point to `player`, at the table: surname–points, then the reminder."""
    run = match.run + 1
    before = match.players[player]
    after = evolve(before, points=before.points + 1, highest_run=max(before.highest_run, run))
    match = evolve(match, run=run, players=_with(match.players, player, after))
    said = [Announcement(Code.SCORE, player=after.surname, points=run)]
    reminder = match.rules.reminder
    if match.phase.targets[player] - after.points == reminder:
        said.append(Announcement(Code.FOR_FIVE if reminder == 5 else Code.FOR_THREE))
    return match, said


def _miss(match: Match, command: Command, player: int) -> Result:
    """A miss or a foul: the inning ends."""
    return _end_inning(evolve(match, touchent=False), player, [])


def _fault_six(match: Match, command: Command, player: int) -> Result:
    """Fault 6: a foul; in libre, if play goes on, the break position is set for the opponent."""
    ended, said = _end_inning(evolve(match, touchent=False), player, [])
    if match.rules.fault_six_respot and ended.at_table is not None:
        said = [Announcement(Code.RESPOT, variant=Form.FOR_OPPONENT), *said]
    return ended, said


def _ball_off(match: Match, command: Command, player: int) -> Result:
    """Balls off the table: a foul; each ball is placed for the player to play next."""
    if not command.balls:
        return match, [refused(Reason.WHICH_BALL)]
    off = set(command.balls)
    for ball, over in command.covered:
        if ball not in off or over in off or over == ball:
            return match, [refused(Reason.BAD_COVER)]
    ended, said = _end_inning(evolve(match, touchent=False, zones=()), player, [])
    if ended.at_table is None:
        return ended, said
    placed = spots.place(match, command.balls, command.covered, ended.at_table)
    return ended, [Announcement(Code.BALL_OFF_TABLE, spots=placed), *said]


# --- positions -----------------------------------------------------------------------------


def _entered(match: Match, anchor: bool, frame: tuple[Zone, ...] | None) -> tuple[Zone, ...]:
    """The zones after the balls come in: a fresh frame, plus a fresh anchor if `anchor`."""
    rules = match.rules
    if frame is None:
        frame = (zones.entered(zones.frame_kind(rules), rules),)
    return frame + ((zones.entered(ZoneKind.ANCHOR, rules),) if anchor else ())


def _entrees(match: Match, command: Command) -> Result:
    """The object balls came into a frame (or triangle)."""
    new = _entered(match, anchor=False, frame=None)
    return evolve(match, zones=new, astride=False), _positions(new, command.frames)


def _entrees_anchor(match: Match, command: Command) -> Result:
    """The balls came into an anchor: within their frame, or astride the frames (À CHEVAL)."""
    frame = tuple(z for z in match.zones if z.kind is not ZoneKind.ANCHOR)
    new = _entered(match, anchor=True, frame=() if match.astride else frame or None)
    return evolve(match, zones=new), _positions(new, command.frames)


def _positions(entered: tuple[Zone, ...], frames: tuple[int, ...]) -> list[Announcement]:
    """The calls for zones the balls came into; the frame's names the frames the referee did."""
    said = [zones.position(z) for z in entered]
    return [replace(a, frames=frames) if a.variant is ZoneKind.FRAME else a for a in said]


def _out(match: Match, command: Command) -> Result:
    """The object balls are in no zone any more."""
    changed = match.zones or match.astride
    return (evolve(match, zones=(), astride=False) if changed else match), []


def _a_cheval(match: Match, command: Command) -> Result:
    """À CHEVAL: the object balls lie on either side of a line, so in no one zone.

    In cadre it is remembered: an anchor called next lies astride the frames.
    """
    astride = match.rules.anchors
    changed = match.zones or astride != match.astride
    new = evolve(match, zones=(), astride=astride) if changed else match
    return new, [Announcement(Code.A_CHEVAL)]


def _a_cheval_anchor(match: Match, command: Command) -> Result:
    """À CHEVAL for the frames with the balls in an anchor: the anchor's count alone applies."""
    astride, said = _a_cheval(match, command)
    anchored, calls = _entrees_anchor(astride, command)
    return anchored, said + calls


def _libres(match: Match, command: Command) -> Result:
    """LIBRES: very close but not touching; information only."""
    return match, [Announcement(Code.LIBRES)]


def _touchent(match: Match, command: Command) -> Result:
    """TOUCHENT: libre re-spots at once; elsewhere only on request, and the referee is reminded."""
    said = [Announcement(Code.TOUCHENT)]
    if match.rules.touchent_respot_mandatory:
        said.append(Announcement(Code.RESPOT, variant=Form.BREAK_POSITION))
        return evolve(match, zones=(), touchent=False), said
    said.append(Announcement(Code.TOUCHENT, variant=Form.REMINDER))
    return evolve(match, touchent=True), said


def _respot(match: Match, command: Command, player: int) -> Result:
    """The player asks for the re-spot after TOUCHENT."""
    if not match.touchent:
        return match, [refused(Reason.NO_TOUCHENT)]
    if match.rules.respot_on_spots:
        # Case (b) of three-cushion: the same places as for balls off the table.
        placed = spots.place(match, ("white", "yellow", "red"), (), player)
        said = Announcement(Code.RESPOT, variant=Form.SPOTS, spots=placed)
    else:
        said = Announcement(Code.RESPOT, variant=Form.BREAK_POSITION)
    return evolve(match, zones=(), astride=False, touchent=False), [said]


# --- turns, extensions and the break -------------------------------------------------------


def _reached(match: Match, player: int) -> bool:
    return match.players[player].points >= match.phase.targets[player]


def _end_inning(match: Match, current: int, said: list[Announcement]) -> Result:
    """`current`'s inning ends: the next inning, the equalising inning, a winner or an extension."""
    other = 1 - current
    finished = match.players[current]
    innings = evolve(finished, innings_points=finished.innings_points.appended(match.run))
    match = evolve(match, players=_with(match.players, current, innings))
    if current == match.phase.breaker:
        equalising = _reached(match, current)
        if equalising and not match.setup.equalising:
            return _won(match, current, said)  # knock-out: no equalising inning
        return _start_inning(match, other, said, Form.EQUALISING if equalising else None)
    # `current` did not break, so `other` did: both have now played the same innings.
    if _reached(match, current) and _reached(match, other):
        if match.setup.draw_at_limit_only:
            return _extension(match, said)  # a record made when only the limit drew
        return _tie(match, said)
    if _reached(match, current) or _reached(match, other):
        return _won(match, current if _reached(match, current) else other, said)
    if innings_limit.reached(match):
        return _at_limit(match, said)
    return _start_inning(match, other, said, None)


def _won(match: Match, winner: int, said: list[Announcement]) -> Result:
    if match.setup.sets is not None:
        return sets.won(match, winner, said, _start_inning)
    done = evolve(match, at_table=None, winner=winner, run=0, touchent=False)
    return done, [*said, Announcement(Code.WINNER, player=match.surname(winner))]


def _at_limit(match: Match, said: list[Announcement]) -> Result:
    """Both played the innings the limit allows: more points wins; equal points are a tie."""
    leader = innings_limit.leader(match)
    if leader is None:
        return _tie(match, said)
    return _won(match, leader, said)


def _tie(match: Match, said: list[Announcement]) -> Result:
    """Equal points at the distance or the innings limit: Article 4's extension, a draw or a
    play-off, as the set-up says."""
    on_tie = match.setup.on_tie
    if on_tie is OnTie.DRAW:
        done = evolve(match, at_table=None, drawn=True, run=0, touchent=False)
        return done, [*said, Announcement(Code.DRAW)]
    if on_tie is OnTie.PLAYOFF:
        return _playoff(match, said)
    return _extension(match, said)


def _start_inning(
    match: Match, player: int, said: list[Announcement], variant: Form | None
) -> Result:
    """`player` comes to the table; no zone carries over to him.

    The zone limit concerns the shooter's two object balls; the incoming player's are another
    pair, and the referee calls their position if they are in a zone.
    """
    stats = match.players[player]
    innings = list(match.phase.innings)
    innings[player] += 1
    match = evolve(
        match,
        at_table=player,
        run=0,
        zones=(),
        astride=False,
        touchent=False,
        players=_with(match.players, player, evolve(stats, innings=stats.innings + 1)),
        phase=evolve(match.phase, innings=(innings[0], innings[1])),
    )
    turn = Announcement(Code.TURN, player=stats.surname, variant=variant)
    if innings_limit.last_inning(match, player):
        return match, [*said, turn, Announcement(Code.LAST_INNING, player=stats.surname)]
    return match, [*said, turn]


def _extension(match: Match, said: list[Announcement]) -> Result:
    """Article 4: a tie gives 10 % of the original distance more (of each player's own under a
    handicap), rounded up, at least 1; from the second extension on, one stroke per turn."""
    extras = tuple(max(1, -(-distance // 10)) for distance in match.setup.distances)
    number = match.phase.number + 1
    phase = Phase(
        targets=(match.players[0].points + extras[0], match.players[1].points + extras[1]),
        breaker=None,
        number=number,
        single_stroke=number >= 2,
    )
    waiting = evolve(match, phase=phase, at_table=None, run=0, zones=(), touchent=False)
    if extras[0] == extras[1]:
        variant = Form.SINGLE_STROKE if phase.single_stroke else None
        called = [Announcement(Code.EXTENSION, points=extras[0], variant=variant)]
    else:
        variant = Form.HANDICAP_SINGLE_STROKE if phase.single_stroke else Form.HANDICAP
        called = [
            Announcement(Code.EXTENSION, player=match.surname(i), points=extras[i], variant=variant)
            for i in (0, 1)
        ]
    return waiting, [*said, *called, Announcement(Code.TURN, variant=Form.WHO_STARTS)]


def _playoff(match: Match, said: list[Announcement]) -> Result:
    """A play-off to the set-up's points, each from his own score; who starts is named as at
    Article 4's extension. A tie in it brings another."""
    points = match.setup.playoff_points
    phase = Phase(
        targets=(match.players[0].points + points, match.players[1].points + points),
        breaker=None,
        number=match.phase.number + 1,
        playoff=True,
    )
    waiting = evolve(match, phase=phase, at_table=None, run=0, zones=(), touchent=False)
    called = Announcement(Code.PLAYOFF, points=points)
    return waiting, [*said, called, Announcement(Code.TURN, variant=Form.WHO_STARTS)]


def _starts(match: Match, command: Command) -> Result:
    """The referee says who starts: at an extension, or before the first stroke of the match."""
    player = _player_index(match, command.player)
    if player is None:
        return match, [refused(Reason.UNKNOWN_PLAYER, command.player)]
    if match.at_table is None:
        phase = evolve(match.phase, breaker=player)
        return _start_inning(evolve(match, phase=phase), player, [], Form.STARTS)
    if warm_up.played(match) or match.run:
        return match, [refused(Reason.ALREADY_STARTED)]
    fresh = new_match(replace(match.setup, first=player))
    return evolve(fresh, setup=match.setup), [
        Announcement(Code.TURN, player=match.surname(player), variant=Form.STARTS)
    ]


def _break(match: Match, command: Command, player: int) -> Result:
    """Article 5: one five-minute break per player, only when it is his turn."""
    if command.player is not None and _player_index(match, command.player) != player:
        return match, [refused(Reason.NOT_YOUR_TURN, command.player)]
    stats = match.players[player]
    if stats.break_taken:
        return match, [refused(Reason.BREAK_TAKEN, stats.surname)]
    taken = evolve(stats, break_taken=True)
    new = evolve(match, pause=Pause(player), players=_with(match.players, player, taken))
    return new, [Announcement(Code.BREAK_START, player=stats.surname)]


def _break_end(match: Match, command: Command) -> Result:
    """The player is back before the five minutes are up."""
    if match.pause is None:
        return match, [refused(Reason.NO_BREAK)]
    return _resume(match, match.pause)


def _tick(match: Match, command: Command) -> Result:
    """Break, warm-up or shot time passing: the warnings, then the end."""
    if command.shot is not None:
        return shot_clock.tick(match, command, _end_inning)
    if match.warm_up is not None and command.seconds is not None:
        return warm_up.tick(match, command.seconds)
    pause = match.pause
    if pause is None or command.seconds is None:
        return match, []
    if command.seconds >= BREAK_SECONDS:
        return _resume(match, pause)
    if command.seconds >= WARNING_SECONDS and not pause.warned:
        warned = evolve(match, pause=evolve(pause, warned=True))
        return warned, [Announcement(Code.BREAK_WARNING, player=match.surname(pause.player))]
    return match, []


def _resume(match: Match, pause: Pause) -> Result:
    player = match.surname(pause.player)
    return evolve(match, pause=None), [Announcement(Code.BREAK_END, player=player)]


# --- corrections ---------------------------------------------------------------------------


def _undo(match: Match, command: Command) -> Result:
    """Withdraw the last recorded event (not the clock's), say what went.

    The rest is replayed from the checkpoint before it: fewer than CHECKPOINT_EVERY commands,
    and the break's or warm-up's ticks after it.
    """
    entries = match.history.entries()
    ticks = []
    for last in entries:
        if last.command.kind is not Kind.TICK:
            break
        ticks.append(last.command)
    else:
        return match, [refused(Reason.NOTHING_TO_UNDO)]
    kept = []
    checkpoint = last
    while checkpoint.before is None:
        assert checkpoint.earlier is not None  # the first command is always a checkpoint
        checkpoint = checkpoint.earlier
        kept.append(checkpoint.command)
    new = checkpoint.before
    for earlier in reversed(kept):
        new, _ = apply(new, earlier)
    for tick in reversed(ticks):  # the break's or warm-up's clock; a shot's went with its shot
        if new.pause is not None or new.warm_up is not None:
            new, _ = apply(new, tick)
    withdrawn = last.command
    named = Announcement(Code.WITHDRAWN, player=withdrawn.player, variant=withdrawn.kind)
    return new, [named, _scores(new, Form.UNDO)]


def _repeat_score(match: Match, command: Command) -> Result:
    """«σκορ»: the score of both players."""
    return match, [_scores(match, None)]


def _scores(match: Match, variant: Form | None) -> Announcement:
    """Each player's points: in the set being played, when the match is played in sets."""
    starts = match.set_start
    totals = tuple((p.surname, p.points - s) for p, s in zip(match.players, starts, strict=True))
    return Announcement(Code.REPEAT_SCORE, variant=variant, scores=totals)


def _correct(match: Match, command: Command) -> Result:
    """The protocol editor: a past inning's points corrected."""
    player = _player_index(match, command.player)
    if player is None:
        return match, [refused(Reason.UNKNOWN_PLAYER, command.player)]
    return _corrected(match, corrections.correct_inning(match, command, player))


def _insert_inning(match: Match, command: Command) -> Result:
    """The protocol editor: a forgotten round (a miss of each player) inserted."""
    return _corrected(match, corrections.insert_round(match, command))


def _delete_inning(match: Match, command: Command) -> Result:
    """The protocol editor: a spurious round (an inning of each player) deleted."""
    return _corrected(match, corrections.delete_round(match, command))


def _corrected(match: Match, corrected: Match | Reason) -> Result:
    """The corrected score on the PA, the last inning if the correction makes the one being
    played the last, and the result if the correction changed it."""
    if isinstance(corrected, Reason):
        return match, [refused(corrected)]
    said = [_scores(corrected, Form.UNDO)]
    player = corrected.at_table
    last = player is not None and innings_limit.last_inning(corrected, player)
    if player is not None and last and not innings_limit.last_inning(match, player):
        said.append(Announcement(Code.LAST_INNING, player=corrected.surname(player)))
    if corrected.winner is not None and corrected.winner != match.winner:
        said.append(Announcement(Code.WINNER, player=corrected.surname(corrected.winner)))
    if corrected.drawn and not match.drawn:
        said.append(Announcement(Code.DRAW))
    return corrected, said


# --- the warm-up ---------------------------------------------------------------------------


def _warm_up(match: Match, command: Command) -> Result:
    """«προθέρμανση [επώνυμο]»: the named player's warm-up, or that of the player to break."""
    if command.player is None:
        return warm_up.start(match, match.at_table)
    return warm_up.start(match, _player_index(match, command.player))


# --- helpers -------------------------------------------------------------------------------


def _with(
    players: tuple[PlayerState, PlayerState], index: int, player: PlayerState
) -> tuple[PlayerState, PlayerState]:
    return (player, players[1]) if index == 0 else (players[0], player)


def _player_index(match: Match, surname: str | None) -> int | None:
    names = [p.surname for p in match.players]
    return names.index(surname) if surname in names else None


# The commands that need the player at the table, and the others.
_PLAYS: dict[Kind, Callable[[Match, Command, int], Result]] = {
    **{kind: _carom for kind in CAROMS},
    Kind.MISS: _miss,
    Kind.FOUL: _miss,
    Kind.FAULT_SIX: _fault_six,
    Kind.BALL_OFF: _ball_off,
    Kind.RESPOT: _respot,
    Kind.BREAK: _break,
}
_HANDLERS: dict[Kind, Callable[[Match, Command], Result]] = {
    Kind.ENTREES: _entrees,
    Kind.ENTREES_ANCHOR: _entrees_anchor,
    Kind.OUT: _out,
    Kind.A_CHEVAL: _a_cheval,
    Kind.A_CHEVAL_ANCHOR: _a_cheval_anchor,
    Kind.LIBRES: _libres,
    Kind.TOUCHENT: _touchent,
    Kind.BREAK_END: _break_end,
    Kind.TICK: _tick,
    Kind.UNDO: _undo,
    Kind.SCORE: _repeat_score,
    Kind.STARTS: _starts,
    Kind.WARM_UP: _warm_up,
    Kind.WARM_UP_END: warm_up.end,
    Kind.CORRECT: _correct,
    Kind.INSERT_INNING: _insert_inning,
    Kind.DELETE_INNING: _delete_inning,
    Kind.TIME_OUT: shot_clock.call,
}
