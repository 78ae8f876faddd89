/* citecast chat: the page at / and the embeddable widget share this file (and sources.js,
 * loaded first, for how sources are shown). No build step.
 *
 * Safety rule: the only HTML ever inserted is the server's nh3-sanitized answer HTML; every
 * other string (questions, titles, quotes, errors) goes in through textContent.
 */
(function () {
  "use strict";

  var sources = window.CitecastSources;
  var el = sources.el;
  var counter = 0;

  /* The element that scrolls the chat: the widget panel, or the page itself. */
  function scrollerOf(node) {
    for (var n = node.parentElement; n; n = n.parentElement) {
      var overflow = window.getComputedStyle(n).overflowY;
      if (overflow === "auto" || overflow === "scroll") return n;
    }
    return document.scrollingElement || document.documentElement;
  }

  /* What the status line says when an answer has arrived. */
  function answeredStatus(count) {
    if (count === 0) return "Answered without sources.";
    return "Answered with " + count + (count === 1 ? " source." : " sources.");
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
    // the page passes the deployment's names; the widget gets them from /api/config
    this.title = el(options.compact ? "h2" : "h1", { "class": "cc-title" },
      options.title || "citecast");
    this.subtitle = el("p", { "class": "cc-subtitle" },
      options.subtitle || "Answers from the knowledge base, every claim with its source.");
    titles.appendChild(this.title);
    titles.appendChild(this.subtitle);
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
        if (!cfg) return;
        if (cfg.max_question_chars) {
          self.maxChars = cfg.max_question_chars;
          self.input.setAttribute("maxlength", String(cfg.max_question_chars));
        }
        if (typeof cfg.title === "string" && cfg.title) self.title.textContent = cfg.title;
        if (typeof cfg.subtitle === "string") self.subtitle.textContent = cfg.subtitle;
        if (Array.isArray(cfg.suggested_prompts)) self.suggest(cfg.suggested_prompts);
      }).catch(function () { /* reported when the user asks */ });
  };

  /* Buttons in the empty conversation that ask the deployment's suggested questions. */
  Chat.prototype.suggest = function (prompts) {
    var self = this;
    var group = el("span", { "class": "cc-prompts", "role": "group", "aria-label": "Try asking" });
    prompts.forEach(function (prompt) {
      if (typeof prompt !== "string" || !prompt) return;
      var button = el("button", { "type": "button", "class": "cc-secondary" }, prompt);
      button.addEventListener("click", function () { if (!self.busy) self.ask(prompt); });
      group.appendChild(button);
    });
    if (group.childNodes.length) this.empty.appendChild(group);
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
      self.setStatus(answeredStatus((payload.answer.citations || []).length));
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
    var self = this;
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
    sources.sourceList(view, answer.citations || [], byN);
    window.CitecastActions.addBar(view, answer, byN, {
      url: this.url.bind(this), conversationId: this.conversationId, turnId: payload.turn_id,
      say: function (text, isError) { self.setStatus(text, isError); },
    });
    view.answer.setAttribute("aria-busy", "false");
    view.answer.dataset.turnId = payload.turn_id;
    if (follow) this.reveal(view.turn);
  };

  /* Give each superscript citation its link target and tooltip; a source without a link
   * (a record) jumps to its entry in the source list. */
  Chat.prototype.decorate = function (view, byN) {
    var self = this;
    sources.decorate(view.answer, byN, this.id, function (id, n) { self.showSource(view, id, n); });
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

  window.CitecastChat = {
    mount: function (root, options) { return new Chat(root, options || {}); },
  };

  var page = document.querySelector("[data-citecast-page]");
  if (page && !page.dataset.mounted) {
    page.dataset.mounted = "1";
    window.CitecastChat.mount(page, {
      apiBase: "", title: page.dataset.title, subtitle: page.dataset.subtitle,
    });
  }
})();
