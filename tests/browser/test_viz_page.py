"""The token page and the evaluation page in a real headless Chromium, served on localhost.

Needs Debian's chromium and chromedriver (`.ci/run` installs them); skips with the reason when
they are absent, except under HFCOMPAT_REQUIRE_BROWSER=1 (set by `.ci/run`), where that fails.
HFCOMPAT_SCREENSHOTS=DIR keeps the screenshots there (the README's come from it).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

import hfcompat
from hfcompat.tools.evaluate import evaluate
from hfcompat.tools.viz import page
from tests.conftest import mixed_sample, shared_file

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--window-size=1400,800"]
TEXT = "Hello, how are  you? Tokenizers split 東京 and 🤗 differently: x = f(a[12345]);\nsecond line"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium driven by chromedriver (skips when either is missing)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service
    for program in (CHROMIUM, CHROMEDRIVER):
        if not (Path(program).exists() or shutil.which(Path(program).name)):
            missing = (f"{program} is absent: install Debian's chromium and chromium-driver "
                       "(apt-get install chromium chromium-driver; CI does)")
            if os.environ.get("HFCOMPAT_REQUIRE_BROWSER"):
                pytest.fail(missing)
            pytest.skip(missing)
    os.environ.setdefault("SE_OFFLINE", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    for flag in FLAGS:
        options.add_argument(flag)
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A directory served over HTTP on localhost, and its base URL."""
    directory = tmp_path_factory.mktemp("pages")
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield directory, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging each request."""

    def log_message(self, *args: Any) -> None:
        pass


def screenshot(driver: Any, tmp_path: Path, name: str) -> Path:
    """Save a screenshot (also into $HFCOMPAT_SCREENSHOTS when set) and check it is a PNG."""
    path = tmp_path / name
    assert driver.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000
    keep = os.environ.get("HFCOMPAT_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)
    return path


@pytest.mark.conformance
def test_token_page_in_chromium(browser: Any, served: tuple[Path, str], tmp_path: Path) -> None:
    """GPT-2 and BERT side by side: one span per token with the oracle's ids, titles, diffs, clicks."""
    import tokenizers
    from tokenizers.implementations import BertWordPieceTokenizer

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    gpt2_path = shared_file("refs/gpt2/tokenizer.json")
    bert_path = shared_file("refs/bert-base-uncased/vocab.txt")
    directory, base = served
    (directory / "tokens.html").write_text(
        page({"gpt2": hfcompat.load(gpt2_path), "bert": hfcompat.load(bert_path)}, TEXT), "utf-8")
    oracles = {"gpt2": tokenizers.Tokenizer.from_file(str(gpt2_path)),
               "bert": BertWordPieceTokenizer(str(bert_path), lowercase=True)}
    browser.get(f"{base}/tokens.html")
    screenshot(browser, tmp_path, "viz.png")
    for name, oracle in oracles.items():
        expected = oracle.encode(TEXT, add_special_tokens=False)
        column = browser.find_element(By.CSS_SELECTOR, f'section[data-name="{name}"]')
        spans = column.find_elements(By.CSS_SELECTOR, ".tok")
        assert [int(s.get_attribute("data-id")) for s in spans] == expected.ids
        assert [s.get_attribute("title").split(" | ")[0] for s in spans] == [f"id {i}" for i in expected.ids]
        assert column.find_element(By.CSS_SELECTOR, ".count").text == str(len(expected.ids))
        diffs = column.find_elements(By.CSS_SELECTOR, ".tok.diff")
        assert int(column.find_element(By.CSS_SELECTOR, ".differing").text) == len(diffs) > 0
    gpt2 = browser.find_element(By.CSS_SELECTOR, 'section[data-name="gpt2"]')
    bert = browser.find_element(By.CSS_SELECTOR, 'section[data-name="bert"]')
    hello = gpt2.find_element(By.CSS_SELECTOR, '.tok[data-index="0"]')
    assert hello.text == "Hello" and "diff" not in hello.get_attribute("class")  # bert: "hello", same chars
    where = TEXT.index("東")
    tokyo = [s for s in gpt2.find_elements(By.CSS_SELECTOR, ".tok")
             if int(s.get_attribute("data-start")) <= where < int(s.get_attribute("data-end"))]
    assert tokyo and all("diff" in s.get_attribute("class") for s in tokyo)  # bytes vs 東 and 京
    ActionChains(browser).move_to_element(tokyo[0]).perform()
    assert tokyo[0].get_attribute("title").startswith("id ")
    tokyo[0].click()
    details = browser.find_element(By.ID, "details").text
    assert details.startswith("gpt2 token") and f"id {tokyo[0].get_attribute('data-id')}" in details
    highlighted = bert.find_elements(By.CSS_SELECTOR, ".tok.hl")
    assert [s.text for s in highlighted] == ["東"]
    screenshot(browser, tmp_path, "viz-clicked.png")


@pytest.mark.conformance
def test_evaluation_page_in_chromium(browser: Any, served: tuple[Path, str], tmp_path: Path) -> None:
    """The report page draws one bar per tokenizer and script in each of its three charts."""
    from selenium.webdriver.common.by import By
    tokenizers = {"gpt2": hfcompat.load(shared_file("refs/gpt2/tokenizer.json")),
                  "t5": hfcompat.load(shared_file("refs/t5/tokenizer.json"))}
    evaluation = evaluate(tokenizers, mixed_sample(5), measure_memory=False)
    directory, base = served
    (directory / "report.html").write_text(evaluation.to_html(), "utf-8")
    browser.get(f"{base}/report.html")
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) == 3
    data = evaluation.to_dict()["tokenizers"]
    scripts = {s for report in data for s, m in report["by_script"].items() if m["tokens_per_char"] is not None}
    scripts.discard("other")
    scripts.discard("space_punct")
    bars = charts[0].find_elements(By.CSS_SELECTOR, "rect title")
    assert len(bars) == 2 * len(scripts)
    assert all(rect.size["height"] > 0 for rect in charts[0].find_elements(By.CSS_SELECTOR, "rect"))
    screenshot(browser, tmp_path, "evaluate.png")
