"""An email HTML part's tags must nest: one checker for the email tests."""

from __future__ import annotations

from html.parser import HTMLParser


class HtmlCheck(HTMLParser):
    """Collects links and checks that tags nest (void elements aside)."""

    VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "col", "wbr", "source"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hrefs += [v or "" for k, v in attrs if k == "href"]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def nested(html: str) -> HtmlCheck:
    """Parse ``html``; assert every tag is closed in order; return the check (with its links)."""
    check = HtmlCheck()
    check.feed(html)
    check.close()
    assert check.errors == [] and check.stack == []
    return check
