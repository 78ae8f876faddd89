/* citecast answer actions: the bar under a finished answer, with "Copy answer" and the helpful /
 * not helpful vote (POST /api/feedback, once per answer). Loaded after sources.js and before
 * chat.js, which uses window.CitecastActions.
 */
(function () {
  "use strict";

  var sources = window.CitecastSources;
  var el = sources.el;
  var VOTES = [["helpful", "Helpful"], ["not_helpful", "Not helpful"]];

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

  function copyButton(answer, byN, say) {
    var copy = el("button", { "type": "button", "class": "cc-secondary cc-copy" }, "Copy answer");
    copy.addEventListener("click", function () {
      var cites = (answer.citations || []).map(function (c) {
        return Object.assign({}, c, { href: (byN[c.n] || {}).href });
      });
      copyText(sources.plainAnswer(answer.text, cites)).then(function () {
        copy.textContent = "Copied";
        say("Answer copied to the clipboard.");
        setTimeout(function () { copy.textContent = "Copy answer"; }, 1500);
      }, function () { say("Could not copy; select the text instead.", true); });
    });
    return copy;
  }

  /* The two vote buttons, as a labelled group; a vote disables both and presses the one chosen.
   * ``stored`` is the answer's vote already recorded (shown pressed, nothing more to choose);
   * ``vote(value)`` resolves to ``{recorded, vote}``: a refused vote is never shown pressed. */
  function voteButtons(vote, stored, say) {
    var group = el("div", { "class": "cc-votes", "role": "group", "aria-label": "Was this helpful?" });
    var buttons = VOTES.map(function (pair) {
      return el("button", {
        "type": "button", "class": "cc-secondary cc-vote", "aria-pressed": "false",
        "data-value": pair[0],
      }, pair[1]);
    });
    function settle(value) {
      buttons.forEach(function (b) {
        b.disabled = true;
        b.setAttribute("aria-pressed", b.getAttribute("data-value") === value ? "true" : "false");
      });
    }
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        buttons.forEach(function (b) { b.disabled = true; });
        vote(button.getAttribute("data-value")).then(function (result) {
          if (result.recorded) {
            settle(button.getAttribute("data-value"));
            say("Thanks for the feedback.");
          } else {
            settle(result.vote);  // the vote the answer already had, if the server says
            say("This answer was already rated.");
          }
        }, function () {
          buttons.forEach(function (b) { b.disabled = false; });
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
   * ``vote`` it already has (after a reload), and ``say(text, isError)`` for the status line. */
  function addBar(view, answer, byN, options) {
    var bar = el("div", { "class": "cc-actions" });
    bar.appendChild(copyButton(answer, byN, options.say));
    if (options.conversationId && options.turnId) {
      bar.appendChild(voteButtons(function (value) {
        return fetch(options.url("/api/feedback"), {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            conversation_id: options.conversationId, turn_id: options.turnId, value: value,
          }),
        }).then(function (r) {
          if (!r.ok) throw new Error("feedback refused: " + r.status);
          return r.json();
        }).then(function (body) {
          return { recorded: !!body.recorded, vote: typeof body.vote === "string" ? body.vote : null };
        });
      }, options.vote, options.say));
    }
    view.answer.appendChild(bar);
  }

  window.CitecastActions = { addBar: addBar };
})();
