"""A real browser (Debian's headless chromium, driven by Selenium) on the board and the panel."""

import time
from datetime import UTC, datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shown
from selenium.webdriver.support.ui import WebDriverWait

from rules.state import Setup
from tests.support.browser import (
    PHONE,
    SCREEN,
    WAIT,
    needs_chromium,
    opened,
    press,
    text_of,
)
from tests.support.match import PLAYERS, A
from tests.support.server import ARTIFACTS, new_record, serving
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger

LATENCY = 0.2  # seconds from an event the voice loop records to the board showing it
TOKEN = "hall-42-of-the-club"

pytestmark = needs_chromium


def test_the_panel_s_buttons_move_the_board(browser, tmp_path):
    db = new_record(tmp_path / "m.sqlite3")
    with serving(db) as url:
        board = opened(browser, f"{url}/board/1", SCREEN)
        text_of(browser, "#p0 .points", "0")
        panel = opened(browser, f"{url}/referee/1", PHONE)
        text_of(browser, "#link", "●")
        text_of(browser, "#heard", "φωνή: καμία ένδειξη")  # no voice loop has run
        for _ in range(5):
            press(browser, "point")
        respot = browser.find_element(By.CSS_SELECTOR, 'button[data-kind="respot"]')
        assert not respot.is_displayed()  # not offered: no TOUCHENT to re-spot after
        phrase = browser.find_element(By.CSS_SELECTOR, "#phrase input")
        phrase.send_keys("στήσιμο")  # said all the same: refused, so nothing is recorded
        phrase.submit()
        text_of(browser, "#said li:first-child",
                "στήσιμο μόνο μετά από TOUCHENT\nστήσιμο μόνο μετά από τούς")
        press(browser, "entrees")
        press(browser, "break")
        text_of(browser, "#said li:first-child",
                f"ΔΙΑΛΕΙΜΜΑ 5′: {A}\nδιάλειμμα πέντε λεπτών, {A}")
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "panel.png"))

        browser.switch_to.window(board)
        text_of(browser, "#p0 .points", "5")
        text_of(browser, "#p0 .run", "ΣΕΡΙ 5")
        text_of(browser, "#p0 .reminder", "ΓΙΑ ΠΕΝΤΕ")
        text_of(browser, "#p0 .innings", "1")
        text_of(browser, "#p0 .average", "5,000")
        text_of(browser, "#p1 .points", "0")
        text_of(browser, "#call .written", "ENTRÉES")
        text_of(browser, "#call .spoken", "αντρέ")
        text_of(browser, "#banner", rf"ΔΙΑΛΕΙΜΜΑ · {A.upper()} · 4:5\d")
        assert "at-table" in browser.find_element(By.ID, "p0").get_attribute("class")
        browser.save_screenshot(str(ARTIFACTS / "board.png"))

        browser.switch_to.window(panel)
        press(browser, "break_end")
        press(browser, "miss")
        browser.switch_to.window(board)
        text_of(browser, "#banner", "")
        text_of(browser, "#p1 .run", "ΣΕΡΙ 0")  # his turn now
        text_of(browser, "#p0 .run", "")

        with Record.open(db) as record:  # the voice loop, talking while the board is up
            voice = Ledger(record, 1)
            for points in range(1, 4):
                voice.hear("πόντος έξω")  # out of the triangle he found the balls in
                started = time.monotonic()  # the event is committed: the board has 200 ms
                text_of(browser, "#p1 .points", str(points), poll=0.005)
                assert time.monotonic() - started < LATENCY
            record.beat(1, "mic_lost")  # its heartbeat: a dot on the board, words on the panel
            WebDriverWait(browser, WAIT).until(
                lambda driver: driver.find_element(By.ID, "heard").get_attribute("class")
                == "mic_lost")
            browser.switch_to.window(panel)
            text_of(browser, "#heard", "φωνή: χάθηκε το μικρόφωνο")
            record.beat(1, "headset_lost")
            text_of(browser, "#heard", "φωνή: χάθηκαν τα ακουστικά")
            record.beat(1, "listening")
            text_of(browser, "#heard", "φωνή: ακούει")
            aged = datetime.fromtimestamp(time.time() - 20, UTC).isoformat()
            record._db.execute("UPDATE liveness SET at = ?", (aged,))  # a loop that died mute
            text_of(browser, "#heard", "φωνή: καμία ένδειξη")
            record.beat(1, "stopped")
            text_of(browser, "#heard", "φωνή: σταμάτησε")


def test_with_a_token_the_panel_asks_for_it_once(browser, tmp_path):
    db = new_record(tmp_path / "m.sqlite3")
    with serving(db, "--token", TOKEN) as url:
        opened(browser, f"{url}/referee/1", PHONE)
        press(browser, "point")
        text_of(browser, "#said li:first-child", "χρειάζεται ο κωδικός του διαιτητή")
        field = browser.find_element(By.ID, "token-text")
        field.send_keys(TOKEN)
        field.submit()
        press(browser, "point")
        text_of(browser, "#said li:first-child", f"{A} 1\n{A} ένα")
        text_of(browser, "#s0 .points", "1")
        opened(browser, f"{url}/referee/1", PHONE)  # the token is kept for the next visit
        press(browser, "point")
        text_of(browser, "#s0 .points", "2")


def test_the_overview_lists_the_matches_live_and_gives_the_token_holder_the_panels(
    browser, tmp_path
):
    db = new_record(tmp_path / "m.sqlite3")
    with Record.open(db) as record:
        record.create_match(Setup("three-cushion", 15, PLAYERS, hall="Academy", table="3"))
    with serving(db, "--token", TOKEN) as url:
        opened(browser, f"{url}/", SCREEN)
        text_of(browser, "#match-1 .p0 .points", "0")
        text_of(browser, "#match-2 .where", "Academy · ΤΡΑΠΕΖΙ 3")  # where the set-up says
        text_of(browser, "#match-2 .game", "2 · ΤΡΙΣΠΟΝΤΕΣ · 15")
        assert not browser.find_element(By.CSS_SELECTOR, "#match-1 .panel").is_displayed()
        with Record.open(db) as record:  # the voice loop of table 1
            Ledger(record, 1).hear("πόντος")
        text_of(browser, "#match-1 .p0 .points", "1")
        assert browser.find_element(By.CSS_SELECTOR, "#match-1 .board").get_attribute(
            "href") == f"{url}/board/1"

        field = browser.find_element(By.ID, "token-text")
        field.send_keys(TOKEN)
        field.submit()
        panel = (By.CSS_SELECTOR, "#match-2 .panel")
        WebDriverWait(browser, WAIT).until(shown.visibility_of_element_located(panel))
        code = browser.find_element(By.CSS_SELECTOR, "#match-2 .qr svg")
        assert code.size["width"] >= 100 and code.size["width"] == code.size["height"]
        link = browser.find_element(By.CSS_SELECTOR, "#match-2 .panel-link").get_attribute("href")
        assert link == f"{url}/referee/2#token={TOKEN}"
        # the panel is here: not the hall's «control at the table»
        assert not browser.find_element(By.CSS_SELECTOR, "#match-2 .control-note").is_displayed()
        ARTIFACTS.mkdir(exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "overview.png"))

        browser.switch_to.new_window("window")  # a phone that scanned the code
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        browser.get(link)
        text_of(browser, "#link", "●")
        press(browser, "point")  # the token came with the link: the panel does not ask
        text_of(browser, "#s0 .points", "1")
        assert browser.current_url == f"{url}/referee/2"  # the token is off the address bar
