"""The web seat's page: its weight, and how long a phone waits from loading it to seeing the table.

    python bench/web_page.py [--runs N] [--game fistful|matchstick|ten] [--screenshot PATH]

Weight: the bytes of index.html, the JavaScript modules and the CSS as shipped (uncompressed, the goal is at most
150 KB), then the data and icon files, and all of it gzipped for comparison (the host sends it uncompressed).

Time (Debian's Chromium under Playwright, a 360 x 640 page, a table with a built-in player and its web seat on
127.0.0.1, as in tests/test_web_browser.py): each run opens a fresh browser context (empty cache and storage) and
reads the page's own performance marks, in milliseconds from the start of the navigation:

- ``table_ms``: the host's ``table`` message has arrived (the join form can be drawn);
- ``first_visit_state_ms``: the first table state is drawn, for a guest whose name is typed in advance and who
  taps Join as soon as the form shows (so no human time is counted);
- ``reload_state_ms``: the same after a reload, where the kept seat token greets the host without a form.

Median, minimum and maximum over ``--runs`` runs are printed as one JSON document. ``--screenshot`` also saves a
picture of a game in progress (the README's), taken after a few moves at 360 x 640.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import cardnet  # noqa: E402
from browserseat import CHROMIUM, PHONE, ServedTable, served_table, take_turn  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

PAGE = Path(cardnet.__file__).resolve().parent / "web" / "page"
BOTS = {
    "fistful": (2, {1: "heuristic"}),
    "matchstick": (4, {1: "heuristic", 2: "heuristic", 3: "heuristic"}),
    "ten": (3, {1: "heuristic", 2: "heuristic"}),
}


def weight() -> dict[str, int]:
    """Bytes of the page's files, by kind."""
    html = (PAGE / "index.html").read_bytes()
    scripts = b"".join(path.read_bytes() for path in sorted((PAGE / "js").glob("*.js")))
    css = b"".join(path.read_bytes() for path in sorted(PAGE.glob("*.css")))
    data = b"".join(path.read_bytes() for path in sorted(PAGE.glob("*.json")))
    icons = b"".join(path.read_bytes() for path in sorted(PAGE.glob("*.svg")))
    everything = html + scripts + css + data + icons
    return {
        "html": len(html),
        "js": len(scripts),
        "css": len(css),
        "html_js_css": len(html) + len(scripts) + len(css),
        "data_json": len(data),
        "icon": len(icons),
        "total": len(everything),
        "total_gzip": len(gzip.compress(everything, 9)),
    }


def marks(page: Page) -> dict[str, float]:
    """The page's performance marks, in ms since its navigation started."""
    entries = page.evaluate("() => performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])")
    return {str(name): float(start) for name, start in entries}


def joined(page: Page, table: ServedTable) -> Page:
    """``page`` at the table, Join tapped as soon as the form shows (the name typed in advance)."""
    page.goto(table.url)
    page.fill("#name", "Ann")
    page.click("#join-btn")
    return page


def wait_for_state(page: Page) -> None:
    page.locator("#board .board").wait_for(timeout=20_000)


def one_run(browser: Browser, game: str, run: int) -> dict[str, float]:
    players, bots = BOTS[game]
    with served_table(game, players, bots, seed=run + 1, table_id=f"bench{run}") as table:
        context = browser.new_context(viewport=PHONE)
        try:
            page = joined(context.new_page(), table)
            wait_for_state(page)
            first = marks(page)
            page.reload()
            wait_for_state(page)
            again = marks(page)
        finally:
            context.close()
    return {
        "table_ms": first["cardnet-table"],
        "first_visit_state_ms": first["cardnet-first-state"],
        "reload_state_ms": again["cardnet-first-state"],
    }


def screenshot(browser: Browser, game: str, path: Path, taps: int, seed: int) -> None:
    players, bots = BOTS[game]
    with served_table(game, players, bots, seed=seed, table_id="shot") as table:
        context = browser.new_context(viewport=PHONE)
        try:
            page = joined(context.new_page(), table)
            for _ in range(taps):
                take_turn(page)
            # The shot shows a turn with a card chosen and its legal plays offered.
            page.locator("#turn.your-turn").wait_for(timeout=20_000)
            cards = page.locator(".hand .card-button:not([disabled])")
            captions = cards.locator(".card-caption").all_inner_texts()
            for i, caption in enumerate(captions):
                # A card alone, else with the next of its kind (a trick of two needs a pair).
                for j in [i] + [k for k in range(i + 1, len(captions)) if captions[k] == caption][:1]:
                    cards.nth(j).click()
                if page.locator("#actions button.offer.play").count():
                    break
                clear = page.locator("#actions button.clear")
                if clear.count():
                    clear.click()
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(path))
        finally:
            context.close()


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 1),
        "min": round(min(values), 1),
        "max": round(max(values), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--game", choices=sorted(BOTS), default="fistful")
    parser.add_argument("--screenshot", type=Path)
    parser.add_argument("--shot-game", choices=sorted(BOTS), default="matchstick")
    parser.add_argument("--shot-taps", type=int, default=4)
    parser.add_argument("--shot-seed", type=int, default=3)
    args = parser.parse_args()
    if cardnet.build_info().get("profile") != "release":
        sys.exit("bench/web_page.py: refusing to measure a debug build of cardnet._core")
    chromium = shutil.which(CHROMIUM)
    if chromium is None:
        sys.exit(f"bench/web_page.py: {CHROMIUM} is missing (apt-get install chromium chromium-driver)")
    report: dict[str, Any] = {"weight_bytes": weight(), "game": args.game, "runs": args.runs}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            runs = [one_run(browser, args.game, run) for run in range(args.runs)]
            for key in ("table_ms", "first_visit_state_ms", "reload_state_ms"):
                report[key] = summary([run[key] for run in runs])
            if args.screenshot:
                screenshot(browser, args.shot_game, args.screenshot, args.shot_taps, args.shot_seed)
                report["screenshot"] = str(args.screenshot)
        finally:
            browser.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
