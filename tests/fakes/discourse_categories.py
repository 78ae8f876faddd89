"""The fake Discourse forum's categories and site: ``/c/{id}/show.json`` and
``/site/basic-info.json``.

:class:`ForumCategories` is the part of :class:`tests.fakes.discourse_api.FakeDiscourse` that
says who reads a category: ``read_restricted`` is false for a category in ``open_categories``
(its security lets *everyone* see it) and true for every other one (restricted to some group, as
a test's private categories are); ``parent_category_id`` comes from ``parent_categories``. The
site's ``login_required`` is served by ``/site/basic-info.json``, which Discourse answers to
anyone, signed in or not, so it needs no API key.
"""

from __future__ import annotations

from aiohttp import web

from tests.fakes.discourse_wire import NOT_PERMITTED, FakeTopic, error_response


class ForumCategories:
    """Categories' side of the fake forum (state lives in FakeDiscourse)."""

    topics: dict[int, FakeTopic]
    staff: set[str]
    hidden_categories: set[int]
    open_categories: set[int]
    parent_categories: dict[int, int]
    login_required: bool
    basic_info_reads: list[dict[str, str]]

    def _check(self, request: web.Request) -> web.Response | None:
        raise NotImplementedError  # FakeDiscourse's: the key, and injected answers

    async def _category(self, request: web.Request) -> web.Response:
        # CategoriesController#show: {"category": {...}} as CategorySerializer writes it, with
        # parent_category_id null for a top-level category; one the user may not see is refused
        denied = self._check(request)
        if denied is not None:
            return denied
        category_id = int(request.match_info["category_id"])
        staff = request.headers.get("Api-Username", "") in self.staff
        if category_id in self.hidden_categories and not staff:
            return error_response(403, [NOT_PERMITTED], "invalid_access")
        return web.json_response(
            {
                "category": {
                    "id": category_id,
                    "name": f"Category {category_id}",
                    "slug": f"category-{category_id}",
                    "parent_category_id": self.parent_categories.get(category_id),
                    "read_restricted": category_id not in self.open_categories,
                    "topic_count": sum(
                        1 for t in self.topics.values() if t.category_id == category_id
                    ),
                }
            }
        )

    async def _basic_info(self, request: web.Request) -> web.Response:
        # SiteController#basic_info: public, also on a login_required site (it skips the
        # login redirect); the headers are kept so a test can see what was sent
        self.basic_info_reads.append(dict(request.headers))
        injected = self._injected_answer(request)
        if injected is not None:
            return injected
        return web.json_response(
            {
                "title": "Fake forum",
                "description": "",
                "login_required": self.login_required,
                "locale": "en",
            }
        )

    def _injected_answer(self, request: web.Request) -> web.Response | None:
        # FakeDiscourse's: a redirect or an injected answer (no key check)
        raise NotImplementedError
