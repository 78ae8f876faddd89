"""What a running citecast shares between its connectors (built once by ``citecast serve``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.assistant.base import Answerer
from bot.config import Settings
from bot.connectors.setup_errors import SetupAlarm
from bot.store import Store


@dataclass
class Services:
    """Settings, the store, the answerer and the file-link signer, shared by every connector.

    ``signer`` is ``bot.filetokens.FileSigner`` when the deployment can serve signed file
    downloads (typed loosely here so this module stays import-light). ``setup_alarm`` logs
    each reason citecast is not set up (a refused key, no index) once, whichever channel
    meets it first.
    """

    settings: Settings
    store: Store
    assistant: Answerer
    signer: Any = None
    extras: dict[str, Any] = field(default_factory=dict)
    setup_alarm: SetupAlarm = field(default_factory=SetupAlarm)
