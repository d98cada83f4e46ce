"""The student page in a real browser (Debian's chromium, headless, driven by selenium): join
with the room code, tap a choice and see it counted on the app's side, change it, follow the
next question by itself, and see the answer frozen after Reveal. A class's slips too: a wrong
room code is refused at join, a stopped poll greys the page and a restart brings it back by
itself, and a tap made offline is sent once the network is back."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from poll_helpers import NEXT, QUESTION, wait_counts

from app.poll.network import LOOPBACK

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT_S = 20
"""A bound on each wait for the page, not a timing the test asserts."""
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--window-size=390,844")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        pytest.skip("no Chromium here: apt-get install chromium chromium-driver to run it")
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="selenium is not installed (pip install selenium)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver, condition):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S).until(condition)


def _choices(driver) -> list:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#choices .choice")


def _text(driver, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id).text


def _prompt_is(text: str):
    return lambda driver: _text(driver, "prompt") == text and len(_choices(driver)) > 0


def test_a_phone_answers_changes_and_follows_the_lesson(qtbot, browser, poll) -> None:
    browser.get(poll.join_url)
    _wait(browser, _prompt_is(QUESTION.prompt))
    assert [c.text.splitlines()[-1] for c in _choices(browser)] == list(QUESTION.choices)
    assert browser.execute_script("return document.documentElement.lang") == "en"
    _choices(browser)[0].click()
    wait_counts(qtbot, poll, "s1", (1, 0, 0))
    _wait(browser, lambda d: _choices(d)[0].get_attribute("aria-pressed") == "true")
    _choices(browser)[2].click()
    wait_counts(qtbot, poll, "s1", (0, 0, 1))
    poll.set_question(NEXT)
    _wait(browser, _prompt_is(NEXT.prompt))
    _choices(browser)[1].click()
    wait_counts(qtbot, poll, "s2", (0, 1))
    poll.freeze()
    _wait(browser, lambda d: all(not c.is_enabled() for c in _choices(d)))
    right = _choices(browser)[NEXT.right]
    assert "right" in right.get_attribute("class") and "right answer" in right.text
    assert "your answer" in _choices(browser)[1].text
    assert _text(browser, "status") == "Answers are closed."
    assert poll.counts("s2").counts == (0, 1) and poll.counts("s1").counts == (0, 0, 1)


def test_a_phone_that_typed_the_address_joins_with_the_room_code(qtbot, browser,
                                                                  poll) -> None:
    from selenium.webdriver.common.by import By

    browser.get(poll.address + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(poll.address + "/")
    _wait(browser, lambda d: d.find_element(By.ID, "join").is_displayed())
    assert not browser.find_element(By.ID, "ask").is_displayed()
    browser.find_element(By.ID, "room").send_keys("12")
    browser.find_element(By.ID, "join-button").click()
    assert "four digits" in _text(browser, "join-note")
    box = browser.find_element(By.ID, "room")
    box.clear()
    box.send_keys(poll.room)
    browser.find_element(By.ID, "join-button").click()
    _wait(browser, _prompt_is(QUESTION.prompt))
    _choices(browser)[1].click()
    wait_counts(qtbot, poll, "s1", (0, 1, 0))  # counted: the code it typed was right


def _live(driver) -> bool:
    choices = _choices(driver)
    return bool(choices) and all(c.is_enabled() for c in choices)


def _strings(poll) -> dict[str, str]:
    from app.poll.page import load_page

    return load_page().words(poll.question.lang)


def test_a_stopped_poll_greys_the_page_and_a_restart_brings_it_back(qtbot, browser,
                                                                    poll) -> None:
    from selenium.webdriver.common.by import By

    words = _strings(poll)
    browser.get(poll.join_url)
    _wait(browser, _prompt_is(QUESTION.prompt))
    _choices(browser)[0].click()
    wait_counts(qtbot, poll, "s1", (1, 0, 0))
    address, room = poll.address, poll.room
    poll.stop()
    _wait(browser, lambda d: _text(d, "status") == words["ended"])
    assert all(not c.is_enabled() for c in _choices(browser))
    assert "ended" in browser.find_element(By.ID, "ask").get_attribute("class")
    assert poll.start(LOOPBACK) == address and poll.room == room
    _wait(browser, _live)  # the page reconnected by itself: no reload, no new code
    assert _text(browser, "status") != words["ended"]
    assert _choices(browser)[0].get_attribute("aria-pressed") == "true", "its answer stays"
    _choices(browser)[2].click()
    wait_counts(qtbot, poll, "s1", (0, 0, 1))


def test_a_tap_made_offline_is_sent_when_the_connection_is_back(qtbot, browser,
                                                                poll) -> None:
    words = _strings(poll)
    browser.get(poll.join_url)
    _wait(browser, _prompt_is(QUESTION.prompt))
    wait_counts(qtbot, poll, "s1", (0, 0, 0))
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1,
               "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.enable", {})
    try:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        _choices(browser)[1].click()
        _wait(browser, lambda d: _text(d, "status") == words["queued"])
        assert poll.counts("s1").counts == (0, 0, 0)
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {**offline, "offline": False})
    wait_counts(qtbot, poll, "s1", (0, 1, 0))  # sent by itself once the network is back
    _wait(browser, lambda d: _text(d, "status") == words["sent"])


def test_a_wrong_room_code_is_refused_at_join_and_can_be_typed_again(qtbot, browser,
                                                                     poll) -> None:
    from selenium.webdriver.common.by import By

    words = _strings(poll)
    browser.get(poll.address + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(poll.address + "/")
    _wait(browser, lambda d: d.find_element(By.ID, "join").is_displayed())
    box = browser.find_element(By.ID, "room")
    box.send_keys(f"{(int(poll.room) + 1) % 10000:04d}")
    browser.find_element(By.ID, "join-button").click()
    _wait(browser, lambda d: _text(d, "join-note") == words["room_wrong"])
    assert browser.find_element(By.ID, "join").is_displayed()
    assert not browser.find_element(By.ID, "ask").is_displayed()
    box.send_keys(poll.room)  # the wrong code is selected: typing replaces it
    browser.find_element(By.ID, "join-button").click()
    _wait(browser, _prompt_is(QUESTION.prompt))
    _choices(browser)[2].click()
    wait_counts(qtbot, poll, "s1", (0, 0, 1))  # the first tap counts


def test_a_wrong_room_code_in_the_address_asks_for_the_right_one(qtbot, browser,
                                                                 poll) -> None:
    from selenium.webdriver.common.by import By

    words = _strings(poll)
    browser.get(poll.address + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(f"{poll.address}/#{(int(poll.room) + 1) % 10000:04d}")
    _wait(browser, lambda d: d.find_element(By.ID, "join").is_displayed()
          and _text(d, "join-note") == words["room_wrong"])
