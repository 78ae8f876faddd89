/* citecast stream: asking a question and reading its answer as it is written (GET
 * /api/ask/stream, server-sent events read with fetch()), saying why the server refused it or
 * what became of it when the connection dropped or fell silent; and how long to wait on the
 * server (window.Citecast.timeouts). Loaded after turns.js and before chat.js, which calls
 * window.Citecast.stream.ask(chat, view, question).
 *
 * Safety rule (as in chat.js): the only HTML inserted is the server's nh3-sanitized answer.
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var el = citecast.sources.el;
  var turns = citecast.turns;

  /* -- timeouts: how long the chat waits on the server before it gives up and says so. A
   * server that takes a request and never answers would otherwise leave "Loading the
   * conversation…" or "Searching the knowledge base…" up for good.
   *
   * Two bounds, in milliseconds: ``request``, for a request that is not a stream (the
   * conversation, /api/config, a vote, the health check), and ``silence``, for an answer's
   * stream that sends nothing, not even its keep-alive comment (sent every web.sse_heartbeat
   * seconds). The page (data-request-timeout, data-silence-timeout on its root) and the
   * widget (the same on its <script> tag) may set them; the tests keep them short that way.
   * history.js, answer_actions.js and chat.js use them as window.Citecast.timeouts. */
  var REQUEST_MS = 30000;
  // 3 × web.sse_heartbeat once /api/config says it; until then above 3 × its default 15 s
  var SILENCE_MS = 60000;
  var HEARTBEATS = 3;

  function positive(value) {
    var number = Number(value);
    return isFinite(number) && number > 0 ? number : 0;
  }

  /* A bound set in milliseconds; one under SECONDS_BELOW was meant in seconds
   * (data-request-timeout="30"): read so, with one console warning, rather than giving up
   * after 30 ms and saying "within 0 seconds". */
  var SECONDS_BELOW = 100;
  var warned = {};
  function milliseconds(value, name) {
    var number = positive(value);
    if (!number) {
      // set, but not a wait (data-silence-timeout="abc", "0"): said, as a number in seconds
      // is, rather than left for the site to wonder why it changes nothing
      if (value !== null && value !== undefined && String(value).trim() !== "") {
        warnOnce(name, "citecast: data-" + name + "-timeout=\"" + value + "\" is not a " +
          "number of milliseconds, so it is ignored and the default wait is used. Write a " +
          "whole number, as data-" + name + "-timeout=\"30000\" for 30 s.");
      }
      return 0;
    }
    if (number >= SECONDS_BELOW) return number;
    warnOnce(name, "citecast: data-" + name + "-timeout=\"" + value + "\" is in " +
      "milliseconds; so short a wait must mean seconds, so it is read as " + number * 1000 +
      " ms. Write data-" + name + "-timeout=\"" + number * 1000 + "\".");
    return number * 1000;
  }
  function warnOnce(name, message) {
    if (warned[name]) return;
    warned[name] = true;
    console.warn(message);
  }

  /* The bounds of a chat from its options (``requestTimeout``, ``silenceTimeout``, in ms). */
  function bounds(options) {
    var silence = milliseconds(options.silenceTimeout, "silence");
    return {
      request: milliseconds(options.requestTimeout, "request") || REQUEST_MS,
      silence: silence || SILENCE_MS,
      silenceSet: !!silence,  // set by the page: /api/config's heartbeat does not change it
    };
  }

  /* Take the stream's heartbeat (seconds) from /api/config into ``timeouts``. */
  function heartbeat(limits, seconds) {
    if (!limits.silenceSet && positive(seconds)) limits.silence = HEARTBEATS * seconds * 1000;
  }

  function TimeoutError(ms) {
    this.name = "TimeoutError";
    this.ms = ms;
    this.message = "no answer within " + ms + " ms";
  }
  TimeoutError.prototype = Object.create(Error.prototype);

  function isTimeout(err) { return err instanceof TimeoutError; }

  /* Run ``work(signal)`` (a fetch and the reading of its body); the promise it returns rejects
   * with a TimeoutError once ``ms`` pass before it settles, and ``signal`` aborts the request
   * then, so the connection is not kept open either. */
  function within(ms, work) {
    var controller = new AbortController();
    var timer = null;
    var late = new Promise(function (resolve, reject) {
      timer = window.setTimeout(function () {
        reject(new TimeoutError(ms));
        controller.abort();
      }, ms);
    });
    var done = Promise.resolve().then(function () { return work(controller.signal); });
    return Promise.race([done, late]).finally(function () { window.clearTimeout(timer); });
  }

  /* Call ``onSilent()`` once ``ms`` pass without a poke(); stop() ends the wait. */
  function watchdog(ms, onSilent) {
    var timer = null;
    function stop() { window.clearTimeout(timer); }
    function poke() { stop(); timer = window.setTimeout(onSilent, ms); }
    poke();
    return { poke: poke, stop: stop };
  }

  /* ``ms`` as people read it: "30 seconds", "1 second", "0.3 seconds". */
  function describe(ms) {
    var s = ms / 1000;
    if (s < 0.1) return "under 0.1 seconds";  // never "0 seconds"
    s = s >= 10 ? Math.round(s) : Math.round(s * 10) / 10;
    return s + (s === 1 ? " second" : " seconds");
  }

  var timeouts = citecast.timeouts = {
    bounds: bounds, heartbeat: heartbeat, within: within, watchdog: watchdog,
    isTimeout: isTimeout, describe: describe,
  };

  /* -- asking */

  /* What the status line says when an answer has arrived: nothing for the reply to a
   * greeting or a thank-you (the server's ``small_talk``), which looks for no sources, so
   * "without sources" would read as a failure. */
  function answeredStatus(count, smallTalk) {
    if (smallTalk) return "";
    if (count === 0) return "Answered without sources.";
    return "Answered with " + count + (count === 1 ? " source." : " sources.");
  }

  /* Stream the answer to ``question`` into ``view``. Read with fetch(), not EventSource, so
   * a refusal's status and reason are known: a 4xx or 5xx is shown with its reason, and an
   * unknown conversation (the server's store was reset) is forgotten and, once
   * (``mayRetry``), the question asked again in a new conversation. A server that sends
   * nothing, not even the keep-alive comment it sends every web.sse_heartbeat seconds, for
   * ``chat.timeouts.silence`` ms (before it answers, or midway) is given up on, the question
   * back in the box. */
  function ask(chat, view, question, mayRetry) {
    var params = new URLSearchParams({ question: question });
    var continuing = chat.conversationId;
    if (continuing) params.set("conversation_id", continuing);
    var controller = new AbortController();  // reset() aborts it: a late reply is dropped
    chat.source = controller;
    var settled = false;
    var answering = false;  // the server has answered the request (its headers are here)
    var silence = timeouts.watchdog(chat.timeouts.silence, function () {
      if (settled || controller.signal.aborted) return;
      settle();
      controller.abort();  // the connection goes too: the server may yet wake and write on
      var waited = timeouts.describe(chat.timeouts.silence);
      chat.failTurn(view, answering ?
        "The server stopped sending the answer (nothing for " + waited + "). Please try again." :
        "The server did not answer within " + waited + ". Please try again.", true);
    });

    controller.signal.addEventListener("abort", silence.stop);  // "New conversation"

    /* ``fn``, whose exceptions are this page's own (broke), not the connection's. */
    function guarded(fn) {
      return function (value) {
        try { return fn(value); } catch (err) { broke(err); return undefined; }
      };
    }

    function settle() { settled = true; silence.stop(); chat.source = null; chat.busy = false;
                        chat.sendButton.disabled = false; }

    var handlers = {
      start: function (data) {
        turns.count(chat, view, data.conversation_id);  // taken: its place in the conversation
        chat.remember(data.conversation_id);
        view.turnId = data.turn_id;
      },
      citation: function (c) {
        if (!c || typeof c.n !== "number") return;
        view.citations[c.n] = c;
        // citecast sends a citation before the text citing it, but a number already shown
        // (a client need not rely on that order) gets its link and tooltip now, not only
        // with the next piece of text or the finished answer
        chat.decorate(view, view.citations);
      },
      delta: function (d) {
        var follow = chat.following(view);
        view.typing.hidden = true;
        view.text += d.text || "";
        // a citation focused in the open block keeps the focus and its tooltip (citations.js),
        // when the block grows and when it is finished (appended below)
        var held = citecast.sources.holdCitation(view.pending);
        // Completed blocks are appended once; the open last block is replaced as it grows.
        // Both are HTML the server sanitized (nh3); nothing else is ever parsed as HTML.
        if (typeof d.append === "string" && d.append) {
          view.body.insertAdjacentHTML("beforeend", turns.trustedHTML(d.append));
        }
        if (typeof d.tail === "string") view.pending.innerHTML = turns.trustedHTML(d.tail);
        chat.decorate(view, view.citations);
        held();
        if (follow) chat.reveal(view.turn);
      },
      done: function (payload) {
        settle();
        chat.remember(payload.conversation_id);
        chat.finishTurn(view, payload);
        chat.setStatus(answeredStatus((payload.answer.citations || []).length,
          payload.small_talk === true));
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
      try { handlers[type](parsed); } catch (err) { broke(err); }
    }

    /* This page's own code failed while showing the answer (``err``: a bug, not the network,
     * which fails in fetch() or in reading the body). Said as such on the turn, never as a
     * connection that failed: that would wait on a server that is fine, for good. The stream is
     * closed (the server records the unfinished turn as failed), the question goes back in the
     * box and the chat takes questions again. */
    var broken = false;
    function broke(err) {
      if (broken) return;
      broken = true;
      settle();
      controller.abort();
      chat.setBusy(false);
      turns.broken(chat, view, err, true);
    }

    fetch(chat.url("/api/ask/stream?" + params.toString()), {
      signal: controller.signal, cache: "no-store", headers: { "Accept": "text/event-stream" },
    }).then(guarded(function (response) {
      answering = true;
      chat.refused = false;  // the server answered this site: whatever fails next, not that
      silence.poke();
      if (response.ok) return readEvents(response, onEvent, silence.poke);
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
      }).catch(broke);
    })).catch(function () { /* the connection failed: said below */ })
      .then(function () {
        if (broken || settled || controller.signal.aborted) return;
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

  /* Call on(type, data) for each server-sent event in ``response``'s body, and heard() for
   * each piece of it that arrives (a keep-alive comment too); the promise settles when the body
   * ends (an unfinished last event is dropped, as EventSource does). */
  function readEvents(response, on, heard) {
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
        heard();
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

  /* How long a stream cut midway waits for the server to be reachable again (a dropped
   * Wi-Fi, a restarting proxy) before saying it cannot be reached: the server goes on writing
   * the answer meanwhile, and asking again would ask the question twice. */
  var RECOVER_MS = 30000;
  var FIRST_RETRY_MS = 500;  // doubled after each failed check, up to MAX_RETRY_MS
  var MAX_RETRY_MS = 8000;

  /* The stream of ``view`` broke off: wait for the answer if the server is up and goes on
   * writing it, else say why there is none. Once the server has begun the answer (its
   * ``start`` event came), a server out of reach is asked again, less and less often, for
   * RECOVER_MS; no new question is taken meanwhile, and "New conversation" ends the wait. */
  function explainConnectionError(chat, view) {
    var url = chat.url("/healthz");
    var started = !!(view.turnId && chat.conversationId);
    var generation = chat.generation;
    var deadline = Date.now() + RECOVER_MS;
    var delay = FIRST_RETRY_MS;
    if (started) chat.setBusy(true);
    function unreachable() {
      if (generation !== chat.generation) return;
      if (started && Date.now() + delay <= deadline) {
        chat.setStatus("The connection was lost; waiting for the server to answer…", true);
        chat.pollTimer = window.setTimeout(check, delay);
        delay = Math.min(2 * delay, MAX_RETRY_MS);
        return;
      }
      chat.setBusy(false);
      chat.failTurn(view, chat.cannotReach(), true);
    }
    function check() {
      timeouts.within(chat.timeouts.request, function (signal) {
        return fetch(url, { cache: "no-store", signal: signal });
      })
        .then(function (r) {
          if (!r.ok) { unreachable(); return; }
          if (generation !== chat.generation) return;
          // the stream broke, not the server: it goes on writing the answer and stores it
          if (started) {
            citecast.history.follow(chat, chat.conversationId, view, view.turnId);
            return;
          }
          chat.failTurn(view, "The server could not answer this question. Please try again.",
            true);
        }, unreachable)
        // what fails past here is this page's own code, not the server: said so (turns.js)
        .catch(function (err) {
          if (generation !== chat.generation) return;
          chat.setBusy(false);
          turns.broken(chat, view, err, true);
        });
    }
    check();
  }

  citecast.stream = { ask: ask };
})();
