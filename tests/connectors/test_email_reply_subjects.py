"""Reply subjects: ``Re:`` once, whatever prefixes and tags the subject had at its start (in the
clients' languages, a full-width colon, a gateway's ``[EXTERNAL]``); a mail without a subject gets
the answer's first line, as every answer's subject is, never a made-up "Re: your question"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.connectors.email_compose import reply_subject
from bot.connectors.email_subject import subject_question
from tests.connectors.email_flow_harness import EmailFlow, flow
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import wait_for

__all__ = ["flow"]


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("[EXTERNAL] RE: Installing", "Re: [EXTERNAL] Installing"),
        ("Re: [support] Re: Installing", "Re: [support] Installing"),
        ("Re: [support] Installing", "Re: [support] Installing"),
        ("[EXTERNAL] Installing", "Re: [EXTERNAL] Installing"),
        ("[EXTERNAL] RE: [EXTERNAL] RE: Installing", "Re: [EXTERNAL] Installing"),
        ("[ext] [Support] Re: [EXT] AW: Installing", "Re: [ext] [Support] Installing"),
        ("Re：Installing", "Re: Installing"),
        ("回复: 安装", "Re: 安装"),
        ("答复：回复：安装", "Re: 安装"),
        ("AW: SV: VS: Odp: Antw: Installing", "Re: Installing"),
        ("RE^2: Re(3): Installing", "Re: Installing"),
        ("Отв: Установка", "Re: Установка"),
        ("Installing: RE: the proxy", "Re: Installing: RE: the proxy"),
        ("Fwd: Installing", "Re: Fwd: Installing"),
        ("Re: [EXTERNAL]", "Re: [EXTERNAL]"),
        ("", ""),
        ("  Re:  ", ""),
    ],
)
def test_reply_prefixes_and_tags_at_the_start_are_kept_once(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


@given(st.text(max_size=80))
def test_a_reply_subject_never_doubles_a_prefix(subject: str) -> None:
    once = reply_subject(subject)
    assert reply_subject(once) == once
    assert once == "" or once.startswith("Re: ")
    assert not reply_subject(once[4:]).startswith("Re: Re:")


def test_a_subject_asked_with_a_full_width_or_chinese_prefix_loses_it() -> None:
    assert subject_question("回复：如何安装？") == "如何安装？"
    assert subject_question("[EXTERNAL] RE: Installing") == "[EXTERNAL] RE: Installing"


async def test_a_mail_without_a_subject_gets_the_answers_first_line(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        outcome = await connector.handle_message(inbound_mail(subject=""))
        assert outcome.status == "answered"
        await wait_for(lambda: len(flow.mails) == 1)
    subject = str(flow.mails[0].message()["Subject"])
    # the renderer's rule for any answer: its first line with words, without citation markers
    assert subject == "Install it with pip install citecast. ARM works too."


async def test_a_tagged_reply_is_answered_under_one_re(flow: EmailFlow) -> None:
    async with flow.running() as connector:
        await connector.handle_message(inbound_mail(subject="[EXTERNAL] RE: Installing"))
        await wait_for(lambda: len(flow.mails) == 1)
    assert str(flow.mails[0].message()["Subject"]) == "Re: [EXTERNAL] Installing"
