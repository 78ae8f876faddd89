"""A long Japanese, Chinese, Russian or vocalised Arabic quote opens its file at the quoted words.

Headless Chromium, as a reader's browser: a CJK start term cut mid-word (``設定ファイルは必``,
inside ``必ず``) matches nowhere, and a Cyrillic or Arabic quote used to get no text fragment
at all (six or twelve encoded characters a letter). Either way the page opened at its top.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.deeplinks import file_link
from bot.models import Source
from tests.connectors.browser.test_web_file_passage_browser import opens_scrolled_to, serve_examples

QUOTES = [
    (
        "設定ファイルは<b>必ず</b>管理者が編集し、変更内容を記録してから、"
        "サーバーを再起動して新しい設定を読み込ませる必要があります。"
        "変更は翌日から有効です。"
    ),
    (
        "设置文件必须由管理员编辑，修改内容要记录下来并通知所有相关的同事和部门负责人，"
        "然后重启服务器以加载新的设置，否则新的设置不会生效而且可能导致系统出现各种无法预料的错误。"
    ),
    (
        "Пропуск сотрудника необходимо продлевать ежегодно в отделе безопасности на третьем "
        "этаже главного здания компании."
    ),
    ("يَتَوَجَّبُ عَلَى المُوَظَّفِينَ المُسْتَجَدِّينَ اسْتِكْمَالُ إِجْرَاءَاتِ التَّسْجِيلِ الإِلِكْتْرُونِيِّ."),
]
FILLER = "".join(f"<p>Filler paragraph {n} says nothing in particular.</p>\n" for n in range(40))


async def test_a_long_non_latin_quote_opens_the_file_at_it(
    browser: Browser, tmp_path: Path
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    body = FILLER + "".join(f"<p>{quote}</p>\n{FILLER}" for quote in QUOTES)
    (kb / "intl.html").write_text(
        f'<!doctype html><html><head><meta charset="utf-8"><title>Intl</title></head>'
        f"<body>{body}</body></html>",
        encoding="utf-8",
    )
    signer, live, services = await serve_examples(tmp_path, root=kb)
    context = await browser.new_context(viewport={"width": 360, "height": 320})
    try:
        page = await context.new_page()
        source = Source(id="intl.html", path=str(kb / "intl.html"), filename="intl.html")
        plain = signer.url_for(source, frozenset({"public"}), live.url)
        assert plain is not None
        for quote in QUOTES:
            words = quote.replace("<b>", "").replace("</b>", "")
            link = file_link(plain, source, words)
            assert "#:~:text=" in link, words
            await opens_scrolled_to(page, plain, link, words)
    finally:
        await context.close()
        await live.stop()
        services.store.close()
