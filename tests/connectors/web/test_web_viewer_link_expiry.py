"""The links on a reading page expire no later than the link the viewer came by.

Each relative link of a viewed file becomes a signed ``/files/`` link. It was signed for the
full ``web.file_token_ttl`` from the moment the page was made, so pages linking each other (or
one linking itself) could be followed round to renew access for ever, long after the link the
viewer had was meant to expire. Over HTTP, with a fake clock: the new links expire with the
page's own, and once that moment passes every one of them is refused.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from urllib.parse import urljoin

import httpx

from bot.filetokens import FileSigner
from tests.connectors.web.test_web_viewer_links import anchors, href
from tests.connectors.web.viewer_kb import SECRET, build_linked_kb, viewer_app

START = 1_900_000_000
TTL = 3600
BASE = "http://viewer.test/files/"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def link_token(page: httpx.Response, text: str) -> str:
    """The token of the page's link named ``text`` (its fragment left off)."""
    target = href(anchors(page.text)[text])
    assert target is not None, text
    return urljoin(BASE, target).removeprefix(BASE).split("#")[0]


async def test_links_on_a_page_expire_with_the_link_it_was_opened_by(tmp_path: Path) -> None:
    clock = Clock(START)
    linked = build_linked_kb(tmp_path)
    signer = FileSigner(SECRET, "", TTL, roots=[linked.kb], clock=clock)
    linked = dataclasses.replace(linked, signer=signer)
    arrived = linked.token("docs/guide.md")
    expires = START + TTL
    assert signer.verify(arrived).expires_at == expires
    transport = httpx.ASGITransport(app=viewer_app(linked))
    async with httpx.AsyncClient(transport=transport, base_url="http://viewer.test") as client:
        clock.now = START + 3000
        guide = await client.get(f"/files/{arrived}")
        assert guide.status_code == 200
        setup, policy = link_token(guide, "the setup"), link_token(guide, "the policy")
        # not START + 3000 + TTL: no later than the link the page was opened by
        assert signer.verify(setup).expires_at == expires
        assert signer.verify(policy).expires_at == expires

        # round and round: the policy page links back to the guide, which links the policy
        clock.now = START + 3500
        opened = await client.get(f"/files/{policy}")
        back = link_token(opened, "the guide")
        assert signer.verify(back).expires_at == expires

        # a link made later than ttl before the page's expiry keeps its own, sooner, end
        short = FileSigner(SECRET, "", 60, roots=[linked.kb], clock=clock)
        shortly = dataclasses.replace(linked, signer=short)
        transport_short = httpx.ASGITransport(app=viewer_app(shortly))
        async with httpx.AsyncClient(
            transport=transport_short, base_url="http://viewer.test"
        ) as short_client:
            page = await short_client.get(f"/files/{arrived}")
            assert short.verify(link_token(page, "the setup")).expires_at == START + 3500 + 60

        clock.now = expires + 1
        for token in (arrived, setup, policy, back):
            refused = await client.get(f"/files/{token}")
            assert refused.status_code == 404
