"""Fixtures for the assistant tests: an index of the sample knowledge base plus a private doc."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import RecordTable, Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.records import RecordTables
from tests.fakes.openai_server import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

PRIVATE_DOC = """\
---
audience: staff
---
# Salary bands

The walrus salary band for engineers is confidential and reviewed every spring.
"""


@pytest.fixture(scope="session")
def kb_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """Settings whose index holds examples/ and a staff-only document; products configured."""
    base = tmp_path_factory.mktemp("assistant-kb")
    private = base / "private"
    private.mkdir()
    (private / "salaries.md").write_text(PRIVATE_DOC, encoding="utf-8")
    settings = Settings.model_validate(
        {
            "index": {
                "path": str(base / "index.db"),
                "records": [
                    RecordTable(
                        name="products",
                        csv=str(EXAMPLES / "products.csv"),
                        id_column="sku",
                        label_template="{name} ({sku})",
                        columns=["tier", "price_usd", "support"],
                        action_url_template="https://example.com/pricing/{sku}",
                        description="Plans and pricing (what each plan costs and its support)",
                    ).model_dump()
                ],
            },
            "grounding": {"policy": "off"},
        }
    )
    report = ingest([EXAMPLES, private], settings.index)
    assert report.indexed == 7 and not report.skipped
    return settings


@pytest.fixture(scope="session")
def kb_index(kb_settings: Settings) -> KnowledgeIndex:
    return KnowledgeIndex(kb_settings.index.path)


@pytest.fixture(scope="session")
def tables() -> RecordTables:
    """The products table as config.yaml configures it (seats shown: "per workspace")."""
    table = RecordTable(
        name="products",
        csv=str(EXAMPLES / "products.csv"),
        id_column="sku",
        label_template="{name} ({sku})",
        columns=["tier", "price_usd", "seats", "support"],
    )
    return RecordTables([table])


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenAI]:
    """The loopback fake of an OpenAI-compatible server (tests script its completions)."""
    async with FakeOpenAI() as server:
        yield server
