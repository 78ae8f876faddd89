/* citecast turns: one question and its answer in the conversation, shown as a card that ends
 * with the answer (its citations, source list and actions) or with why there is none. Loaded
 * after history.js and before stream.js and chat.js, which call window.Citecast.turns with
 * the chat the turn belongs to.
 *
 * Safety rule (as in chat.js): the only HTML inserted is the server's nh3-sanitized answer.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var sources = citecast.sources;
  var scroll = citecast.scroll;
  var el = sources.el;

  /* Add the card of ``question`` to ``chat``'s conversation, waiting for its answer; the view
   * returned is what the other functions here fill in. ``earlier``: a turn answered before the
   * page loaded, put before the live log so that a screen reader does not read it out.
   * ``number``: a stored turn's place in the conversation (the server's ``position``); a
   * question asked on this page gets its own once the server takes it (count). */
  function add(chat, question, earlier, number) {
    if (chat.empty.parentNode) chat.empty.remove();
    var turn = el("article", { "class": "cc-turn" });
    var q = el("div", { "class": "cc-question" });
    q.appendChild(el("span", { "class": "cc-sr" }, "You asked: "));
    var asked = el("span", { "dir": "auto" }, question);
    q.appendChild(asked);
    turn.appendChild(q);
    // Not live while it is written (WCAG 4.1.3): each piece of a streamed answer would be
    // read out as it grows (a screen reader that ignores aria-busy), or none of it (one that
    // drops what changes while busy). finish() and fail() add it to the log once, when done.
    var answer = el("div", { "class": "cc-answer", "aria-busy": "true", "aria-live": "off" });
    answer.appendChild(el("span", { "class": "cc-sr" }, "Answer: "));
    var body = el("div", { "class": "cc-body" });
    var pending = el("div", { "class": "cc-pending" });
    // in the widget, the question and the answer are in the host page's language (a screen
    // reader reads them in its voice), the chat's own words around them in English
    var lang = chat.contentLang;
    if (typeof lang === "string") {
      [asked, body, pending].forEach(function (node) { node.setAttribute("lang", lang); });
    }
    var typing = el("span", { "class": "cc-typing" }, "Searching the knowledge base…");
    answer.appendChild(body);
    answer.appendChild(pending);
    answer.appendChild(typing);
    turn.appendChild(answer);
    if (earlier) chat.earlier.hidden = false;
    (earlier ? chat.earlier : chat.log).appendChild(turn);
    // its place in the conversation (1, 2, …), which names its source list (sources.js)
    var view = { turn: turn, answer: answer, body: body, pending: pending, typing: typing,
                 question: question, number: number || 0, text: "", tail: "", citations: {},
                 lang: lang };
    chat.reveal(turn);
    return view;
  }

  /* Give ``view``, a question asked on this page, its place in the conversation once the
   * server has taken it (its ``start`` event; its answer, had no start come): the next after
   * the last turn counted (``chat.counted``: shown after a reload, or asked since). Numbered
   * only then, a question the server never took (refused, or that never reached it) takes no
   * number, so each answer keeps the name a reload gives it from the server's ``position``.
   * ``conversationId``: the conversation the server put it in; another than the chat's (the
   * first question, or one asked again in a new conversation because the server no longer
   * had the old one) counts from 1. */
  function count(chat, view, conversationId) {
    if (view.number) return;
    if (conversationId !== chat.conversationId) chat.counted = 0;
    chat.counted += 1;
    view.number = chat.counted;
  }

  /* Show in ``view`` a stored turn as the conversation endpoint returns it. */
  function showStored(chat, view, turn) {
    try { showStoredTurn(chat, view, turn); } catch (err) { broken(chat, view, err, !!view.live); }
  }

  function showStoredTurn(chat, view, turn) {
    if (turn.status === "done" && turn.answer) finish(chat, view, turn);
    else if (turn.status === "hidden") fail(chat, view, "This answer is not available to you.");
    else {
      // ``view.live``: asked on this page, its stream cut (history.follow): the question goes
      // back in the box to ask again, as for any answer that fails while the page is open
      fail(chat, view, "This question was not answered (the server stopped or failed).",
        !!view.live);
    }
  }

  /* Show why the turn has no answer; ``live`` (it failed just now, not before a reload) puts
   * the question back in the box to ask again. The reason is said once, by the live log it is
   * added to (not busy by then); an alert of its own inside the log would be read twice. What
   * had streamed goes: it is not the answer (the turn is stored failed and a reload shows no
   * text), and an answer refused at its end, for a source the viewer may not see, is never
   * shown. */
  function fail(chat, view, reason, live) {
    var follow = chat.following(view);
    var refocus = scroll.holdFocus(chat.root, view.answer);  // its text goes: to the box
    view.typing.remove();
    view.answer.setAttribute("aria-busy", "false");
    view.answer.classList.add("cc-failed");
    view.body.textContent = "";
    view.pending.remove();
    // what a finished answer had begun to add under it, when showing it failed midway
    Array.prototype.forEach.call(view.answer.querySelectorAll(".cc-sources, .cc-actions"),
      function (node) { node.remove(); });
    chat.log.setAttribute("aria-busy", chat.busy ? "true" : "false");
    view.answer.removeAttribute("aria-live");  // the reason is read, by the log
    view.answer.appendChild(el("p", { "class": "cc-error" }, reason));
    if (live) {
      if (!chat.input.value.trim()) chat.input.value = view.question;
      chat.setStatus("Not answered; your question is back in the box to ask again.", true);
    }
    if (follow) chat.reveal(view.turn);
    refocus(chat.input);
  }

  /* What a turn says when this page's own code failed to show its answer: not the network's
   * fault, so never "Cannot reach the citecast server" (asking the server again would meet the
   * same fault for good). */
  var PAGE_FAULT = "This answer could not be shown because of an error in this page, not a " +
    "connection problem. Please ask again; if it happens again, reload the page.";

  /* This page's own code threw ``err`` while showing ``view``'s answer (a bug, or a script of
   * the host page that broke ours): the turn says so truthfully, ``live`` (asked just now)
   * puts the question back in the box, and the error goes to the console for whoever runs the
   * site. The caller has made the chat ready for a question (setBusy) as far as it should. */
  function broken(chat, view, err, live) {
    console.error("citecast: could not show the answer:", err);
    try {
      fail(chat, view, PAGE_FAULT, live);
    } catch (again) {
      // the failure could not be shown either: the question and the reason, at least
      if (live && !chat.input.value.trim()) chat.input.value = view.question;
      chat.setStatus(PAGE_FAULT, true);
    }
  }

  /* Show the finished answer ``payload`` (the done event, or a stored turn) in ``view``. */
  function finish(chat, view, payload) {
    var follow = chat.following(view);
    var refocus = scroll.holdFocus(chat.root, view.answer);  // a citation read as it streamed
    var answer = payload.answer || { text: "", citations: [] };
    var byN = {};
    (answer.citations || []).forEach(function (c) { byN[c.n] = c; });
    (payload.citations || []).forEach(function (rc) {
      var target = rc && (rc.href || rc.url);
      if (rc && byN[rc.n] && target && !byN[rc.n].href) byN[rc.n].href = target;
      // each marker's own quote, link and weakness, in text order (renderers.web)
      if (rc && byN[rc.n] && Array.isArray(rc.occurrences)) byN[rc.n].marks = rc.occurrences;
    });
    Object.keys(view.citations).forEach(function (n) {
      if (byN[n] && !byN[n].href && view.citations[n].href) byN[n].href = view.citations[n].href;
    });
    view.typing.remove();
    view.pending.textContent = "";
    view.pending.remove();
    count(chat, view, payload.conversation_id);  // a stored turn has its number already
    view.body.innerHTML = trustedHTML(payload.html || "");  // server-sanitized (nh3)
    decorate(chat, view, byN);
    sources.sourceList(view, answer.citations || [], byN);
    sources.directions(view.answer);
    scroll.regions(view.body);
    // The reply to a greeting or a thank-you (``small_talk``, decided by the server) is no
    // answer to rate, copy or share: no actions under it, only the reply.
    if (payload.small_talk === true) view.answer.classList.add("cc-small-talk");
    else {
      citecast.actions.addBar(view, answer, byN, {
        url: chat.url.bind(chat), conversationId: chat.conversationId, turnId: payload.turn_id,
        requestTimeout: chat.timeouts.request,
        vote: payload.vote, shareUrl: payload.share_url,
        say: function (text, isError) { chat.setStatus(text, isError); },
      });
    }
    view.answer.setAttribute("aria-busy", "false");
    view.answer.dataset.turnId = payload.turn_id;
    chat.log.setAttribute("aria-busy", chat.busy ? "true" : "false");
    announce(chat, view);
    if (follow) chat.reveal(view.turn);
    refocus(chat.input);
  }

  /* Add the finished answer of ``view`` to the live log once, whole, now that the log is not
   * busy: built where it streamed (not live), it is put back in its place as a live part of
   * the log, which a screen reader reads as one addition. An answer before the live log (one
   * answered before the page loaded) is not read at all. */
  function announce(chat, view) {
    view.answer.removeAttribute("aria-live");
    if (!chat.log.contains(view.answer)) return;
    view.turn.insertBefore(view.answer, view.answer.nextSibling);
  }

  /* The server's sanitized answer HTML ``html`` as the page lets it be inserted: vouched for
   * by the widget's Trusted Types policy on a page that requires them (widget.js), as it is
   * elsewhere. */
  function trustedHTML(html) {
    return citecast.trustedHTML ? citecast.trustedHTML(html) : html;
  }

  /* Give each superscript citation its link target and tooltip; a source without a link
   * (a record) jumps to its entry in the source list. */
  function decorate(chat, view, byN) {
    sources.decorate(view.answer, byN, chat.id, function (id, n, link) {
      showSource(chat, view, id, n, link);
    });
  }

  /* Scroll to and focus the answer's source list entry ``id`` (or number ``n``), shown from
   * the citation ``from``: the entry gets a "Back" button to it, so a keyboard user returns to
   * where they were reading rather than tabbing back through every citation after it. */
  function showSource(chat, view, id, n, from) {
    var entry = null;
    var items = view.answer.querySelectorAll("ol.sources > li, .cc-sources li");
    Array.prototype.forEach.call(items, function (li) {
      if (!entry && ((id && li.id === id) || li.getAttribute("data-n") === String(n))) entry = li;
      li.classList.remove("cc-target");
    });
    if (!entry) return;  // still streaming: the list comes with the finished answer
    var back = view.answer.querySelector(".cc-back");
    if (back) back.remove();  // one at a time: the way back to the citation used last
    if (from) {
      // dir: its English word does not turn an Arabic entry (dir="auto") left to right;
      // lang: said in English in an answer marked with the host page's language (WCAG 3.1.2)
      back = el("button", {
        "type": "button", "class": "cc-back", "dir": "auto", "lang": "en",
        "aria-label": "Back to citation " + n + " in the answer",
      }, "↩ Back");
      back.addEventListener("click", function () { from.focus(); });
      entry.insertBefore(back, entry.firstChild);
    }
    entry.classList.add("cc-target");
    if (!entry.hasAttribute("tabindex")) entry.setAttribute("tabindex", "-1");
    chat.reveal(entry);
    entry.focus({ preventScroll: true });
  }

  citecast.turns = {
    add: add, count: count, showStored: showStored, fail: fail, broken: broken, finish: finish,
    decorate: decorate, trustedHTML: trustedHTML,
  };
})();
