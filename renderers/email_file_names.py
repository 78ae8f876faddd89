"""The names an email reply's files travel under, one string for the part and its reference.

A mail client shows an attachment by the name its headers carry *after decoding them*. RFC 2047
forbids an encoded word (``=?utf-8?q?…?=``) in a parameter, but Gmail's web interface and older
Outlook write non-ASCII file names so, and readers decode it even in a quoted ``filename``
(Python's email parser does): a file named ``=?utf-8?q?evil?=.pdf`` arrives as ``evil.pdf``, and
an encoded word can carry what the shared cleaner removes (line breaks, bidi controls). The
email names a file by :func:`email_file_name`, which leaves no encoded word to decode, and lists
it by that same string, so the reference names the file that arrives. The name is on one line
as the entry's text is: the shared cleaner makes a line break or a run of spaces one space, in
the name as in the entry, and numbers a name as every channel does.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from bot.models import Answer
from renderers.attachable import attachment_name, numbered_name
from renderers.base import CitationForm

# quotes or angle brackets around a whole parameter value, which Python's email parser removes
# (a name '"x"' arrives as 'x'; another reader may show them): a name never has them
_WRAPPERS = ('""', "<>")


def email_file_name(name: str) -> str:
    """``name`` as a file of the email is called, and the reference lists it: cleaned as every
    channel cleans a file's name (:func:`renderers.attachable.attachment_name`, on one line), no
    ``=?`` left to open an encoded word (``=_`` instead), not wrapped in quotes or angle
    brackets. Cleaning it again changes nothing."""
    while True:
        # each step can expose what another removes ('" x"' starts with a space once the quotes
        # go): repeated until none changes it, a few rounds at most, every step shortening the
        # name or ending its encoded words
        cleaned = attachment_name(name).replace("=?", "=_")
        if cleaned[:1] + cleaned[-1:] in _WRAPPERS and len(cleaned) > 1:
            cleaned = cleaned[1:-1]  # a reader takes them off a parameter (email.utils.unquote)
        if cleaned == name:
            return cleaned
        name = cleaned


def email_file_names(forms: Mapping[int, CitationForm], answer: Answer) -> dict[str, str]:
    """The name each attached file of ``forms`` travels under, by its path: its source's own
    file name (or path) as :func:`email_file_name` cleans it, a file first cited first, and
    ``name (2).ext`` when an earlier file already has the name (two names may clean to one:
    ``a\\u2028b.pdf`` and ``a b.pdf``, or ``=?x.pdf`` and ``=_x.pdf``)."""
    names: dict[str, str] = {}
    for n in sorted(forms):
        form, citation = forms[n], answer.citation(n)
        if form.kind != "attachment" or not form.path or form.path in names or citation is None:
            continue
        source = citation.source
        taken = set(names.values())
        names[form.path] = _unused(email_file_name(source.filename or form.path), taken)
    return names


def with_email_file_name(
    form: CitationForm, names: Mapping[str, str], answer: Answer
) -> CitationForm:
    """``form`` naming its attached file by ``names``; a source called by its file name (no title
    or label of its own) has that name cleaned the same way as its title, so its entry names the
    file once, as it arrives ("report Bcc.pdf (attached)", not "report\\nBcc.pdf (attached:
    report Bcc.pdf)"), or says the name it got beside another file's ("guide (2).pdf")."""
    name = names.get(form.path or "") if form.kind == "attachment" else None
    citation = answer.citation(form.n)
    if name is None or citation is None:
        return form
    source = citation.source
    called_by_file = not source.title and not source.label and bool(source.filename)
    title = email_file_name(form.title) if called_by_file else form.title
    return replace(form, filename=name, title=title)


def _unused(name: str, taken: Collection[str]) -> str:
    """``name``, or ``stem (2).ext``, ``stem (3).ext``… when a file in ``taken`` has it, numbered
    as every channel numbers a name (:func:`renderers.attachable.numbered_name`)."""
    candidate, k = name, 1
    while candidate in taken:
        k += 1
        candidate = email_file_name(numbered_name(name, k))
    return candidate
