"""The web's answer text carries no bidi controls and no control codes (README "### Escaping").

The chat's "Copy answer" copies ``answer.text`` of the stream's ``done`` event; the ``delta``
events' ``text`` and ``POST /api/ask``'s ``answer.text`` carry the same. They held the model's
``\\u202e`` (``91$`` pasted as ``$19``), ESC and BEL, which ``citecast ask`` prints escaped
(``\\u202e``): now every one of them is the text every channel shows.
"""

from __future__ import annotations

from pathlib import Path

from bot.commands.output import terminal_text
from tests.connectors.web.conftest import WebHarness, build_harness, passage
from tests.fakes.answerer import ScriptedAnswerer

BIDI_AND_C0 = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\x00\x07\x1b"


async def test_the_web_answer_text_carries_no_bidi_or_control_characters(
    tmp_path: Path,
) -> None:
    raw = "Pay \u202e91$\u202c now\x1b[31m\x07 [1].\n"
    answerer = ScriptedAnswerer([passage(1)], raw, chunk=2)
    services, client = build_harness(tmp_path, answerer)
    async with client:
        web = WebHarness(services, answerer, client)  # type: ignore[arg-type]
        events = await web.stream(question="pay?")
        done = next(data for name, data in events if name == "done")
        deltas = "".join(data.get("text", "") for name, data in events if name == "delta")
        posted = (await web.ask("pay?")).json()
    services.store.close()
    texts = (done["answer"]["text"], deltas, posted["answer"]["text"])
    for text in texts:
        assert not any(ch in text for ch in BIDI_AND_C0), repr(text)
    assert done["answer"]["text"] == posted["answer"]["text"] == "Pay 91$ now[31m [^1]."
    # what "Copy answer" copies is what `citecast ask` prints: nothing left to escape
    assert terminal_text(posted["answer"]["text"]) == posted["answer"]["text"]
