"""Bytes of a text document to ``str``: UTF-8, a byte-order mark, or an HTML page's charset.

UTF-8 is the rule. A byte-order mark says otherwise for certain: Windows Notepad's "Unicode" and
Windows PowerShell's ``>`` write UTF-16 with one, and without it those files look binary (every
other byte is NUL). An HTML page may declare its charset (``<meta charset="windows-1252">``, as
Word's "Save as Web Page" does); a browser reads it that way, so ingest does too — but only when
the page is not valid UTF-8, since pages that declare ``iso-8859-1`` yet are written in UTF-8
are common and UTF-8 is never valid by accident. Anything else is Unreadable with a reason that
says which line to fix.
"""

from __future__ import annotations

import codecs
import re

from bot.knowledge.document import Unreadable

# UTF-32 first: its little-endian mark begins with UTF-16's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)
# Where a browser looks for the declaration: <meta charset=…> or the http-equiv form, in the
# first 1024 bytes (the HTML standard's prescan); XHTML's <?xml … encoding="…"?> too.
_META_CHARSET = re.compile(
    rb"<meta\b[^>]*?\bcharset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)"
    rb"|^\s*<\?xml\b[^>]*?\bencoding\s*=\s*[\"']([A-Za-z0-9._:-]+)",
    re.I,
)
_PRESCAN_BYTES = 1024
# The WHATWG encoding standard reads these labels as windows-1252, and so do browsers: pages
# labelled latin-1 routinely hold curly quotes and dashes from 0x80-0x9f.
_AS_WINDOWS_1252 = frozenset(("iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii", "ascii"))


BINARY = "binary content"
# said after BINARY when the file is UTF-16 that lost (or never had) its byte-order mark
UTF16_HINT = (
    " (it looks like UTF-16 without a byte-order mark: save it as UTF-8, or as UTF-16 with a BOM)"
)

# Bytes no text file holds, whatever its encoding: C0 controls other than the tab, line feed,
# form feed and carriage return, and DEL. Legacy encodings (Windows-1252, Latin-1, Shift JIS,
# GBK, KOI8-R) put their letters in the bytes above 0x7f, never here; random or compressed data
# has about one in nine of its bytes here. A NUL byte is the certain sign; without one, a
# sample with a share of these well above any text's is binary too, and a text file with a
# stray control byte or two still gets the "save it as UTF-8" advice.
_CONTROL_BYTES = frozenset((*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F))
_SAMPLE_BYTES = 8192
_BINARY_SHARE = 0.05
_BINARY_LEAST = 4


def _newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _bad_line(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def _utf16_without_bom(data: bytes) -> bool:
    """Whether ``data`` reads as UTF-16 text though it has no byte-order mark: the NUL bytes of
    its Latin letters all on one side of each pair, and the start decoding to printable text."""
    sample = data[: _SAMPLE_BYTES & ~1]
    for codec, nuls, letters in (
        ("utf-16-le", sample[1::2], sample[::2]),
        ("utf-16-be", sample[::2], sample[1::2]),
    ):
        if nuls.count(0) < 0.4 * len(nuls) or letters.count(0) > 0.05 * len(letters):
            continue
        text = sample.decode(codec, errors="replace")
        if sum(1 for char in text if char.isprintable() or char in "\t\n\r\f") >= 0.95 * len(text):
            return True
    return False


def looks_binary(data: bytes) -> bool:
    """True when the start of ``data`` is plainly not text in any encoding: a NUL byte, or
    control bytes making up at least 5% of the first 8 KB (at least 4 of them)."""
    sample = data[:_SAMPLE_BYTES]
    if b"\x00" in sample:
        return True
    controls = sum(1 for byte in sample if byte in _CONTROL_BYTES)
    return controls >= _BINARY_LEAST and controls >= _BINARY_SHARE * len(sample)


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), or UTF-16/UTF-32 with a BOM, with newlines normalized.

    Raises Unreadable otherwise: "binary content", or "not UTF-8 text (line N)" naming the
    first line that is not, so the user knows where to look before saving the file as UTF-8.
    """
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                return _newlines(data.decode(codec))
            except UnicodeDecodeError:
                raise Unreadable(f"not valid {name} text (it starts with a {name} mark)") from None
    if b"\x00" in data[:_SAMPLE_BYTES]:
        raise Unreadable(BINARY + (UTF16_HINT if _utf16_without_bom(data) else ""))
    try:
        return _newlines(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        # valid UTF-8 stays text whatever controls it holds; only what is not is judged here
        if looks_binary(data):
            raise Unreadable(BINARY) from None
        line = _bad_line(data, exc.start)
        raise Unreadable(f"not UTF-8 text (line {line}); save it as UTF-8") from None


def text_codec(data: bytes, *, html: bool = False) -> str:
    """The codec the index reads ``data`` with (:func:`decode`, :func:`decode_html` for a page):
    a byte-order mark's, else UTF-8, else, for a page that is not UTF-8, the charset it declares.
    ``data`` may be the start of a file cut anywhere (a character cut in two still counts as
    UTF-8). The file viewer decodes with it, so that it shows what the index quotes."""
    for bom, codec, _ in _BOMS:
        if data.startswith(bom):
            return codec
    if html:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
        except UnicodeDecodeError:
            charset = declared_charset(data)
            if charset is not None and not charset.startswith("utf"):
                return charset
    return "utf-8"


def declared_charset(data: bytes) -> str | None:
    """The charset an HTML page declares in its first 1024 bytes (Python's codec name), if any
    and if Python knows it."""
    found = _META_CHARSET.search(data[:_PRESCAN_BYTES])
    if found is None:
        return None
    label = (found.group(1) or found.group(2)).decode("ascii").lower()
    if label in _AS_WINDOWS_1252:
        return "cp1252"
    try:
        name = codecs.lookup(label).name
        # "base64" and "rot13" are codecs too, but not text encodings: decoding refuses them
        b"a".decode(name, errors="replace")
    except LookupError:
        return None
    return name


def decode_html(data: bytes) -> str:
    """An HTML page's text: as :func:`decode`, and when that finds it is not UTF-8, in the
    charset the page declares (a browser's reading of it)."""
    try:
        return decode(data)
    except Unreadable as exc:
        charset = declared_charset(data)
        # A declared UTF-* is no help (browsers read a UTF-16 label as UTF-8), nor is one on a
        # file with NUL bytes in it.
        if charset is None or charset.startswith("utf") or str(exc).startswith(BINARY):
            raise
        # A byte the charset leaves undefined (0x81 in windows-1252) becomes U+FFFD, as in a
        # browser, instead of losing the whole page.
        return _newlines(data.decode(charset, errors="replace"))
