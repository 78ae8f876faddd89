/* citecast chat: the page at / and the embeddable widget share this file (and, loaded before
 * it in this order, sources.js for how sources are shown, answer_actions.js for the bar under
 * an answer, scroll.js for scrolling and history.js for the conversation kept across a
 * reload). No build step.
 *
 * Safety rule: the only HTML ever inserted is the server's nh3-sanitized answer HTML; every
 * other string (questions, titles, quotes, errors) goes in through textContent.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var sources = citecast.sources;
  var scroll = citecast.scroll;
  var el = sources.el;
  var counter = 0;

  /* The question as the server takes it (web_api.clean_question): normalized (NFC), control
   * characters but tab and newline made spaces, trimmed. Its length is the one the server
   * checks: NFC writes some letters (Devanagari ones with a nukta, say) as two characters. */
  function cleaned(text) {
    return text.normalize("NFC").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, " ").trim();
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
    this.generation = 0;  // counts "New conversation"s: late replies for an old one are dropped
    this.build(options);
    this.loadConfig();
    citecast.history.restore(this);
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

    // aria-busy is true while an answer streams in, so its growing paragraph is read once
    this.log = el("section", {
      "class": "cc-log", "role": "log", "aria-label": "Conversation", "aria-live": "polite",
      "aria-busy": "false",
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
      "placeholder": "e.g. How do I install it?", "autocomplete": "off", "dir": "auto",
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
        // no maxlength: it would cut a pasted question silently; checkLength() says so instead
        if (cfg.max_question_chars) self.maxChars = cfg.max_question_chars;
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

  /* A stored turn as the conversation endpoint returns it. */
  Chat.prototype.showStored = function (view, turn) {
    if (turn.status === "done" && turn.answer) this.finishTurn(view, turn);
    else if (turn.status === "hidden") this.failTurn(view, "This answer is not available to you.");
    else {
      // ``view.live``: asked on this page, its stream cut (history.follow): the question goes
      // back in the box to ask again, as for any answer that fails while the page is open
      this.failTurn(view, "This question was not answered (the server stopped or failed).",
        !!view.live);
    }
  };

  Chat.prototype.reset = function () {
    if (this.source) { this.source.abort(); this.source = null; }
    window.clearTimeout(this.pollTimer);
    this.generation += 1;
    this.remember(null);
    this.setBusy(false);
    this.log.textContent = "";
    this.log.appendChild(this.empty);
    this.setStatus("Started a new conversation.");
    this.input.focus();
  };

  /* While an answer is being written (streamed, or still written after a reload) no new
   * question is taken: it would be asked without that answer in its history. */
  Chat.prototype.setBusy = function (busy) {
    this.busy = busy;
    this.sendButton.disabled = busy;
    this.log.setAttribute("aria-busy", busy ? "true" : "false");
  };

  Chat.prototype.setStatus = function (text, isError) {
    this.status.textContent = text || "";
    this.status.classList.toggle("cc-error", !!isError);
  };

  Chat.prototype.onSubmit = function (event) {
    event.preventDefault();
    if (this.busy) {
      // Enter still comes here while the Ask button is disabled: say why nothing was sent
      if (cleaned(this.input.value)) {
        this.setStatus("Not sent yet: wait until the chat is ready, then ask again. " +
          "Your question stays in the box.");
      }
      return;
    }
    var question = this.input.value.trim();
    if (!cleaned(question)) {
      this.setStatus("Type a question first.", true);
      this.input.focus();
      return;
    }
    if (!this.checkLength()) { this.input.focus(); return; }
    this.input.value = "";
    this.ask(question);
  };

  /* False, saying so, while the question is longer than the server takes; nothing is cut. */
  Chat.prototype.checkLength = function () {
    var length = Array.from(cleaned(this.input.value)).length;  // characters, as the server counts
    var over = length > this.maxChars;
    if (over) {
      this.setStatus("The question is " + length + " characters long; shorten it to " +
        this.maxChars + " or fewer before asking.", true);
    } else if (this.input.getAttribute("aria-invalid") === "true") {
      this.setStatus("");
    }
    this.input.setAttribute("aria-invalid", over ? "true" : "false");
    return !over;
  };

  Chat.prototype.addTurn = function (question) {
    if (this.empty.parentNode) this.empty.remove();
    var turn = el("article", { "class": "cc-turn" });
    var q = el("div", { "class": "cc-question" });
    q.appendChild(el("span", { "class": "cc-sr" }, "You asked: "));
    q.appendChild(el("span", { "dir": "auto" }, question));
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
                 question: question, text: "", tail: "", citations: {} };
    this.reveal(turn);
    return view;
  };

  Chat.prototype.reveal = function (node) { scroll.reveal(this.root, this.form, node); };

  /* True while the newest turn is where reveal() put it: the viewer has not scrolled away. */
  Chat.prototype.following = function (view) {
    return scroll.following(this.root, this.form, view.turn);
  };

  Chat.prototype.ask = function (question) {
    var self = this;
    // Asked with the Ask button (disabled now) or a suggestion (removed now): focus would fall
    // to the page, so it goes to the question box.
    var active = this.root.getRootNode().activeElement;
    var refocus = !active || active === document.body || active === this.sendButton ||
      this.empty.contains(active);
    this.setBusy(true);
    this.setStatus("Answering…");
    var view = this.addTurn(question);
    if (refocus) this.input.focus({ preventScroll: true });
    this.stream(view, question, true);
  };

  /* Stream the answer to ``question`` into ``view``. Read with fetch(), not EventSource, so
   * a refusal's status and reason are known: a 4xx or 5xx is shown with its reason, and an
   * unknown conversation (the server's store was reset) is forgotten and, once
   * (``mayRetry``), the question asked again in a new conversation. */
  Chat.prototype.stream = function (view, question, mayRetry) {
    var self = this;
    var params = new URLSearchParams({ question: question });
    var continuing = this.conversationId;
    if (continuing) params.set("conversation_id", continuing);
    var controller = new AbortController();  // reset() aborts it: a late reply is dropped
    this.source = controller;
    var settled = false;

    function settle() { settled = true; self.source = null; self.busy = false;
                        self.sendButton.disabled = false; }

    var handlers = {
      start: function (data) {
        self.remember(data.conversation_id);
        view.turnId = data.turn_id;
      },
      citation: function (c) { view.citations[c.n] = c; },
      delta: function (d) {
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
      },
      done: function (payload) {
        settle();
        self.remember(payload.conversation_id);
        self.finishTurn(view, payload);
        self.setStatus(answeredStatus((payload.answer.citations || []).length));
      },
      error: function (data) {
        settle();
        self.failTurn(view, data.error || "The server could not answer.", true);
      },
    };

    function onEvent(type, data) {
      if (settled || controller.signal.aborted || !handlers[type]) return;
      var parsed = {};
      try { parsed = JSON.parse(data); } catch (err) { if (type !== "error") return; }
      handlers[type](parsed);
    }

    fetch(this.url("/api/ask/stream?" + params.toString()), {
      signal: controller.signal, cache: "no-store", headers: { "Accept": "text/event-stream" },
    }).then(function (response) {
      if (response.ok) return readEvents(response, onEvent);
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (controller.signal.aborted) return;
        settle();
        if (response.status === 404 && continuing && mayRetry) {
          self.remember(null);
          self.log.insertBefore(el("p", { "class": "cc-note" }, "The server no longer has " +
            "the conversation above, so this question starts a new one."), view.turn);
          self.setBusy(true);
          self.stream(view, question, false);
          return;
        }
        self.failTurn(view, refusal(response, body), true);
      });
    }).catch(function () { /* the connection failed: said below */ })
      .then(function () {
        if (settled || controller.signal.aborted) return;
        // the stream ended without done or error, or never began
        settle();
        self.explainConnectionError(view);
      });
  };

  /* What to tell the user when the server refused to stream (an HTTP error, ``body`` its JSON). */
  function refusal(response, body) {
    var reason = body && typeof body.error === "string" && body.error ? body.error : "";
    if (response.status === 429) {
      var after = response.headers.get("Retry-After") || "";  // seconds, or an HTTP date
      var wait = /^\d+$/.test(after) ? Number(after) :
        Math.ceil((Date.parse(after) - Date.now()) / 1000);
      // Said in our words, not the reason: citecast's own already names the wait ("try
      // again in 30 s"), which read twice beside this sentence.
      return "Too many questions for now. Please wait " +
        (wait > 0 ? wait + (wait === 1 ? " second" : " seconds") : "a moment") +
        " before asking again.";
    }
    return reason || "The server could not answer this question. Please try again.";
  }

  /* Call on(type, data) for each server-sent event in ``response``'s body; the promise settles
   * when the body ends (an unfinished last event is dropped, as EventSource does). */
  function readEvents(response, on) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffer = "";
    function dispatch(block) {
      var type = "message";
      var data = [];
      block.split("\n").forEach(function (line) {
        var colon = line.indexOf(":");
        var field = colon < 0 ? line : line.slice(0, colon);  // "" for a comment (keep-alive)
        var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") type = value;
        else if (field === "data") data.push(value);
      });
      if (data.length) on(type, data.join("\n"));
    }
    return (function pump() {
      return reader.read().then(function (chunk) {
        buffer += decoder.decode(chunk.value, { stream: !chunk.done });
        buffer = buffer.replace(/\r\n/g, "\n");
        var end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        if (!chunk.done) return pump();
      });
    })();
  }

  Chat.prototype.explainConnectionError = function (view) {
    var self = this;
    fetch(this.url("/healthz"), { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("unhealthy");
        // the stream broke, not the server: it goes on writing the answer and stores it
        if (view.turnId && self.conversationId) {
          citecast.history.follow(self, self.conversationId, view, view.turnId);
          return;
        }
        self.failTurn(view, "The server could not answer this question. Please try again.", true);
      })
      .catch(function () {
        self.failTurn(view, "Cannot reach the citecast server. Check that it is running and " +
          "that this site may use it, then try again.", true);
      });
  };

  /* Show why the turn has no answer; ``live`` (it failed just now, not before a reload) puts
   * the question back in the box to ask again. The reason is said once, by the alert. What
   * had streamed goes: it is not the answer (the turn is stored failed and a reload shows no
   * text), and an answer refused at its end, for a source the viewer may not see, is never
   * shown. */
  Chat.prototype.failTurn = function (view, reason, live) {
    var follow = this.following(view);
    var refocus = scroll.holdFocus(this.root, view.answer);  // its text goes: to the box
    view.typing.remove();
    view.answer.setAttribute("aria-busy", "false");
    view.answer.classList.add("cc-failed");
    view.body.textContent = "";
    view.pending.remove();
    var msg = el("p", { "class": "cc-error", "role": "alert" }, reason);
    view.answer.appendChild(msg);
    if (live) {
      if (!this.input.value.trim()) this.input.value = view.question;
      this.setStatus("Not answered; your question is back in the box to ask again.", true);
    }
    this.log.setAttribute("aria-busy", this.busy ? "true" : "false");
    if (follow) this.reveal(view.turn);
    refocus(this.input);
  };

  Chat.prototype.finishTurn = function (view, payload) {
    var self = this;
    var follow = this.following(view);
    var refocus = scroll.holdFocus(this.root, view.answer);  // a citation read as it streamed
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
    sources.directions(view.answer);
    citecast.actions.addBar(view, answer, byN, {
      url: this.url.bind(this), conversationId: this.conversationId, turnId: payload.turn_id,
      vote: payload.vote, shareUrl: payload.share_url,
      say: function (text, isError) { self.setStatus(text, isError); },
    });
    view.answer.setAttribute("aria-busy", "false");
    view.answer.dataset.turnId = payload.turn_id;
    this.log.setAttribute("aria-busy", this.busy ? "true" : "false");
    if (follow) this.reveal(view.turn);
    refocus(this.input);
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

  citecast.chat = {
    mount: function (root, options) { return new Chat(root, options || {}); },
  };

  var page = document.querySelector("[data-citecast-page]");
  if (page && !page.dataset.mounted) {
    page.dataset.mounted = "1";
    citecast.chat.mount(page, {
      apiBase: "", title: page.dataset.title, subtitle: page.dataset.subtitle,
    });
  }
})();
