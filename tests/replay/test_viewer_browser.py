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
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,900",
)


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
    suite.write_text(
        "name: one\nmissions: [farm_assault]\nseeds: {start: 10000, count: 2}\n", encoding="utf-8"
    )
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
        frames = json.loads(
            re.search(
                r'id="replay-data">(.*?)</script>', page.read_text(encoding="utf-8"), re.DOTALL
            ).group(1)
        )["frames"]
        k = next(
            i for i, fr in enumerate(frames) if any(u[6] & 8 and u[7] for u in fr["units"])
        )  # acting, aboard
        driver.execute_script(
            f"const s = document.getElementById('slider'); s.value = {k}; s.oninput();"
        )
        (circle,) = driver.find_elements(By.CSS_SELECTOR, "circle.unit.acting.aboard")
        style = driver.execute_script(
            "const s = getComputedStyle(arguments[0]); return [s.stroke, s.strokeWidth];", circle
        )
        assert style == ["rgb(255, 208, 0)", "2px"]
        # who is in which vehicle is written beside the map, not only in tooltips
        assert any(
            line.startswith("V") and " driver" in line
            for line in driver.find_element(By.ID, "aboard").text.splitlines()
        )
        # zoom: the map's drawn width grows by 1.25 per click, its viewBox stays the map's own
        svg = driver.find_element(By.ID, "map")
        w0, box = int(svg.get_attribute("width")), svg.get_attribute("viewBox")
        driver.find_element(By.ID, "zoom-in").click()
        assert int(svg.get_attribute("width")) == pytest.approx(w0 * 1.25, abs=1)
        assert svg.get_attribute("viewBox") == box
        driver.find_element(By.ID, "zoom-out").click()
        assert int(svg.get_attribute("width")) == pytest.approx(w0, abs=1)
        driver.execute_script(
            "const s = document.getElementById('slider'); s.value = 1; s.oninput();"
        )
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
    with pytest.raises(
        pytest.skip.Exception, match=r"missing (selenium \(.*\), )?/nonexistent/chromium"
    ):
        _need_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(
        pytest.fail.Exception,
        match=r"CI=true: the browser test needs "
        r"(selenium \(.*\), )?/nonexistent/chromium",
    ):
        _need_browser()


def test_the_skip_names_selenium_when_the_extra_is_missing(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "selenium" else real(name, *a)
    )
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(
        pytest.skip.Exception,
        match=r"missing selenium \(the browser extra: "
        r'pip install "ambush_env\[browser\]"\)',
    ):
        _need_browser()


def _driver(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = _binary(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    return webdriver.Chrome(service=Service(_binary(CHROMEDRIVER)), options=opts)


def test_soldiers_aboard_sit_inside_their_vehicle_without_overlapping(tmp_path):
    """jeep_run: two jeeps in one hex with three men each: every man's disc lies inside his
    jeep's counter, no two discs overlap, both counters inside the hex's box, and #aboard
    names who is in which jeep."""
    _need_browser()
    from selenium.webdriver.common.by import By

    from ambush_env.agents import make_agent
    from ambush_env.agents.evaluate import run_episode
    from ambush_env.env.ambush_env import AmbushEnv

    env = R.RecordingEnv(AmbushEnv(mission="jeep_run"), "heuristic")
    run_episode(env, make_agent("heuristic"), 10000)
    rep = R.load(env.recorder.write(tmp_path / "jeep.jsonl"))
    page, _ = R.write_html(rep, tmp_path / "jeep.html")
    frames = json.loads(
        re.search(
            r'id="replay-data">(.*?)</script>', page.read_text(encoding="utf-8"), re.DOTALL
        ).group(1)
    )["frames"]
    k, fr = next(
        (k, fr)
        for k, fr in enumerate(frames)
        if len({v[3] for v in fr["vehicles"]}) == 1 < len(fr["vehicles"])
        and all(len(v[8]) >= 2 for v in fr["vehicles"])
    )
    driver = _driver(tmp_path)
    try:
        driver.get(page.resolve().as_uri())
        driver.execute_script(
            f"const s = document.getElementById('slider'); s.value = {k}; s.oninput();"
        )
        box = "const b = arguments[0].getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom];"
        hexbox = driver.execute_script(
            box, driver.find_element(By.ID, f"hex-{fr['vehicles'][0][3]}")
        )
        discs = []
        for v in fr["vehicles"]:
            g = driver.find_element(
                By.CSS_SELECTOR, f'g.vehicle-g[data-name="{v[1]}"] rect.vehicle'
            )
            vb = driver.execute_script(box, g)
            assert (
                hexbox[0] <= vb[0]
                and vb[2] <= hexbox[2]
                and hexbox[1] <= vb[1]
                and vb[3] <= hexbox[3]
            )
            for name in v[8]:
                cb = driver.execute_script(box, driver.find_element(By.ID, f"unit-{name}"))
                assert vb[0] <= cb[0] and cb[2] <= vb[2] and vb[1] <= cb[1] and cb[3] <= vb[3], name
                discs.append(cb)
        for i, a in enumerate(discs):
            for b in discs[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        lines = driver.find_element(By.ID, "aboard").text.splitlines()
        assert lines == [v[7] for v in fr["vehicles"]]
        assert all(re.fullmatch(r"V\d \w+ \([A-Z]+\d+\): US\d+ driver(, US\d+)*", x) for x in lines)
        assert driver.save_screenshot(str(tmp_path / "jeep.png"))
    finally:
        driver.quit()
