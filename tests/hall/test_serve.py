"""`referee serve --db postgresql://…`: the hall's overview of every table, with its board and
overlay, following each table live through the hall's notices; control stays at the table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.expected_conditions import visibility_of_element_located
from selenium.webdriver.support.ui import WebDriverWait

from tests.hall.helpers import hall_served, held, new_match, play, recorded, wait_for
from tests.support.browser import SCREEN, WAIT, needs_chromium, opened, text_of
from voice.hall.outbox import Outbox
from voice.hall.reader import HallRecord
from voice.hall.target import Target
from voice.match_record.database import Record
from voice.match_record.ledger import Ledger
from voice.scoreboard.hall import HallDesk, HallWatcher


def points(path, match_id=1):
    """Each player's points, as the table's own record replays them."""
    with Record.open(path, create=False) as record:
        return [str(p.points) for p in record.load(match_id).match.players]


def answer(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@needs_chromium
def test_the_hall_shows_every_table_live_and_leaves_control_to_the_table(
    browser, referee, tmp_path, hall_url, postgres
):
    tables = {str(n): tmp_path / f"table{n}.sqlite3" for n in (1, 2, 3)}
    ledgers = {}
    for number, (name, path) in enumerate(tables.items(), 1):
        ledgers[name] = new_match(path)
        play(ledgers[name], 4 * number)  # each table's score its own
        pushed = referee("push", "--db", path, "--to", hall_url, "--hall", "Academy",
                         "--table", name)
        assert pushed.code == 0, pushed.err
    box = Outbox(tables["2"], Target(hall_url, "Academy", "2"), [].append)
    with hall_served(hall_url, postgres.password) as url:
        opened(browser, f"{url}/", SCREEN)
        for number, (name, path) in enumerate(tables.items(), 1):  # pushed in this order
            text_of(browser, f"#match-{number} .where", f"Academy · ΤΡΑΠΕΖΙ {name}")
            note = (By.CSS_SELECTOR, f"#match-{number} .control-note")  # no panel here
            WebDriverWait(browser, WAIT).until(visibility_of_element_located(note))
            text_of(browser, f"#match-{number} .p0 .points", points(path)[0])
            text_of(browser, f"#match-{number} .p1 .points", points(path)[1])
            link = browser.find_element(By.CSS_SELECTOR, f"#match-{number} .overlay-link")
            assert link.get_attribute("href") == f"{url}/board/{number}?overlay=1"
        assert not browser.find_element(By.ID, "token").is_displayed()  # no panels here
        board = opened(browser, f"{url}/board/2", SCREEN)
        text_of(browser, "#game", "ΕΛΕΥΘΕΡΟ · 1000")
        text_of(browser, "#where", "Academy · ΤΡΑΠΕΖΙ 2")
        box.start()
        try:
            for _ in range(3):  # the table records; its outbox pushes; the hall's board follows
                play(ledgers["2"], 2)
                text_of(browser, "#p0 .points", points(tables["2"])[0])
                text_of(browser, "#p1 .points", points(tables["2"])[1])
            overview = browser.window_handles[1]
            browser.switch_to.window(overview)
            text_of(browser, "#match-2 .p1 .points", points(tables["2"])[1])
            assert wait_for(lambda: held(hall_url)[ledgers["2"].record.uid(1)]
                            == recorded(tables["2"])[ledgers["2"].record.uid(1)])
        finally:
            assert box.close() == 0
        assert board in browser.window_handles
        assert answer(f"{url}/referee/2") == (404, (
            "the hall's scoreboard only shows match 2: its referee controls it at the table, 2 "
            "(`referee serve` there)"))
        assert answer(f"{url}/api/panels")[0] == 404
        for name in ("commands", "phrases", "corrections"):
            request = urllib.request.Request(f"{url}/api/matches/2/{name}", data=b"{}",
                                             headers={"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code in (404, 405)
    for ledger in ledgers.values():
        ledger.record.close()


def test_the_hall_s_boards_follow_again_after_the_hall_s_database_restarts(
    referee, tmp_path, hall_url, postgres
):
    db = tmp_path / "table.sqlite3"
    ledger = new_match(db)
    play(ledger, 3)
    assert referee("push", "--db", db, "--to", hall_url, "--table", "5").code == 0
    with hall_served(hall_url, postgres.password) as url:
        assert board(url)["seq"] == 3  # shown: the server follows it from now on
        postgres.stop()
        try:
            play(ledger, 2)  # the table goes on meanwhile
        finally:
            postgres.start()
        assert referee("push", "--db", db, "--to", hall_url).code == 0
        assert wait_for(lambda: board(url)["seq"] == 5)
        play(ledger, 1)
        assert referee("push", "--db", db, "--to", hall_url).code == 0
        assert wait_for(lambda: board(url)["seq"] == 6)  # heard through LISTEN again
    ledger.record.close()


def board(url):
    with urllib.request.urlopen(f"{url}/api/matches/1", timeout=10) as answer:
        return json.load(answer)


def test_serving_the_hall_pushes_nothing_and_needs_the_hall_reachable(referee, hall_url, postgres):
    pushed = referee("serve", "--db", hall_url, "--push", hall_url)
    assert pushed.code == 2 and "with --db postgresql://… this server reads the hall" in pushed.err
    wrong = referee("serve", "--db", hall_url.replace(postgres.password, "not-the-password"))
    assert wrong.code != 0 and "password authentication failed" in wrong.err
    assert "not-the-password" not in wrong.err and postgres.password not in pushed.err


def test_events_the_hall_gets_while_a_board_loads_are_on_it(referee, tmp_path, hall_url,
                                                            monkeypatch):
    db = tmp_path / "table.sqlite3"
    ledger = new_match(db)
    play(ledger, 3)
    assert referee("push", "--db", db, "--to", hall_url).code == 0
    place = HallRecord.place

    def pushed_meanwhile(hall, match_id):  # the view has read its events: two more come
        with Record.open(db) as record:  # on the server's thread: a connection of its own
            play(Ledger(record, ledger.match_id), 2)
        assert referee("push", "--db", db, "--to", hall_url).code == 0
        return place(hall, match_id)

    monkeypatch.setattr(HallRecord, "place", pushed_meanwhile)

    async def shown():
        desk = HallDesk(hall_url)
        watcher = HallWatcher(desk)
        desk.open()
        listening = asyncio.create_task(watcher.run())
        try:
            await asyncio.sleep(1.0)  # listening before the board loads
            seq = (await desk.view(1)).seq
            await asyncio.sleep(1.0)  # the notices of the two events heard meanwhile
            return seq, listening.done()
        finally:
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening
            desk.close()

    assert asyncio.run(shown()) == (5, False)
    ledger.record.close()
