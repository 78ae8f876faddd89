/* citecast plain Markdown: an answer's Markdown as the plain text "Copy answer" writes
 * (window.Citecast.plain.markdown), as ``citecast ask`` prints it. Loaded after citations.js
 * and before answer_actions.js, which uses it.
 */
(function () {
  "use strict";

  /* The answer's Markdown as plain text that keeps its layout, as ``citecast ask`` prints it
   * (renderers/plain_markdown.py; both pass tests/renderers/plain_markdown_cases.json): each
   * ``[^n]`` outside code is ``marker(n)``, and a backslash before ASCII punctuation is dropped
   * where CommonMark reads an escape ("\[1\]" reads "[1]"); code, raw HTML and autolinks keep
   * theirs. Lines are read as blocks only as far as that needs: code, raw HTML, quoted (read
   * as a text of its own, with its lazy lines), and which make one paragraph (a code span may
   * cross its lines). A loop, not recursion: a quote thousands deep neither overflows the
   * stack nor is read once a level (levels all its lines have are taken in one pass). */
  var PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
  var CITATION = /\[\^([1-9][0-9]{0,4})\]/y;
  var RAW_INLINE = new RegExp("<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\\x00-\\x20]*>|<[A-Za-z]" +
    "[A-Za-z0-9-]*(?:\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*(?:[^\\s\"'=<>`]+|'[^']*'|" +
    "\"[^\"]*\"))?)*\\s*/?>|</[A-Za-z][A-Za-z0-9-]*\\s*>|<!---->|<!--->|<!--[\\s\\S]*?-->" +
    "|<\\?[\\s\\S]*?\\?>|<![A-Za-z][^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>", "y");
  var QUOTE = /^ {0,3}> ?/;
  var QUOTE_AT = / {0,3}> ?/y;
  // a quote's line that may open a fence or an HTML block, which take no lazy line
  var QUOTED_BLOCK = /^[ >]*(?:(?:[-+*]|[0-9]{1,9}[.)]) +)?(?:`{3}|~{3}|<)/;
  var FENCE = /^(`{3,})(?!.*`)|^~{3,}/;
  var ITEM = /^([-+*]|(\d{1,9})[.)])(?=[ \t]|$)[ \t]*/;
  // a heading, a rule, or a comment or declaration (as the resolver reads them: no HTML block)
  var ON_ITS_LINE = /^(?:#{1,6}(?:[ \t]|$)|([-*_])(?:[ \t]*\1){2,}[ \t]*$|<[!?])/;
  var RAW_OPEN = /^<(?:pre|script|style|textarea)(?:[ \t>]|$)/i;
  var RAW_CLOSE = /<\/(?:pre|script|style|textarea)>/;
  var HTML_BLOCK = new RegExp("^</?(?:address|article|aside|base|basefont|blockquote|body|" +
    "caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|" +
    "footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|" +
    "menuitem|meta|nav|noframes|ol|optgroup|option|p|param|section|source|summary|table|" +
    "tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \\t]|/?>|$)", "i");
  var TAG_LINE = /^<\/?[A-Za-z][A-Za-z0-9-]*[ \t]*\/?>[ \t]*$/;

  function plainMarkdown(text, marker) {
    var lines = String(text || "").split("\n");
    var out = lines.map(function () { return ""; });  // each line's quote marks, then its text
    // texts read on their own: the answer, then each quote's content (a loop: no deep calls)
    for (var texts = [{ at: 0, lines: lines }], part; (part = texts.pop());) {
      var kinds = blockKinds(part.lines);
      for (var i = 0, first = 0; i < part.lines.length; first = i) {
        var kind = kinds[i] === "on" ? "starts" : kinds[i];
        var goesOn = kind === "starts" ? "on" : kind;
        var block = false;  // a fence or HTML block in the quote: it takes no lazy line
        do block = block || (kind === "quote" && QUOTED_BLOCK.test(part.lines[i]));
        while (++i < part.lines.length && (kinds[i] === goesOn || kinds[i] === "on" && !block &&
          kind === "quote"));
        var run = part.lines.slice(first, i);
        var read = run.join("\n");
        if (kind === "quote") {
          var cuts = run.map(function () { return 0; });  // every level while all are quoted
          do cuts = cuts.map(function (cut, k) { return quoteEnd(run[k], cut); });
          while (cuts.every(function (cut, k) { return quoteEnd(run[k], cut) > cut; }));
          texts.push({ at: part.at + first, lines: run.map(function (line, k) {
            return line.slice(cuts[k]);
          }) });
          read = run.map(function (line, k) { return line.slice(0, cuts[k]); }).join("\n");
        } else if (kind === "raw") {  // raw text, but a [^n] in an HTML block is a citation
          read = read.replace(/\[\^([1-9][0-9]{0,4})\]/g, function (m, n) { return marker(+n); });
        } else if (kind !== "code") {
          read = inlinePlain(read, marker);
        }
        read.split("\n").forEach(function (line, k) { out[part.at + first + k] += line; });
      }
    }
    return out.join("\n");
  }

  /* Where the quote mark at ``at`` in ``line`` ends; ``at`` when there is none there. */
  function quoteEnd(line, at) {
    QUOTE_AT.lastIndex = at;
    return QUOTE_AT.test(line) ? QUOTE_AT.lastIndex : at;
  }

  /* Each line's kind: "code", "raw" (an HTML block), "quote", "starts" (prose that begins a
   * block) or "on" (prose going on with the paragraph of the line before). */
  function blockKinds(lines) {
    var items = [];  // the content columns of the open list items, innermost last
    var fence = null;  // the open fence: its run and its column
    var html = null;  // what ends the open HTML block: "blank" or RAW_CLOSE
    var paragraph = false;  // a paragraph is open: no indented code, lazy lines go on with it
    var blank = false;  // the line before was blank
    var empty = false;  // the line before began an empty list item (a blank line ends it)
    return lines.map(function (line) {
      var kind = kindOf(line);
      blank = !line.trim();
      return kind;
    });

    function kindOf(line) {
      var lead = /^[ \t]*/.exec(line)[0];
      var width = lead.replace(/\t/g, "    ").length;
      var stripped = line.slice(lead.length).replace(/\r$/, "");
      // a fence in a list item takes its lazy lines, as the renderers' parser (mistune) reads it
      if (fence && (!stripped || width >= fence.column || !(blank || ends(stripped)))) {
        var close = /^(`{3,}|~{3,})[ \t]*$/.exec(stripped);
        if (close && close[1][0] === fence.run[0] && close[1].length >= fence.run.length &&
            width - fence.column < 4) fence = null;
        return "code";
      }
      fence = null;  // (a fence in a list item ends with the item)
      if (html) {
        if (html === RAW_CLOSE && RAW_CLOSE.test(line)) html = null;
        else if (html === "blank" && !stripped) html = null;
        return html || stripped ? "raw" : "starts";
      }
      if (!stripped) {
        if (empty) items.pop();
        paragraph = empty = false;
        return "starts";
      }
      empty = false;
      while (items.length && width < items[items.length - 1] && !(paragraph && lazy(stripped))) {
        items.pop();
        paragraph = false;  // (a line that goes on with it would be lazy)
      }
      var column = items.length ? items[items.length - 1] : 0;
      if (width - column >= 4) return paragraph ? "on" : "code";
      if (QUOTE.test(line)) {
        paragraph = !!line.replace(QUOTE, "").trim();  // a lazy line may go on with it
        return "quote";
      }
      return opening(stripped, width);
    }

    /* What the block line ``stripped`` (indented less than code) is; a fence, an HTML block or
     * a list item it begins is opened. */
    function opening(stripped, width) {
      var item = ITEM.exec(stripped);
      if (item && !(paragraph && (item[0] === stripped || (item[2] && +item[2] !== 1)))) {
        var spaces = item[0].length - item[1].length;  // more than 4: indented code in it
        items.push(width + item[1].length + (spaces > 4 || !spaces ? 1 : spaces));
        stripped = stripped.slice(item[0].length);
        paragraph = false;
        empty = !stripped;
        if (spaces > 4 && stripped) return "code";  // the item begins with indented code
      }
      var run = FENCE.exec(stripped);
      var was = paragraph;
      paragraph = false;
      if (run) fence = { run: run[0], column: items.length ? items[items.length - 1] : 0 };
      if (run) return "code";
      var tag = RAW_OPEN.test(stripped) || HTML_BLOCK.test(stripped);
      if (tag || (!was && TAG_LINE.test(stripped))) {  // (a lone tag cannot end a paragraph)
        html = !RAW_OPEN.test(stripped) ? "blank" : RAW_CLOSE.test(stripped) ? null : RAW_CLOSE;
        return "raw";
      }
      if (was && /^(?:=+|-+)[ \t]*$/.test(stripped)) return "on";  // a setext underline
      paragraph = !ON_ITS_LINE.test(stripped) && stripped !== "";
      return was && paragraph ? "on" : "starts";
    }

    /* Whether ``stripped``, after a paragraph's line, goes on with it (a lazy line). */
    function lazy(stripped) {
      return !(ends(stripped) || HTML_BLOCK.test(stripped));
    }

    /* Whether the unindented ``stripped`` ends a list item: a new one, or a block of its own. */
    function ends(stripped) {
      return ITEM.test(stripped) || FENCE.test(stripped) || ON_ITS_LINE.test(stripped) ||
        stripped[0] === ">";
    }
  }

  /* Prose lines read inline, left to right, as CommonMark does: an escape, a code span,
   * raw HTML or an autolink, or a citation. */
  function inlinePlain(text, marker) {
    var out = "";
    for (var at = 0; at < text.length;) {
      var ch = text[at];
      var rule = ch === "<" ? RAW_INLINE : ch === "[" ? CITATION : null;
      var found = null;
      var shown = ch;
      var end = at + 1;
      if (ch === "\\" && PUNCTUATION.indexOf(text[at + 1] || "a") >= 0) {
        shown = text[at + 1];
        end = at + 2;
      } else if (ch === "`") {
        end = codeSpanEnd(text, at);
        shown = text.slice(at, end);
      } else if (rule && ((rule.lastIndex = at), (found = rule.exec(text)))) {
        shown = rule === CITATION ? marker(+found[1]) : found[0];
        end = rule.lastIndex;
      }
      out += shown;
      at = end;
    }
    return out;
  }

  /* Where the code span opened by the backticks at ``at`` ends: after the next run of as many
   * (backslashes are literal inside), or, without one, after its own run (then text). */
  function codeSpanEnd(text, at) {
    var runs = /`+/g;
    runs.lastIndex = at;
    var size = runs.exec(text)[0].length;
    var after = runs.lastIndex;
    for (var run = runs.exec(text); run; run = runs.exec(text)) {
      if (run[0].length === size) return runs.lastIndex;
    }
    return after;
  }

  window.Citecast.plain = { markdown: plainMarkdown };
})();
