/* citecast sources: how the chat shows a source (title, page or section, quote), its tooltip,
 * the answer's source list and the answer's plain-text form with its sources. Loaded first;
 * the other modules use window.Citecast.sources.
 *
 * Safety rule (as in chat.js): every string goes in through textContent or DOM nodes, never as
 * HTML; links keep only http, https and mailto URLs.
 */
(function () {
  "use strict";

  var tips = 0;
  var TIP_GAP = 10;  // px between a citation number and its tooltip; chat.css bridges it
  var LEAVE_GRACE_MS = 300;  // a tooltip the pointer has left stays this long
  var shown = null;  // the hide() of the one tooltip showing

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

  /* The section path without a first heading whose words the title already has, together and
   * whole, as the server's renderers show it (renderers.base.section_below_title). */
  function sectionBelowTitle(source) {
    var section = source.section || "";
    var head = section.split(" > ")[0];
    var within = (" " + wordRun(displayTitle(source)) + " ").indexOf(" " + wordRun(head) + " ");
    return within === -1 ? section : section.slice(head.length + 3);
  }

  function wordRun(text) {
    return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []).join(" ");
  }

  function locationLine(source) { return locationParts(source).join(" · "); }

  /* The page (or pages) and the section of ``source``, each a string, as far as known. */
  function locationParts(source) {
    var parts = [];
    if (source.page) {
      parts.push(source.page_end && source.page_end !== source.page
        ? "pp. " + source.page + "–" + source.page_end : "p. " + source.page);
    }
    var section = sectionBelowTitle(source);
    if (section) parts.push(section);
    return parts;
  }

  /* A citation's accessible name: its number, title, and page or section, so that citations of
   * two pages of one document differ in a screen reader's list of links (the tooltip, its
   * description, adds the quote). */
  function citationLabel(n, source) {
    return ["Source " + n + ": " + displayTitle(source)].concat(locationParts(source)).join(", ");
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
      var href = safeHref(mark && mark.url) || safeHref(c.href) ||
        (own.charAt(0) === "#" ? null : safeHref(own));
      if (href) {
        link.setAttribute("href", href);
        link.setAttribute("target", "_blank");
        link.setAttribute("rel", "noopener noreferrer");
      } else {
        link.removeAttribute("target");
        link.addEventListener("click", function (event) {
          event.preventDefault();
          onLocal(own.charAt(0) === "#" ? own.slice(1) : "", n, link);
        });
      }
      var tip = sup.querySelector("[role=tooltip]");
      if (!tip) {
        tip = tooltip(c, mark);
        sup.appendChild(tip);
      }
      if (!tip.id) tip.id = idPrefix + "-tip-" + (++tips);
      link.removeAttribute("title");  // the tooltip replaces the browser's own
      tip.classList.add("cc-tooltip");
      tip.hidden = true;
      link.setAttribute("aria-describedby", tip.id);
      link.setAttribute("aria-label", citationLabel(n, c.source || {}));
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
        var top = link.getBoundingClientRect().bottom - sup.getBoundingClientRect().top;
        tip.style.top = Math.round(top + TIP_GAP) + "px";
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

  /* Each block of an answer reads in the direction of its own text (dir="auto"), so an
   * English answer that opens with a Hebrew or Arabic name stays left to right, and an Arabic
   * paragraph or source title in it still reads right to left with its full stop at its end.
   * The server marks paragraphs, headings, list items, table cells and source entries; here the
   * blocks it leaves unmarked get theirs too. Run once on a finished answer (while it streams,
   * chat.css gives each paragraph its direction: marking every block as it arrives made a long
   * answer stream slower). */
  var BLOCKS = "p, li, h1, h2, h3, h4, h5, h6, blockquote, td, th, dt, dd, ol, ul, .quote";
  function directions(container) {
    Array.prototype.forEach.call(container.querySelectorAll(BLOCKS), function (node) {
      if (!node.hasAttribute("dir")) node.setAttribute("dir", "auto");
    });
  }

  /* The tooltip of a superscript citation: title, page or section, and the quote (``mark``'s,
   * the marker's own, when the citation's markers quote different sentences). */
  function tooltip(c, mark) {
    var src = c.source || {};
    var tip = el("span", { "role": "tooltip" });
    tip.appendChild(el("strong", { "class": "cc-tip-title", "dir": "auto" }, displayTitle(src)));
    var where = locationLine(src);
    if (where) tip.appendChild(el("span", { "class": "cc-tip-where", "dir": "auto" }, where));
    var quote = (mark && mark.quote) || c.quote || src.text;
    if (quote) {
      if (quote.length > 320) quote = quote.slice(0, 317) + "…";
      var said = el("span", { "class": "cc-tip-quote", "dir": "auto" }, "“");
      appendInline(said, quote);
      said.appendChild(document.createTextNode("”"));
      tip.appendChild(said);
    }
    return tip;
  }

  /* The answer's numbered source list: the server's own (its quotes made plain, its links
   * opened beside the chat) or, for an answer without one, a list built from ``citations``. */
  function sourceList(view, citations, byN) {
    if (!citations.length) return;
    var rendered = view.body.querySelector("section.sources, ol.sources");
    if (rendered) {
      nameList(view, rendered, rendered.querySelector(".sources-title"),
        rendered.matches("ol") ? rendered : rendered.querySelector("ol"));
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
    var wrap = el("div", { "class": "cc-sources" });
    var heading = el("h3", { "class": "cc-sources-title" }, "Sources");
    wrap.appendChild(heading);
    var list = el("ol", { "lang": view.lang });  // titles in the answer's language
    nameList(view, wrap, heading, list);
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
  }

  /* Every answer has a source list, so a name that says only "Sources" is the same for each
   * of them in a long conversation. The list is not a landmark: a landmark per answer would
   * fill a screen reader's list of landmarks, which is for the page's few main parts (the
   * renderer's <section aria-label="Sources"> is one, the fallback list was a <nav>). It is
   * found by its heading instead, which says which answer it belongs to, "Sources for answer
   * 2: How do I upgrade?" (the words after "Sources" for screen readers only), and the list
   * itself is named by that heading. ``view.number`` is the turn's place in the conversation
   * (turns.js); without one (a single answer) the list keeps its own name. */
  var QUESTION_IN_NAME = 60;  // characters of the question the name repeats
  function nameList(view, container, heading, list) {
    if (!view.number || !heading) return;
    heading = levelBelowTitle(view, heading);
    var question = Array.from(String(view.question || "").replace(/\s+/g, " ").trim());
    var said = question.slice(0, QUESTION_IN_NAME).join("") +
      (question.length > QUESTION_IN_NAME ? "…" : "");
    if (!heading.querySelector(".cc-sr")) {
      var lang = typeof view.lang === "string" ? view.lang : null;
      if (lang === null) {
        heading.appendChild(el("span", { "class": "cc-sr", "dir": "auto" },
          " for answer " + view.number + (said ? ": " + said : "")));
      } else {
        // the widget: the heading's words in its English, also inside an answer in another
        // language; the question in its own (the host page's, turns.js)
        heading.setAttribute("lang", "en");
        heading.appendChild(el("span", { "class": "cc-sr" },
          " for answer " + view.number + (said ? ": " : "")));
        if (said) {
          heading.appendChild(el("span", { "class": "cc-sr", "dir": "auto", "lang": lang },
            said));
        }
      }
    }
    if (container.tagName === "SECTION" || container.tagName === "NAV") {
      container.removeAttribute("aria-label");
      container.setAttribute("role", "none");  // a section or nav named would be a landmark
    }
    if (!heading.id) heading.id = "cc-sources-" + (++lists);
    if (list) list.setAttribute("aria-labelledby", heading.id);
  }

  /* The source list's heading is one level below the chat's title, which is an <h1> on the
   * page and an <h2> in the widget (the host page has its own <h1>): the server's <h2> would
   * be the title's equal in the widget, the list built here (<h3>) skip a level on the page.
   * A heading of the wrong level is replaced, not given aria-level: not every screen reader or
   * tool takes aria-level over the element's own. Returns the heading in place. */
  function levelBelowTitle(view, heading) {
    var chat = view.answer.closest(".cc-chat");
    var title = chat && chat.querySelector(".cc-title");
    var level = title ? parseInt(title.tagName.slice(1), 10) + 1 : 0;
    if (!level || String(level) === heading.tagName.slice(1)) return heading;
    var moved = document.createElement("h" + level);
    Array.prototype.forEach.call(heading.attributes, function (attr) {
      moved.setAttribute(attr.name, attr.value);
    });
    while (heading.firstChild) moved.appendChild(heading.firstChild);
    heading.replaceWith(moved);
    return moved;
  }
  var lists = 0;

  var citecast = window.Citecast = window.Citecast || {};  // the one global name (widget.js)
  citecast.sources = {
    el: el,
    safeHref: safeHref,
    displayTitle: displayTitle,
    sectionBelowTitle: sectionBelowTitle,
    weakNumbers: weakNumbers,
    decorate: decorate,
    directions: directions,
    tooltip: tooltip,
    sourceList: sourceList,
  };
})();
