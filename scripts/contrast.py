#!/usr/bin/env python3
"""Contrast ratios (WCAG 2.x) of the main text/background pairs of static/style.css's
colour tokens, in light mode (`:root`) and dark mode (`prefers-color-scheme: dark`).

    scripts/contrast.py            # a Markdown table (docs/accessibility.md has it)
    scripts/contrast.py --check    # exit 1 if a text pair is below 4.5:1

The e2e suite's axe-core run (color-contrast rule, light and dark) checks the rendered
page; this script gives the figures for the tokens themselves.
"""

import re
import sys
from pathlib import Path

CSS = Path(__file__).resolve().parent.parent / "static" / "style.css"

# (foreground, background, what it is). Text pairs need 4.5:1; the focus ring is a
# non-text indicator (3:1).
PAIRS = [
    ("text", "bg", "body text on the page"),
    ("text", "surface", "text in a panel"),
    ("text", "surface-2", "text on a shaded row or code"),
    ("text-muted", "bg", "muted text on the page"),
    ("text-muted", "surface", "muted text in a panel"),
    ("text-muted", "surface-2", "muted text on a shaded row"),
    ("accent", "surface", "links, secondary buttons"),
    ("accent-contrast", "accent", "primary button label"),
    ("ok", "surface", "committed / APPEND word"),
    ("ok", "ok-bg", "committed highlight"),
    ("warn", "surface", "open / pending word"),
    ("warn", "warn-bg", "open highlight"),
    ("danger", "surface", "aborted / rejected word"),
    ("danger", "danger-bg", "aborted highlight"),
    ("info", "surface", "marker word"),
    ("info", "info-bg", "marker highlight"),
    ("focus", "surface", "focus ring (non-text, 3:1)"),
]


def tokens(block: str) -> dict:
    return {m[1]: m[2].lower() for m in re.finditer(r"--([a-z0-9-]+):\s*(#[0-9a-fA-F]{6})\b", block)}


def luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def main() -> int:
    css = CSS.read_text()
    root = re.search(r":root\s*\{(.*?)\n\}", css, re.S)[1]
    dark_at = css.index("@media (prefers-color-scheme: dark)")
    dark = re.search(r":root\s*\{(.*?)\n  \}", css[dark_at:], re.S)[1]
    light = tokens(root)
    dark = {**light, **tokens(dark)}
    print("| pair | what | light | dark |")
    print("|---|---|---|---|")
    low = []
    for fg, bg, what in PAIRS:
        figures = []
        for mode, t in (("light", light), ("dark", dark)):
            r = ratio(t[fg], t[bg])
            need = 3.0 if fg == "focus" else 4.5
            if r < need:
                low.append(f"{fg}/{bg} {mode} {r:.2f}")
            figures.append(f"{r:.2f}:1 ({t[fg]} on {t[bg]})")
        print(f"| `{fg}` / `{bg}` | {what} | {figures[0]} | {figures[1]} |")
    if low and "--check" in sys.argv:
        print("below the minimum: " + ", ".join(low), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
