"""TodoMVC in headless Chromium over examples/web/server.js (run by run_tests.sh): every TodoMVC
behaviour, the list kept across a reload, and two tabs on one list. Prints "ok N - name" or
"not ok N - name" per test, then "browser: N passed, N failed"."""

import http.server
import json
import os
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from report import run_tests

URL = os.environ["MVVM_WEB_URL"]
SHOTS = os.environ["MVVM_WEB_SCREENSHOTS"]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,800",
                 "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
                 "--user-data-dir=" + os.environ["MVVM_WEB_PROFILE"]):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def wait(condition, what, timeout=5.0):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # noqa: BLE001 - a stale element while the page re-renders
            last = error
        time.sleep(0.02)
    if callable(what):
        try:
            what = what()
        except Exception as error:  # noqa: BLE001
            what = "(%s)" % error
    raise AssertionError("timed out waiting for %s%s" % (what, " (%s)" % last if last else ""))


class Page:
    def __init__(self, driver):
        self.d = driver

    def open(self, route="#/"):
        self.d.get(URL + route)
        wait(lambda: self.d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "yes", "the state")

    def css(self, selector):
        return self.d.find_element(By.CSS_SELECTOR, selector)

    def titles(self):
        return [li.find_element(By.TAG_NAME, "label").text for li in self.d.find_elements(By.CSS_SELECTOR, ".todo-list li")]

    def expect_titles(self, titles):
        wait(lambda: self.titles() == titles, lambda: "titles %r (now %r)" % (titles, self.titles()))

    def add(self, text):
        field = self.css(".new-todo")
        field.send_keys(text + Keys.ENTER)

    def act(self, fn, what):
        """Does fn, again while the page re-renders under it (a stale element)."""
        wait(lambda: fn() or True, what)

    def toggle(self, title):
        self.act(lambda: self.item(title).find_element(By.CSS_SELECTOR, ".toggle").click(), "toggling %r" % title)

    def item(self, title):
        for li in self.d.find_elements(By.CSS_SELECTOR, ".todo-list li"):
            if li.find_element(By.TAG_NAME, "label").text == title:
                return li
        raise AssertionError("no todo %r" % title)

    def count_text(self):
        return self.css(".todo-count").text

    def expect_count(self, text):
        wait(lambda: self.count_text() == text, lambda: "the counter %r (now %r)" % (text, self.count_text()))

    def visible(self, selector):
        found = self.d.find_elements(By.CSS_SELECTOR, selector)
        return bool(found) and found[0].is_displayed()

    def shot(self, name):
        self.d.save_screenshot(os.path.join(SHOTS, "web_%s.png" % name))

    def clear_all(self):
        for _ in range(50):
            items = self.d.find_elements(By.CSS_SELECTOR, ".todo-list li")
            if not items:
                return
            self.destroy(items[0])
            time.sleep(0.05)

    def destroy(self, li):
        ActionChains(self.d).move_to_element(li).perform()
        li.find_element(By.CSS_SELECTOR, ".destroy").click()


def test_add(p):
    p.open()
    assert not p.visible(".main") and not p.visible(".footer"), "main and footer hidden with no todos"
    p.add("  buy milk  ")
    p.expect_titles(["buy milk"])
    p.add("   ")
    p.add("walk the dog")
    p.expect_titles(["buy milk", "walk the dog"])
    assert p.css(".new-todo").get_attribute("value") == ""
    p.expect_count("2 items left")
    assert p.css(".todo-count strong").text == "2"
    assert p.visible(".main") and p.visible(".footer")
    assert not p.visible(".clear-completed"), "clear completed hidden when none"
    p.shot("added")


def test_toggle_and_counter(p):
    p.toggle("buy milk")
    wait(lambda: "completed" in p.item("buy milk").get_attribute("class"), "buy milk completed")
    p.expect_count("1 item left")
    wait(lambda: p.visible(".clear-completed"), "clear completed shown")
    p.shot("toggled")
    p.toggle("buy milk")
    p.expect_count("2 items left")


def test_toggle_all(p):
    p.css(".toggle-all + label").click()
    wait(lambda: all("completed" in li.get_attribute("class") for li in p.d.find_elements(By.CSS_SELECTOR, ".todo-list li")),
         "every todo completed")
    p.expect_count("0 items left")
    wait(lambda: p.css(".toggle-all").is_selected(), "toggle all checked")
    p.css(".toggle-all + label").click()
    p.expect_count("2 items left")
    wait(lambda: not p.css(".toggle-all").is_selected(), "toggle all unchecked")


def edit(p, title):
    p.act(lambda: ActionChains(p.d).double_click(p.item(title).find_element(By.TAG_NAME, "label")).perform(), "editing")
    return wait(lambda: p.d.find_element(By.CSS_SELECTOR, ".todo-list li.editing .edit"), "the edit field")


