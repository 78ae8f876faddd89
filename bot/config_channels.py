"""The settings sections of the chat channels: web, Slack, Discord and Discourse (``bot.config``).

Email's sections are in ``bot.config_email``.

Each connector documents what its keys mean; ``bot.config.Settings`` gathers the sections.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, field_validator

from bot.config_section import Groups, Section, base_url_problem, named_file
from bot.host_names import entries_without_problem, host_pattern_problem, origin_problem


class WebSettings(Section):
    """The web server: chat page, widget, REST and SSE API, signed file downloads."""

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    # What the chat page, the widget and the shared answer pages call the assistant.
    title: str = Field(default="citecast", min_length=1, max_length=80)
    subtitle: str = Field(
        default="Answers from the knowledge base, every claim with its source.", max_length=200
    )
    # Offered as buttons while a conversation is empty (as Slack's suggested_prompts).
    suggested_prompts: list[str] = Field(default_factory=list, max_length=4)
    public_base_url: str | None = None
    audience: Groups = Field(default_factory=lambda: ["public"])
    cors_origins: list[str] = Field(default_factory=list)
    # Host names answered besides localhost, IP addresses, the bind host and the public base
    # URL's host (against DNS rebinding, see bot.connectors.web_hosts); ["*"] answers any.
    allowed_hosts: list[str] = Field(default_factory=list)
    file_secret: str = ""
    file_token_ttl: int = Field(default=3600, ge=60)
    max_question_chars: int = Field(default=4000, ge=1)
    max_body_bytes: int = Field(default=64_000, ge=1024)
    # Questions (POST /api/ask and the stream) per client address per minute; 0 = no limit.
    rate_limit_per_minute: int = Field(default=60, ge=0)
    # Directories whose files /files/{token} may serve, besides the roots the index ingested.
    file_roots: list[Annotated[str, AfterValidator(named_file)]] = Field(default_factory=list)
    history_turns: int = Field(default=6, ge=0, le=50)
    # Seconds `citecast serve` lets in-flight answers finish on SIGINT/SIGTERM.
    shutdown_grace: float = Field(default=10.0, ge=0, le=600)
    # Seconds of backend silence after which the SSE stream sends a keep-alive comment.
    sse_heartbeat: float = Field(default=15.0, gt=0, le=300)

    @field_validator("public_base_url")
    @classmethod
    def _public_base_url(cls, value: str | None) -> str | None:
        # blank (an unset ${PUBLIC_URL}) means none, as leaving the key out does
        if value is None or not value.strip():
            return None
        problem = base_url_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("cors_origins")
    @classmethod
    def _cors_origins(cls, value: list[str]) -> list[str]:
        return entries_without_problem(value, origin_problem)

    @field_validator("allowed_hosts")
    @classmethod
    def _allowed_hosts(cls, value: list[str]) -> list[str]:
        return entries_without_problem(value, host_pattern_problem)


class SlackSettings(Section):
    """The Slack app (slack-bolt): HTTP events or Socket Mode (see ``bot.connectors.slack``).

    Public channels always get ``public_audience``. DMs add the groups mapped from the user's
    email domain, user groups and ``audience_by_channel``; private channels and group DMs add
    only the channel mapping (and the asker's groups when ``private_channels_use_user_groups``,
    since everyone in the channel reads the answer). Streaming is ``native`` (chat.*Stream, with
    automatic fallback to ``edit``), ``edit`` (post, then at most one chat.update per
    ``edit_interval_seconds``) or ``none`` (one message). Calls answered 429 wait Retry-After
    (up to ``retry_max_seconds``; a longer wait is left to the outbox);
    5xx are retried with backoff from ``retry_backoff_seconds``, up to ``max_retries`` times.
    ``slash_command`` (empty to disable) answers privately, with the asker's own groups. Answers
    Slack refuses even after retries wait in the outbox, retried every ``outbox_poll_seconds``
    (see ``bot.connectors.slack_outbox_tries`` for when one is given up).
    """

    enabled: bool = False
    mode: Literal["http", "socket"] = "http"
    bot_token: str = ""
    app_token: str = ""
    signing_secret: str = ""
    api_base_url: str | None = None
    streaming: Literal["native", "edit", "none"] = "native"
    suggested_prompts: list[str] = Field(default_factory=list, max_length=4)
    public_audience: Groups = Field(default_factory=lambda: ["public"])
    audience_by_email_domain: dict[str, Groups] = Field(default_factory=dict)
    audience_by_usergroup: dict[str, Groups] = Field(default_factory=dict)
    audience_by_channel: dict[str, Groups] = Field(default_factory=dict)
    private_channels_use_user_groups: bool = False
    max_file_bytes: int = Field(default=50_000_000, ge=0)
    # Assistant-thread statuses (assistant.threads.setStatus; Slack shows "<app name> <status>"
    # in one line, and "" removes the status): while answering, when the answer waits in the
    # outbox, and when it was dropped and not even the apology could be posted. Slack's docs
    # give no length limit, but the API is reported to refuse more than 50 characters
    # (getsentry/junior#56), and a refused status is only a debug line: keep within 50.
    thinking_status: str = Field(default="thinking\u2026", max_length=50)
    queued_status: str = Field(default="will post the answer here shortly", max_length=50)
    failed_status: str = Field(default="couldn't answer this time; please ask again", max_length=50)
    feedback_buttons: bool = True
    history_turns: int = Field(default=10, ge=0, le=100)
    edit_interval_seconds: float = Field(default=1.0, ge=0)
    stream_buffer_chars: int = Field(default=256, ge=1, le=12_000)
    native_stream_max_chars: int = Field(default=12_000, ge=100)
    max_retries: int = Field(default=3, ge=0, le=20)
    retry_backoff_seconds: float = Field(default=0.5, ge=0)
    retry_max_seconds: float = Field(default=60.0, ge=0)
    request_timeout_seconds: float = Field(default=30.0, gt=0)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)
    apology: str = "Sorry, I couldn't answer that just now. Please try again in a moment."
    slash_command: str = "/citecast"  # empty: no command; see _slash_command
    outbox_poll_seconds: float = Field(default=30.0, gt=0)
    # how long a signed /files/ link in a thread message works (days; 0: web.file_token_ttl):
    # a Slack thread is read days later with nothing to reload, and every download re-checks
    # who may read the file (bot.connectors.link_lifetime)
    file_link_ttl_days: int = Field(default=365, ge=0, le=3650)

    @field_validator("thinking_status", "queued_status", "failed_status")
    @classmethod
    def _one_line_status(cls, value: str) -> str:
        # a status is one line after the app's name: a line break or control character
        # would garble it (or have Slack refuse it, which costs the status silently)
        if any(ord(ch) < 0x20 or ch == "\x7f" for ch in value):
            raise ValueError("must be one line of text without control characters")
        return value

    @field_validator("slash_command")
    @classmethod
    def _slash_command(cls, value: str) -> str:
        # said in words: a regex in the error tells the operator nothing
        if value and not value.startswith("/"):
            raise ValueError(f"{value!r} must start with / (e.g. /citecast), or be empty")
        allowed = set("abcdefghijklmnopqrstuvwxyz0123456789_-")
        if value and not (0 < len(value) - 1 <= 31 and set(value[1:]) <= allowed):
            raise ValueError(
                f"{value!r}: after the / come 1 to 31 lowercase letters, digits, - or _"
            )
        return value

    @field_validator("audience_by_channel", "audience_by_usergroup")
    @classmethod
    def _slack_ids(cls, value: dict[str, Groups], info: Any) -> dict[str, Groups]:
        # the connector looks these up by id: a name (#staff-only, hr-team) would match nothing
        first, what = {
            "audience_by_channel": (
                "CGD",
                "a channel id (C…, G… or D…: the channel's name → About → Channel ID)",
            ),
            "audience_by_usergroup": (
                "S",
                "a user group id (S…: the group's page URL ends in it, or usergroups.list)",
            ),
        }[info.field_name]
        allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for key in value:
            slack_id = key.strip()
            rest = slack_id[1:]
            if not (slack_id[:1] in first and rest and set(rest) <= allowed):
                raise ValueError(f"{key!r} is not an id: each key must be {what}")
        return {key.strip(): groups for key, groups in value.items()}


class DiscordSettings(Section):
    """The Discord bot (discord.py)."""

    enabled: bool = False
    token: str = ""
    api_base_url: str | None = None
    channels: list[int] = Field(default_factory=list)
    forum_channels: list[int] = Field(default_factory=list)
    # shared roles (ids) whose mention also asks the bot, where it holds them; its own managed
    # role always does, so that pinging @Moderators does not summon it unless listed here
    summon_roles: list[int] = Field(default_factory=list)
    embeds: bool = False
    audience_by_guild: dict[str, Groups] = Field(default_factory=dict)
    audience_by_channel: dict[str, Groups] = Field(default_factory=dict)
    audience_by_role: dict[str, Groups] = Field(default_factory=dict)
    dm_audience_by_user: dict[str, Groups] = Field(default_factory=dict)
    max_file_bytes: int = Field(default=10_000_000, ge=0)
    gateway_url: str | None = None
    public_audience: Groups = Field(default_factory=lambda: ["public"])
    stream_interval: float = Field(default=1.0, ge=0.0, le=60.0)
    max_retries: int = Field(default=3, ge=0, le=10)
    retry_backoff: float = Field(default=1.0, ge=0.0, le=60.0)
    history_limit: int = Field(default=10, ge=0, le=50)
    guild_ready_timeout: float = Field(default=2.0, ge=0.0, le=60.0)
    typing_interval: float = Field(default=8.0, gt=0.0, le=60.0)
    # on connecting, questions asked this many minutes back that nobody answered (the bot
    # was stopped, or its session was lost) are answered; 0: none
    catch_up_minutes: int = Field(default=30, ge=0, le=1440)
    failure_message: str = "Sorry, I couldn't answer that just now. Please try again in a moment."
    empty_question_message: str = "Ask me a question after mentioning me."
    # told to the asker of a question a crash or restart left unanswered for over a day ("":
    # nothing, only the warning in the log)
    missed_message: str = (
        "Sorry, I missed this question while I was offline. Please ask again if you still "
        "need an answer."
    )
    # how long a signed /files/ link in a message works (days; 0: web.file_token_ttl): a
    # Discord message is read days later with nothing to reload, and every download re-checks
    # who may read the file (bot.connectors.link_lifetime)
    file_link_ttl_days: int = Field(default=365, ge=0, le=3650)

    @field_validator(
        "audience_by_guild", "audience_by_channel", "audience_by_role", "dm_audience_by_user"
    )
    @classmethod
    def _keys_are_ids(cls, value: dict[str, Groups], info: Any) -> dict[str, Groups]:
        # the connector looks these up by id: a name (`Staff`, `staff-only`) would match nothing
        what = {
            "audience_by_guild": "the server icon → Copy Server ID",
            "audience_by_channel": "the channel → Copy Channel ID",
            "audience_by_role": "the role → Copy Role ID",
            "dm_audience_by_user": "the user → Copy User ID",
        }[info.field_name]
        for key in value:
            if not key.strip().isdigit():
                raise ValueError(
                    f"{key!r} is not an id: the keys are Discord ids (numbers); turn on "
                    f"Developer Mode (User Settings → Advanced) and right-click {what}"
                )
        return {key.strip(): groups for key, groups in value.items()}

    @field_validator("channels", "forum_channels", "summon_roles", mode="before")
    @classmethod
    def _items_are_ids(cls, value: Any, info: Any) -> Any:
        # `channels: [general]` would fail with pydantic's bare "valid integer": say how to
        # find the id instead, as for the audience maps
        role = info.field_name == "summon_roles"
        what = "the role → Copy Role ID" if role else "the channel → Copy Channel ID"
        for item in value if isinstance(value, list) else []:
            name = item.strip() if isinstance(item, str) else None
            if name is not None and not name.isdigit():
                raise ValueError(
                    f"{item!r} is not an id: the entries are Discord ids (numbers); turn on "
                    f"Developer Mode (User Settings → Advanced) and right-click {what}"
                )
        return value


class DiscourseSettings(Section):
    """A Discourse forum: webhook in, REST API out (see ``bot.connectors.discourse``).

    The bot answers new topics, ``@api_username`` mentions and replies to its posts, only in
    ``categories`` (ids). ``audience_by_category`` maps a category id to the groups its readers
    belong to (unmapped listed categories are public). Requests that get 429 or 5xx are retried
    up to ``max_attempts`` times, waiting Retry-After or ``retry_base_seconds`` doubling up to
    ``retry_max_seconds``. An empty ``allowed_upload_extensions`` lets the forum decide.
    """

    enabled: bool = False
    base_url: str = ""
    api_key: str = ""
    api_username: str = "citecast"
    webhook_secret: str = ""
    categories: list[int] = Field(default_factory=list)
    audience_by_category: dict[str, Groups] = Field(default_factory=dict)
    # the site's "max post length" when lower than Discourse's default (it cannot be read with a
    # granular key); a lower one is also learned from the first refusal (discourse_limits)
    max_post_length: int = Field(default=32_000, ge=300)
    # the site's min_post_length: a shorter answer ("No.") gets a note rather than a refusal
    min_post_length: int = Field(default=20, ge=0, le=1000)
    # the site's max_consecutive_replies (3 by default; 0 when the forum has none or the bot
    # user is exempt: staff or a category group moderator): answers are packed to fit
    max_consecutive_replies: int = Field(default=3, ge=0)
    allowed_upload_extensions: list[str] = Field(default_factory=list)
    # how long a signed /files/ link in a post works (days; 0: web.file_token_ttl, as on the
    # web): a post is read for months, and every download re-checks who may read the file
    file_link_ttl_days: int = Field(default=365, ge=0, le=3650)
    # upload files that are not public to the forum too: an upload is fetchable by anyone with
    # its URL unless the forum has "secure uploads", and outlives citecast's audience rules
    upload_private_files: bool = False
    # the reply to a bare "@citecast" (a mention or reply with no question); "": none
    empty_question_message: str = "Ask me a question after mentioning me."
    answer_new_topics: bool = True
    # post "I could not find anything …" to a new topic too: off, a new topic the knowledge
    # base has nothing on gets no reply, which would bump it for everyone watching (a mention
    # or a reply to the bot always gets one; bot.connectors.discourse_quiet)
    reply_to_new_topics_when_not_found: bool = False
    answer_mentions: bool = True
    answer_replies: bool = True
    # like a post that only thanks, agrees or says goodbye instead of replying to it
    # (bot.connectors.discourse_thanks); false replies with a post, as to any question
    like_small_talk: bool = True
    history_posts: int = Field(default=20, ge=0, le=200)
    request_timeout: float = Field(default=30.0, gt=0)
    max_attempts: int = Field(default=5, ge=1, le=20)
    retry_base_seconds: float = Field(default=1.0, ge=0)
    retry_max_seconds: float = Field(default=60.0, ge=0)
    outbox_poll_seconds: float = Field(default=30.0, gt=0)
    # other bot users (positive ids) whose posts are never answered: two bots replying to each
    # other's posts would otherwise go back and forth until a rate limit stopped them
    ignore_users: list[str] = Field(default_factory=list)

    @field_validator("audience_by_category", mode="before")
    @classmethod
    def _category_keys(cls, value: Any) -> Any:
        # YAML reads `12: [staff]` with an integer key: a category id either way
        if isinstance(value, dict):
            return {
                str(key) if isinstance(key, int) else key: groups for key, groups in value.items()
            }
        return value
