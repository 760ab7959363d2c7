"""The HTML replay viewer in a real browser (issue 15, done-when 1): Debian's chromium driven
through chromedriver by selenium loads a viewer written from a recorded benchmark replay,
clicks "next", checks the step counter and the event log, and saves a screenshot.

Outside CI the test skips with a reason when selenium (the ``browser`` extra) or the
binaries are missing; under ``CI=true`` (``.ci/run`` installs both) it fails instead."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from ambush_env import bench
from ambush_env import replay as R
from ambush_env.render.ansi import format_event

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,900")


def _need_browser() -> None:
    missing = []
    if importlib.util.find_spec("selenium") is None:
        missing.append('selenium (the browser extra: pip install "ambush_env[browser]")')
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.exists(path) or shutil.which(Path(path).name)):
            missing.append(f"{path} (apt-get install chromium chromium-driver)")
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: the browser test needs {', '.join(missing)}")
        pytest.skip(f"no browser to drive: missing {', '.join(missing)}")


def _binary(path: str) -> str:
    return path if os.path.exists(path) else shutil.which(Path(path).name)


def test_viewer_steps_forward_in_chromium(tmp_path):
    _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    suite = tmp_path / "one.yaml"
    suite.write_text("name: one\nmissions: [farm_assault]\nseeds: {start: 10000, count: 2}\n",
                     encoding="utf-8")
    bench.run_bench("heuristic", str(suite), progress=False, save_replays=tmp_path / "rp")
    f = tmp_path / "rp" / "farm_assault__regular__10000.jsonl"
    rep = R.load(f)
    page, _ = R.write_html(rep, tmp_path / "viewer.html")

    opts = webdriver.ChromeOptions()
    opts.binary_location = _binary(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    # the driver's path is given, so selenium-manager never looks for one on the network
    driver = webdriver.Chrome(service=Service(_binary(CHROMEDRIVER)), options=opts)
    try:
        driver.set_page_load_timeout(60)
        driver.get(page.resolve().as_uri())
        counter = driver.find_element(By.ID, "step-counter")
        n = len(rep.steps)
        assert counter.text == f"step 0 / {n}"
        log = driver.find_element(By.ID, "event-log")
        assert "[setup] mission=farm_assault" in log.text
        for k in (1, 2, 3):
            driver.find_element(By.ID, "next").click()
            assert counter.text == f"step {k} / {n}"
            current = driver.find_element(By.ID, "log-current")
            step = rep.steps[k - 1]
            lines = current.text.splitlines()
            assert lines[0] == f"{k}: {step['order']}"
            assert lines[1:] == [format_event(e) for e in step["events"]]
        driver.find_element(By.ID, "prev").click()
        assert counter.text == f"step 2 / {n}"
        assert driver.find_element(By.ID, "slider").get_attribute("value") == "2"
        # the acting soldier (the one step 1 selected) is highlighted on the map and named
        driver.find_element(By.ID, "prev").click()
        assert counter.text == f"step 1 / {n}"
        who = rep.steps[0]["unit"]
        hud = driver.find_element(By.ID, "hud").text
        assert hud.startswith(f"Operations, pulse 1 | VP 0 | acting: {who} | order: ")
        acting = driver.find_elements(By.CSS_SELECTOR, "circle.unit.acting")
        assert [c.get_attribute("id") for c in acting] == [f"unit-{who}"]
        # a soldier acting from inside a vehicle keeps the acting highlight (yellow), not
        # the aboard edge (white)
        frames = json.loads(re.search(r'id="replay-data">(.*?)</script>',
                                      page.read_text(encoding="utf-8"), re.DOTALL).group(1))["frames"]
        k = next(i for i, fr in enumerate(frames)
                 if any(u[6] & 8 and u[7] for u in fr["units"]))  # acting, aboard
        driver.execute_script("const s = document.getElementById('slider'); "
                              f"s.value = {k}; s.oninput();")
        (circle,) = driver.find_elements(By.CSS_SELECTOR, "circle.unit.acting.aboard")
        style = driver.execute_script("const s = getComputedStyle(arguments[0]); "
                                      "return [s.stroke, s.strokeWidth];", circle)
        assert style == ["rgb(255, 208, 0)", "2px"]
        # who is in which vehicle is written beside the map, not only in tooltips
        assert any(line.startswith("V") and " driver" in line
                   for line in driver.find_element(By.ID, "aboard").text.splitlines())
        driver.execute_script("const s = document.getElementById('slider'); s.value = 1; s.oninput();")
        shot = tmp_path / "viewer.png"
        assert driver.save_screenshot(str(shot))
    finally:
        driver.quit()
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000


def test_a_missing_browser_skips_with_a_reason_outside_ci_and_fails_under_ci(monkeypatch):
    import sys

    here = sys.modules[__name__]
    monkeypatch.setattr(here, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    # selenium may be missing too (a venv without the browser extra): it is named first
    with pytest.raises(pytest.skip.Exception, match=r"missing (selenium \(.*\), )?/nonexistent/chromium"):
        _need_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"CI=true: the browser test needs "
                       r"(selenium \(.*\), )?/nonexistent/chromium"):
        _need_browser()


def test_the_skip_names_selenium_when_the_extra_is_missing(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "selenium" else real(name, *a))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r'missing selenium \(the browser extra: '
                       r'pip install "ambush_env\[browser\]"\)'):
        _need_browser()
