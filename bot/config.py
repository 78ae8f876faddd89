"""Typed, validated settings from ``config.yaml`` (DESIGN §9).

Secrets never live in the file: write ``${SLACK_BOT_TOKEN}`` (or ``${NAME:-default}``) and the
value is taken from the environment when the file is loaded. Every section forbids unknown keys,
so a typo fails at start with the dotted key path and the reason instead of being ignored.

The sections of the knowledge index, the store and answering live here; each channel's section
is in ``bot.config_channels`` (re-exported here, so ``bot.config`` names every section) and its
connector documents what the keys mean. Reading the file (environment references, errors,
relative paths) is ``bot.config_file``.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from bot.config_channels import DiscordSettings, DiscourseSettings, SlackSettings, WebSettings
from bot.config_email import EmailSettings, ImapSettings, SmtpOutSettings
from bot.config_section import DocumentGroups, Groups, Section, base_url_problem, named_file
from bot.config_url_templates import checked_url_templates

__all__ = [
    "AssistantSettings",
    "AudienceRule",
    "DiscordSettings",
    "DiscourseSettings",
    "EmailSettings",
    "GroundingSettings",
    "ImapSettings",
    "IndexSettings",
    "OpenAISettings",
    "RecordTable",
    "ResolveSettings",
    "RetentionDays",
    "RetentionSettings",
    "Section",
    "Settings",
    "SlackSettings",
    "SmtpOutSettings",
    "StoreSettings",
    "WebSettings",
    "base_url_problem",
    "named_file",
    "retention_days",
]


class RecordTable(Section):
    """A table of records the assistant may look up (CSV file or SQLite table)."""

    name: str
    csv: str | None = None
    sqlite: str | None = None
    table: str | None = None
    id_column: str | None = None
    label_column: str | None = None
    label_template: str | None = None
    columns: list[str] = Field(default_factory=list)
    # column -> the name people see it under ("Price (USD)" for price_usd); checked at start
    # with the table (bot.knowledge.record_labels), as a column named in `columns` is
    column_labels: dict[str, str] = Field(default_factory=dict)
    action_url_template: str | None = None
    action_label: str = "Open"
    audience: DocumentGroups = Field(default_factory=lambda: ["public"])
    # What the table holds, in the words people ask with ("Plans and what they cost"): the
    # model reads it in the tool description, and the built-in answerer lists the table's
    # records when a question is about the table as a whole rather than one record.
    description: str = Field(default="", max_length=500)
    # A table is held in memory whole: a 55 MB CSV took 22 s to start and ~780 MB, and 500,000
    # rows of a few bytes each 23 s and ~540 MB. A CSV file larger than max_bytes, a SQLite
    # table whose text is, or a table of more rows than max_rows is refused at start (as
    # index.max_file_bytes does for documents); 0 = no limit.
    max_bytes: int = Field(default=50_000_000, ge=0)
    max_rows: int = Field(default=200_000, ge=0)


class AudienceRule(Section):
    """Files whose path matches ``glob`` (relative to the ingested root) get ``audience``."""

    glob: str
    audience: Groups

    @field_validator("glob")
    @classmethod
    def _relative(cls, value: str) -> str:
        """``./internal/*`` and ``/internal/*`` are ``internal/*``: the glob is matched against
        paths inside the ingested folder, which never start so, and a rule that matched nothing
        left the files it was written to keep private public."""
        relative = value.strip()
        while relative.startswith(("./", "/")):
            relative = relative.removeprefix("./").lstrip("/")
        if not relative:
            raise ValueError(f"{value!r} names no file; write a glob such as internal/*")
        return relative

    @field_validator("audience")
    @classmethod
    def _names_a_group(cls, value: list[str]) -> list[str]:
        """A rule naming no group stored every matching file for no one, without a word
        (``Groups`` has already refused a blank name and one holding ``|``)."""
        if not value:
            raise ValueError("names no group; write public if everyone may read these files")
        return value


class IndexSettings(Section):
    """Where the knowledge index lives and how documents are chunked."""

    path: str = ".citecast/index.db"
    chunk_chars: int = Field(default=1200, ge=200, le=20000)
    chunk_overlap: int = Field(default=0, ge=0, le=2000)
    # A file larger than this (its size on disk, a PDF's too, not its text) is skipped unread
    # with the reason: each file is read whole, and a 20 MB log took 13 s and ~140 MB.
    # 0 = no limit (as web.rate_limit_per_minute: a limit of nothing would index nothing).
    max_file_bytes: int = Field(default=50_000_000, ge=0)
    audience_rules: list[AudienceRule] = Field(default_factory=list)
    records: list[RecordTable] = Field(default_factory=list)
    # glob (relative to the ingested folder) -> public URL template with {path} and {stem},
    # for files published on a docs site; front-matter `url:` wins. First match wins.
    url_templates: dict[str, str] = Field(default_factory=dict)

    _path = field_validator("path")(named_file)
    # checked at start: a template giving no http(s) URL would cost every citation its link
    _url_templates = field_validator("url_templates")(checked_url_templates)


def retention_days(value: Any) -> Any:
    """``value`` as a number of days to keep rows, 0 meaning forever (``store.retention``).

    A number written as text (``${CLAIM_DAYS}``) counts; a flag, a word, a negative number or
    nan does not: each would otherwise delete rows too early or never, without a word. Blank
    (null) is left to the type check, which refuses it as blank like every other key.
    """
    if value is None:
        return value
    number: float | None = None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            number = float(value.strip())
    except (ValueError, OverflowError):  # OverflowError: an integer of hundreds of digits
        number = None
    if number is None or not math.isfinite(number):
        # as the file has it: `true`, not Python's `True`
        shown = str(value).lower() if isinstance(value, bool) else repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise ValueError(f"must be a number of days (0 keeps these rows forever), not {shown}")
    if number < 0:
        raise ValueError(f"must be 0 or more days (0 keeps these rows forever), not {value!r}")
    return number


RetentionDays = Annotated[float, BeforeValidator(retention_days)]


class RetentionSettings(Section):
    """How many days the store keeps what only serves to deliver once (``bot.store_retention``);
    0 keeps that class of rows forever. Turns, votes and connector state are always kept."""

    claim_days: RetentionDays = 60.0
    sent_days: RetentionDays = 7.0
    dead_days: RetentionDays = 30.0
    message_days: RetentionDays = 90.0


class StoreSettings(Section):
    """The SQLite store of turns, dedupe keys, outbox and feedback."""

    path: str = ".citecast/citecast.db"
    retention: RetentionSettings = Field(default_factory=RetentionSettings)

    _path = field_validator("path")(named_file)


class OpenAISettings(Section):
    """Any OpenAI-compatible endpoint."""

    base_url: str | None = None
    api_key: str = ""
    model: str = "gpt-4o-mini"
    timeout: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    # None leaves it out of the request: reasoning models (o1, o3, ...) refuse any temperature
    temperature: float | None = Field(default=0.2, ge=0, le=2)
    max_tool_rounds: int = Field(default=4, ge=1, le=20)
    # None leaves it out: the server's own limit (some deployments require one)
    max_tokens: int | None = Field(default=None, ge=1)


class AssistantSettings(Section):
    """Which backend answers and how much it retrieves."""

    backend: Literal["extractive", "openai"] = "extractive"
    top_k: int = Field(default=5, ge=1, le=50)
    max_sentences: int = Field(default=4, ge=1, le=20)
    cache_size: int = Field(default=256, ge=0)
    # the language answers are written in (a BCP 47 tag), said to screen readers on the chat
    # page, the widget, the share page and the email's HTML part; "" leaves it unsaid
    language: str = ""
    openai: OpenAISettings = Field(default_factory=OpenAISettings)

    @field_validator("language")
    @classmethod
    def _language_tag(cls, value: str) -> str:
        """A language tag such as ``de`` or ``pt-BR``: it lands in HTML ``lang`` attributes."""
        from bot.language_tags import checked_language_tag

        return checked_language_tag(value)


class ResolveSettings(Section):
    """Resolver policy (see ``bot.resolver.ResolvePolicy``)."""

    numbering: Literal["appearance", "registry"] = "appearance"
    max_citations: int | None = Field(default=None, ge=1)
    infer_from_mentions: bool = False
    strip_model_source_lists: bool = True
    key_word: str = "source"


class GroundingSettings(Section):
    """Claim-level support checks (see ``bot.grounding``)."""

    policy: Literal["annotate", "drop", "off"] = "annotate"
    threshold: float = Field(default=0.35, ge=0.0, le=1.0)
    flag_uncited_claims: bool = True
    backend: str = "lexical"

    @field_validator("backend")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        """``lexical`` or ``module:factory``, checked when the file is read: ``lexica`` was
        refused only when a command first scored, and with no hint of the name meant, where a
        mistyped choice of any other setting gets one."""
        from bot.config_choices import close_choice

        module, _, factory = value.partition(":")
        if value == "lexical" or (module.strip() and factory.strip()):
            return value  # whether the factory loads is checked by bot.support at start
        close = close_choice(value, ["lexical"])
        hint = f" (did you mean {close}?)" if close else ""
        raise ValueError(f"expected 'lexical' or 'module:factory', got {value!r}{hint}")


class Settings(Section):
    """All of ``config.yaml``."""

    index: IndexSettings = Field(default_factory=IndexSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    assistant: AssistantSettings = Field(default_factory=AssistantSettings)
    resolve: ResolveSettings = Field(default_factory=ResolveSettings)
    grounding: GroundingSettings = Field(default_factory=GroundingSettings)
    capabilities: dict[str, dict[str, Any]] = Field(default_factory=dict)
    web: WebSettings = Field(default_factory=WebSettings)
    slack: SlackSettings = Field(default_factory=SlackSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    email: EmailSettings = Field(default_factory=EmailSettings)
    discourse: DiscourseSettings = Field(default_factory=DiscourseSettings)
