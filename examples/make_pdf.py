"""Write examples/operations-handbook.pdf: a small, valid, multi-page PDF built by hand.

No PDF library is needed to write it; pypdf (a citecast dependency) reads it back at ingest.
Run ``python examples/make_pdf.py`` after editing the text below; the output is committed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

TITLE = "citecast operations handbook"

PAGES: list[tuple[str, list[str]]] = [
    (
        "1. Running citecast in production",
        [
            "This handbook is for operators who run citecast for a team. It covers the process "
            "layout, backups, monitoring, upgrades and incident response.",
            "citecast runs as one process started with citecast serve. The web chat, the REST API "
            "and every enabled channel share one event loop, one SQLite store and one knowledge "
            "index, so a small virtual machine with two cores and one gigabyte of memory is "
            "enough for most teams.",
            "Run the process under a supervisor such as systemd with Restart=on-failure. Replies "
            "that were not delivered when the process stopped stay in the outbox and are sent "
            "again after the restart.",
        ],
    ),
    (
        "2. Backups",
        [
            "Back up the store at .citecast/citecast.db every night. It holds conversation turns, "
            "the outbox and feedback. Use the SQLite online backup command (sqlite3 "
            "citecast.db '.backup backup.db') so the copy is consistent while citecast runs.",
            "The knowledge index at .citecast/index.db does not need a backup: citecast ingest "
            "rebuilds it from your documents in minutes. Keep the documents themselves in version "
            "control.",
            "Test a restore at least once a quarter by starting citecast on a copy of the backup "
            "and asking a question.",
        ],
    ),
    (
        "3. Monitoring and health checks",
        [
            "Poll the web server every minute and alert when it stops answering. Watch three "
            "figures: the number of replies waiting in the outbox, the share of answers that cite "
            "nothing, and the time to first token of streamed answers.",
            "A growing outbox means a channel is refusing deliveries: check the logs for 429 and "
            "5xx answers and for expired tokens. A rising share of answers without citations "
            "usually means documents are missing from the index or the audience rules are too "
            "strict.",
            "Run citecast eval on a file of questions with known sources after every change to the "
            "documents, and compare citation precision and recall with the previous run.",
        ],
    ),
    (
        "4. Upgrades and incident response",
        [
            "To upgrade, install the new version, run citecast ingest --rebuild on the same paths "
            "when the release notes say the index schema changed, and restart the service. The "
            "store is migrated automatically at start.",
            "During an incident, first stop the affected channel by setting enabled: false in its "
            "section of config.yaml and restarting; the other channels keep working. Rotate any "
            "token that may have leaked and update the environment, never the config file.",
            "After the incident, replay the outbox and write a short report: what users saw, "
            "which answers were affected, and what changed to prevent it.",
        ],
    ),
]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _page_stream(heading: str, paragraphs: list[str]) -> bytes:
    lines = ["BT", "/F2 16 Tf", "72 720 Td", f"({_escape(heading)}) Tj", "/F1 11 Tf", "14 TL"]
    lines.append("0 -30 Td")
    for paragraph in paragraphs:
        for row in textwrap.wrap(paragraph, 88):
            lines.append(f"({_escape(row)}) Tj T*")
        lines.append("T*")
    lines.append("ET")
    return "\n".join(lines).encode("latin-1")


def build_pdf(pages: list[tuple[str, list[str]]] = PAGES, title: str = TITLE) -> bytes:
    """The whole PDF file as bytes: one page per ``(heading, paragraphs)`` pair."""
    objects: list[bytes] = []
    count = len(pages)
    page_ids = [6 + 2 * i for i in range(count)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    objects.append(f"<< /Title ({_escape(title)}) /Producer (citecast make_pdf.py) >>".encode())
    for index, (heading, paragraphs) in enumerate(pages):
        stream = _page_stream(heading, paragraphs)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page_ids[index] + 1}"
            " 0 R /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>".encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 5 0 R >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def main() -> None:
    """Write the handbook next to this script."""
    target = Path(__file__).with_name("operations-handbook.pdf")
    target.write_bytes(build_pdf())
    print(f"wrote {target} ({target.stat().st_size} bytes, {len(PAGES)} pages)")


if __name__ == "__main__":
    main()
