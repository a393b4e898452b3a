"""The hall board on real screens (headless Chromium): every text box inside its box and the
screen, none over another, at 16:9, 4:3, 5:4, portrait and as a stream's overlay; statistics
large enough to read from afar, each player's last innings and no wide empty band; the offline
state and the reconnection; names refitted when the window changes size; the referee's panel on
a phone.

Screenshots go to test-artifacts/board/ (look at them: they must read as a hall scoreboard).
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import asdict
from datetime import datetime, timedelta

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import tests.support.server as server_support
from phrases.render import render
from rules.command import Command, Kind
from rules.match import apply
from rules.state import Setup, new_match
from tests.support.browser import PHONE, WAIT, chromium, needs_chromium, press
from tests.support.server import ARTIFACTS, serving
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

SCREENS = {  # name: (width, height)
    "16x9": (1920, 1080),
    "4x3": (1024, 768),
    "5x4": (1280, 1024),
    "portrait": (1080, 1920),
}
SHOTS = ARTIFACTS / "board"
# The statistics' figures drawn at least this high, as a fraction of the screen's height (the
# portrait's: as tall as before the hall screens' were raised to 4 %).
STATISTICS = {"16x9": 0.04, "4x3": 0.04, "5x4": 0.04, "portrait": 0.025}
# The last innings' figures: a secondary line, as the standing's, not a statistic; a long one
# is shrunk to fit its card, never below this.
LAST_INNINGS_HEIGHT = 0.015
EMPTY_BAND = 0.09  # the tallest band across the screen that nothing shown crosses
RECONNECT_WAIT = 20  # seconds: the board's retries back off up to 15 s apart

# Two 25-letter surnames and scores of four digits: the widest a board has to show.
A, B = "Κωνσταντινοπουλοπαπαδάκης", "Μαυρομιχαλοπουλοκωνστάκης"
PLAYERS = (A, B)
POINT, MISS = Command(Kind.POINT), Command(Kind.MISS)

pytestmark = needs_chromium


def live_match() -> tuple[Setup, list[Command]]:
    """Libre to 1255: A at the table on 1250 (run 150, «για πέντε», ENTRÉES), on his break;
    B on 987."""
    commands: list[Command] = []
    for inning in range(11):
        commands += [POINT] * 100 + [MISS] + [POINT] * (89 if inning < 10 else 97) + [MISS]
    commands += [POINT] * 149 + [Command(Kind.POINT_ENTREES), Command(Kind.BREAK, player=A)]
    return Setup("libre", 1255, PLAYERS), commands


def extension_match() -> tuple[Setup, list[Command]]:
    """Three-cushion to 1000, tied twice: the second extension (single strokes, to 1200),
    1101 to 1100, and B has just sent the red and the white off the table."""
    commands = [POINT] * 2000 + [Command(Kind.STARTS, player=B)] + [POINT] * 200
    commands += [Command(Kind.STARTS, player=A), POINT]
    commands += [Command(Kind.BALL_OFF, balls=("red", "white"))]
    return Setup("three-cushion", 1000, PLAYERS), commands


def sets_match() -> tuple[Setup, list[Command]]:
    """Libre in sets under a handicap (30 and 25), with a shot clock, a table and a referee: A
    won set 1; in set 2 B broke with 10 and A is at the table on 3."""
    setup = Setup("libre", 30, PLAYERS, handicap=(30, 25), sets=3, shot_clock=40, time_outs=2,
                  table="Τραπέζι 2", referee="Ιωάννου")
    return setup, [POINT] * 30 + [MISS] + [POINT] * 10 + [MISS] + [POINT] * 3


def three_cushion_match() -> tuple[Setup, list[Command]]:
    """Three-cushion to 30, nothing called: A at the table on 4, B on 2."""
    commands = [POINT] * 3 + [MISS] + [POINT] * 2 + [MISS] + [POINT]
    return Setup("three-cushion", 30, PLAYERS), commands


def playoff_match() -> tuple[Setup, list[Command]]:
    """Libre to 5, a tie settled by a play-off to 15: B started it and is on 7."""
    commands = [POINT] * 5 + [POINT] * 5 + [Command(Kind.STARTS, player=B)] + [POINT] * 2
    return Setup("libre", 5, PLAYERS, on_tie="playoff"), commands


def recorded(record: Record, setup: Setup, commands: list[Command]) -> tuple[int, list]:
    """Record the match; its id and what the rules announced at its last command."""
    match_id = record.create_match(setup)
    match, said = new_match(setup), []
    for seq, command in enumerate(commands, 1):
        match, said = apply(match, command)
        record.append(match_id, seq, command)
    return match_id, said


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """A server over a record of six matches: the live match (1), the extension match (2),
    a new one-cushion match (3), the sets match (4), the play-off match (5), the three-cushion
    match (6). Yields its URL and the `balls_off` value the board's JSON is to carry for match
    2."""
    db = tmp_path_factory.mktemp("hall") / "hall.sqlite3"
    with Record.open(db) as record:
        live, _ = recorded(record, *live_match())
        extension, said = recorded(record, *extension_match())
        one_cushion, _ = recorded(record, Setup("one-cushion", 50, PLAYERS), [])
        in_sets, _ = recorded(record, *sets_match())
        playoff, _ = recorded(record, *playoff_match())
        three_cushion, _ = recorded(record, *three_cushion_match())
    assert (live, extension, one_cushion, in_sets, playoff, three_cushion) == (1, 2, 3, 4, 5, 6)
    (off,) = [a for a in said if a.code == "ball_off_table"]
    spoken = asdict(render(off))
    balls_off = {
        "text": spoken["text"],
        "display": spoken["display"],
        "spots": [{"ball": ball, "spot": spot} for ball, spot in off.spots],
    }
    with serving(db) as url:
        yield url, balls_off


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("profile"), "--hide-scrollbars") as driver:
        yield driver


@pytest.fixture
def window(browser):
    """A fresh window; closed after the test, leaving the browser's first one."""
    first = browser.window_handles[0]
    browser.switch_to.new_window("window")
    yield browser
    browser.close()
    browser.switch_to.window(first)


