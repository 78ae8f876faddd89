"""New topics the knowledge base has nothing on: answered with no post.

With ``discourse.answer_new_topics`` every new topic in a listed category is asked, and many
are no question for the knowledge base at all ("General chat: Hello everyone"). "I could not
find anything about that in the knowledge base." helps nobody there, and a reply bumps the topic
for everyone watching the category. So a new topic whose answer found nothing gets no reply,
unless ``discourse.reply_to_new_topics_when_not_found`` is on. A mention of the bot or a reply
to one of its posts (and a new topic that mentions it) addressed the bot: it always gets the
answer, found or not.

An answer found nothing when it cites nothing and says so: the built-in answerer's "not found"
sentence, or a model's "I could not find …" (the system prompt asks for that wording). Any other
answer is posted as before, cited or not ("No." is an answer), and so is one that says it in
another language: when unsure, the topic is answered.

The turn is still stored as answered without sources, so ``citecast report`` counts the topic as
asked and lists it among the questions the knowledge base could not answer.
"""

from __future__ import annotations

import re

from bot.config import DiscourseSettings
from bot.connectors.discourse_webhook import PostEvent, Trigger, mention_text, mentions
from bot.models import Answer

# what an answer that found nothing says (English, as SYSTEM_PROMPT words it): that it could
# not find it in the knowledge base (the documents, the results) in one sentence, so that "If
# pip cannot find the package, upgrade it." is an answer
_NOT_FOUND = re.compile(
    r"\b(?:could not|couldn['’]t|cannot|can['’]t|can not|did not|didn['’]t|was unable to"
    r"|wasn['’]t able to)"
    r" find\b[^.!?\n]*\b(?:knowledge base|documents?|documentation|docs|sources?|results)\b"
    r"|\bno relevant (?:information|results?|documents?|sources?)\b",
    re.IGNORECASE,
)


def found_nothing(answer: Answer) -> bool:
    """Whether ``answer`` cites nothing and says it found nothing."""
    return not answer.citations and _NOT_FOUND.search(answer.text) is not None


def unposted_because(
    event: PostEvent, trigger: Trigger, answer: Answer, settings: DiscourseSettings
) -> str | None:
    """Why ``answer`` to ``event`` is not posted, for the log; None when it is posted."""
    if trigger != "new_topic" or settings.reply_to_new_topics_when_not_found:
        return None
    if not found_nothing(answer):
        return None
    # a new topic that mentions the bot asks it, as a mention in a reply does
    if mentions(mention_text(event.raw), settings.api_username):
        return None
    return (
        "not answered: nothing was found for this new topic, and a reply saying so would bump"
        " it (discourse.reply_to_new_topics_when_not_found is off)"
    )
