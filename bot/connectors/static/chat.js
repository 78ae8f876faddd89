/* citecast chat: the page at / and the embeddable widget share this file. No build step.
 *
 * Safety rule: the only HTML ever inserted is the server's nh3-sanitized answer HTML; every
 * other string (questions, titles, quotes, errors) goes in through textContent.
 */
(function () {
  "use strict";

  var counter = 0;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, attrs[key]);
      });
    }
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function safeHref(url) {
    if (typeof url !== "string" || !url) return null;
    try {
      var parsed = new URL(url, window.location.href);
      if (["http:", "https:", "mailto:"].indexOf(parsed.protocol) === -1) return null;
      return parsed.href;
    } catch (err) {
      return null;
    }
  }

  /* The best human name for a source (Source.display_title): title, label, file, URL, id. */
  function displayTitle(source) {
    var src = source || {};
    return src.title || src.label || src.filename || src.url || src.id || "";
  }

  /* Quotes are source text, which may be Markdown: show them as plain text, with code spans
   * as <code> and the rest of the syntax (emphasis, links, headings) removed. DOM nodes only,
   * never HTML, so the quote cannot inject markup. */
  function appendInline(parent, text) {
    var flat = String(text || "")
      .replace(/^[ \t]{0,3}(?:#{1,6}|>|[-*+]|\d{1,9}[.)])[ \t]+/gm, "")  // block markers
      .replace(/\s+/g, " ");
    var code = /(`+) ?([^`]|[^`][\s\S]*?[^`]) ?\1(?!`)/g;
    var last = 0;
    var match;
    while ((match = code.exec(flat)) !== null) {
      appendPlain(parent, flat.slice(last, match.index));
      parent.appendChild(el("code", null, match[2]));
      last = match.index + match[0].length;
    }
    appendPlain(parent, flat.slice(last));
  }

  function appendPlain(parent, text) {
    var plain = text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")                      // images: alt text
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")                       // links: their text
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, "$1")               // autolinks
      .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "$1")                  // strong
      .replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, "$1$2")     // strong (not __init__)
      .replace(/(^|[^\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])/g, "$1$2")  // emphasis
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, "$1")                      // strikethrough
      .replace(/\\([\\`*_{}\[\]()#+\-.!>~|])/g, "$1")                // backslash escapes
      .replace(/`+/g, "");                                           // a stray backtick
    if (plain) parent.appendChild(document.createTextNode(plain));
  }

  /* Rewrite a server-rendered element's text (already plain text in the DOM) the same way. */
  function plainInPlace(node) {
    var text = node.textContent || "";
    if (!/[`*_\[\]~\\<]/.test(text)) return;
    node.textContent = "";
    appendInline(node, text);
  }

  /* The element that scrolls the chat: the widget panel, or the page itself. */
  function scrollerOf(node) {
    for (var n = node.parentElement; n; n = n.parentElement) {
      var overflow = window.getComputedStyle(n).overflowY;
      if (overflow === "auto" || overflow === "scroll") return n;
    }
    return document.scrollingElement || document.documentElement;
  }

  function locationLine(source) {
    var parts = [];
    if (source.page) {
      parts.push(source.page_end && source.page_end !== source.page
        ? "pp. " + source.page + "–" + source.page_end : "p. " + source.page);
    }
    if (source.section) parts.push(source.section);
    return parts.join(" · ");
  }

  function plainAnswer(text, citations) {
    var out = (text || "").replace(/\[\^(\d+)\]/g, "[$1]");
    if (citations && citations.length) {
      out += "\n\nSources:\n";
      citations.forEach(function (c) {
        var src = c.source || {};
        var where = locationLine(src);
        var link = c.href || c.deep_link || src.url || "";
        out += "[" + c.n + "] " + displayTitle(src) +
          (where ? ", " + where : "") + (link ? " — " + link : "") + "\n";
      });
    }
    return out;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return legacyCopy(text); });
    }
    return legacyCopy(text);
  }

  function legacyCopy(text) {
    return new Promise(function (resolve, reject) {
      var area = el("textarea", { "aria-hidden": "true", "class": "cc-offscreen" });
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
      area.remove();
      if (ok) resolve(); else reject(new Error("copy failed"));
    });
  }

  function Chat(root, options) {
    this.root = root;
    this.api = (options.apiBase || "").replace(/\/$/, "");
    this.storageKey = options.storageKey || "citecast.conversation";
    this.maxChars = 4000;
    this.conversationId = null;
    this.busy = false;
    this.build(options);
    this.loadConfig();
    this.restore();
  }

  Chat.prototype.build = function (options) {
    var id = "cc" + (++counter);
    this.id = id;
    var shell = el("div", { "class": "cc-chat" + (options.compact ? " cc-compact" : "") });
    var header = el("header", { "class": "cc-header" });
    var brand = el("div", { "class": "cc-brand" });
    brand.appendChild(el("span", { "class": "cc-logo", "aria-hidden": "true" }, "❝"));
    var titles = el("div");
    titles.appendChild(el(options.compact ? "h2" : "h1", { "class": "cc-title" }, "citecast"));
    titles.appendChild(el("p", { "class": "cc-subtitle" },
      "Answers from the knowledge base, every claim with its source."));
    brand.appendChild(titles);
    header.appendChild(brand);
    this.newButton = el("button", { "type": "button", "class": "cc-secondary" }, "New conversation");
    this.newButton.addEventListener("click", this.reset.bind(this));
    header.appendChild(this.newButton);
    shell.appendChild(header);

    this.log = el("section", {
      "class": "cc-log", "role": "log", "aria-label": "Conversation", "aria-live": "polite",
    });
    this.empty = el("p", { "class": "cc-empty" },
      "Ask a question; the answer cites its sources. Hover or focus a number to see the passage.");
    this.log.appendChild(this.empty);
    shell.appendChild(this.log);

    this.status = el("p", { "class": "cc-status", "role": "status", "aria-live": "polite" });
    shell.appendChild(this.status);

    var form = el("form", { "class": "cc-form", "novalidate": "" });
    this.form = form;
    var label = el("label", { "for": id + "-question", "class": "cc-label" }, "Your question");
    this.input = el("textarea", {
      "id": options.compact ? id + "-question" : "cc-question",
      "class": "cc-input", "rows": "2", "name": "question",
      "placeholder": "e.g. How do I install it?", "autocomplete": "off",
      "aria-describedby": id + "-hint",
    });
    label.setAttribute("for", this.input.id);
    var hint = el("p", { "id": id + "-hint", "class": "cc-hint" },
      "Enter to ask, Shift+Enter for a new line.");
    this.sendButton = el("button", { "type": "submit", "class": "cc-primary" }, "Ask");
    var row = el("div", { "class": "cc-row" });
    row.appendChild(this.input);
    row.appendChild(this.sendButton);
    form.appendChild(label);
    form.appendChild(row);
    form.appendChild(hint);
    form.addEventListener("submit", this.onSubmit.bind(this));
    this.input.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event("submit"));
      }
    });
    shell.appendChild(form);
    this.root.appendChild(shell);
  };

  Chat.prototype.url = function (path) { return this.api + path; };

  Chat.prototype.remember = function (id) {
    this.conversationId = id;
    try {
      if (id) window.localStorage.setItem(this.storageKey, id);
      else window.localStorage.removeItem(this.storageKey);
    } catch (err) { /* storage disabled: the conversation just does not survive a reload */ }
  };

  Chat.prototype.loadConfig = function () {
    var self = this;
    fetch(this.url("/api/config")).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (cfg) {
        if (cfg && cfg.max_question_chars) {
          self.maxChars = cfg.max_question_chars;
          self.input.setAttribute("maxlength", String(cfg.max_question_chars));
        }
      }).catch(function () { /* reported when the user asks */ });
  };

  Chat.prototype.restore = function () {
    var self = this;
    var stored = null;
    try { stored = window.localStorage.getItem(this.storageKey); } catch (err) { stored = null; }
    if (!stored) return;
    fetch(this.url("/api/conversations/" + encodeURIComponent(stored)))
      .then(function (r) {
        if (r.status === 404 || r.status === 400) { self.remember(null); return null; }
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (!data || !data.turns) return;
        self.remember(data.conversation_id);
        data.turns.forEach(function (turn) {
          var view = self.addTurn(turn.question);
          if (turn.status === "done" && turn.answer) self.finishTurn(view, turn);
          else if (turn.status === "hidden") self.failTurn(view, "This answer is not available to you.");
          else self.failTurn(view, "This question was not answered (the server stopped or failed).");
        });
      })
      .catch(function () { self.setStatus("Cannot reach the citecast server.", true); });
  };

  Chat.prototype.reset = function () {
    if (this.source) { this.source.close(); this.source = null; }
    this.remember(null);
    this.busy = false;
    this.sendButton.disabled = false;
    this.log.textContent = "";
    this.log.appendChild(this.empty);
    this.setStatus("Started a new conversation.");
    this.input.focus();
  };

  Chat.prototype.setStatus = function (text, isError) {
    this.status.textContent = text || "";
    this.status.classList.toggle("cc-error", !!isError);
  };

  Chat.prototype.onSubmit = function (event) {
    event.preventDefault();
    if (this.busy) return;
    var question = this.input.value.trim();
    if (!question) { this.setStatus("Type a question first.", true); this.input.focus(); return; }
    if (question.length > this.maxChars) {
      this.setStatus("The question is longer than " + this.maxChars + " characters.", true);
      return;
    }
    this.input.value = "";
    this.ask(question);
  };

  Chat.prototype.addTurn = function (question) {
    if (this.empty.parentNode) this.empty.remove();
    var turn = el("article", { "class": "cc-turn" });
    var q = el("div", { "class": "cc-question" });
    q.appendChild(el("span", { "class": "cc-sr" }, "You asked: "));
    q.appendChild(el("span", null, question));
    turn.appendChild(q);
    var answer = el("div", { "class": "cc-answer", "aria-busy": "true" });
    answer.appendChild(el("span", { "class": "cc-sr" }, "Answer: "));
    var body = el("div", { "class": "cc-body" });
    var pending = el("div", { "class": "cc-pending" });
    var typing = el("span", { "class": "cc-typing" }, "Searching the knowledge base…");
    answer.appendChild(body);
    answer.appendChild(pending);
    answer.appendChild(typing);
    turn.appendChild(answer);
    this.log.appendChild(turn);
    var view = { turn: turn, answer: answer, body: body, pending: pending, typing: typing,
                 text: "", tail: "", citations: {} };
    this.reveal(turn);
    return view;
  };

  /* The part of the scroller the sticky question box does not cover, in viewport pixels. */
  Chat.prototype.visibleBand = function () {
    var scroller = scrollerOf(this.root);
    var page = scroller === document.scrollingElement || scroller === document.documentElement;
    var top = page ? 0 : scroller.getBoundingClientRect().top;
    var bottom = page ? window.innerHeight : scroller.getBoundingClientRect().bottom;
    var formTop = this.form.getBoundingClientRect().top;
    return { scroller: scroller, top: top + 8, bottom: Math.min(bottom, formTop) - 8 };
  };

  /* Scroll the least needed so that ``node`` sits between the top and the question box; a
   * node taller than that space shows its start (the question of a long answer stays on top,
   * the rest is read by scrolling). */
  Chat.prototype.reveal = function (node) {
    var band = this.visibleBand();
    var box = node.getBoundingClientRect();
    var dy = 0;
    if (box.height > band.bottom - band.top || box.top < band.top) dy = box.top - band.top;
    else if (box.bottom > band.bottom) dy = box.bottom - band.bottom;
    if (dy) band.scroller.scrollTop += dy;
  };

  /* True while the newest turn is where reveal() put it: the viewer has not scrolled away. */
  Chat.prototype.following = function (view) {
    var band = this.visibleBand();
    var box = view.turn.getBoundingClientRect();
    return box.top >= band.top - 2 && box.top < band.bottom;
  };

  Chat.prototype.ask = function (question) {
    var self = this;
    this.busy = true;
    this.sendButton.disabled = true;
    this.setStatus("Answering…");
    var view = this.addTurn(question);
    var params = new URLSearchParams({ question: question });
    if (this.conversationId) params.set("conversation_id", this.conversationId);
    var source = new EventSource(this.url("/api/ask/stream?" + params.toString()));
    this.source = source;
    var settled = false;

    function settle() { settled = true; source.close(); self.source = null; self.busy = false;
                        self.sendButton.disabled = false; }

    source.addEventListener("start", function (e) {
      var data = JSON.parse(e.data);
      self.remember(data.conversation_id);
    });
    source.addEventListener("citation", function (e) {
      var c = JSON.parse(e.data);
      view.citations[c.n] = c;
    });
    source.addEventListener("delta", function (e) {
      var d = JSON.parse(e.data);
      var follow = self.following(view);
      view.typing.hidden = true;
      view.text += d.text || "";
      // Completed blocks are appended once; the open last block is replaced as it grows.
      // Both are HTML the server sanitized (nh3); nothing else is ever parsed as HTML.
      if (typeof d.append === "string" && d.append) {
        view.body.insertAdjacentHTML("beforeend", d.append);
      }
      if (typeof d.tail === "string") view.pending.innerHTML = d.tail;
      self.decorate(view, view.citations);
      if (follow) self.reveal(view.turn);
    });
    source.addEventListener("done", function (e) {
      settle();
      var payload = JSON.parse(e.data);
      self.remember(payload.conversation_id);
      self.finishTurn(view, payload);
      self.setStatus("Answered with " + (payload.answer.citations || []).length + " source(s).");
    });
    source.addEventListener("error", function (e) {
      if (settled) return;
      if (e instanceof MessageEvent && e.data) {
        settle();
        var reason = "The server could not answer.";
        try { reason = JSON.parse(e.data).error || reason; } catch (err) { /* keep default */ }
        self.failTurn(view, reason);
        return;
      }
      settle();
      self.explainConnectionError(view);
    });
  };

  Chat.prototype.explainConnectionError = function (view) {
    var self = this;
    fetch(this.url("/healthz"), { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("unhealthy");
        self.failTurn(view, "The server could not answer this question. Please try again.");
      })
      .catch(function () {
        self.failTurn(view, "Cannot reach the citecast server. Check that it is running and " +
          "that this site may use it, then try again.");
      });
  };

  Chat.prototype.failTurn = function (view, reason) {
    var follow = this.following(view);
    view.typing.remove();
    view.answer.setAttribute("aria-busy", "false");
    view.answer.classList.add("cc-failed");
    view.pending.textContent = "";
    var msg = el("p", { "class": "cc-error", "role": "alert" }, reason);
    view.answer.appendChild(msg);
    this.setStatus(reason, true);
    if (follow) this.reveal(view.turn);
  };

  Chat.prototype.finishTurn = function (view, payload) {
    var follow = this.following(view);
    var answer = payload.answer || { text: "", citations: [] };
    var byN = {};
    (answer.citations || []).forEach(function (c) { byN[c.n] = c; });
    (payload.citations || []).forEach(function (rc) {
      var target = rc && (rc.href || rc.url);
      if (rc && byN[rc.n] && target && !byN[rc.n].href) byN[rc.n].href = target;
    });
    Object.keys(view.citations).forEach(function (n) {
      if (byN[n] && !byN[n].href && view.citations[n].href) byN[n].href = view.citations[n].href;
    });
    view.typing.remove();
    view.pending.textContent = "";
    view.pending.remove();
    view.body.innerHTML = payload.html || "";  // server-sanitized (nh3)
    this.decorate(view, byN);
    this.sourceList(view, answer.citations || [], byN);
    this.actions(view, answer, byN);
    view.answer.setAttribute("aria-busy", "false");
    view.answer.dataset.turnId = payload.turn_id;
    if (follow) this.reveal(view.turn);
  };

  Chat.prototype.citationNumber = function (link) {
    var holder = link.closest("[data-n],[data-citation]") || link;
    var raw = link.getAttribute("data-n") || holder.getAttribute("data-n") ||
      holder.getAttribute("data-citation") || link.textContent;
    var m = /(\d+)/.exec(raw || "");
    return m ? parseInt(m[1], 10) : null;
  };

  /* Give each superscript citation its link target and an accessible tooltip. */
  Chat.prototype.decorate = function (view, byN) {
    var self = this;
    var sups = view.answer.querySelectorAll(".cc-body sup, .cc-pending sup");
    Array.prototype.forEach.call(sups, function (sup) {
      var link = sup.querySelector("a");
      if (!link || sup.dataset.ccDone) return;
      var n = self.citationNumber(link);
      var c = n !== null ? byN[n] : null;
      if (!c) return;
      sup.dataset.ccDone = "1";
      sup.classList.add("cc-cite");
      // A cited URL or file opens beside the chat; a source with neither (a record) has an
      // in-page anchor to its source list entry, which must stay in this page.
      var own = link.getAttribute("href") || "";
      var href = safeHref(c.href) || (own.charAt(0) === "#" ? null : safeHref(own));
      if (href) {
        link.setAttribute("href", href);
        link.setAttribute("target", "_blank");
        link.setAttribute("rel", "noopener noreferrer");
      } else {
        link.removeAttribute("target");
        link.addEventListener("click", function (event) {
          event.preventDefault();
          self.showSource(view, own.charAt(0) === "#" ? own.slice(1) : "", n);
        });
      }
      var tip = sup.querySelector("[role=tooltip]");
      if (!tip) {
        tip = self.tooltip(c);
        sup.appendChild(tip);
      }
      if (!tip.id) tip.id = self.id + "-tip-" + (++counter);
      link.removeAttribute("title");  // the tooltip replaces the browser's own
      tip.classList.add("cc-tooltip");
      tip.hidden = true;
      link.setAttribute("aria-describedby", tip.id);
      var src = c.source || {};
      link.setAttribute("aria-label", "Source " + n + ": " + displayTitle(src));
      function show() {
        tip.hidden = false;
        // Keep the tooltip inside the answer card (the widget panel clips what overflows).
        tip.style.marginLeft = "0px";
        var box = view.answer.getBoundingClientRect();
        var r = tip.getBoundingClientRect();
        var shift = 0;
        if (r.left < box.left + 4) shift = box.left + 4 - r.left;
        else if (r.right > box.right - 4) shift = box.right - 4 - r.right;
        tip.style.marginLeft = shift + "px";
      }
      function hide() { tip.hidden = true; }
      link.addEventListener("mouseenter", show);
      link.addEventListener("focus", show);
      link.addEventListener("mouseleave", hide);
      link.addEventListener("blur", hide);
      link.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
    });
  };

  /* Scroll to and focus the answer's source list entry ``id`` (or number ``n``). */
  Chat.prototype.showSource = function (view, id, n) {
    var entry = null;
    var items = view.answer.querySelectorAll("ol.sources > li, .cc-sources li");
    Array.prototype.forEach.call(items, function (li) {
      if (!entry && ((id && li.id === id) || li.getAttribute("data-n") === String(n))) entry = li;
      li.classList.remove("cc-target");
    });
    if (!entry) return;  // still streaming: the list comes with the finished answer
    entry.classList.add("cc-target");
    if (!entry.hasAttribute("tabindex")) entry.setAttribute("tabindex", "-1");
    this.reveal(entry);
    entry.focus({ preventScroll: true });
  };

  Chat.prototype.tooltip = function (c) {
    var src = c.source || {};
    var tip = el("span", { "role": "tooltip" });
    tip.appendChild(el("strong", { "class": "cc-tip-title" }, displayTitle(src)));
    var where = locationLine(src);
    if (where) tip.appendChild(el("span", { "class": "cc-tip-where" }, where));
    var quote = c.quote || src.text;
    if (quote) {
      if (quote.length > 320) quote = quote.slice(0, 317) + "…";
      var said = el("span", { "class": "cc-tip-quote" }, "“");
      appendInline(said, quote);
      said.appendChild(document.createTextNode("”"));
      tip.appendChild(said);
    }
    return tip;
  };

  Chat.prototype.sourceList = function (view, citations, byN) {
    if (!citations.length) return;
    var rendered = view.body.querySelector("section.sources, ol.sources");
    if (rendered) {
      // Quotes are source text: no Markdown syntax, code spans as code.
      Array.prototype.forEach.call(rendered.querySelectorAll(".quote"), plainInPlace);
      // The server rendered the numbered list; open its links beside the chat.
      Array.prototype.forEach.call(rendered.querySelectorAll("a[href]"), function (a) {
        if (safeHref(a.getAttribute("href"))) {
          a.setAttribute("target", "_blank");
          a.setAttribute("rel", "noopener noreferrer");
        }
      });
      return;
    }
    var wrap = el("nav", { "class": "cc-sources", "aria-label": "Sources" });
    wrap.appendChild(el("h3", { "class": "cc-sources-title" }, "Sources"));
    var list = el("ol");
    citations.forEach(function (c) {
      var src = c.source || {};
      var item = el("li", { "value": String(c.n), "data-n": String(c.n) });
      item.appendChild(el("span", { "class": "cc-source-n", "aria-hidden": "true" }, c.n));
      var href = safeHref((byN[c.n] || c).href || c.deep_link || src.url);
      var name = displayTitle(src);
      var title = href ? el("a", { "href": href, "target": "_blank", "rel": "noopener noreferrer" },
        name) : el("span", null, name);
      title.classList.add("cc-source-title");
      item.appendChild(title);
      var where = locationLine(src);
      if (where) item.appendChild(el("span", { "class": "cc-source-where" }, where));
      list.appendChild(item);
    });
    wrap.appendChild(list);
    view.answer.appendChild(wrap);
  };

  Chat.prototype.actions = function (view, answer, byN) {
    var self = this;
    var bar = el("div", { "class": "cc-actions" });
    var copy = el("button", { "type": "button", "class": "cc-secondary cc-copy" }, "Copy answer");
    copy.addEventListener("click", function () {
      var cites = (answer.citations || []).map(function (c) {
        return Object.assign({}, c, { href: (byN[c.n] || {}).href });
      });
      copyText(plainAnswer(answer.text, cites)).then(function () {
        copy.textContent = "Copied";
        self.setStatus("Answer copied to the clipboard.");
        setTimeout(function () { copy.textContent = "Copy answer"; }, 1500);
      }, function () { self.setStatus("Could not copy; select the text instead.", true); });
    });
    bar.appendChild(copy);
    view.answer.appendChild(bar);
  };

  window.CitecastChat = {
    mount: function (root, options) { return new Chat(root, options || {}); },
  };

  var page = document.querySelector("[data-citecast-page]");
  if (page && !page.dataset.mounted) {
    page.dataset.mounted = "1";
    window.CitecastChat.mount(page, { apiBase: "" });
  }
})();