def size(browser, width: int, height: int) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False,
    })


def board_on(browser, url: str, match: int, screen: str) -> None:
    """Open match `match`'s board on a screen of SCREENS."""
    size(browser, *SCREENS[screen])
    browser.get(f"{url}/board/{match}")


def pushing(browser, state: dict) -> None:
    """Replace the page's WebSocket by one that delivers `state` once, then stays open.

    Stands in for the server where a test needs a state it never sends."""
    script = f"""
        window.WebSocket = class {{
          constructor() {{
            setTimeout(() => {{
              this.onopen?.();
              this.onmessage?.({{ data: {json.dumps(json.dumps(state))} }});
            }}, 0);
          }}
          close() {{}}
          send() {{}}
        }};"""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})


def plain(text: str) -> str:
    """`text` without accents: Chromium drops them when it capitalises Greek (lang="el")."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def showing(browser, selector: str, expected: str, wait: float = WAIT) -> None:
    """Wait until the element's text matches `expected` (a pattern; accents are ignored)."""
    def matches(driver):
        text = driver.find_element(By.CSS_SELECTOR, selector).text
        return re.fullmatch(plain(expected), plain(text))

    WebDriverWait(browser, wait, 0.05).until(matches, f"{selector} never showed {expected!r}")


def settled(browser) -> None:
    """Wait for the fonts and two animation frames, so the page's fitting has run."""
    browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(done)));
    """)


# Every visible text node's box (a Range's getBoundingClientRect): it must lie inside the
# viewport and inside the border box of every element that holds it, its element must not
# scroll (scrollWidth <= clientWidth), and no two text boxes may overlap.
LAYOUT_PROBLEMS = """
const SLACK = 1;  // px: Chromium rounds a glyph box's ascent and descent to whole pixels
const problems = [];
const boxes = [];
const name = (el) => el.id
  ? `#${el.id}` : `${el.closest("[id]")?.id ?? ""} .${el.className || el.tagName}`;
