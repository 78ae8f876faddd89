/* citecast sources: how the chat shows a source (title, page or section, quote), the answer's
 * source list and the direction of its blocks. Loaded first; the other modules use
 * window.Citecast.sources (citations.js, loaded next, adds the superscript citations and their
 * tooltips to it).
 *
 * Safety rule (as in chat.js): every string goes in through textContent or DOM nodes, never as
 * HTML; links keep only http, https and mailto URLs.
 */
(function () {
  "use strict";

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
      // a backslash escape (before any ASCII punctuation, as CommonMark reads one: the rule of
      // PUNCTUATION in plain_markdown.js, which loads after this file) shows its character, an
      // escaped backtick too; a stray backtick goes
      .replace(/\\([\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])|`+/g, function (m, escaped) {
        return escaped || "";
      });
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

  /* Make ``link`` (a source list's) open beside the chat, in a new tab, saying so to screen
   * readers, which do not announce target="_blank": it is described by one hidden note per
   * chat, "Opens in a new tab.", after whatever describes it already. The note lives in the
   * chat itself, so the widget's links (in its shadow root) find it too. (A citation says it
   * at the end of its tooltip, its description: citations.js.) */
  var notes = 0;
  function opensNewTab(link) {
    link.setAttribute("target", "_blank");
    link.setAttribute("rel", "noopener noreferrer");
    var chat = link.closest(".cc-chat");
    if (!chat) return;
    var note = chat.querySelector(".cc-new-tab-note");
    if (!note) {
      note = el("span", { "class": "cc-new-tab-note", "id": "cc-new-tab-" + (++notes),
                          "hidden": "" }, "Opens in a new tab.");
      chat.appendChild(note);
    }
    var described = (link.getAttribute("aria-describedby") || "").split(/\s+/)
      .filter(function (id) { return id && id !== note.id; });
    described.push(note.id);
    link.setAttribute("aria-describedby", described.join(" "));
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
        if (safeHref(a.getAttribute("href"))) opensNewTab(a);
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
      var title = href ? el("a", { "href": href }, name) : el("span", null, name);
      title.classList.add("cc-source-title");
      item.appendChild(title);
      var where = locationLine(src);
      if (where) item.appendChild(el("span", { "class": "cc-source-where" }, where));
      list.appendChild(item);
    });
    wrap.appendChild(list);
    view.answer.appendChild(wrap);
    // in the chat now, where the note saying so is found
    Array.prototype.forEach.call(list.querySelectorAll("a[href]"), opensNewTab);
  }

  /* Every answer has a source list, so a name that says only "Sources" is the same for each
   * of them in a long conversation. The list is not a landmark: a landmark per answer would
   * fill a screen reader's list of landmarks, which is for the page's few main parts (the
   * renderer's <section aria-label="Sources"> is one, the fallback list was a <nav>). It is
   * found by its heading instead, which says which answer it belongs to, "Sources for answer
   * 2: How do I upgrade?" (the words after "Sources" for screen readers only), and the list
   * itself is named by that heading. ``view.number`` is the turn's place in the whole
   * conversation (turns.js: the server's ``position`` for a stored turn, so a reload showing
   * only the latest turns names them as before); without one the list keeps its own name. */
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
    directions: directions,
    sourceList: sourceList,
    // for citations.js, which adds weakNumbers, decorate and tooltip
    appendInline: appendInline,
    locationParts: locationParts,
    locationLine: locationLine,
  };
})();
