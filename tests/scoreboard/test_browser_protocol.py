"""In headless chromium: the panel's protocol editor, and the board's innings left."""

from selenium.webdriver.common.by import By

from rules.state import Setup
from tests.support.browser import PHONE, SCREEN, needs_chromium, opened, press, text_of
from tests.support.match import PLAYERS, A
from tests.support.server import serving
from voice.match_record.database import Record

pytestmark = needs_chromium


def test_the_panel_corrects_an_inning_and_the_board_shows_it_with_the_innings_left(
    browser, tmp_path
):
    db = tmp_path / "m.sqlite3"
    with Record.open(db) as record:
        record.create_match(Setup("libre", 20, PLAYERS, innings_limit=5))
    with serving(db) as url:
        board = opened(browser, f"{url}/board/1", SCREEN)
        opened(browser, f"{url}/referee/1", PHONE)
        text_of(browser, "#link", "●")
        for kind in ("point", "point", "miss"):
            press(browser, kind)
        form = browser.find_element(By.ID, "correct")
        form.find_element(By.NAME, "inning").send_keys("1")
        form.find_element(By.NAME, "player").send_keys(A)
        form.find_element(By.NAME, "points").send_keys("4")
        form.find_element(By.TAG_NAME, "button").click()
        text_of(browser, "#said li:first-child", rf"(?s)ΔΙΟΡΘΩΣΗ · {A} 4, .*")
        link = browser.find_element(By.ID, "protocol").get_attribute("href")
        assert link.endswith("/api/matches/1/protocol.pdf")
        browser.switch_to.window(board)
        text_of(browser, "#p0 .points", "4")
        text_of(browser, "#p0 .innings", "1 · ΑΠΟΜΕΝΟΥΝ 4")
        text_of(browser, "#p1 .innings", "1 · ΑΠΟΜΕΝΟΥΝ 5")