const inside = (r, o) => r.left >= o.left - SLACK && r.right <= o.right + SLACK
  && r.top >= o.top - SLACK && r.bottom <= o.bottom + SLACK;
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.textContent.trim()) continue;
  const element = node.parentElement;
  const style = getComputedStyle(element);
  if (!element.getClientRects().length || style.visibility !== "visible") continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  const box = range.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  const label = `${name(element)} ${JSON.stringify(node.textContent.trim().slice(0, 30))}`;
  const viewport = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  if (!inside(box, viewport)) problems.push(`${label} leaves the screen: ${JSON.stringify(box)}`);
  const scrolls = element.scrollWidth > element.clientWidth
    || element.scrollHeight > element.clientHeight;
  if (style.display !== "inline" && scrolls) {
    problems.push(`${label} is cut: scroll ${element.scrollWidth}×${element.scrollHeight}`
      + ` in ${element.clientWidth}×${element.clientHeight}`);
  }
  for (let holder = element; holder && holder !== document.body; holder = holder.parentElement) {
    if (!inside(box, holder.getBoundingClientRect())) {
      problems.push(`${label} sticks out of ${name(holder)}`);
      break;
    }
  }
  boxes.push([label, box]);
}
for (let i = 0; i < boxes.length; i++) {
  for (let j = i + 1; j < boxes.length; j++) {
    const [a, r] = boxes[i];
    const [b, s] = boxes[j];
    const across = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const down = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (across > SLACK && down > SLACK) problems.push(`${a} overlaps ${b}`);
  }
}
return { problems, texts: boxes.length };
"""


# The statistics' figures (the drawn height of their digits, from the canvas's metrics of the
# font each is drawn in) and the tallest band across the screen that no text box nor the drawn
# table crosses, each as a fraction of the screen's height.
MEASURES = """
const height = innerHeight;
const shown = (selector) => [...document.querySelectorAll(selector)]
  .filter((element) => element.getClientRects().length);
const pen = document.createElement("canvas").getContext("2d");
const drawn = (selector) => shown(selector).map((element) => {
  const style = getComputedStyle(element);
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const digits = pen.measureText(element.textContent.replace(/[^0-9]/g, "") || "0");
  return (digits.actualBoundingBoxAscent + digits.actualBoundingBoxDescent) / height;
});
const covered = new Uint8Array(height);
const cover = (box) => {
  for (let y = Math.max(0, Math.floor(box.top)); y < Math.min(height, Math.ceil(box.bottom)); y++) {
    covered[y] = 1;
  }
};
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.textContent.trim() || !node.parentElement.getClientRects().length) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  cover(range.getBoundingClientRect());
}
shown("#off .table").forEach((table) => cover(table.getBoundingClientRect()));
let band = 0;
let run = 0;
for (const row of covered) {
  run = row ? 0 : run + 1;
  band = Math.max(band, run);
}
return {
  statistics: Math.min(...drawn(".stats dd")),
  last_innings: Math.min(...drawn(".last-innings .figures")),
  band: band / height,
};
"""


def assert_read_from_afar(browser, screen: str, shot: str) -> None:
    """The statistics tall enough for the screen, the last innings readable, and no wide empty
    band across it (printed, as docs/scoreboard.md quotes them)."""
    measured = browser.execute_script(MEASURES)
    print(f"\n{shot}: statistics {measured['statistics']:.2%} of the height, "
          f"last innings {measured['last_innings']:.2%}, "
          f"tallest empty band {measured['band']:.2%}")
    assert measured["statistics"] >= STATISTICS[screen], measured
    assert measured["last_innings"] >= LAST_INNINGS_HEIGHT, measured
    assert measured["band"] <= EMPTY_BAND, measured


def assert_laid_out(browser, shot: str, screen: str | None = None) -> None:
    """Every text in its boxes and none over another; on a hall screen, read from afar too."""
    settled(browser)
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"{shot}.png"))
    laid = browser.execute_script(LAYOUT_PROBLEMS)
    assert laid["texts"] >= 10, laid
    assert laid["problems"] == [], f"{shot}: " + "\n".join(laid["problems"])
    if screen is not None:
        assert_read_from_afar(browser, screen, shot)


def api_state(browser, url: str, match: int) -> dict:
    """The board's JSON for `match`, as the server gives it."""
    browser.get(f"{url}/api/matches/{match}")
    return json.loads(browser.find_element(By.TAG_NAME, "body").text)


