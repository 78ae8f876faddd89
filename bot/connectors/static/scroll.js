/* citecast scrolling: what scrolls the chat (the widget panel, or the page itself) and how a
 * node is brought into the part of it that the sticky question box (and, in the widget's
 * panel, the sticky header) does not cover; and, in the widget, whether that header and box
 * stay in view at all (keepRoom). Loaded after answer_actions.js and before
 * turns.js and chat.js, which use window.Citecast.scroll.
 */
(function () {
  "use strict";

  /* The element that scrolls ``node``: the nearest scrolling box from ``node`` itself up, the
   * page when none is found in the page, and null inside a shadow root (the widget) that has
   * none: the host page is never scrolled for the widget. */
  function scrollerOf(node) {
    for (var n = node; n; n = n.parentElement) {
      var overflow = window.getComputedStyle(n).overflowY;
      if (overflow === "auto" || overflow === "scroll") return n;
    }
    if (node.getRootNode() !== document) return null;
    return document.scrollingElement || document.documentElement;
  }

  /* The part of ``root``'s scroller that ``form`` (the sticky question box) and a sticky
   * header do not cover, in viewport pixels; null when nothing may be scrolled. */
  function visibleBand(root, form) {
    var scroller = scrollerOf(root);
    if (!scroller) return null;
    var page = scroller === document.scrollingElement || scroller === document.documentElement;
    var top = page ? 0 : scroller.getBoundingClientRect().top;
    var bottom = page ? window.innerHeight : scroller.getBoundingClientRect().bottom;
    var formTop = form.getBoundingClientRect().top;
    // what the scroller keeps clear at its top (the widget's close button), as CSS says, and
    // the header held there (the widget's panel): what scrolls under it is out of sight
    var clear = top + (parseFloat(window.getComputedStyle(scroller).scrollPaddingTop) || 0);
    var header = root.querySelector(".cc-header");
    if (header && window.getComputedStyle(header).position === "sticky") {
      clear = Math.max(clear, header.getBoundingClientRect().bottom);
    }
    return { scroller: scroller, top: clear + 8, bottom: Math.min(bottom, formTop) - 8 };
  }

  /* Scroll the least needed so that ``node`` sits between the top and the question box; a
   * node taller than that space shows its start (the question of a long answer stays on top,
   * the rest is read by scrolling). */
  function reveal(root, form, node) {
    var band = visibleBand(root, form);
    if (!band) return;
    var box = node.getBoundingClientRect();
    var dy = 0;
    if (box.height > band.bottom - band.top || box.top < band.top) dy = box.top - band.top;
    else if (box.bottom > band.bottom) dy = box.bottom - band.bottom;
    if (dy) band.scroller.scrollTop += dy;
  }

  /* True while ``node`` (the newest turn) is where reveal() put it: the viewer has not
   * scrolled away. */
  function following(root, form, node) {
    var band = visibleBand(root, form);
    if (!band) return false;
    var box = node.getBoundingClientRect();
    return box.top >= band.top - 2 && box.top < band.bottom;
  }

  /* Keyboard focus is never left under the sticky question box (WCAG 2.4.11): after the
   * browser has scrolled a newly focused control into view, scroll on until it is clear. */
  function keepFocusClear(root, form) {
    root.addEventListener("focusin", function (event) {
      var target = event.target;
      if (!(target instanceof Element) || form.contains(target)) return;
      window.requestAnimationFrame(function () {
        var band = visibleBand(root, form);
        if (!band || root.getRootNode().activeElement !== target) return;
        var box = target.getBoundingClientRect();
        if (box.bottom > band.bottom || box.top < band.top) reveal(root, form, target);
      });
    });
  }

  /* Call before ``container`` (a streamed answer) gets its final content: the focused link in
   * it, if any, is removed with the old content and focus would fall to the page (out of the
   * widget's panel). The function returned focuses the link at the same position in the new
   * content, else ``fallback``; it does nothing when focus was not in ``container``. */
  function holdFocus(root, container) {
    var active = root.getRootNode().activeElement;
    if (!active || !container.contains(active)) return function () {};
    var at = Array.prototype.indexOf.call(container.querySelectorAll("a[href]"), active);
    return function (fallback) {
      var links = container.querySelectorAll("a[href]");
      var target = at >= 0 && links.length ? links[Math.min(at, links.length - 1)] : fallback;
      // scrolled into view (keepFocusClear keeps it off the question box)
      if (target && root.getRootNode().activeElement !== target) target.focus();
    };
  }

  /* Code blocks and tables in ``container`` (a finished answer) scroll sideways inside
   * themselves when wide (chat.css): each takes keyboard focus, so the arrow keys scroll it in
   * every browser (not only in those that make scrollers focusable themselves, Chrome 130 on),
   * with a name that says what it is. A code block is a named region; a table keeps its
   * table role (a region would hide its rows and columns from screen readers). Added here, not
   * by the server, whose sanitizer allows neither attribute; the shared answer page has them
   * from the server (web_turn_page_names.py). */
  var SCROLLERS = { PRE: "Code", TABLE: "Table" };
  function scrollRegions(container) {
    Array.prototype.forEach.call(container.querySelectorAll("pre, table"), function (node) {
      if (node.hasAttribute("tabindex")) return;
      node.setAttribute("tabindex", "0");
      if (node.tagName === "PRE") node.setAttribute("role", "region");
      node.setAttribute("aria-label", SCROLLERS[node.tagName]);
    });
  }

  /* The widget's panel keeps room for the answers (WCAG 1.4.10): its header and question box
   * stay in view (sticky) only while what they leave of ``panel`` between them is at least
   * ROOM px; otherwise the panel gets class cc-short and both scroll with the conversation
   * (chat.css), which then has the whole panel. Measured, not a fixed breakpoint: the header's
   * height depends on web.title, web.subtitle and the panel's width, the box's on its rows.
   * Sticky or not, the two are the same height, so the choice never flips back and forth.
   * While the box scrolls with the conversation and is being typed in, all of it is kept in
   * view (formInView). */
  var ROOM = 200;
  function keepRoom(panel, header, form) {
    if (!panel || typeof ResizeObserver !== "function") return;
    function measure() {
      if (panel.hidden) return;  // measured again when it shows (its size changes then)
      var left = panel.clientHeight - header.offsetHeight - form.offsetHeight;
      panel.classList.toggle("cc-short", left < ROOM);
      formInView(panel, form);
    }
    var observer = new ResizeObserver(measure);
    [panel, header, form].forEach(function (node) { observer.observe(node); });
    // after the browser's own scrolling to the focused box, which shows the box's text area
    // only: the Ask button, a second line and the hint below it could stay out of sight
    form.addEventListener("focusin", function () {
      window.requestAnimationFrame(function () { formInView(panel, form); });
    });
    form.addEventListener("input", function () { formInView(panel, form); });
    measure();
  }

  /* In a short panel (cc-short) the question box scrolls with the conversation: while focus
   * is in it, scroll the least needed for the whole box to show (its top first when it is
   * taller than the panel's scroller). A header that grows once web.title arrives, or a box
   * that grows while typing, calls this again through keepRoom's observer. */
  function formInView(panel, form) {
    if (panel.hidden || !panel.classList.contains("cc-short")) return;
    if (!form.contains(form.getRootNode().activeElement)) return;
    var scroller = scrollerOf(form);
    if (!scroller) return;
    var view = scroller.getBoundingClientRect();
    var box = form.getBoundingClientRect();
    var dy = Math.min(box.bottom - view.bottom, box.top - view.top);
    if (dy > 0) scroller.scrollTop += dy;
  }

  window.Citecast.scroll = {
    keepRoom: keepRoom,
    regions: scrollRegions,
    scrollerOf: scrollerOf,
    band: visibleBand,
    reveal: reveal,
    following: following,
    keepFocusClear: keepFocusClear,
    holdFocus: holdFocus,
  };
})();
