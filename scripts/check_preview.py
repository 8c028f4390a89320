#!/usr/bin/env python3
"""The form preview in a real browser: `dce-validate preview` driven through Debian's chromium by Playwright, as a
person uses it, against the page's contract (data-field, data-state, data-required, data-forbidden, data-brand, the
labels, the Validate button and the role="alert" list of violations).

Each check starts its own preview (port 0, loopback), prints `ok NAME` or `FAILED NAME: why`, and the run ends with
`browser: N passed, M failed` (what scripts/test counts). With --screenshots DIR it writes the pictures of the page
that README.md and docs/forms.md show there (English and German, card-create and payment-account).

    scripts/check_preview.py --binary .build/debug/dce-validate [--screenshots docs/preview] [--only NAME]
"""

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# Long enough for a sanitized or first-built preview, short enough that a hang fails the check instead of the run.
WAIT = 15_000


class Preview:
    """One `dce-validate preview` process: its URL, and its standard error (the server's log) once stopped."""

    def __init__(self, binary, *arguments):
        self.log = tempfile.NamedTemporaryFile(prefix="preview-log-", suffix=".txt", delete=False)
        self.process = subprocess.Popen(
            [binary, "preview", "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
        line = self.process.stdout.readline()
        match = re.fullmatch(r"preview: (http://127\.0\.0\.1:\d+/)\n", line)
        if not match:
            self.stop()
            raise AssertionError(f"the first line was {line!r}, not 'preview: http://127.0.0.1:PORT/'; log: {self.server_log()}")
        self.url = match.group(1)

    def stop(self):
        """SIGTERM, as Ctrl-C or a service manager stops it: it must end, with status 0, within ten seconds."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError("the preview did not stop within 10 s of SIGTERM")
        return self.process.returncode

    def server_log(self):
        self.log.flush()
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")


@contextlib.contextmanager
def previewing(browser, binary, *arguments, query=""):
    """A preview with these arguments and a page open on it (at `query`), both closed after."""
    preview = Preview(binary, *arguments)
    try:
        page = browser.new_page()
        page.goto(preview.url + query)
        yield preview, page
        page.close()
    finally:
        preview.stop()


@contextlib.contextmanager
def copied_schemas():
    """A copy of Schemas/ in a temporary folder, removed after."""
    folder = Path(tempfile.mkdtemp(prefix="preview-schemas-"))
    try:
        shutil.copytree(ROOT / "Schemas", folder, dirs_exist_ok=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def field(page, path):
    return page.locator(f'[data-field="{path}"]')


def control(page, path):
    return page.locator(f'[data-field="{path}"] > input, [data-field="{path}"] > select')


def wait_attribute(page, path, name, value):
    page.wait_for_selector(f'[data-field="{path}"][{name}="{value}"]', timeout=WAIT)


def describe(binary, schema, *arguments):
    out = subprocess.run([binary, "describe", "--schema", schema, "--format", "json", *arguments],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return [f["path"] for group in json.loads(out)["groups"] for f in group["fields"] if "/-" not in f["path"]]


def schema_label(schema, key, language):
    document = json.loads((ROOT / "Schemas" / f"{schema}.json").read_text(encoding="utf-8"))
    return next(f for f in document["fields"] if f["key"] == key)["name"][language]


# MARK: - The checks


def every_field_of_describe_is_on_the_page(browser, binary, shots):
    for schema, query, extra in [("card-create", "?context.region=EU", ["--context", "region=EU"]),
                                 ("payment-account", "?tenderType=credit", ["--tender-type", "credit"]),
                                 ("customer-profile", "", [])]:
        with previewing(browser, binary, "--schema", schema, query=query) as (preview, page):
            expected = describe(binary, schema, *extra)
            page.wait_for_selector(f'[data-field="{expected[0]}"]', timeout=WAIT)
            shown = page.eval_on_selector_all("[data-field]", "all => all.map(e => e.dataset.field)")
            missing = [path for path in expected if path not in shown]
            assert not missing, f"{schema}: describe's fields missing from the page: {missing}"
            # Every control has a label naming the field, and its message element.
            unlabelled = page.eval_on_selector_all(
                "[data-field] > input, [data-field] > select",
                "all => all.filter(c => !(c.labels && c.labels.length && c.labels[0].textContent.trim())"
                " || !document.getElementById(c.getAttribute('aria-describedby'))).map(c => c.name)")
            assert not unlabelled, f"{schema}: controls without a label or message: {unlabelled}"


def states_follow_what_is_typed(browser, binary, shots):
    with previewing(browser, binary, "--schema", "card-create", query="?context.region=EU") as (preview, page):
        pin = control(page, "/cardPin")
        pin.wait_for(timeout=WAIT)
        assert field(page, "/cardPin").get_attribute("data-state") == "empty"
        assert pin.get_attribute("type") == "password" and pin.get_attribute("autocomplete") == "off", "a PIN is secret"
        for typed, state in [("12", "incomplete"), ("12a", "invalid"), ("1234", "valid"), ("", "empty")]:
            pin.fill(typed)
            wait_attribute(page, "/cardPin", "data-state", state)
        pin.fill("12a")
        wait_attribute(page, "/cardPin", "data-state", "invalid")
        assert pin.get_attribute("aria-invalid") == "true"
        message = page.locator("#" + pin.get_attribute("aria-describedby")).text_content()
        assert "4 digits" in message, f"the PIN's message: {message!r}"
        control(page, "/currency").select_option("EUR")
        wait_attribute(page, "/currency", "data-state", "valid")
        control(page, "/mobile").fill("+44 2")
        wait_attribute(page, "/mobile", "data-state", "incomplete")


def a_physical_program_requires_the_delivery_address(browser, binary, shots):
    with previewing(browser, binary, "--schema", "card-create", query="?context.region=EU") as (preview, page):
        wait_attribute(page, "/deliveryAddress", "data-required", "false")
        control(page, "/programName").fill("SKRILL-PHYSICAL-MC-EEA")
        wait_attribute(page, "/deliveryAddress", "data-required", "true")
        control(page, "/programName").fill("SKRILL-VIRTUAL-MC-EEA")
        wait_attribute(page, "/deliveryAddress", "data-required", "false")
        # The state select follows the country chosen.
        control(page, "/deliveryAddress/countryCode").select_option("US")
        page.wait_for_selector('[data-field="/deliveryAddress/state"] > select option[value="CA"]', state="attached", timeout=WAIT)


def a_us_customer_must_consent_and_may_not_set_a_pin(browser, binary, shots):
    with previewing(browser, binary, "--schema", "card-create", query="?context.region=US") as (preview, page):
        wait_attribute(page, "/termsAndConditionsAccepted", "data-required", "true")
        wait_attribute(page, "/eDisclosureAccepted", "data-required", "true")
        wait_attribute(page, "/cardPin", "data-forbidden", "true")
        assert control(page, "/cardPin").is_disabled(), "a forbidden PIN is disabled"
        reason = page.locator('[data-field="/cardPin"] > .message').text_content()
        assert reason.strip(), "a forbidden field says why"
        # Without a region, a US delivery address makes the customer a US one, live.
        page.goto(preview.url)
        wait_attribute(page, "/cardPin", "data-forbidden", "false")
        control(page, "/deliveryAddress/countryCode").select_option("US")
        wait_attribute(page, "/cardPin", "data-forbidden", "true")


def german_labels_and_buttons(browser, binary, shots):
    with previewing(browser, binary, "--schema", "card-create", "--language", "de", query="?context.region=EU") as (preview, page):
        field(page, "/programName").wait_for(timeout=WAIT)
        label = page.locator('[data-field="/programName"] > label').text_content().replace("*", "").strip()
        assert label == schema_label("card-create", "programName", "de"), label
        assert page.get_by_role("button", name="Prüfen").count() == 1
        assert page.locator("html").get_attribute("lang") == "de"
        page.goto(preview.url + "?language=en&context.region=EU")
        field(page, "/programName").wait_for(timeout=WAIT)
        assert page.get_by_role("button", name="Validate").count() == 1


def a_card_number_shows_its_brand_as_it_is_typed(browser, binary, shots):
    with previewing(browser, binary, "--schema", "payment-account", query="?tenderType=credit") as (preview, page):
        number = control(page, "/cardNumber")
        number.wait_for(timeout=WAIT)
        # As FormModel has it: a card number is typed in the clear and masked once left; a security code is secret.
        assert number.get_attribute("type") == "text" and number.get_attribute("autocomplete") == "cc-number"
        assert number.get_attribute("inputmode") == "numeric"
        code = control(page, "/securityCode")
        assert code.get_attribute("type") == "password" and code.get_attribute("autocomplete") == "off"
        number.fill("41")  # "4" may still be Elo's 401178 or Maestro's 493698: no brand yet
        page.wait_for_selector('[data-field="/cardNumber"] [data-brand="visa"]', timeout=WAIT)
        wait_attribute(page, "/cardNumber", "data-state", "incomplete")
        number.fill("27")
        page.wait_for_selector('[data-field="/cardNumber"] [data-brand="mastercard"]', timeout=WAIT)
        number.fill("123")
        wait_attribute(page, "/cardNumber", "data-state", "invalid")
        number.fill("4111 1111 1111 1111")  # the groups a person types are formatting
        wait_attribute(page, "/cardNumber", "data-state", "valid")
        brand = page.locator('[data-field="/cardNumber"] [data-brand]')
        assert brand.get_attribute("data-brand") == "visa" and "CVV" in brand.text_content()
        control(page, "/cardholderName").focus()
        masked = page.locator('[data-field="/cardNumber"] [data-masked]')
        masked.wait_for(state="visible", timeout=WAIT)
        assert masked.text_content() == "•••• •••• •••• 1111", masked.text_content()
        security = number.evaluate("(element) => getComputedStyle(element).webkitTextSecurity")
        assert security == "disc", f"a card number left shows in the clear: {security!r}"


def validate_lists_the_missing_delivery_address(browser, binary, shots):
    with previewing(browser, binary, "--schema", "card-create", query="?context.region=EU") as (preview, page):
        control(page, "/programName").fill("SKRILL-PHYSICAL-MC-EEA")
        wait_attribute(page, "/deliveryAddress", "data-required", "true")
        page.get_by_role("button", name="Validate").click()
        item = page.locator('[role="alert"] [data-path="/deliveryAddress"][data-rule="required"]')
        item.wait_for(timeout=WAIT)
        assert page.locator('#violations [data-path="/currency"][data-rule="required"]').count() == 1
        item.locator("a").click()
        focused = page.evaluate("document.activeElement.closest('[data-field]').dataset.field")
        assert focused.startswith("/deliveryAddress/"), f"choosing the violation focused {focused}"


def a_typed_pin_stays_out_of_urls_cookies_storage_and_the_log(browser, binary, shots):
    pin = "4931"
    preview = Preview(binary, "--schema", "card-create")
    try:
        context = browser.new_context(accept_downloads=True)
        page = context.new_page()
        requests = []
        responses = []
        page.on("request", lambda request: requests.append((request.method, request.url, request.post_data or "")))
        page.on("response", lambda response: responses.append(response))
        page.goto(preview.url + "?context.region=EU")
        control(page, "/cardPin").fill(pin)
        wait_attribute(page, "/cardPin", "data-state", "valid")
        control(page, "/programName").fill("SKRILL-VIRTUAL-MC-EEA")
        wait_attribute(page, "/programName", "data-state", "valid")
        page.get_by_role("button", name="Show request").click()
        page.locator("#request").wait_for(state="visible", timeout=WAIT)
        shown = page.locator("#request").text_content()
        assert pin not in shown and "[withheld]" in shown, shown
        with page.expect_download() as download:
            page.get_by_role("button", name="Save as example").click()
        example = Path(download.value.path()).read_text(encoding="utf-8")
        assert pin not in example and "SKRILL-VIRTUAL-MC-EEA" in example, example
        assert download.value.suggested_filename == "card-create-example.json"
        assert pin not in page.url
        assert all(pin not in url for _, url, _ in requests), "a URL held the PIN"
        assert any(pin in body for method, _, body in requests if method == "POST"), "the PIN was never sent"
        assert all(method == "POST" for method, _, body in requests if pin in body)
        answers = [response.text() for response in responses if "/api/" in response.url]
        assert answers and all(pin not in answer for answer in answers), "an answer of the server held the PIN"
        assert not context.cookies(), context.cookies()
        storage = page.evaluate("JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])")
        assert pin not in storage and storage == "[[],[]]", storage
        # An error page shows no value either.
        answer = page.evaluate("""async () => (await fetch('/api/edit', {method: 'POST', body: '{"session": 1, "pin": "4931"'})).text()""")
        assert pin not in answer, answer
        context.close()
    finally:
        preview.stop()
    log = preview.server_log()
    assert "POST /api/edit" in log, "the server logged no request"
    assert pin not in log, "the server's log holds the PIN"


def watch_reloads_after_a_schema_edit(browser, binary, shots):
    with copied_schemas() as folder, previewing(
            browser, binary, "--schema", "card-create", "--schemas", str(folder), "--watch",
            query="?context.region=EU") as (preview, page):
        schema_file = folder / "card-create.json"
        original = schema_file.read_text(encoding="utf-8")
        control(page, "/externalId").fill("ext-1")
        wait_attribute(page, "/externalId", "data-state", "valid")
        schema_file.write_text(original.replace('"en": "Program name"', '"en": "Name of the program"', 1),
                               encoding="utf-8")
        page.wait_for_function(
            """() => document.querySelector('[data-field="/programName"] > label').textContent.includes('Name of the program')""",
            timeout=WAIT)
        assert control(page, "/externalId").input_value() == "ext-1", "what was typed survives the reload"
        schema_file.write_text(original.replace('"dataType": "String"', '"dataType": "Strung"', 1), encoding="utf-8")
        problem = page.locator("#schema-problems li[data-file]").first
        problem.wait_for(timeout=WAIT)
        text = problem.text_content()
        assert "card-create.json:" in text and re.search(r":\d+:\d+", text), text
        assert page.locator("#form").is_hidden()
        schema_file.write_text(original, encoding="utf-8")
        page.locator("#form").wait_for(state="visible", timeout=WAIT)
        wait_attribute(page, "/externalId", "data-state", "valid")


def the_eligible_programs_are_a_select(browser, binary, shots):
    programs = ROOT / "Examples" / "card-programs-response" / "valid-eligible.json"
    with previewing(browser, binary, "--schema", "card-create", "--with", f"card-programs-response={programs}",
                    query="?context.region=EU") as (preview, page):
        select = page.locator('[data-field="/programName"] > select')
        select.wait_for(timeout=WAIT)
        offered = select.locator("option").evaluate_all("all => all.map(o => o.value).filter(v => v)")
        assert offered == ["SKRILL-VIRTUAL-MC-EEA"], offered  # the physical program allows no more cards
        select.select_option("SKRILL-VIRTUAL-MC-EEA")
        wait_attribute(page, "/programName", "data-state", "valid")


def list_items_are_added_and_removed(browser, binary, shots):
    with previewing(browser, binary, "--schema", "customer-profile") as (preview, page):
        page.locator('[data-field="/paymentAccounts"] > .add-item').click()
        page.locator('[data-field="/paymentAccounts"] > .add-item').click()
        control(page, "/paymentAccounts/1/accountType").select_option("credit")
        control(page, "/paymentAccounts/1/cardNumber").fill("4111111111111111")
        wait_attribute(page, "/paymentAccounts/1/cardNumber", "data-state", "valid")
        page.locator('[data-item="/paymentAccounts/0"] > .remove-item').click()
        wait_attribute(page, "/paymentAccounts/0/cardNumber", "data-state", "valid")
        assert field(page, "/paymentAccounts/1/cardNumber").count() == 0


def it_stops_on_sigterm_with_a_page_watching(browser, binary, shots):
    with copied_schemas() as folder, previewing(
            browser, binary, "--schema", "card-create", "--schemas", str(folder), "--watch") as (preview, page):
        field(page, "/programName").wait_for(timeout=WAIT)
        started = time.monotonic()
        status = preview.stop()
        assert status == 0, f"exit status {status}"
        assert time.monotonic() - started < 10


def screenshots(browser, binary, shots):
    if not shots:
        return
    shots.mkdir(parents=True, exist_ok=True)
    for language in ["en", "de"]:
        preview = Preview(binary, "--schema", "card-create", "--language", language)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(preview.url + f"?language={language}&context.region=EU")
            control(page, "/programName").fill("SKRILL-PHYSICAL-MC-EEA")
            control(page, "/currency").select_option("EUR")
            control(page, "/cardPin").fill("12a")
            control(page, "/deliveryAddress/countryCode").select_option("DE")
            control(page, "/deliveryAddress/postalCode").fill("101")
            wait_attribute(page, "/deliveryAddress/postalCode", "data-state", "incomplete")
            page.locator("#validate").click()
            page.locator("#violations li").first.wait_for(timeout=WAIT)
            page.screenshot(path=str(shots / f"card-create-{language}.png"), full_page=True)
            page.goto(preview.url + f"?schema=payment-account&language={language}&tenderType=credit")
            control(page, "/cardNumber").fill("4111111111111111")
            control(page, "/expiry").fill("12/2")
            control(page, "/cardholderName").fill("Ivan Petrov")
            wait_attribute(page, "/cardNumber", "data-state", "valid")
            page.locator('[data-field="/cardNumber"] [data-masked]').wait_for(state="visible", timeout=WAIT)
            page.screenshot(path=str(shots / f"payment-account-{language}.png"), full_page=True)
            page.close()
        finally:
            preview.stop()


CHECKS = [
    every_field_of_describe_is_on_the_page,
    states_follow_what_is_typed,
    a_physical_program_requires_the_delivery_address,
    a_us_customer_must_consent_and_may_not_set_a_pin,
    german_labels_and_buttons,
    a_card_number_shows_its_brand_as_it_is_typed,
    validate_lists_the_missing_delivery_address,
    a_typed_pin_stays_out_of_urls_cookies_storage_and_the_log,
    watch_reloads_after_a_schema_edit,
    the_eligible_programs_are_a_select,
    list_items_are_added_and_removed,
    it_stops_on_sigterm_with_a_page_watching,
    screenshots,
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="dce-validate (dce-preview beside it)")
    parser.add_argument("--screenshots", type=Path, help="write the pictures of the page (README.md, docs/forms.md) here")
    parser.add_argument("--only", help="run only the check of this name")
    arguments = parser.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        print(f"check_preview: error: {CHROMIUM} is missing: scripts/setup-browser.sh installs Debian's chromium",
              file=sys.stderr)
        return 2
    binary = str(Path(arguments.binary).resolve())
    passed = failed = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for check in CHECKS:
            if arguments.only and check.__name__ != arguments.only:
                continue
            started = time.monotonic()
            try:
                check(browser, binary, arguments.screenshots)
                passed += 1
                print(f"ok {check.__name__} ({time.monotonic() - started:.1f} s)", flush=True)
            except Exception as error:
                failed += 1
                print(f"FAILED {check.__name__}: {error}", flush=True)
                traceback.print_exc()
        browser.close()
    print(f"browser: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