def last_innings(browser, *players: list[int]) -> None:
    """Wait until each player's card lists these innings' points after «ΤΕΛΕΥΤΑΙΕΣ»."""
    for index, points in enumerate(players):
        figures = " · ".join(map(str, points))
        showing(browser, f"#p{index} .last-innings", rf"ΤΕΛΕΥΤΑΙΕΣ\s{figures}" if points else "")


def rect(browser, selector: str) -> dict:
    return browser.execute_script(
        "return document.querySelector(arguments[0]).getBoundingClientRect().toJSON()", selector
    )


def font_px(browser, selector: str) -> float:
    return browser.execute_script(
        "return parseFloat(getComputedStyle(document.querySelector(arguments[0])).fontSize)",
        selector,
    )


@pytest.mark.parametrize("screen", SCREENS)
def test_a_live_match_fits_every_hall_screen(window, hall, screen):
    url, _ = hall
    board_on(window, url, 1, screen)
    showing(window, "#p0 .points", "1250")
    showing(window, "#p1 .points", "987")
    showing(window, "#p0 .run", "ΣΕΡΙ 150")
    showing(window, "#p0 .reminder", "ΓΙΑ ΠΕΝΤΕ")
    showing(window, "#call .written", "ENTRÉES")
    showing(window, "#banner", rf"ΔΙΑΛΕΙΜΜΑ · {A.upper()} · \d:\d\d")
    showing(window, "#game", "ΕΛΕΥΘΕΡΟ · 1255")
    last_innings(window, [100] * 5, [89, 89, 89, 89, 97])  # of 12 and 11: the last five
    terms = [e.text for e in window.find_elements(By.CSS_SELECTOR, "#p0 dt")]
    assert terms == ["ΠΡΟΣΠΑΘΕΙΕΣ", "Μ.Ο.", "ΜΕΓ. ΣΕΡΙ"]
    assert_laid_out(window, f"live-{screen}", screen)
    first, second = rect(window, "#p0 .points"), rect(window, "#p1 .points")
    if screen == "portrait":  # players stacked
        assert first["bottom"] <= second["top"]
    else:
        assert first["right"] <= second["left"]
    # Both scores are drawn at one size, however many digits each has.
    assert font_px(window, "#p0 .points") == font_px(window, "#p1 .points")


@pytest.mark.parametrize("screen", SCREENS)
def test_an_extension_and_balls_off_the_table_fit_every_hall_screen(window, hall, screen):
    url, balls_off = hall
    state = api_state(window, url, 2)
    assert state["extension"] == 2 and state["single_stroke"]
    assert state["balls_off"] == balls_off  # the board's JSON carries them, as announced
    board_on(window, url, 2, screen)
    showing(window, "#phase", "ΠΑΡΑΤΑΣΗ 2 · ΕΩΣ 1200 · ΜΙΑ ΣΤΕΚΙΑ")
    showing(window, "#game", "ΤΡΙΣΠΟΝΤΕΣ · 1000")
    showing(window, "#p0 .points", "1101")
    last_innings(window, [1000, 100, 1], [1000, 100, 0])  # the extensions' innings after
    showing(window, "#off .off-title", "ΕΚΤΟΣ ΤΡΑΠΕΖΙΟΥ")
    lines = window.find_elements(By.CSS_SELECTOR, "#off .off-line")
    assert [line.get_attribute("data-ball") for line in lines] == ["red", "white"]
    assert [line.text for line in lines] == balls_off["display"].split(": ")[1].split(", ")
    balls = window.execute_script(
        "return [...document.querySelectorAll('#off .ball')].map((b) => b.className)"
    )
    assert balls == ["ball red foot", "ball white head"]
    # The extension is a notice of its own, in larger type than the header's line.
    assert font_px(window, "#phase") > font_px(window, "#game")
    assert_laid_out(window, f"extension-{screen}", screen)


