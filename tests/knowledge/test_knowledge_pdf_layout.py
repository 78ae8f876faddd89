"""PDF layouts with short lines: no text is lost to a false heading; page furniture is dropped."""

from __future__ import annotations

import textwrap
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.pdf_reader import paragraphs
from bot.knowledge.readers import read_document

INSTALL = [
    "The gizmo controller needs a dedicated twelve volt supply with at least two amperes of "
    "headroom.",
    "Mount the gizmo controller on a vertical wall at least thirty centimetres above the floor "
    "to keep it dry.",
]
STATUS = [
    "The status light of the gizmo controller blinks orange while the firmware is updating and "
    "must not be unplugged.",
    "When the status light turns solid green the gizmo controller is ready to accept jobs from "
    "the scheduler.",
]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def lines_pdf(pages: list[list[str]]) -> bytes:
    """A PDF whose pages show exactly these lines, one text line each ("" is an empty line)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    page_ids = [4 + 2 * i for i in range(len(pages))]
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for number, lines in enumerate(pages):
        rows = [f"({_escape(line)}) Tj T*" if line else "T*" for line in lines]
        stream = "\n".join(["BT", "/F1 11 Tf", "14 TL", "72 740 Td", *rows, "ET"]).encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents "
            f"{page_ids[number] + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def narrow(paragraphs: list[str], width: int = 55) -> list[str]:
    return [line for paragraph in paragraphs for line in textwrap.wrap(paragraph, width)]


def test_narrow_column_lines_are_text_not_headings() -> None:
    # Every line is under 60 characters: none of the first lines may vanish as a "heading".
    data = lines_pdf([["Installation", *narrow(INSTALL)], narrow(STATUS)])
    doc = read_document(Path("gizmo.pdf"), data)
    assert [(b.text, b.section, b.page) for b in doc.blocks] == [
        (" ".join(INSTALL), "Installation", 1),
        (STATUS[0], "Installation", 2),
        (STATUS[1], "Installation", 2),
    ]


def test_the_orange_light_sentence_reaches_a_chunk(tmp_path: Path) -> None:
    pages = [["Installation", *narrow(INSTALL)], narrow(STATUS)]
    (tmp_path / "gizmo.pdf").write_bytes(lines_pdf(pages))
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "gizmo.pdf"], settings)
    found = KnowledgeIndex(settings.path).search("blinks orange")
    assert [STATUS[0] in (source.text or "") for source in found] == [True]


def test_two_column_width_lines_keep_every_sentence() -> None:
    column = narrow(INSTALL + STATUS, 30)
    doc = read_document(Path("columns.pdf"), lines_pdf([["Setup", *column]]))
    text = " ".join(block.text for block in doc.blocks)
    assert all(sentence in text for sentence in INSTALL + STATUS)
    assert {block.section for block in doc.blocks} == {"Setup"}


def test_a_run_of_short_lines_stays_text() -> None:
    # A list of short lines is not a stack of headings overwriting each other.
    page = "Supported boards\nRed board\nGreen board\nBlue board\n" + "\n".join(narrow(INSTALL))
    pairs = paragraphs(page)
    assert pairs[0] == ("Supported boards Red board Green board Blue board", False)
    assert all(not heading for _, heading in pairs)


def test_a_heading_after_a_full_last_line_starts_a_section() -> None:
    page = (
        "Lubricate the main gear of the frobnicator with grade seven silicone grease every\n"
        "three hundred operating hours so that it keeps turning freely and quietly all year.\n"
        "Disposal\n"
        "Old frobnicators must be returned to the vendor for recycling of the zeolite core.\n"
    )
    assert [heading for _, heading in paragraphs(page)] == [False, True, False]
    assert paragraphs(page)[1] == ("Disposal", True)


def test_running_headers_and_page_numbers_are_dropped() -> None:
    # A paragraph runs from page 1 onto page 2: the footer must not join it, and the running
    # header must not become the section of its second half.
    header = "ACME Frobnicator Handbook"
    safety = narrow(INSTALL, 88)
    pages = [
        [header, "Safety", *safety[:2], "1"],
        [header, *safety[2:], "Page 2 of 3"],
        [header, "Status light", *narrow(STATUS, 88), "3"],
    ]
    doc = read_document(Path("frob.pdf"), lines_pdf(pages))
    assert [(b.section, b.page) for b in doc.blocks] == [
        ("Safety", 1),
        ("Safety", 2),
        ("Status light", 3),
        ("Status light", 3),
    ]
    assert " ".join(b.text for b in doc.blocks[:2]) == " ".join(INSTALL)
    assert [b.text for b in doc.blocks[2:]] == STATUS
