/* citecast stream: asking a question and reading its answer as it is written (GET
 * /api/ask/stream, server-sent events read with fetch()), saying why the server refused it, and
 * what became of it when the connection dropped. Loaded after turns.js and before chat.js,
 * which calls window.Citecast.stream.ask(chat, view, question).
 *
 * Safety rule (as in chat.js): the only HTML inserted is the server's nh3-sanitized answer.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var el = citecast.sources.el;

  /* What the status line says when an answer has arrived. */
  function answeredStatus(count) {
    if (count === 0) return "Answered without sources.";
    return "Answered with " + count + (count === 1 ? " source." : " sources.");
  }

  /* Stream the answer to ``question`` into ``view``. Read with fetch(), not EventSource, so
   * a refusal's status and reason are known: a 4xx or 5xx is shown with its reason, and an
   * unknown conversation (the server's store was reset) is forgotten and, once
   * (``mayRetry``), the question asked again in a new conversation. */
  function ask(chat, view, question, mayRetry) {
    var params = new URLSearchParams({ question: question });
    var continuing = chat.conversationId;
    if (continuing) params.set("conversation_id", continuing);
    var controller = new AbortController();  // reset() aborts it: a late reply is dropped
    chat.source = controller;
    var settled = false;

    function settle() { settled = true; chat.source = null; chat.busy = false;
                        chat.sendButton.disabled = false; }

    var handlers = {
      start: function (data) {
        chat.remember(data.conversation_id);
        view.turnId = data.turn_id;
      },
      citation: function (c) { view.citations[c.n] = c; },
      delta: function (d) {
        var follow = chat.following(view);
        view.typing.hidden = true;
        view.text += d.text || "";
        // Completed blocks are appended once; the open last block is replaced as it grows.
        // Both are HTML the server sanitized (nh3); nothing else is ever parsed as HTML.
        if (typeof d.append === "string" && d.append) {
          view.body.insertAdjacentHTML("beforeend", d.append);
        }
        if (typeof d.tail === "string") view.pending.innerHTML = d.tail;
        chat.decorate(view, view.citations);
        if (follow) chat.reveal(view.turn);
      },
      done: function (payload) {
        settle();
        chat.remember(payload.conversation_id);
        chat.finishTurn(view, payload);
        chat.setStatus(answeredStatus((payload.answer.citations || []).length));
      },
      error: function (data) {
        settle();
        chat.failTurn(view, data.error || "The server could not answer.", true);
      },
    };

    function onEvent(type, data) {
      if (settled || controller.signal.aborted || !handlers[type]) return;
      var parsed = {};
      try { parsed = JSON.parse(data); } catch (err) { if (type !== "error") return; }
      handlers[type](parsed);
    }

    fetch(chat.url("/api/ask/stream?" + params.toString()), {
      signal: controller.signal, cache: "no-store", headers: { "Accept": "text/event-stream" },
    }).then(function (response) {
      if (response.ok) return readEvents(response, onEvent);
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (controller.signal.aborted) return;
        settle();
        if (response.status === 404 && continuing && mayRetry) {
          chat.remember(null);
          chat.log.insertBefore(el("p", { "class": "cc-note" }, "The server no longer has " +
            "the conversation above, so this question starts a new one."), view.turn);
          chat.setBusy(true);
          ask(chat, view, question, false);
          return;
        }
        chat.failTurn(view, refusal(response, body), true);
      });
    }).catch(function () { /* the connection failed: said below */ })
      .then(function () {
        if (settled || controller.signal.aborted) return;
        // the stream ended without done or error, or never began
        settle();
        explainConnectionError(chat, view);
      });
  }

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

  /* The stream of ``view`` broke off: wait for the answer if the server is up and goes on
   * writing it, else say why there is none. */
  function explainConnectionError(chat, view) {
    fetch(chat.url("/healthz"), { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("unhealthy");
        // the stream broke, not the server: it goes on writing the answer and stores it
        if (view.turnId && chat.conversationId) {
          citecast.history.follow(chat, chat.conversationId, view, view.turnId);
          return;
        }
        chat.failTurn(view, "The server could not answer this question. Please try again.", true);
      })
      .catch(function () {
        chat.failTurn(view, "Cannot reach the citecast server. Check that it is running and " +
          "that this site may use it, then try again.", true);
      });
  }

  citecast.stream = { ask: ask };
})();
