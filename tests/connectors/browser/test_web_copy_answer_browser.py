"""The "Copy answer" button in real headless Chromium: the pasted text keeps working and says
what the page says (found in a QA pass: it pasted signed ``/files/`` links, dead after
``web.file_token_ttl``, and dropped the weak-support ``?`` the page shows as ``[2?]``).

A source with a public address is copied with it; a file this server links is copied as the
source list of the answer's own page (``share_url#sources``), which links the file afresh
whenever it is opened.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from bot.commands.ask import source_line
from bot.models import Answer, Citation, Source
from tests.connectors.browser.conftest import ask, serve_answerer
from tests.connectors.web.conftest import CannedAnswerer, passage

ANSWERED = ".cc-answer[aria-busy=false]"


async def test_copied_answer_keeps_weak_marks_and_has_links_that_last(
    browser: Browser, tmp_path: Path
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "notes.md").write_text("# Notes\n\nRestart the service.\n", encoding="utf-8")
    notes = Source(
        id="notes",
        title="Team notes",
        path=str(kb / "notes.md"),
        filename="notes.md",
        text="Restart the service.",
    )
    # a guide whose top heading repeats its title, cited across pages
    started = passage(
        3,
        title="Getting started with citecast",
        section="Getting started with citecast > Install > Linux",
        page=3,
        page_end=5,
    )
    answer = Answer(
        text="Restart it.[^1] It is back within a minute.[^2] Install it first.[^3]",
        citations=(
            Citation(n=1, source=passage(1), source_number=1, support=0.9),
            Citation(n=2, source=notes, source_number=2, support=0.1),
            Citation(n=3, source=started, source_number=3, support=0.9),
        ),
    )
    running = await serve_answerer(tmp_path, CannedAnswerer(answer), file_roots=[str(kb)])
    context = await browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = await context.new_page()
        await page.goto(running.url + "/")
        await ask(page, "How do I restart it?")
        await expect(page.locator(ANSWERED)).to_have_count(1, timeout=20_000)
        # the page shows the weak citation as [2?] and links the file by an expiring link
        await expect(page.locator(".cc-body sup.weak a")).to_have_text("[2?]")
        signed = await page.locator(".cc-body sup.weak a").get_attribute("href")
        assert signed is not None and "/files/" in signed

        await page.get_by_role("button", name="Copy link to this answer").click()
        await expect(page.locator(".cc-status")).to_have_text(
            "Link to this answer copied to the clipboard."
        )
        share = await page.evaluate("navigator.clipboard.readText()")
        await page.get_by_role("button", name="Copy answer").click()
        await expect(page.locator(".cc-status")).to_have_text("Answer copied to the clipboard.")
        copied = await page.evaluate("navigator.clipboard.readText()")

        text, _, listed = copied.partition("\n\nSources:\n")
        assert text == ("Restart it.[1] It is back within a minute.[2?] Install it first.[3]"), (
            copied
        )
        first, second, third = listed.splitlines()
        # a source with a public address reads exactly as `citecast ask` writes it
        assert first == "[1] Guide 1 — Setup > Linux — p. 1 — https://docs.example.com/guide-1"
        assert first == source_line(answer.citations[0])
        assert third == (
            "[3] Getting started with citecast — Install > Linux — pp. 3–5"
            " — https://docs.example.com/guide-3"
        )
        assert third == source_line(answer.citations[2])
        assert second == f"[2] Team notes — {share}#sources", copied
        assert "/files/" not in copied

        # a record's attributed columns, as `citecast ask` lists them
        berlin = Source(
            id="offices/BER",
            title="Berlin office",
            kind="record",
            url="https://example.com/offices/ber",
            columns={"city": "Berlin", "phone": "+49 30 1234"},
        )
        record = Citation(n=1, source=berlin, source_number=1, columns=("phone",))
        pasted = await page.evaluate(
            "(a) => Citecast.actions.plainAnswer(a.text, a.citations, '')",
            Answer(text="Call them.[^1]", citations=(record,)).to_json(),
        )
        assert pasted == f"Call them.[1]\n\nSources:\n{source_line(record)}\n"
        assert source_line(record) == (
            "[1] Berlin office — phone: +49 30 1234 — https://example.com/offices/ber"
        )

        # whoever follows the pasted link gets the file by a link signed as they open it
        other = await (await browser.new_context()).new_page()
        await other.goto(f"{share}#sources")
        fresh = await other.locator("#sources a[href*='/files/']").first.get_attribute("href")
        assert fresh is not None
        assert (await other.request.get(fresh)).status == 200
        await other.context.close()
    finally:
        await context.close()
        await running.stop()
