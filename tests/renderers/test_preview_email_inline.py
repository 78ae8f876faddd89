"""The preview draws the email HTML part inline (no longer in a sandboxed iframe), so it is
sanitized like every other panel: its own inline styles stay, anything that could run or load
something does not, and the page itself has no script."""

from __future__ import annotations

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.preview import email_view, preview_page

HOSTILE = (
    '<html><head><title>x</title><script>alert(1)</script></head><body style="margin:0;'
    'background:url(https://t.example/px)"><p style="color:red;background-image:url(x)" '
    'onclick="alert(2)">Hi<img src="https://t.example/px"></p><iframe src="https://t.example">'
    '</iframe><a href="javascript:alert(3)">link</a></body></html>'
)


def test_what_could_run_or_load_is_taken_out() -> None:
    drawn = email_view(HOSTILE)
    assert drawn["style"] == "margin:0"
    for gone in ("script", "alert", "url(", "<img", "<iframe", "onclick", "javascript", "<title"):
        assert gone not in drawn["html"] and gone not in drawn["style"], gone
    assert '<p style="color:red">Hi</p>' in drawn["html"]


def test_the_email_part_is_drawn_with_its_own_styles_and_no_script() -> None:
    source = Source("s1", title="Admin <Guide>", url="https://d.example/g")
    answer = Answer(text="Restart it.[^1]", citations=(Citation(1, source, 1),))
    email_html = render("email", answer)["html"]
    page = preview_page(answer)
    assert "<script" not in page.lower() and "<iframe" not in page.lower()
    assert '<template shadowrootmode="open">' in page
    drawn = email_view(email_html)
    assert drawn["html"] in page
    assert "Admin &lt;Guide&gt;" in drawn["html"]
    assert 'style="max-width:640px;' in drawn["html"]  # the email's layout, kept