def test_edit(p):
    field = edit(p, "walk the dog")
    assert field.get_attribute("value") == "walk the dog"
    p.shot("editing")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("  walk the cat  " + Keys.ENTER)
    p.expect_titles(["buy milk", "walk the cat"])
    field = edit(p, "walk the cat")
    field.send_keys(" again")
    field.send_keys(Keys.ESCAPE)
    p.expect_titles(["buy milk", "walk the cat"])
    field = edit(p, "buy milk")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("buy oat milk")
    p.css(".new-todo").click()  # blur saves
    p.expect_titles(["buy oat milk", "walk the cat"])
    p.add("temporary")
    p.expect_titles(["buy oat milk", "walk the cat", "temporary"])
    field = edit(p, "temporary")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    field.send_keys(Keys.ENTER)
    p.expect_titles(["buy oat milk", "walk the cat"])  # an emptied title deletes


def test_destroy(p):
    p.add("to destroy")
    p.expect_titles(["buy oat milk", "walk the cat", "to destroy"])
    p.act(lambda: p.destroy(p.item("to destroy")), "destroying")
    p.expect_titles(["buy oat milk", "walk the cat"])


def test_filters(p):
    p.toggle("buy oat milk")
    p.expect_count("1 item left")
    p.open("#/active")
    p.expect_titles(["walk the cat"])
    assert "selected" in p.d.find_element(By.CSS_SELECTOR, '.filters a[href="#/active"]').get_attribute("class")
    p.shot("active")
    p.open("#/completed")
    p.expect_titles(["buy oat milk"])
    p.shot("completed")
    p.d.find_element(By.CSS_SELECTOR, '.filters a[href="#/"]').click()
    p.expect_titles(["buy oat milk", "walk the cat"])


def test_clear_completed(p):
    wait(lambda: p.visible(".clear-completed"), "clear completed shown")
    p.css(".clear-completed").click()
    p.expect_titles(["walk the cat"])
    wait(lambda: not p.visible(".clear-completed"), "clear completed hidden")


def test_reload(p):
    p.add("kept")
    p.toggle("walk the cat")
    p.expect_count("1 item left")
    p.d.refresh()
    wait(lambda: p.d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "yes", "the state")
    p.expect_titles(["walk the cat", "kept"])
    assert "completed" in p.item("walk the cat").get_attribute("class")
    p.expect_count("1 item left")
    p.shot("reloaded")


def test_two_tabs(p):
    first = p.d.current_window_handle
    p.d.switch_to.new_window("tab")
    second = p.d.current_window_handle
    p.open()
    p.expect_titles(["walk the cat", "kept"])
    p.add("from the second tab")
    p.d.switch_to.window(first)
    wait(lambda: p.titles() == ["walk the cat", "kept", "from the second tab"], "the first tab to show it", timeout=1.0)
    p.toggle("kept")
    p.d.switch_to.window(second)
    wait(lambda: "completed" in p.item("kept").get_attribute("class"), "the second tab to show the toggle", timeout=1.0)
    p.expect_count("1 item left")
    p.shot("two_tabs")
    p.d.close()
    p.d.switch_to.window(first)


# Another site's page, served from another local origin: it sends a command the ways a page can
# without the server's consent, a form posting JSON as text/plain into a frame and a fetch in
# no-cors mode (its body text/plain), and says in its title when the fetch has its answer (a form
# answered 204 tells its page nothing).
ANOTHER_ORIGINS_PAGE = """<!doctype html><title>sending</title>
<form method="POST" action="%(api)s" enctype="text/plain" target="sink">
<input name='{"action":"add","title":"from a form of another origin","x":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
document.forms[0].submit();
fetch(%(api_json)s, { method: 'POST', mode: 'no-cors',
  body: JSON.stringify({ action: 'add', title: 'from a fetch of another origin' }) })
  .catch(() => null).then(() => { document.title = 'sent'; });
</script>"""


def test_a_page_of_another_origin_changes_nothing(p):
    api = URL + "api"
    page = (ANOTHER_ORIGINS_PAGE % {"api": api, "api_json": json.dumps(api)}).encode()

    class AnotherSite(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    site = http.server.HTTPServer(("127.0.0.1", 0), AnotherSite)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        p.open()
        titles = p.titles()
        p.d.get("http://127.0.0.1:%d/" % site.server_address[1])
        wait(lambda: p.d.title == "sent", "the other origin's page to send its commands", timeout=30.0)
        p.open()
        assert p.titles() == titles, "a page of another origin added %r" % (p.titles(),)
    finally:
        site.shutdown()
        site.server_close()


TESTS = [test_add, test_toggle_and_counter, test_toggle_all, test_edit, test_destroy, test_filters, test_clear_completed,
         test_reload, test_two_tabs, test_a_page_of_another_origin_changes_nothing]


def main():
    driver = browser()
    try:
        page = Page(driver)

        def shoot(test):
            try:
                page.shot("failed_%s" % test.__name__)
            except Exception:  # noqa: BLE001 - a failed test's screenshot is a help, not a must
                pass

        return run_tests("browser", TESTS, lambda test: test(page), shoot)
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