@pytest.mark.parametrize("screen", SCREENS)
def test_sets_each_distance_the_shot_clock_the_table_and_the_referee_fit_every_screen(
    window, hall, screen
):
    url, _ = hall
    state = api_state(window, url, 4)
    assert state["table"] == "Τραπέζι 2" and state["referee"] == "Ιωάννου"
    assert state["shot_clock"]["seconds"] == 40 and state["shot_clock"]["warning_seconds"] == 10
    board_on(window, url, 4, screen)
    showing(window, "#game", "ΕΛΕΥΘΕΡΟ · 30 · 3 ΣΕΤ")
    showing(window, "#where", "Τραπέζι 2 · ΔΙΑΙΤΗΤΗΣ Ιωάννου")
    showing(window, "#phase", "ΣΕΤ 2")
    showing(window, "#p0 .sets", "ΣΕΤ 1")
    showing(window, "#p1 .sets", "ΣΕΤ 0")
    showing(window, "#p0 .points", "3")  # the set's points
    showing(window, "#p1 .points", "10")
    showing(window, "#p0 .goal", "ΕΩΣ 30 · ΜΕΝΟΥΝ 27")  # each his own distance
    showing(window, "#p1 .goal", "ΕΩΣ 25 · ΜΕΝΟΥΝ 15")
    last_innings(window, [30], [0, 10])  # over the sets; A's inning in play is his run
    showing(window, "#shot", r"[1-4]?\d")
    # The shot clock is the footer's largest type, read from the table.
    assert font_px(window, "#shot") > 1.5 * font_px(window, "#phase")
    assert_laid_out(window, f"sets-{screen}", screen)


def test_the_shot_clock_turns_to_its_warning_ten_seconds_before_zero(window, hall):
    url, _ = hall
    state = api_state(window, url, 4)
    now = datetime.fromisoformat(state["now"])
    started = (now - timedelta(seconds=33)).isoformat(timespec="milliseconds")
    pushing(window, {**state, "shot_clock": {**state["shot_clock"], "started": started}})
    board_on(window, url, 4, "16x9")
    showing(window, "#shot", "[1-7]")
    assert "warning" in window.find_element(By.ID, "shot").get_attribute("class")
    showing(window, "#shot", "0", wait=10)  # and stays at zero
    pushing(window, {**state, "shot_clock": None})  # no shot timed: no clock
    window.get(f"{url}/board/4")
    showing(window, "#p1 .points", "10")
    assert not window.find_element(By.ID, "shot").is_displayed()


@pytest.mark.parametrize("screen", SCREENS)
def test_with_nothing_called_the_cards_take_the_footer_s_room(window, hall, screen):
    url, _ = hall
    board_on(window, url, 6, screen)
    showing(window, "#p1 .average", "2,000")  # three-cushion: nothing called, no notice
    last_innings(window, [3], [2])
    assert not window.find_element(By.TAG_NAME, "footer").is_displayed()
    assert_laid_out(window, f"three-cushion-{screen}", screen)


@pytest.mark.parametrize("screen", ["16x9", "portrait"])
def test_a_play_off_is_named_with_what_both_play_to(window, hall, screen):
    url, _ = hall
    board_on(window, url, 5, screen)
    showing(window, "#phase", "ΜΠΑΡΑΖ · ΕΩΣ 20")
    showing(window, "#p1 .points", "7")
    showing(window, "#p1 .goal", "ΕΩΣ 20 · ΜΕΝΟΥΝ 13")
    showing(window, "#where", "")
    assert_laid_out(window, f"playoff-{screen}", screen)


