/* citecast citations: the superscript citations of an answer, each with its link target, its
 * accessible name and its tooltip (title, page or section, quote), and Escape to dismiss a
 * tooltip. Loaded right after sources.js, whose helpers it uses; it adds weakNumbers, decorate
 * and tooltip to window.Citecast.sources, where the other modules find them.
 *
 * Safety rule (as in chat.js): every string goes in through textContent or DOM nodes, never as
 * HTML; links keep only http, https and mailto URLs.
 */
(function () {
  "use strict";

  var sources = window.Citecast.sources;
  var el = sources.el;
  var safeHref = sources.safeHref;
  var displayTitle = sources.displayTitle;
  var appendInline = sources.appendInline;
  var locationParts = sources.locationParts;
  var locationLine = sources.locationLine;

  var tips = 0;
  var TIP_GAP = 10;  // px between a citation number and its tooltip; chat.css bridges it
  var LEAVE_GRACE_MS = 300;  // a tooltip the pointer has left stays this long
  var shown = null;  // the hide() of the one tooltip showing

  /* A citation's accessible name: its number, title, and page or section, so that citations of
   * two pages of one document differ in a screen reader's list of links (the tooltip, its
   * description, adds the quote). A ``weak`` one (shown ``[n?]``) says so: the name replaces
   * the visible "?", which would otherwise never be heard. */
  function citationLabel(n, source, weak) {
    var head = "Source " + n + (weak ? " (" + WEAK + ")" : "") + ": " + displayTitle(source);
    return [head].concat(locationParts(source)).join(", ");
  }

  // the words for a weakly supported citation, as the source list's "(weak support?)" means
  var WEAK = "weakly supported";

  /* The part of the window where a tooltip of ``answer`` can be seen, in viewport pixels:
   * inside what scrolls the chat (the widget's panel, or the window) and above the sticky
   * question box (scroll.js). */
  function roomAround(answer) {
    var chat = answer.closest(".cc-chat");
    var scroll = window.Citecast.scroll;
    var form = chat && chat.querySelector(".cc-form");
    var band = chat && form && scroll ? scroll.band(chat.parentNode, form) : null;
    return band ? { top: band.top, bottom: band.bottom } : { top: 0, bottom: window.innerHeight };
  }

  /* The numbers of the citations shown as weakly supported (``[n?]``, class ``weak`` from the
   * server's renderer) in the answer element ``root``. */
  function weakNumbers(root) {
    var weak = {};
    Array.prototype.forEach.call(root.querySelectorAll(".cc-body sup.weak a"), function (link) {
      var n = citationNumber(link);
      if (n !== null) weak[n] = true;
    });
    return weak;
  }

  /* The citation number a superscript link stands for. */
  function citationNumber(link) {
    var holder = link.closest("[data-n],[data-citation]") || link;
    var raw = link.getAttribute("data-n") || holder.getAttribute("data-n") ||
      holder.getAttribute("data-citation") || link.textContent;
    var m = /(\d+)/.exec(raw || "");
    return m ? parseInt(m[1], 10) : null;
  }

  /* Give each superscript citation in ``answer`` its link target and an accessible tooltip
   * (ids start with ``idPrefix``); ``onLocal(id, n, link)`` runs when a citation without a link of
   * its own is clicked. Already decorated citations are left alone (streaming calls it often). */
  function decorate(answer, byN, idPrefix, onLocal) {
    var sups = answer.querySelectorAll(".cc-body sup, .cc-pending sup");
    Array.prototype.forEach.call(sups, function (sup) {
      var link = sup.querySelector("a");
      if (!link || sup.dataset.ccDone) return;
      var n = citationNumber(link);
      var c = n !== null ? byN[n] : null;
      if (!c) return;
      // The k-th marker of a citation whose markers differ (data-occurrence="k", from the
      // server's renderer): its own quote and link, from the payload's ``occurrences``.
      var k = parseInt(link.getAttribute("data-occurrence") || "0", 10);
      var mark = k > 0 && c.marks ? c.marks[k - 1] || null : null;
      sup.dataset.ccDone = "1";
      sup.classList.add("cc-cite");
      // A cited URL or file opens beside the chat; a source with neither (a record) has an
      // in-page anchor to its source list entry, which must stay in this page.
      var own = link.getAttribute("href") || "";
      var newTab = false;
      var href = safeHref(mark && mark.url) || safeHref(c.href) ||
        (own.charAt(0) === "#" ? null : safeHref(own));
      if (href) {
        link.setAttribute("href", href);
        link.setAttribute("target", "_blank");
        link.setAttribute("rel", "noopener noreferrer");
        newTab = true;
      } else {
        link.removeAttribute("target");
        link.addEventListener("click", function (event) {
          event.preventDefault();
          onLocal(own.charAt(0) === "#" ? own.slice(1) : "", n, link);
        });
      }
      // the marker's own weakness, as the server drew it ("[n?]", class weak)
      var weak = sup.classList.contains("weak");
      var tip = sup.querySelector("[role=tooltip]");
      if (!tip) {
        tip = tooltip(c, mark, weak);
        sup.appendChild(tip);
      }
      if (!tip.id) tip.id = idPrefix + "-tip-" + (++tips);
      link.removeAttribute("title");  // the tooltip replaces the browser's own
      tip.classList.add("cc-tooltip");
      tip.hidden = true;
      link.setAttribute("aria-describedby", tip.id);
      if (newTab && !tip.querySelector(".cc-tip-new-tab")) {
        // said to screen readers, which do not announce target="_blank", at the end of the
        // description (the tooltip): its name stays the source's, its description the tooltip
        tip.appendChild(el("span", { "class": "cc-sr cc-tip-new-tab", "lang": "en" },
          " Opens in a new tab."));
      }
      link.setAttribute("aria-label", citationLabel(n, c.source || {}, weak));
      // The name is the chat's own English ("Source 2: …, p. 7"), inside an answer marked
      // with the host page's language in the widget (turns.js): said in English (WCAG 3.1.2).
      // A name has one language; its words around the title are the chat's.
      link.setAttribute("lang", "en");
      function show() {
        tip.hidden = false;
        // Keep the tooltip inside the answer card (the widget panel clips what overflows):
        // no wider than the card, then shifted sideways as far as needed.
        tip.style.marginLeft = "0px";
        var box = answer.getBoundingClientRect();
        var css = window.getComputedStyle(tip);
        var padding = parseFloat(css.paddingLeft) + parseFloat(css.paddingRight);
        tip.style.maxWidth = Math.min(340, Math.floor(box.width - 8 - padding)) + "px";
        var r = tip.getBoundingClientRect();
        var shift = 0;
        if (r.left < box.left + 4) shift = box.left + 4 - r.left;
        else if (r.right > box.right - 4) shift = box.right - 4 - r.right;
        tip.style.marginLeft = shift + "px";
        // TIP_GAP below the number itself (not its <sup>, whose box depends on the font), the
        // gap the tooltip's ::before spans (chat.css), so the pointer crosses onto it unbroken
        var number = link.getBoundingClientRect();
        var supTop = sup.getBoundingClientRect().top;
        var height = tip.getBoundingClientRect().height;
        // ... or as far above it, when below it would run past what is in view or under the
        // sticky question box (a number near the bottom of a phone's screen), and there is
        // more room above
        var room = roomAround(answer);
        var above = number.bottom + TIP_GAP + height > room.bottom &&
          number.top - room.top > room.bottom - number.bottom;
        tip.classList.toggle("cc-tip-above", above);
        tip.style.top = Math.round(above ? number.top - supTop - TIP_GAP - height :
          number.bottom - supTop + TIP_GAP) + "px";
      }
      // Shown while the number is hovered or focused. The hover covers the tooltip itself (it
      // sits inside the <sup>, and its ::before bridges the gap below the number), and leaving
      // gets a moment's grace (the pointer may cut a corner of the small number on its way),
      // so the pointer can move onto the quote without losing it (WCAG 1.4.13). One tooltip
      // shows at a time; Escape dismisses it until the pointer or focus comes back.
      var hovered = false;
      var focused = false;
      var leaving = null;
      function update() {
        window.clearTimeout(leaving);
        if (!hovered && !focused) { hide(); return; }
        if (!tip.hidden) return;
        if (shown && shown !== hide) shown();
        shown = hide;
        show();
      }
      function hide() {
        window.clearTimeout(leaving);
        tip.hidden = true;
        if (shown === hide) shown = null;
      }
      tip.ccActive = function () { return hovered || focused; };  // for dismissWithEscape
      sup.addEventListener("mouseenter", function () { hovered = true; update(); });
      sup.addEventListener("mouseleave", function () {
        hovered = false;
        window.clearTimeout(leaving);
        leaving = window.setTimeout(update, LEAVE_GRACE_MS);
      });
      link.addEventListener("focus", function () { focused = true; update(); });
      link.addEventListener("blur", function () { focused = false; update(); });
      dismissWithEscape(answer.getRootNode());
    });
  }

  /* Which citation ``link`` is in ``answer``: its number and its place among the markers of
   * that number (0 for the first), counted in the finished blocks and the open one alike, so
   * the place stays the same as the open block grows or is finished. */
  function markerOf(answer, link) {
    var n = citationNumber(link);
    var same = Array.prototype.filter.call(answer.querySelectorAll(MARKERS), function (a) {
      return citationNumber(a) === n;
    });
    return { n: n, k: same.indexOf(link) };
  }

  function markerAt(answer, marker) {
    var same = Array.prototype.filter.call(answer.querySelectorAll(MARKERS), function (a) {
      return citationNumber(a) === marker.n;
    });
    return marker.k >= 0 ? same[marker.k] || null : null;
  }

  var MARKERS = ".cc-body sup a, .cc-pending sup a";

  /* Call before ``container`` (the open last block of a streamed answer) is replaced by its
   * longer version: the citation focused in it is removed with it, so focus would fall to the
   * page and its tooltip close while it is being read. The function returned, called once the
   * new content is decorated, focuses the same marker in it (same number, same place among
   * that number's markers), which opens its tooltip again; it does nothing when focus was not
   * in ``container``. (A hovered number needs no hold: the browser finds the new one under
   * the pointer before it draws the next frame.) */
  function holdCitation(container) {
    var answer = container.closest(".cc-answer") || container;
    var active = container.getRootNode().activeElement;
    if (!active || !container.contains(active) || !active.matches("sup a")) {
      return function () {};
    }
    var focused = markerOf(answer, active);
    return function () {
      var target = markerAt(answer, focused);
      // a page scrolled by hand while the answer grows stays where it is
      if (target && target.getRootNode().activeElement !== target) {
        target.focus({ preventScroll: true });
      }
    };
  }

  /* Escape hides a shown tooltip, whether its number has focus or only the pointer (WCAG
   * 1.4.13), and then does nothing else: the first Escape does not also close the widget
   * panel. A tooltip the pointer has already left (in its moment of grace) is hidden too but
   * does not keep the Escape from the panel. One listener per root (the page, or the widget's
   * shadow root), in the capture phase so it comes before the panel's own. */
  var escapable = new WeakSet();
  function dismissWithEscape(root) {
    if (escapable.has(root)) return;
    escapable.add(root);
    root.addEventListener("keydown", function (e) {
      if (e.key !== "Escape") return;
      var active = false;
      Array.prototype.forEach.call(root.querySelectorAll(".cc-tooltip:not([hidden])"),
        function (tip) {
          if (tip.ccActive && tip.ccActive()) active = true;
          tip.hidden = true;
        });
      if (active) e.stopPropagation();
    }, true);
  }

  /* The tooltip of a superscript citation: title, page or section, and the quote (``mark``'s,
   * the marker's own, when the citation's markers quote different sentences); for a ``weak``
   * one, first what its "?" means. */
  function tooltip(c, mark, weak) {
    var src = c.source || {};
    var tip = el("span", { "role": "tooltip" });
    if (weak) {
      // the chat's own words (English), the title and quote in the answer's language
      tip.appendChild(el("span", { "class": "cc-tip-weak", "lang": "en" },
        "Weakly supported (the “?”): the passage may not fully back this claim."));
    }
    tip.appendChild(el("strong", { "class": "cc-tip-title", "dir": "auto" }, displayTitle(src)));
    var where = locationLine(src);
    if (where) tip.appendChild(el("span", { "class": "cc-tip-where", "dir": "auto" }, where));
    // a quoted table row as its cells (``display_quote``, web_client_json.py), as the source
    // list shows it, not the pipes of its Markdown form
    var quote = (mark && (mark.display_quote || mark.quote)) || c.display_quote || c.quote ||
      src.text;
    if (quote) {
      if (quote.length > 320) quote = quote.slice(0, 317) + "…";
      var said = el("span", { "class": "cc-tip-quote", "dir": "auto" }, "“");
      appendInline(said, quote);
      said.appendChild(document.createTextNode("”"));
      tip.appendChild(said);
    }
    return tip;
  }

  sources.weakNumbers = weakNumbers;
  sources.decorate = decorate;
  sources.tooltip = tooltip;
  sources.holdCitation = holdCitation;
})();
