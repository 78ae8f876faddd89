/* citecast history: the conversation kept across a reload. Its id is in localStorage; the
 * turns come back from GET /api/conversations/{id}, and an answer the server was still
 * writing when the page went away is shown as such and polled for until it is stored. Loaded
 * after scroll.js and before chat.js, which calls window.Citecast.history.restore(chat) (and
 * stream.js, which calls follow() when a stream breaks off).
 */
(function () {
  "use strict";

  var citecast = window.Citecast;
  var POLL_MS = 1000;

  /* Show the stored conversation of ``chat`` (if any) and wait for answers still written.
   * Until it has arrived no question is taken: one asked meanwhile would start a conversation
   * of its own, and the stored one, arriving after it, would take its place (the question
   * lost on the next reload). The question waits in the box.
   *
   * Answered turns go before the live log, so a screen reader does not read the conversation
   * out again; from the first answer still being written on, turns go in the log, busy until
   * they arrive, so that answer is read once it is there. */
  function restore(chat) {
    var stored = read(chat.storageKey);
    // kept by an older version under the key every chat page of the origin shared: this
    // deployment's only if its server knows it (then moved to this page's key), else another
    // one's, left for it
    var legacy = !stored && chat.legacyKey ? read(chat.legacyKey) : null;
    stored = stored || legacy;
    if (!stored) return;
    chat.setBusy(true);
    chat.loading = true;  // a question asked meanwhile is told so (chat.js onSubmit)
    chat.setStatus("Loading the conversation…");
    // (fetchConversation calls neither function after a "New conversation", which has made
    // the chat ready for a question already)
    fetchConversation(chat, stored, function (data) {
      chat.loading = false;
      if (legacy) forget(chat.legacyKey);  // fetchConversation has kept it under storageKey
      chat.setStatus("");
      var writing = {};
      var live = false;
      // the server sends a long conversation's latest turns (web_conversation_page): said, so
      // the first answers are not taken for lost
      if (data.earlier === true) {
        chat.earlier.appendChild(citecast.sources.el("p", { "class": "cc-note" },
          "Earlier questions of this conversation are not shown here; only the latest " +
          data.turns.length + " are."));
        chat.earlier.hidden = false;
      }
      data.turns.forEach(function (turn) {
        live = live || turn.status === "pending";
        // its place in the whole conversation (the server's ``position``), the same on every
        // reload and whichever turns the page shows; a server without it: the next one
        var position = turn.position;
        chat.counted = typeof position === "number" && position > chat.counted ?
          position : chat.counted + 1;
        var view = chat.addTurn(turn.question, !live, chat.counted);
        if (turn.status === "pending") {
          // asked before a reload: the server goes on writing it and stores it when done
          stillWriting(view);
          writing[turn.turn_id] = view;
        } else {
          chat.showStored(view, turn);
        }
      });
      if (Object.keys(writing).length) {
        chat.setStatus("An answer is still being written…");
        awaitWriting(chat, data.conversation_id, writing);
      } else chat.setBusy(false);
    }, function (gone, err) {
      chat.loading = false;
      chat.setBusy(false);
      if (gone) chat.setStatus("");
      else if (!citecast.timeouts.isTimeout(err)) chat.setStatus(notLoaded(chat, err), true);
    });
  }

  function read(key) {
    try { return window.localStorage.getItem(key); } catch (err) { return null; }
  }

  function forget(key) {
    try { window.localStorage.removeItem(key); } catch (err) { /* storage disabled */ }
  }

  /* Why the stored conversation could not be loaded (not a timeout, which fetchConversation
   * has explained). A fetch that fails outright (a TypeError) is what the config check meets
   * on a site missing from web.cors_origins (a 403 its browser does not let it read) or when
   * the server is down: the same reason as that check gives (chat.unreachable), kept for a
   * question that fails later (cannotReach). Whichever of the two requests fails first says
   * it: the other finds the status line taken. */
  function notLoaded(chat, err) {
    if (!(err instanceof TypeError)) return "Cannot reach the citecast server.";
    chat.refused = true;
    return chat.unreachable();
  }

  /* Show the answer being written in ``view`` (turn ``turnId``) once it is stored: its stream
   * was cut, but the server is up and goes on writing it. */
  function follow(chat, conversationId, view, turnId) {
    var writing = {};
    writing[turnId] = view;
    view.live = true;
    stillWriting(view);
    chat.setBusy(true);
    chat.setStatus("An answer is still being written…");
    awaitWriting(chat, conversationId, writing);
  }

  function stillWriting(view) {
    view.typing.textContent = "This answer is still being written…";
    view.typing.hidden = false;
  }

  /* GET the conversation ``id`` and pass it to ``then``, unless the viewer has started a new
   * conversation meanwhile; an unknown conversation is forgotten. ``failed(gone)``, if given,
   * hears of a failure: ``gone`` when the conversation is unknown, else the server is
   * unreachable or failing for now (``err`` says how; a timeout is explained here). */
  function fetchConversation(chat, id, then, failed) {
    var generation = chat.generation;
    var gone = false;
    var url = chat.url("/api/conversations/" + encodeURIComponent(id));
    // bounded (Citecast.timeouts, stream.js): a server that never answers does not keep
    // "Loading the conversation…" up, nor the question box waiting, for good
    citecast.timeouts.within(chat.timeouts.request, function (signal) {
      return fetch(url, { cache: "no-store", signal: signal }).then(function (r) {
        if (generation !== chat.generation) return null;
        if (r.status === 404 || r.status === 400) { chat.remember(null); gone = true; }
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
    })
      .then(function (data) {
        if (generation !== chat.generation) return;
        if (!data || !Array.isArray(data.turns)) throw new Error("not a conversation");
        chat.remember(data.conversation_id);
        try {
          then(data);
        } catch (err) {
          // this page's own code failed, not the server: asking it again would fail the same
          // way for good, saying "Cannot reach the citecast server" all along
          console.error("citecast: could not show the conversation:", err);
          chat.setBusy(false);
          chat.setStatus("The conversation could not be shown because of an error in this " +
            "page, not a connection problem. Please reload the page.", true);
        }
      })
      .catch(function (err) {
        if (generation !== chat.generation) return;
        if (citecast.timeouts.isTimeout(err)) {
          chat.setStatus("The citecast server did not answer within " +
            citecast.timeouts.describe(err.ms) + ", so the conversation could not be loaded.",
            true);
        }
        if (failed) failed(gone, err);
      });
  }

  /* Poll until the answers in ``writing`` (turn id -> view) are no longer being written; no
   * new question is taken meanwhile. An unreachable server is asked again; a conversation
   * the server no longer has ends the wait, its answers shown as not answered. The status
   * line is set only when what it says changes (the caller says "still being written"): it is
   * live, and each poll setting it would have it read out every second (WCAG 4.1.3). */
  function awaitWriting(chat, conversationId, writing) {
    chat.pollTimer = window.setTimeout(function () {
      fetchConversation(chat, conversationId, function (data) {
        data.turns.forEach(function (turn) {
          var view = writing[turn.turn_id];
          if (!view || turn.status === "pending") return;
          delete writing[turn.turn_id];
          if (!Object.keys(writing).length) chat.setBusy(false);
          chat.showStored(view, turn);
          // a live answer that failed has said what to do (its question is back in the box)
          if (turn.status === "done") chat.setStatus("The answer is ready.");
          else if (!view.live) chat.setStatus("");
        });
        if (Object.keys(writing).length) {
          chat.setStatus("An answer is still being written…");
          awaitWriting(chat, conversationId, writing);
        }
      }, function (gone) {
        if (!gone) {
          chat.setStatus("Cannot reach the citecast server; trying again…", true);
          awaitWriting(chat, conversationId, writing);
          return;
        }
        chat.setBusy(false);
        Object.keys(writing).forEach(function (id) { chat.showStored(writing[id], { status: "failed" }); });
      });
    }, POLL_MS);
  }

  window.Citecast.history = { restore: restore, follow: follow };
})();