def test_the_board_names_games_and_figures_as_the_regulation_does(window, hall):
    url, _ = hall
    window.get(f"{url}/board/3")
    showing(window, "#game", "ΣΠΟΝΤΑ · 50")
    showing(window, "#p0 .run", "ΣΕΡΙ 0")
    last_innings(window, [], [])  # no inning finished: no line
    terms = [e.text for e in window.find_elements(By.CSS_SELECTOR, "#p1 dt")]
    assert terms == ["ΠΡΟΣΠΑΘΕΙΕΣ", "Μ.Ο.", "ΜΕΓ. ΣΕΡΙ"]


def test_balls_off_named_only_in_the_calls_are_shown_in_words(window, hall):
    url, balls_off = hall
    state = api_state(window, url, 2)
    said = {"code": "ball_off_table", "channel": "pa", "player": None, "points": None}
    said |= {"text": balls_off["text"], "display": balls_off["display"]}
    pushing(window, {**state, "balls_off": None, "call": [said]})  # no spots to draw
    board_on(window, url, 2, "16x9")
    showing(window, "#off .off-title", "ΕΚΤΟΣ ΤΡΑΠΕΖΙΟΥ")
    lines = window.find_elements(By.CSS_SELECTOR, "#off .off-line")
    assert [line.text for line in lines] == balls_off["display"].split(": ")[1].split(", ")
    assert not window.find_element(By.CSS_SELECTOR, "#off .table").is_displayed()
    assert window.find_elements(By.CSS_SELECTOR, "#call .term") == []  # not said twice
    assert_laid_out(window, "balls-off-in-words-16x9")


@pytest.mark.parametrize("match", [1, 2])
def test_the_overlay_is_a_transparent_lower_third(window, hall, match):
    url, balls_off = hall
    state = api_state(window, url, match)
    if match == 2:
        assert state["balls_off"] == balls_off
    width, height = SCREENS["16x9"]
    size(window, width, height)
    window.execute_cdp_cmd(  # screenshots keep the transparency, as OBS composes it
        "Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}}
    )
    window.get(f"{url}/board/{match}?overlay=1")
    showing(window, "#p0 .points", "1250" if match == 1 else "1101")
    assert "overlay" in window.find_element(By.TAG_NAME, "body").get_attribute("class")
    backgrounds = window.execute_script(
        "return [document.documentElement, document.body]"
        ".map((e) => getComputedStyle(e).backgroundColor)"
    )
    assert backgrounds == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    for index, player in enumerate(state["players"]):  # each one's statistics, labelled
        showing(window, f"#p{index} .average", f"{player['average']:.3f}".replace(".", ","))
        showing(window, f"#p{index} .highest", str(player["highest_run"]))
        showing(window, f"#p{index} .innings", str(player["innings"]))
        terms = [e.text for e in window.find_elements(By.CSS_SELECTOR, f"#p{index} dt")]
        assert terms == ["ΠΡΟΣΠΑΘΕΙΕΣ", "Μ.Ο.", "ΜΕΓ. ΣΕΡΙ"]
    assert_laid_out(window, f"overlay-{match}")
    board = window.execute_script("""
        const boxes = [...document.body.children].filter((e) => e.getClientRects().length)
          .map((e) => e.getBoundingClientRect());
        return { top: Math.min(...boxes.map((b) => b.top)),
                 right: Math.max(...boxes.map((b) => b.right)) };
    """)
    assert board["top"] >= height * 2 / 3, "the overlay is not a lower third"
    assert board["right"] <= width * 0.6, "the overlay covers the picture's width"


def test_names_refit_when_the_window_changes_size(window, hall):
    url, _ = hall
    size(window, 1920, 1080)
    window.get(f"{url}/board/1")
    showing(window, "#p1 .points", "987")
    settled(window)
    wide = font_px(window, "#p1 .name")
    size(window, 1024, 768)
    settled(window)
    narrow = font_px(window, "#p1 .name")
    assert narrow < wide * 0.7
    assert_laid_out(window, "resized-to-4x3")
    size(window, 1920, 1080)
    settled(window)
    assert font_px(window, "#p1 .name") == pytest.approx(wide, abs=1)  # grows back


