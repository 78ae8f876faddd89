"""Decoding the words and bytes of inbound mail whatever charset they claim, never raising.

Header words (RFC 2047, or raw UTF-8 in SMTPUTF8 mail) and body bytes are decoded with the
declared charset read as mail clients and browsers read it (the WHATWG Encoding Standard:
"latin-1" is windows-1252, "gb2312" is GB18030, …), then UTF-8, then windows-1252.
"""

from __future__ import annotations

from email.header import decode_header


def decode_words(text: str) -> str:
    """``text`` with RFC 2047 encoded words and raw UTF-8 (surrogate-escaped) bytes decoded,
    whitespace collapsed; never raises."""
    if any("\udc80" <= c <= "\udcff" for c in text):
        data = text.encode("utf-8", "surrogateescape")
        return " ".join(decode_bytes(data, "utf-8").split())
    try:
        pieces = decode_header(text)
    except Exception:
        return " ".join(text.split())
    out: list[str] = []
    for piece, charset in pieces:
        if isinstance(piece, bytes):
            out.append(decode_bytes(piece, charset))
        else:
            out.append(piece)
    return " ".join("".join(out).split())


_LATIN1_LABELS = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "us-ascii"})


# What a label really means in mail, as browsers read it (the WHATWG Encoding Standard): the
# Windows code pages Outlook names by other labels, and the supersets that mail in the older
# Chinese, Japanese and Korean charsets is really written in. Python knows some of these labels
# only as the strict standard (euc_kr, shift_jis, gb2312) and others not at all (windows-874),
# so Thai, Korean, Japanese or Chinese questions used to reach the assistant as mojibake.
_SUPERSETS = {
    "windows-874": "cp874", "x-windows-874": "cp874", "tis-620": "cp874", "iso-8859-11": "cp874",
    "ks_c_5601-1987": "cp949", "ks_c_5601-1989": "cp949", "windows-949": "cp949",
    "x-windows-949": "cp949", "euc-kr": "cp949", "csksc56011987": "cp949",
    "shift_jis": "cp932", "shift-jis": "cp932", "sjis": "cp932", "x-sjis": "cp932",
    "windows-31j": "cp932", "ms_kanji": "cp932", "csshiftjis": "cp932",
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "gb_2312-80": "gb18030",
    "chinese": "gb18030", "csgb2312": "gb18030", "iso-ir-58": "gb18030",
    "big5": "big5hkscs", "x-x-big5": "big5hkscs", "cn-big5": "big5hkscs",
    "x-euc-jp": "euc_jp", "x-mac-roman": "mac_roman", "x-mac-cyrillic": "mac_cyrillic",
    "iso-8859-8-i": "iso8859_8", "unicode-1-1-utf-8": "utf-8", "x-cp1250": "cp1250",
    "x-cp1251": "cp1251", "iso-8859-9": "cp1254", "latin5": "cp1254",
}  # fmt: skip


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode with the declared charset; unknown or wrong charsets fall back, never raise."""
    label = (charset or "").strip().lower()
    if label in _LATIN1_LABELS:
        charset = "cp1252"  # what "latin-1" mail really is (the WHATWG rule browsers follow)
    elif label in _SUPERSETS:
        charset = _SUPERSETS[label]
    for candidate in (charset, "utf-8"):
        if not candidate:
            continue
        try:
            return data.decode(candidate)
        except (LookupError, UnicodeDecodeError):
            continue
    # windows-1252 before latin-1: mail labelled latin-1 (or not at all) is usually cp1252,
    # whose quotes would otherwise come out as control characters (as browsers decode it)
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1", errors="replace")
