/* citecast answer actions: the bar under a finished answer, with "Copy answer" (the answer's
 * Markdown as plain text, plain_markdown.js) and the helpful / not helpful vote (POST
 * /api/feedback, once per answer). Loaded after sources.js and plain_markdown.js and before
 * turns.js, which uses window.Citecast.actions.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var sources = citecast.sources;
  var el = sources.el;
  var plainMarkdown = citecast.plain.markdown;
  var VOTES = [["helpful", "Helpful"], ["not_helpful", "Not helpful"]];

  /* Copy ``text``; ``button`` is the control that asked (it keeps the focus). */
  function copyText(text, button) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () {
        return legacyCopy(text, button);
      });
    }
    return legacyCopy(text, button);
  }

  /* Without the clipboard API (plain http, or a browser that says no): select the text in a
   * hidden box and copy that. The box goes beside ``button``, in the same document or shadow
   * root (in the widget the host page is never touched), selecting it scrolls nothing, and the
   * focus it took goes back to ``button`` so a keyboard user stays where they were. */
  function legacyCopy(text, button) {
    return new Promise(function (resolve, reject) {
      var area = el("textarea", {
        "aria-hidden": "true", "tabindex": "-1", "readonly": "", "class": "cc-offscreen",
      });
      area.value = text;
      button.parentNode.insertBefore(area, button.nextSibling);
      area.focus({ preventScroll: true });
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
      area.remove();
      button.focus({ preventScroll: true });
      if (ok) resolve(); else reject(new Error("copy failed"));
    });
  }

  /* The answer as plain text to paste anywhere: ``[n]`` markers (``[n?]`` for a citation with
   * ``weak`` set, as the page shows it), then a Sources: list with a link that lasts for each
   * source: its public address (deep link, URL, or a record's action), else, for a file this
   * server links (``href``, a signed /files/ link that expires after web.file_token_ttl), the
   * source list of the answer's own page, ``shareUrl`` + "#sources", which links the file
   * afresh whenever it is opened; without a share link, no link rather than one that dies.
   * A line reads as ``citecast ask`` writes it (bot/commands/ask.py ``source_line``):
   * "[1] Title — Section — p. 3 — column: value — link". */
  function plainAnswer(text, citations, shareUrl) {
    var weak = {};
    (citations || []).forEach(function (c) { if (c.weak) weak[c.n] = true; });
    var out = plainMarkdown(text, function (n) { return "[" + n + (weak[n] ? "?" : "") + "]"; });
    if (citations && citations.length) {
      out += "\n\nSources:\n";
      citations.forEach(function (c) {
        var src = c.source || {};
        var link = c.deep_link || src.url || (src.action && src.action.url) ||
          (c.href && shareUrl ? shareUrl.split("#")[0] + "#sources" : "");
        out += "[" + c.n + "] " + sourceLineParts(c, src).concat(link ? [link] : [])
          .join(" — ") + "\n";
      });
    }
    return out;
  }

  /* A copied source line's title, section, page and attributed columns, in the order and
   * form of ``citecast ask`` (pages "pp. 3\u20135" with an en dash, as it writes them). */
  function sourceLineParts(citation, source) {
    var parts = [sources.displayTitle(source)];
    var section = sources.sectionBelowTitle(source);
    if (section) parts.push(section);
    if (source.page) {
      parts.push(source.page_end && source.page_end !== source.page
        ? "pp. " + source.page + "\u2013" + source.page_end : "p. " + source.page);
    }
    var columns = source.columns || {};
    var named = (citation.columns || []).filter(function (k) { return k in columns; });
    if (named.length) {
      parts.push(named.map(function (k) { return k + ": " + columns[k]; }).join(", "));
    }
    return parts;
  }

  /* "Copy answer": the answer as plain text (plainAnswer), its citations marked as
   * ``view`` shows them ([2?] for a weak one) and its sources with links that keep working
   * (``shareUrl``, the answer's own page, stands in for file links that expire). */
  function copyButton(view, answer, byN, shareUrl, say) {
    var copy = el("button", { "type": "button", "class": "cc-secondary cc-copy" }, "Copy answer");
    copy.addEventListener("click", function () {
      var weak = sources.weakNumbers(view.answer);
      var cites = (answer.citations || []).map(function (c) {
        return Object.assign({}, c, { href: (byN[c.n] || {}).href, weak: !!weak[c.n] });
      });
      copyText(plainAnswer(answer.text, cites, shareUrl), copy).then(function () {
        copy.textContent = "Copied";
        say("Answer copied to the clipboard.");
        setTimeout(function () { copy.textContent = "Copy answer"; }, 1500);
      }, function () { say("Could not copy; select the text instead.", true); });
    });
    return copy;
  }

  /* "Copy link": the address of the answer's own page (``share_url``, GET /turns/{key}), to
   * send to someone else; the page shows the answer and its sources, never the question.
   * Its name says what its text says (WCAG 2.5.3): "Copy link to this answer", and while it
   * shows "Link copied", that (the name a voice user says is the one they see). */
  var SHARE_NAME = "Copy link to this answer";
  function shareButton(url, say) {
    var share = el("button", {
      "type": "button", "class": "cc-secondary cc-share", "aria-label": SHARE_NAME,
    }, "Copy link");
    share.addEventListener("click", function () {
      copyText(url, share).then(function () {
        share.textContent = "Link copied";
        share.removeAttribute("aria-label");  // named by its text for now
        say("Link to this answer copied to the clipboard.");
        setTimeout(function () {
          share.textContent = "Copy link";
          share.setAttribute("aria-label", SHARE_NAME);
        }, 1500);
      }, function () { say("Could not copy the link; it is " + url, true); });
    });
    return share;
  }

  /* The two vote buttons, as a labelled group; a vote disables both and presses the one chosen.
   * ``stored`` is the answer's vote already recorded (shown pressed, nothing more to choose);
   * ``vote(value)`` resolves to ``{recorded, vote}``: a refused vote is never shown pressed.
   * Disabled with aria-disabled, not the disabled attribute: a button that loses its focus by
   * being disabled drops keyboard focus to the page (and out of the widget's panel). */
  function voteButtons(vote, stored, say) {
    var group = el("div", { "class": "cc-votes", "role": "group", "aria-label": "Was this helpful?" });
    var buttons = VOTES.map(function (pair) {
      return el("button", {
        "type": "button", "class": "cc-secondary cc-vote", "aria-pressed": "false",
        "data-value": pair[0],
      }, pair[1]);
    });
    function disable(off) {
      buttons.forEach(function (b) {
        if (off) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
      });
    }
    function settle(value) {
      disable(true);
      buttons.forEach(function (b) {
        b.setAttribute("aria-pressed", b.getAttribute("data-value") === value ? "true" : "false");
      });
    }
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        if (button.getAttribute("aria-disabled") === "true") return;
        disable(true);
        vote(button.getAttribute("data-value")).then(function (result) {
          if (result.recorded) {
            settle(button.getAttribute("data-value"));
            say("Thanks for the feedback.");
          } else {
            settle(result.vote);  // the vote the answer already had, if the server says
            say("This answer was already rated.");
          }
        }, function () {
          disable(false);
          say("Could not send the feedback; try again.", true);
        });
      });
      group.appendChild(button);
    });
    if (stored) settle(stored);
    return group;
  }

  /* Add the actions under ``view.answer``. ``options``: ``url(path)`` of the API, the
   * ``conversationId`` and ``turnId`` the vote is about (no vote buttons without them), the
   * ``vote`` it already has (after a reload), the answer's ``shareUrl`` (no "Copy link"
   * without one), and ``say(text, isError)`` for the status line. */
  function addBar(view, answer, byN, options) {
    var bar = el("div", { "class": "cc-actions" });
    var shareUrl = sources.safeHref(options.shareUrl);
    bar.appendChild(copyButton(view, answer, byN, shareUrl, options.say));
    if (shareUrl) bar.appendChild(shareButton(shareUrl, options.say));
    if (options.conversationId && options.turnId) {
      bar.appendChild(voteButtons(function (value) {
        var url = options.url("/api/feedback");
        // bounded (Citecast.timeouts, stream.js): a vote the server never answers is said to have failed
        return citecast.timeouts.within(options.requestTimeout, function (signal) {
          return fetch(url, {
            signal: signal,
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              conversation_id: options.conversationId, turn_id: options.turnId, value: value,
            }),
          }).then(function (r) {
            if (!r.ok) throw new Error("feedback refused: " + r.status);
            return r.json();
          });
        }).then(function (body) {
          var vote = typeof body.vote === "string" ? body.vote : null;
          return { recorded: !!body.recorded, vote: vote };
        });
      }, options.vote, options.say));
    }
    view.answer.appendChild(bar);
  }

  citecast.actions = { addBar: addBar, plainAnswer: plainAnswer, plainMarkdown: plainMarkdown };
})();