def test_the_reconnection_waits_grow_with_jitter(window, hall):
    url, _ = hall
    window.get(f"{url}/board/1")
    waits = window.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/static/feed.js").then(({ backoff }) => done(
          [0, 1, 2, 3, 4, 5, 10, 30].map((attempt) =>
            Array.from({ length: 50 }, () => backoff(attempt)))));
    """)
    ceilings = [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]
    for ceiling, samples in zip(ceilings, waits, strict=True):
        assert all(ceiling / 2 <= wait <= ceiling for wait in samples), (ceiling, samples)
        assert len(set(samples)) > 40  # jitter: a hall of boards does not retry in step


def test_a_board_that_loses_the_server_says_so_and_comes_back(window, tmp_path, monkeypatch):
    db = tmp_path / "m.sqlite3"
    with Record.open(db) as record:
        recorded(record, Setup("libre", 1255, PLAYERS), [POINT] * 1250 + [MISS] + [POINT] * 987)
    port = server_support.free_port()
    monkeypatch.setattr(server_support, "free_port", lambda: port)  # the same address again
    size(window, 1280, 1024)
    with serving(db) as url:
        window.get(f"{url}/board/1")
        showing(window, "#p1 .points", "987")
        assert window.find_element(By.ID, "offline").get_attribute("hidden") is not None
    dropped = datetime.now()
    showing(window, "#offline", r"ΕΚΤΟΣ ΣΥΝΔΕΣΗΣ — ΤΕΛΕΥΤΑΙΑ ΕΝΗΜΕΡΩΣΗ \d\d:\d\d:\d\d")
    shown = window.find_element(By.ID, "last").text
    moment = datetime.combine(dropped.date(), datetime.strptime(shown, "%H:%M:%S").time())
    assert abs((moment - dropped).total_seconds()) < 5
    assert "offline" in window.find_element(By.TAG_NAME, "body").get_attribute("class")
    assert window.find_element(By.ID, "link").get_attribute("class") == "down"
    assert_laid_out(window, "offline-5x4")

    with Record.open(db) as record:  # the referee went on while the server was down
        Ledger(record, 1).hear("πόντος")
    time.sleep(1)  # the board keeps retrying meanwhile
    with serving(db):
        showing(window, "#p1 .points", "988", wait=RECONNECT_WAIT)
        showing(window, "#offline", "")
        assert "offline" not in window.find_element(By.TAG_NAME, "body").get_attribute("class")


@pytest.mark.parametrize("match", [1, 6])
def test_the_panel_fits_a_phone_and_offers_what_the_rules_take(window, hall, match):
    url, _ = hall
    controls = api_state(window, url, match)["controls"]
    window.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    window.get(f"{url}/referee/{match}")
    showing(window, "#s0 .name", A)
    press(window, "score")  # the score in the log: both long surnames on one line
    showing(window, "#said li:first-child", rf"(?s){A} \d+, {B} \d+\n.+")
    kinds = window.execute_script("""
        const buttons = [...document.querySelectorAll("button[data-kind]")];
        const kinds = (list) => list.map((button) => button.dataset.kind);
        return [kinds(buttons), kinds(buttons.filter((b) => b.getClientRects().length))];
    """)
    every, offered = map(set, kinds)
    assert offered == every & set(controls)  # the buttons of the commands the rules take
    if match == 6:  # three-cushion: no zones, no LIBRES
        assert {"point", "miss", "undo"} <= offered and not offered & {"libres", "entrees"}
    laid = window.execute_script("""
        const buttons = [...document.querySelectorAll("button")]
          .filter((button) => button.getClientRects().length)
          .map((button) => button.getBoundingClientRect());
        return { width: document.scrollingElement.scrollWidth,
                 outside: buttons.filter((b) => b.left < 0 || b.right > innerWidth).length };
    """)
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.save_screenshot(str(SHOTS / f"panel-{match}-390.png"))
    assert laid == {"width": PHONE["width"], "outside": 0}
