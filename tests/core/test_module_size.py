"""The code rule "small modules with one purpose, split before 400 lines", for the product code."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 400


def test_no_product_module_is_over_the_limit() -> None:
    files = [
        path
        for folder in ("bot", "renderers")
        for pattern in ("*.py", "*.js")
        for path in (ROOT / folder).rglob(pattern)
    ]
    assert len(files) > 100  # (the walk found the code)
    over = {
        str(path.relative_to(ROOT)): lines
        for path in files
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert over == {}
