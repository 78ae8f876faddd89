/* citecast chat: the page at / and the embeddable widget share this file (and, loaded before
 * it in this order, sources.js for how sources are shown, citations.js for the superscript
 * citations and their tooltips, answer_actions.js for the bar under an answer, scroll.js for
 * scrolling, history.js for the conversation kept across a reload, turns.js for a question's
 * card and how it ends, and stream.js for asking and reading the answer as it is written, and
 * how long to wait on the server). This file builds the chat and takes the questions. No build
 * step.
 *
 * Safety rule: the only HTML ever inserted is the server's nh3-sanitized answer HTML; every
 * other string (questions, titles, quotes, errors) goes in through textContent.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var scroll = citecast.scroll;
  var turns = citecast.turns;
  var el = citecast.sources.el;
  var counter = 0;

  /* The question as the server takes it (web_api.clean_question): normalized (NFC), control
   * characters but tab and newline made spaces, trimmed. Its length is the one the server
   * checks: NFC writes some letters (Devanagari ones with a nukta, say) as two characters. */
  function cleaned(text) {
    return text.normalize("NFC").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, " ").trim();
  }

  function Chat(root, options) {
    this.root = root;
    this.api = (options.apiBase || "").replace(/\/$/, "");
    this.storageKey = options.storageKey || "citecast.conversation";
    // where an older version kept the conversation, when not storageKey (history.js moves it
    // here once this page's server knows it)
    this.legacyKey = options.legacyKey !== this.storageKey ? options.legacyKey || null : null;
    this.maxChars = 4000;
    this.conversationId = null;
    this.counted = 0;  // the turns of the conversation numbered so far (turns.js count)
    this.compact = !!options.compact;  // in the widget, on someone else's site
    // the language of questions and answers, when it is not the chat's own English: the
    // deployment's assistant.language, else in the widget its host page's (turns.js);
    // undefined on a page of a deployment that sets none, where it is not known
    this.contentLang = options.contentLang;
    this.busy = false;
    this.overLimit = false;  // the question in the box is too long, and checkLength said so
    this.loading = false;  // a stored conversation is being fetched (history.js)
    this.refused = false;  // /api/config or the stored conversation unreadable: cannotReach()
    this.generation = 0;  // counts "New conversation"s: late replies for an old one are dropped
    this.timeouts = citecast.timeouts.bounds(options);
    this.build(options);
    this.loadConfig();
    citecast.history.restore(this);
  }

  Chat.prototype.build = function (options) {
    var id = "cc" + (++counter);
    this.id = id;
    var shell = el("div", { "class": "cc-chat" + (options.compact ? " cc-compact" : "") });
    // a div, not a <header>: in the widget a <header> would be a second banner landmark of the
    // host page, listed among its own in a screen reader's landmarks
    var header = el("div", { "class": "cc-header" });
    var brand = el("div", { "class": "cc-brand" });
    brand.appendChild(el("span", { "class": "cc-logo", "aria-hidden": "true" }, "❝"));
    var titles = el("div");
    // the page passes the deployment's names; the widget gets them from /api/config
    this.title = el(options.compact ? "h2" : "h1", { "class": "cc-title", "id": id + "-title" },
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

    // Turns answered before this page loaded (history.js) go here, outside the live log: in
    // it, a screen reader would read the whole conversation aloud after each reload. A named
    // <section> is a region landmark: in the widget a group, adding none to the host page.
    this.earlier = el(options.compact ? "div" : "section", {
      "class": "cc-earlier", "aria-label": "Earlier in this conversation", "hidden": "",
    });
    if (options.compact) this.earlier.setAttribute("role", "group");
    shell.appendChild(this.earlier);

    // An answer streams in outside what is live (turns.js), and is added to the log once,
    // whole; aria-busy is true while one is written or a stored conversation arrives.
    this.log = el("section", {
      "class": "cc-log", "role": "log", "aria-label": "Conversation", "aria-live": "polite",
      "aria-busy": "false",
    });
    // The empty conversation's hint and suggested questions go before the log, not in it: in
    // it, a screen reader would read them out on every load.
    this.empty = el("p", { "class": "cc-empty" },
      "Ask a question; the answer cites its sources. ");
    // how to see a source depends on the screen: chat.css shows the one that fits (hover: none)
    this.empty.appendChild(el("span", { "class": "cc-by-pointer" },
      "Hover or focus a number to see the passage."));
    this.empty.appendChild(el("span", { "class": "cc-by-touch" },
      "Tap a number to open its source."));
    shell.appendChild(this.empty);
    shell.appendChild(this.log);

    this.status = el("p", {
      "id": id + "-status", "class": "cc-status", "role": "status", "aria-live": "polite",
    });
    shell.appendChild(this.status);

    var form = el("form", { "class": "cc-form", "novalidate": "" });
    this.form = form;
    var label = el("label", { "for": id + "-question", "class": "cc-label" }, "Your question");
    this.input = el("textarea", {
      "id": options.compact ? id + "-question" : "cc-question",
      "class": "cc-input", "rows": "2", "name": "question",
      "placeholder": "e.g. How do I install it?", "autocomplete": "off", "dir": "auto",
      "aria-describedby": id + "-hint",
    });
    label.setAttribute("for", this.input.id);
    // the widget's panel says how to leave it: Tab goes round it while it is open (widget.js)
    var hint = el("p", { "id": id + "-hint", "class": "cc-hint" },
      "Enter to ask, Shift+Enter for a new line" +
      (options.compact ? ", Escape to close the chat." : "."));
    this.sendButton = el("button", { "type": "submit", "class": "cc-primary" }, "Ask");
    var row = el("div", { "class": "cc-row" });
    row.appendChild(this.input);
    row.appendChild(this.sendButton);
    form.appendChild(label);
    form.appendChild(row);
    form.appendChild(hint);
    form.addEventListener("submit", this.onSubmit.bind(this));
    this.input.addEventListener("input", this.checkLength.bind(this));
    this.input.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event("submit"));
      }
    });
    shell.appendChild(form);
    this.root.appendChild(shell);
    scroll.keepFocusClear(this.root, form);
    // in the widget, the root's parent is its panel (widget.js): room for the answers there
    if (options.compact) scroll.keepRoom(this.root.parentElement, header, form);
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
    var url = this.url("/api/config");
    citecast.timeouts.within(this.timeouts.request, function (signal) {
      return fetch(url, { signal: signal }).then(function (r) {
        // refused (same origin, where the 403 can be read): as another site's browser sees it
        if (r.status === 403) throw new TypeError("refused");
        return r.ok ? r.json() : null;
      });
    }).then(function (cfg) {
        if (!cfg) return;
        citecast.timeouts.heartbeat(self.timeouts, cfg.sse_heartbeat);
        // no maxlength: it would cut a pasted question silently; checkLength() says so instead
        if (cfg.max_question_chars) self.maxChars = cfg.max_question_chars;
        if (typeof cfg.title === "string" && cfg.title) self.title.textContent = cfg.title;
        if (typeof cfg.subtitle === "string") self.subtitle.textContent = cfg.subtitle;
        // a turn shown before this arrived keeps the language it was given (turns.js)
        if (typeof cfg.language === "string" && cfg.language) self.contentLang = cfg.language;
        if (Array.isArray(cfg.suggested_prompts)) self.suggest(cfg.suggested_prompts);
      }).catch(function (err) {
        // kept even when the status line is taken, so a question that fails says the reason
        if (err instanceof TypeError) self.refused = true;
        // said now, not only when the user asks (unless the status line already says
        // something, such as "Loading the conversation…", which gives up by itself with the
        // same reason, history.js): a server that takes requests and never answers them, or
        // one that cannot be reached
        if (self.status.textContent) return;
        if (citecast.timeouts.isTimeout(err)) {
          self.setStatus("The citecast server did not answer within " +
            citecast.timeouts.describe(err.ms) + "; it may not answer questions either.", true);
        } else if (err instanceof TypeError) {
          // refused, or not there: a site missing from web.cors_origins gets a 403 its browser
          // does not let it read. Said when the widget opens, not after a question fails;
          // kept (above), so that a question that fails for it says the same (cannotReach)
          self.setStatus(self.unreachable(), true);
        }
      });
  };

  /* Why the chat cannot work, for the visitor and for whoever runs the site it is on. */
  Chat.prototype.unreachable = function () {
    // the host page's Content-Security-Policy blocked the request (widget.js says so)
    if (citecast.blocked && citecast.blocked["connect-src"]) return citecast.blockedByPage();
    if (!this.compact) return "Cannot reach the citecast server; questions may fail.";
    // a page opened from a file has no origin to list (its requests say "null"): it must be
    // served, even by `python -m http.server`
    if (!/^https?:$/.test(window.location.protocol)) {
      return "Cannot reach the citecast server at " + (this.api || window.location.origin) +
        " from a page opened as " + window.location.protocol + "//…: the widget works only on " +
        "a page served over http or https, whose address web.cors_origins lists.";
    }
    return "Cannot reach the citecast server at " + (this.api || window.location.origin) +
      ": it may be down, or it does not allow this site (its web.cors_origins must list " +
      window.location.origin + ").";
  };

  /* Why a question got no answer from a server that cannot be reached: in the widget whose
   * config check was refused, the reason it gave (the server, and the site its
   * web.cors_origins must list), rather than a vaguer one. */
  Chat.prototype.cannotReach = function () {
    if (this.compact && this.refused) return this.unreachable();
    // what to check is for whoever runs the site, not for its visitors: in the console
    var where = new URL((this.api || ".") + "/", window.location.href).href.replace(/\/$/, "");
    console.warn("citecast: cannot reach the citecast server at " + where +
      ": check that it is running" +
      (this.compact ? " and that its web.cors_origins lists " + window.location.origin : "") +
      ".");
    return "Cannot reach the citecast server right now. Please try again in a moment.";
  };

  /* Buttons in the empty conversation that ask the deployment's suggested questions. */
  Chat.prototype.suggest = function (prompts) {
    var self = this;
    var group = el("span", { "class": "cc-prompts", "role": "group", "aria-label": "Try asking" });
    prompts.forEach(function (prompt) {
      if (typeof prompt !== "string" || !prompt) return;
      var button = el("button", { "type": "button", "class": "cc-secondary" }, prompt);
      // a question, in the questions' language (the group's name is the chat's English)
      if (typeof self.contentLang === "string") button.setAttribute("lang", self.contentLang);
      button.addEventListener("click", function () { if (!self.busy) self.ask(prompt); });
      group.appendChild(button);
    });
    if (group.childNodes.length) this.empty.appendChild(group);
  };

  /* A stored turn as the conversation endpoint returns it. */
  Chat.prototype.showStored = function (view, turn) { turns.showStored(this, view, turn); };

  Chat.prototype.reset = function () {
    if (this.source) { this.source.abort(); this.source = null; }
    window.clearTimeout(this.pollTimer);
    this.generation += 1;
    this.loading = false;
    this.remember(null);
    this.counted = 0;
    this.setBusy(false);
    this.earlier.textContent = "";
    this.earlier.hidden = true;
    this.log.textContent = "";
    this.log.before(this.empty);
    this.markInvalid(false);
    this.setStatus("Started a new conversation.");
    this.input.focus();
  };

  /* The question box is ``invalid`` (empty, or too long): aria-invalid, and its description
   * adds the status line, which says why (WCAG 3.3.1), for as long as it is. */
  Chat.prototype.markInvalid = function (invalid) {
    var hint = this.input.getAttribute("aria-describedby").split(/\s+/)[0];
    this.input.setAttribute("aria-invalid", invalid ? "true" : "false");
    this.input.setAttribute("aria-describedby", invalid ? hint + " " + this.status.id : hint);
  };

  /* While an answer is being written (streamed, or still written after a reload) no new
   * question is taken: it would be asked without that answer in its history. */
  Chat.prototype.setBusy = function (busy) {
    this.busy = busy;
    this.sendButton.disabled = busy;
    this.log.setAttribute("aria-busy", busy ? "true" : "false");
  };

  /* Say ``text`` in the status line (a live region). Said again unchanged (a poll that
   * finds the answer still being written, the server still out of reach), it is left as it
   * is: each new text node would be read out again, every second (WCAG 4.1.3). */
  Chat.prototype.setStatus = function (text, isError) {
    text = text || "";
    if (this.status.textContent === text &&
        this.status.classList.contains("cc-error") === !!isError) return;
    this.status.textContent = text;
    this.status.classList.toggle("cc-error", !!isError);
  };

  Chat.prototype.onSubmit = function (event) {
    event.preventDefault();
    if (this.busy) {
      // Enter still comes here while the Ask button is disabled: say why nothing was sent.
      // Not asked by itself once ready: the conversation (or answer) that arrives may change
      // what the visitor wants to ask, and a failed answer puts its own question in the box.
      if (cleaned(this.input.value)) {
        this.setStatus(this.loading ?
          "Not sent yet: the conversation is still loading. Your question stays in the box; " +
            "ask it again once the conversation is shown." :
          "Not sent yet: wait until the chat is ready, then ask again. " +
            "Your question stays in the box.");
      }
      return;
    }
    var question = this.input.value.trim();
    if (!cleaned(question)) {
      this.setStatus("Type a question first.", true);
      this.markInvalid(true);
      this.input.focus();
      return;
    }
    if (!this.checkLength()) { this.input.focus(); return; }
    this.input.value = "";
    this.ask(question);
  };

  /* False, saying so, while the question is longer than the server takes; nothing is cut.
   * ``event``: a key typed (an input event), which says so only on crossing the limit: the
   * status line is live, and a count said again with every key would be read with every key.
   * Asking says it again, with the count as it is then. */
  Chat.prototype.checkLength = function (event) {
    var length = Array.from(cleaned(this.input.value)).length;  // characters, as the server counts
    var over = length > this.maxChars;
    // already said, and still what the status line says (nothing has said something since)
    var said = this.overLimit && this.status.classList.contains("cc-error");
    if (over && !(event && said)) {
      this.setStatus("The question is " + length + " characters long; shorten it to " +
        this.maxChars + " or fewer before asking.", true);
    } else if (!over && this.input.getAttribute("aria-invalid") === "true") {
      this.setStatus("");
    }
    this.overLimit = over;
    this.markInvalid(over);
    return !over;
  };

  /* The card of a new turn (turns.js); ``earlier``: one answered before the page loaded, which
   * history.js adds outside the live log; ``number``: a stored turn's place in its conversation. */
  Chat.prototype.addTurn = function (question, earlier, number) {
    return turns.add(this, question, earlier, number);
  };

  Chat.prototype.reveal = function (node) { scroll.reveal(this.root, this.form, node); };

  /* True while the newest turn is where reveal() put it: the viewer has not scrolled away. */
  Chat.prototype.following = function (view) {
    return scroll.following(this.root, this.form, view.turn);
  };

  Chat.prototype.ask = function (question) {
    // Asked with the Ask button (disabled now) or a suggestion (removed now): focus would fall
    // to the page, so it goes to the question box.
    var active = this.root.getRootNode().activeElement;
    var refocus = !active || active === document.body || active === this.sendButton ||
      this.empty.contains(active);
    // a suggestion asked with the box left empty: its "Type a question first." is over
    if (!cleaned(this.input.value)) this.markInvalid(false);
    this.setBusy(true);
    this.setStatus("Answering…");
    var view = this.addTurn(question);
    if (refocus) this.input.focus({ preventScroll: true });
    this.stream(view, question, true);
  };

  /* Stream the answer to ``question`` into ``view`` (stream.js). */
  Chat.prototype.stream = function (view, question, mayRetry) {
    citecast.stream.ask(this, view, question, mayRetry);
  };

  /* Show why the turn has no answer (turns.js); ``live``: it failed just now. */
  Chat.prototype.failTurn = function (view, reason, live) { turns.fail(this, view, reason, live); };

  Chat.prototype.finishTurn = function (view, payload) { turns.finish(this, view, payload); };

  Chat.prototype.decorate = function (view, byN) { turns.decorate(this, view, byN); };

  citecast.chat = {
    mount: function (root, options) { return new Chat(root, options || {}); },
  };

  var LEGACY_KEY = "citecast.conversation";
  var page = document.querySelector("[data-citecast-page]");
  if (page && !page.dataset.mounted) {
    page.dataset.mounted = "1";
    // The conversation is kept under the page's own path: two deployments on one origin
    // (/help/ and /kb/ behind one proxy) share its localStorage, and one key would have each
    // send the other's conversation, which its server does not know, and forget it. At the
    // origin's root the key is the one every page used before: its conversation stays put.
    var path = new URL(".", window.location.href).pathname;
    // "." (relative to the page, not "/"): the API is beside the page also when a reverse
    // proxy serves citecast under a sub-path (https://example.com/help/)
    citecast.chat.mount(page, {
      storageKey: path === "/" ? LEGACY_KEY : LEGACY_KEY + ":" + path,
      legacyKey: LEGACY_KEY,
      apiBase: ".", title: page.dataset.title, subtitle: page.dataset.subtitle,
      // assistant.language, when set: the language questions and answers are in
      contentLang: page.dataset.contentLang,
      requestTimeout: page.dataset.requestTimeout, silenceTimeout: page.dataset.silenceTimeout,
    });
  }
})();
