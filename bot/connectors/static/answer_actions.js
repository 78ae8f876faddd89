/* citecast answer actions: the bar under a finished answer, with "Copy answer" (the answer's
 * Markdown as plain text, plainMarkdown) and the helpful / not helpful vote (POST /api/feedback,
 * once per answer). Loaded after sources.js and before turns.js, which uses
 * window.Citecast.actions.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var sources = citecast.sources;
  var el = sources.el;
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

  /* The answer's Markdown as plain text that keeps its layout, as ``citecast ask`` prints it
   * (renderers/plain_markdown.py; both pass tests/renderers/plain_markdown_cases.json): each
   * ``[^n]`` outside code is ``marker(n)``, and a backslash before ASCII punctuation is dropped
   * where CommonMark reads an escape ("\[1\]" reads "[1]"); code, raw HTML and autolinks keep
   * theirs. Lines are read as blocks only as far as that needs: code, raw HTML, quoted (read
   * as a text of its own), and which make one paragraph (a code span may cross its lines). */
  var PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
  var CITATION = /\[\^([1-9][0-9]{0,4})\]/y;
  var RAW_INLINE = new RegExp("<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\\x00-\\x20]*>|<[A-Za-z]" +
    "[A-Za-z0-9-]*(?:\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*(?:[^\\s\"'=<>`]+|'[^']*'|" +
    "\"[^\"]*\"))?)*\\s*/?>|</[A-Za-z][A-Za-z0-9-]*\\s*>|<!---->|<!--->|<!--[\\s\\S]*?-->" +
    "|<\\?[\\s\\S]*?\\?>|<![A-Za-z][^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>", "y");
  var QUOTE = /^ {0,3}> ?/;
  var FENCE = /^(`{3,})(?!.*`)|^~{3,}/;
  var ITEM = /^([-+*]|(\d{1,9})[.)])(?=[ \t]|$)[ \t]*/;
  // a heading, a rule, or a comment or declaration (as the resolver reads them: no HTML block)
  var ON_ITS_LINE = /^(?:#{1,6}(?:[ \t]|$)|([-*_])(?:[ \t]*\1){2,}[ \t]*$|<[!?])/;
  var RAW_OPEN = /^<(?:pre|script|style|textarea)(?:[ \t>]|$)/i;
  var RAW_CLOSE = /<\/(?:pre|script|style|textarea)>/;
  var HTML_BLOCK = new RegExp("^</?(?:address|article|aside|base|basefont|blockquote|body|" +
    "caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|" +
    "footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|" +
    "menuitem|meta|nav|noframes|ol|optgroup|option|p|param|section|source|summary|table|" +
    "tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \\t]|/?>|$)", "i");
  var TAG_LINE = /^<\/?[A-Za-z][A-Za-z0-9-]*[ \t]*\/?>[ \t]*$/;

  function plainMarkdown(text, marker) {
    var lines = String(text || "").split("\n");
    var kinds = blockKinds(lines);
    var out = [];
    for (var i = 0, first = 0; i < lines.length; first = i) {
      var kind = kinds[i] === "on" ? "starts" : kinds[i];
      var goesOn = kind === "starts" ? "on" : kind;
      do i += 1; while (i < lines.length && kinds[i] === goesOn);
      var run = lines.slice(first, i);
      if (kind === "quote") {
        var marks = run.map(function (line) { return QUOTE.exec(line)[0]; });
        var inner = plainMarkdown(run.map(function (line, k) {
          return line.slice(marks[k].length);
        }).join("\n"), marker).split("\n");
        out = out.concat(inner.map(function (line, k) { return marks[k] + line; }));
      } else if (kind === "raw") {  // raw text, but a [^n] in an HTML block is a citation
        out.push(run.join("\n").replace(/\[\^([1-9][0-9]{0,4})\]/g, function (m, n) {
          return marker(+n);
        }));
      } else {
        out.push(kind === "code" ? run.join("\n") : inlinePlain(run.join("\n"), marker));
      }
    }
    return out.join("\n");
  }

  /* Each line's kind: "code", "raw" (an HTML block), "quote", "starts" (prose that begins a
   * block) or "on" (prose going on with the paragraph of the line before). */
  function blockKinds(lines) {
    var items = [];  // the content columns of the open list items, innermost last
    var fence = null;  // the open fence: its run and its column
    var html = null;  // what ends the open HTML block: "blank" or RAW_CLOSE
    var paragraph = false;  // a paragraph is open: no indented code, lazy lines go on with it
    var blank = false;  // the line before was blank
    var empty = false;  // the line before began an empty list item (a blank line ends it)
    return lines.map(function (line) {
      var kind = kindOf(line);
      blank = !line.trim();
      return kind;
    });

    function kindOf(line) {
      var lead = /^[ \t]*/.exec(line)[0];
      var width = lead.replace(/\t/g, "    ").length;
      var stripped = line.slice(lead.length).replace(/\r$/, "");
      // a fence in a list item takes its lazy lines, as the renderers' parser (mistune) reads it
      if (fence && (!stripped || width >= fence.column || !(blank || ends(stripped)))) {
        var close = /^(`{3,}|~{3,})[ \t]*$/.exec(stripped);
        if (close && close[1][0] === fence.run[0] && close[1].length >= fence.run.length &&
            width - fence.column < 4) fence = null;
        return "code";
      }
      fence = null;  // (a fence in a list item ends with the item)
      if (html) {
        if (html === RAW_CLOSE && RAW_CLOSE.test(line)) html = null;
        else if (html === "blank" && !stripped) html = null;
        return html || stripped ? "raw" : "starts";
      }
      if (!stripped) {
        if (empty) items.pop();
        paragraph = empty = false;
        return "starts";
      }
      empty = false;
      while (items.length && width < items[items.length - 1] && !(paragraph && lazy(stripped))) {
        items.pop();
        paragraph = false;  // (a line that goes on with it would be lazy)
      }
      var column = items.length ? items[items.length - 1] : 0;
      if (width - column >= 4) return paragraph ? "on" : "code";
      if (QUOTE.test(line)) {
        paragraph = !!line.replace(QUOTE, "").trim();  // a lazy line may go on with it
        return "quote";
      }
      return opening(stripped, width);
    }

    /* What the block line ``stripped`` (indented less than code) is; a fence, an HTML block or
     * a list item it begins is opened. */
    function opening(stripped, width) {
      var item = ITEM.exec(stripped);
      if (item && !(paragraph && (item[0] === stripped || (item[2] && +item[2] !== 1)))) {
        var spaces = item[0].length - item[1].length;  // more than 4: indented code in it
        items.push(width + item[1].length + (spaces > 4 || !spaces ? 1 : spaces));
        stripped = stripped.slice(item[0].length);
        paragraph = false;
        empty = !stripped;
      }
      var run = FENCE.exec(stripped);
      var was = paragraph;
      paragraph = false;
      if (run) fence = { run: run[0], column: items.length ? items[items.length - 1] : 0 };
      if (run) return "code";
      var tag = RAW_OPEN.test(stripped) || HTML_BLOCK.test(stripped);
      if (tag || (!was && TAG_LINE.test(stripped))) {  // (a lone tag cannot end a paragraph)
        html = !RAW_OPEN.test(stripped) ? "blank" : RAW_CLOSE.test(stripped) ? null : RAW_CLOSE;
        return "raw";
      }
      if (was && /^(?:=+|-+)[ \t]*$/.test(stripped)) return "on";  // a setext underline
      paragraph = !ON_ITS_LINE.test(stripped) && stripped !== "";
      return was && paragraph ? "on" : "starts";
    }

    /* Whether ``stripped``, after a paragraph's line, goes on with it (a lazy line). */
    function lazy(stripped) {
      return !(ends(stripped) || HTML_BLOCK.test(stripped));
    }

    /* Whether the unindented ``stripped`` ends a list item: a new one, or a block of its own. */
    function ends(stripped) {
      return ITEM.test(stripped) || FENCE.test(stripped) || ON_ITS_LINE.test(stripped) ||
        stripped[0] === ">";
    }
  }

  /* Prose lines read inline, left to right, as CommonMark does: an escape, a code span,
   * raw HTML or an autolink, or a citation. */
  function inlinePlain(text, marker) {
    var out = "";
    for (var at = 0; at < text.length;) {
      var ch = text[at];
      var rule = ch === "<" ? RAW_INLINE : ch === "[" ? CITATION : null;
      var found = null;
      var shown = ch;
      var end = at + 1;
      if (ch === "\\" && PUNCTUATION.indexOf(text[at + 1] || "a") >= 0) {
        shown = text[at + 1];
        end = at + 2;
      } else if (ch === "`") {
        end = codeSpanEnd(text, at);
        shown = text.slice(at, end);
      } else if (rule && ((rule.lastIndex = at), (found = rule.exec(text)))) {
        shown = rule === CITATION ? marker(+found[1]) : found[0];
        end = rule.lastIndex;
      }
      out += shown;
      at = end;
    }
    return out;
  }

  /* Where the code span opened by the backticks at ``at`` ends: after the next run of as many
   * (backslashes are literal inside), or, without one, after its own run (then text). */
  function codeSpanEnd(text, at) {
    var runs = /`+/g;
    runs.lastIndex = at;
    var size = runs.exec(text)[0].length;
    var after = runs.lastIndex;
    for (var run = runs.exec(text); run; run = runs.exec(text)) {
      if (run[0].length === size) return runs.lastIndex;
    }
    return after;
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
