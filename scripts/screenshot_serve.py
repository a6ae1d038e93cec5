"""Take the screenshots of `robotsrules serve` that the README and the site owners' guide show.

Starts the workbench on loopback (a socket bound before the server starts), drives the
system Chromium with Playwright (as tests/browser.py does; no browser is downloaded),
types the example file, URLs and agents, and writes docs/images/serve.png (a desktop
window) and docs/images/serve-phone.png (390 px wide), then fills the ``generate`` panel
with the site owners' guide's "block AI training, keep search" choices and writes
docs/images/serve-generate.png (the panel). Run it after changing the page:

    .venv/bin/python scripts/screenshot_serve.py
"""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
URLS = "https://example.com/private/report.html\nhttps://example.com/private/press/launch.html\n" \
       "https://example.com/a.pdf\nhttps://example.com/"
AGENTS = "GPTBot\nMozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def _generate_panel(browser: Any, base: str) -> None:
    """The generate panel with the guide's choices, written (docs/images/serve-generate.png)."""
    page = browser.new_page(viewport={"width": 1000, "height": 1000})
    page.goto(base)
    page.check("#g_block_ai-training")
    page.fill("#g_paths", "/cart/")
    page.select_option("#g_usage_ai-train", "n")
    page.select_option("#g_usage_search", "y")
    page.fill("#g_sitemaps", "https://example.com/sitemap.xml")
    page.click("#generate-button")
    page.wait_for_selector("#generated-text")
    box = page.query_selector("#generate").bounding_box()
    top = page.query_selector("#generated-agents").bounding_box()["y"]  # the choices to here
    page.screenshot(path=str(IMAGES / "serve-generate.png"), full_page=True, clip={
        "x": box["x"], "y": box["y"] + page.evaluate("window.scrollY"), "width": box["width"],
        "height": top - box["y"]})  # a box is seen from the scrolled window, a clip from the page
    page.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    from robotsrules._web._app import create_app
    from robotsrules._web._server import listen, server

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no system Chromium: apt-get install chromium", file=sys.stderr)
        return 2
    sock = listen("127.0.0.1", 0)
    running = server(create_app())
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    robots = (ROOT / "examples" / "robots.txt").read_text(encoding="utf-8")
    IMAGES.mkdir(exist_ok=True)
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, width, height in (("serve.png", 1000, 1000), ("serve-phone.png", 390, 1600)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(base)
                page.fill("#robots", robots)
                page.fill("#urls", URLS)
                page.fill("#agents", AGENTS)
                page.click("#test")
                page.wait_for_selector("#verdicts")
                page.screenshot(path=str(IMAGES / name))
                page.close()
            _generate_panel(browser, base)
            browser.close()
    finally:
        running.should_exit = True
        thread.join()
        sock.close()
    for name in ("serve.png", "serve-phone.png", "serve-generate.png"):
        print(f"{IMAGES / name}: {(IMAGES / name).stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
