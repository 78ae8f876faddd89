"""Discourse's ``max_consecutive_replies`` refusal on a forum in another language: told by the
words of Discourse's own translations (config/locales/server.*.yml), whatever number
``discourse.max_consecutive_replies`` is set to, and never taken from another refusal."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors import discourse_consecutive
from bot.connectors.discourse_consecutive import consecutive_refusal
from tests.connectors.discourse_harness import PUBLIC, opened_harness
from tests.connectors.test_discourse_consecutive import ANSWER, SOURCES, statuses
from tests.fakes import discourse_consecutive as fake_rule
from tests.fakes.discourse_api import FakeDiscourse

LOGGER = "bot.connectors.discourse_consecutive"

JAPANESE = (
    "{count} 回を超える連続の返信は禁止されています。"
    "前の返信を編集するか、他の人の返信をお待ちください。"
)
# max_consecutive_replies in server.<locale>.yml (de, fr, es, pt_BR, ru, ja, zh_CN), with the
# site setting at 3 ("other") and 1 ("one"; Japanese and Chinese have only "other")
REFUSALS = [
    fake_rule.GERMAN_OTHER.format(count=3),
    fake_rule.GERMAN_ONE,
    "Seules 3 réponses consécutives sont autorisées. Veuillez modifier votre réponse"
    " précédente ou attendre que quelqu'un vous réponde.",
    "Aucune réponse consécutive n'est autorisée. Veuillez modifier votre réponse précédente ou"
    " attendre que quelqu'un vous réponde.",
    "No se permiten más de 3 respuestas consecutivas. Edita tu respuesta anterior o espera a"
    " que alguien te responda.",
    "No se permiten respuestas consecutivas. Edita tu respuesta anterior o espera a que alguien"
    " te responda.",
    "Não são permitidas mais de 3 respostas consecutivas. Edite sua resposta anterior ou"
    " aguarde alguém responder.",
    "Nenhuma resposta consecutiva é permitida. Edite sua resposta anterior ou aguarde alguém"
    " responder.",
    "Допускается не более 3 последовательных ответов. Отредактируйте предыдущий ответ или"
    " дождитесь, пока кто-нибудь не ответит вам.",
    "Допускается не более 1 последовательного ответа. Отредактируйте предыдущий ответ или"
    " дождитесь, пока кто-нибудь не ответит вам.",
    JAPANESE.format(count=3),
    JAPANESE.format(count=1),
    "不得连续回复超过 3 次。请编辑您之前的回复，或者等待某个人回复您。",
]
# other refusals of a reply from the same files, naming small numbers
OTHERS = [
    "Entschuldige, neue Benutzer können Beiträgen höchstens 2 Links hinzufügen.",
    "darf höchstens 300 Zeichen lang sein; du hast 612 eingegeben.",
    "Nous sommes désolés, vous ne pouvez mentionner que 2 utilisateurs dans un même message.",
    "Lo sentimos, solo puedes mencionar a 2 usuarios en una publicación.",
    "新規ユーザーは投稿につき 2 件のリンクしか追加できません。",
    "返信に急ぎ過ぎているようです。3 秒経ってから、もう一度お試しください。",
    # too_many_replies: a new user's replies in one topic (3 by default, as the rule's)
    "Entschuldigung, aber neue Benutzer sind vorübergehend auf 3 Antworten pro Thema beschränkt.",
    "Новые пользователи в данный момент могут оставлять только 3 ответа в теме.",
    "抱歉，新用户被暂时限制为在同一个话题中回复不超过 3 次。",
    "Desculpe, usuários(as) novos(as) podem inserir apenas 2 links em uma postagem.",
]


@pytest.fixture(autouse=True)
def fresh_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The setting's warning is logged once a process: each test starts before it."""
    monkeypatch.setattr(discourse_consecutive, "_SETTING_WARNING", discourse_consecutive._Once())


@pytest.mark.parametrize("refusal", REFUSALS)
@pytest.mark.parametrize("allowed", [0, 1, 3])
def test_a_translated_refusal_is_told_whatever_the_setting(refusal: str, allowed: int) -> None:
    assert consecutive_refusal([refusal], 2, allowed)
    assert consecutive_refusal([refusal], 4, allowed)


@pytest.mark.parametrize("refusal", OTHERS)
@pytest.mark.parametrize("allowed", [0, 1])
def test_another_translated_refusal_is_not_taken_for_it(refusal: str, allowed: int) -> None:
    assert not consecutive_refusal([refusal], 4, allowed)


def test_a_setting_the_refusal_shows_wrong_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    # the forum's own number (3 named, 1 by a "one" form naming none): nothing to say
    assert consecutive_refusal([fake_rule.GERMAN_OTHER.format(count=3)], 4, 3)
    assert consecutive_refusal([fake_rule.GERMAN_ONE], 2, 1)
    assert not caplog.records
    assert consecutive_refusal([fake_rule.GERMAN_OTHER.format(count=3)], 4, 0)
    assert consecutive_refusal([fake_rule.GERMAN_OTHER.format(count=3)], 4, 1)
    assert consecutive_refusal([REFUSALS[2]], 4, 0)
    (record,) = caplog.records
    assert "discourse.max_consecutive_replies is 0" in record.getMessage()
    assert "allows 3 in a row" in record.getMessage()


@pytest.mark.parametrize(("rule", "configured"), [(3, 0), (3, 1), (1, 1)])
async def test_a_part_refused_in_german_waits_instead_of_failing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    rule: int,
    configured: int,
) -> None:
    # A German forum with posts of at most 2,000 characters: six parts, `rule` in a row.
    monkeypatch.setattr(fake_rule, "CONSECUTIVE_ONE", fake_rule.GERMAN_ONE)
    monkeypatch.setattr(fake_rule, "CONSECUTIVE_OTHER", fake_rule.GERMAN_OTHER)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    async with (
        FakeDiscourse(max_post_length=2000, max_consecutive_replies=rule) as forum,
        opened_harness(
            forum, tmp_path, max_post_length=2000, max_consecutive_replies=configured
        ) as h,
    ):
        h.script(SOURCES, ANSWER)
        question = forum.new_topic("Alles", "Erzähl mir alles", category_id=PUBLIC)
        await h.deliver(question)
        assert len(forum.bot_posts()) == rule
        waiting = h.store.pending("discourse")
        assert waiting and waiting[0].last_error
        assert waiting[0].last_error.startswith(discourse_consecutive.WAITING)
        assert statuses(h) == ["done"]
    told = [r for r in caplog.records if "discourse.max_consecutive_replies is" in r.getMessage()]
    assert len(told) == (0 if rule == configured else 1)
