"""Fixtures for the knowledge tests: the sample knowledge base and a PDF builder."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PdfBuilder = Callable[[list[tuple[str, list[str]]]], bytes]


@pytest.fixture(scope="session")
def build_pdf() -> PdfBuilder:
    """``examples/make_pdf.py``'s hand-written PDF writer, for test documents."""
    spec = importlib.util.spec_from_file_location("make_pdf", EXAMPLES / "make_pdf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # keep examples/ clean
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writes
    builder: PdfBuilder = module.build_pdf
    return builder
