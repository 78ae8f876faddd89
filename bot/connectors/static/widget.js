/* citecast widget: <script src="https://your-citecast/widget.js" data-citecast async></script>
 *
 * Adds a floating button that opens the same chat as the citecast page, in a panel isolated
 * from the host page's styles (shadow DOM). It talks to the citecast server the script came
 * from, so that server must list this site in web.cors_origins. Its colours follow the
 * visitor's light or dark preference (chat.css), never the host page's.
 *
 * Optional attributes on the tag: data-api (the citecast URL, when not where the script is
 * from), data-label (the button's text), data-request-timeout and data-silence-timeout (how
 * many ms to wait on a request, and on an answer's stream that sends nothing, before giving
 * up; by default 30 s, and 3 × web.sse_heartbeat or 60 s; a value under 100 is taken as
 * seconds, with a console warning).
 *
 * A host page with a Content-Security-Policy must allow the citecast server's origin in
 * script-src, style-src and connect-src; what it blocks is named in the console, and the
 * widget is not drawn without its stylesheet. A page that requires Trusted Types
 * (require-trusted-types-for 'script') must also allow the policy ``citecast``
 * (trusted-types citecast): it makes only this server's modules' URLs and the answers' HTML
 * (which the server sanitized) trusted.
 *
 * The host page gets one global name, ``Citecast``: the modules this loads (sources.js,
 * citations.js, plain_markdown.js, answer_actions.js, scroll.js, history.js, turns.js,
 * stream.js, chat.js) keep their parts on it, and ``Citecast.widget`` says a widget is set
 * up. A page that removes #citecast-widget and runs this script again (a single-page app) gets
 * the same widget back, with its conversation (``Citecast.reattach``).
 */
(function () {
  "use strict";
  // One widget per page, set up by the first <script data-citecast> tag in the document,
  // whichever copy of this file happens to run first; every other tag is named in a warning.
  var first = document.querySelector("script[data-citecast]");
  var mine = document.currentScript;
  if (first && mine && mine !== first) {
    console.warn("citecast: widget.js is embedded more than once; the first " +
      "<script data-citecast> tag on the page is used and this one is ignored:", mine);
  }
  if (window.Citecast && window.Citecast.widget) {
    // Set up already. A single-page app that replaced the page, widget element and all, and
    // added the tag again gets the same widget back (its conversation kept, as on a reload).
    if (window.Citecast.reattach) window.Citecast.reattach();
    else if (!document.getElementById("citecast-widget")) {
      // an older widget.js set it up (a cached copy): it cannot be put back from here
      console.warn("citecast: the widget's element #citecast-widget was removed from the " +
        "page and cannot be added again; reload the page to get the widget back.");
    }
    return;
  }
  var script = first || mine;
  if (!script || !script.src) return;
  // the folder widget.js was served from (not its origin): citecast may be behind a reverse
  // proxy under a sub-path, https://example.com/help/widget.js, with its API at /help/api/…
  var base = script.getAttribute("data-api") ||
    new URL(".", new URL(script.src, window.location.href)).href;
  base = base.replace(/\/$/, "");
  var citecast = window.Citecast = window.Citecast || {};
  citecast.widget = true;

  // Each static file's content hash, put here by the server as it sends this file
  // (web_widget_script.py): a file's URL changes with its content, so no browser runs a copy
  // of chat.js an older release let it keep beside this release's modules. A copy of this
  // file served from elsewhere (data-api) has none and loads them unversioned.
  var versions = /*citecast:asset-versions*/{};
  /* The URL of the static file ``name`` (chat.css, chat.js) on the citecast server. */
  function asset(name) {
    var version = Object.prototype.hasOwnProperty.call(versions, name) ? versions[name] : "";
    return base + "/static/" + name + (version ? "?v=" + encodeURIComponent(version) : "");
  }

  var origin = new URL(base, window.location.href).origin;
  var blocked = citecast.blocked = {};  // CSP directives of the page that block citecast

  // A custom element, not a <div>: page rules for every div (div:empty {display: none}, a
  // transform) do not reach it. Its id stays the documented #citecast-widget.
  var host = document.createElement("citecast-widget");
  host.id = "citecast-widget";
  var shadow = host.attachShadow({ mode: "open" });
  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = asset("chat.css");
  shadow.appendChild(style);

  var launcher = document.createElement("button");
  launcher.type = "button";
  launcher.className = "cc-launcher";
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-controls", "citecast-panel");
  // a site's own label is shown as well as spoken, so what people see is what they can say
  var label = script.getAttribute("data-label");
  launcher.setAttribute("aria-label", label || "Ask citecast");
  launcher.textContent = label || "❝ Ask";
  // the widget's own words are English whatever the host page's language (WCAG 3.1.2), so a
  // screen reader does not read them in a French voice on a French page; a site's own label
  // keeps the page's language
  if (!label) launcher.setAttribute("lang", "en");
  // shown once its stylesheet is there: unstyled, it would be drawn in the page's flow, at the
  // foot of the page (a CSP without citecast in style-src blocks it for good: see csp())
  launcher.hidden = true;
  style.addEventListener("load", function () { launcher.hidden = false; });
  style.addEventListener("error", function () {
    // a CSP says why itself (csp(), its event may come just after this one)
    window.setTimeout(function () {
      if (!blocked["style-src"]) {
        console.error("citecast: could not load " + style.href + "; the widget stays hidden.");
      }
    }, 0);
  });

  var panel = document.createElement("div");
  panel.id = "citecast-panel";
  panel.className = "cc-panel";
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", "citecast chat");
  panel.setAttribute("lang", "en");  // as the chat page's <html lang="en">
  panel.hidden = true;
  var close = document.createElement("button");
  close.type = "button";
  close.className = "cc-close";
  close.setAttribute("aria-label", "Close the chat");
  close.textContent = "×";
  panel.appendChild(close);
  var mount = document.createElement("div");
  mount.className = "cc-root";
  panel.appendChild(mount);
  shadow.appendChild(panel);
  shadow.appendChild(launcher);

  var chat = null;
  // What to do once the modules have loaded: a second click on the button while they load
  // (a slow network, an impatient user) waits for the same load, never starts a second one
  // that would put a second chat in the panel.
  var waiting = null;
  function ensureChat(then) {
    if (chat) { then(); return; }
    if (waiting) { waiting.push(then); return; }
    waiting = [then];
    // a try again after "Cannot reach…": the message goes while it loads, so that a second
    // failure is a new alert, heard again
    if (mount.classList.contains("cc-error")) clearMount();
    function ready() {
      var calls = waiting;
      waiting = null;
      calls.forEach(function (call) { call(); });
    }
    function start() {
      clearMount();
      chat = citecast.chat.mount(mount, {
        apiBase: base, compact: true, storageKey: "citecast.widget.conversation:" + base,
        // how long to wait on the server (Citecast.timeouts); the defaults unless the tag says
        requestTimeout: script.getAttribute("data-request-timeout"),
        silenceTimeout: script.getAttribute("data-silence-timeout"),
        // what visitors ask and the answers are in the host page's language, not the
        // widget's English (lang="": unknown, when the page says none)
        contentLang: document.documentElement.lang || "",
      });
      // the panel is named by the heading it shows (web.title, once /api/config is read)
      panel.setAttribute("aria-labelledby", chat.title.id);
      panel.removeAttribute("aria-label");
      ready();
    }
    if (citecast.chat) { start(); return; }
    // chat.js loaded but set no Citecast.chat: a copy from another release (a proxy's cache),
    // which loading it again would not change
    function mismatched() {
      console.error("citecast: " + asset("chat.js") + " is not the chat this widget.js " +
        "needs (another release of citecast?); reload the page.");
      failed();
      mount.textContent = "The chat could not start. Reload the page to try again.";
    }
    function failed() {
      mount.textContent = blocked["script-src"] || blocked["trusted-types"] ?
        citecast.blockedByPage() :
        "Cannot reach the citecast server at " + base + ".";
      mount.className = "cc-root cc-error";
      // an alert: focus stays on the button, so nothing else tells a screen reader the panel
      // opened with this message instead of the chat
      mount.setAttribute("role", "alert");
      ready();
    }
    trust();
    (function next(i) {
      if (i === modules.length) {
        if (citecast.chat) start(); else mismatched();
      } else load(asset(modules[i] + ".js"), function () { next(i + 1); }, failed);
    })(0);
  }

  /* The panel without an earlier attempt's "Cannot reach" message. */
  function clearMount() {
    mount.textContent = "";
    mount.className = "cc-root";
    mount.removeAttribute("role");
  }

  // chat.js needs the modules before it, each the ones before it: load them in this order
  var modules = ["sources", "citations", "plain_markdown", "answer_actions", "scroll", "history", "turns", "stream", "chat"];

  /* Trusted Types: a page whose CSP has require-trusted-types-for 'script' refuses a plain
   * string as a script's URL or as HTML. The policy ``citecast`` (the page must allow it:
   * trusted-types citecast) vouches for this server's modules' URLs, nothing else, and for the
   * answers' HTML, which the server sanitized (nh3) and turns.js and stream.js alone insert,
   * through citecast.trustedHTML. Made when the chat is first opened, and once. */
  var policy = null;
  var trusting = false;
  function trust() {
    if (trusting) return;
    trusting = true;
    var types = window.trustedTypes;
    if (!types || typeof types.createPolicy !== "function") return;
    var ours = modules.map(function (name) { return asset(name + ".js"); });
    try {
      policy = types.createPolicy("citecast", {
        createScriptURL: function (url) {
          if (ours.indexOf(url) < 0) throw new TypeError("citecast: not a citecast module: " + url);
          return url;
        },
        createHTML: function (html) { return html; },
      });
    } catch (err) {
      return;  // the page's trusted-types directive leaves citecast out: said if it matters
    }
    citecast.trustedHTML = function (html) { return policy.createHTML(html); };
  }

  function load(url, onload, onerror) {
    var loader = document.createElement("script");
    try {
      loader.src = policy ? policy.createScriptURL(url) : url;
    } catch (err) {
      // Trusted Types refuse the URL (a TypeError): the page requires them and does not
      // allow the policy citecast
      blockedByTrustedTypes();
      onerror();
      return;
    }
    loader.async = true;
    loader.onload = onload;
    loader.onerror = onerror;
    document.head.appendChild(loader);
  }

  function open() {
    ensureChat(function () {
      panel.hidden = false;
      launcher.setAttribute("aria-expanded", "true");
      var input = shadow.querySelector(".cc-input");
      if (input) input.focus();
    });
  }
  function hide() {
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    launcher.focus();
  }
  // A panel that says the scripts could not load ("Cannot reach…") is not closed by the
  // button: its next click tries again, the panel kept open (as the README says).
  launcher.addEventListener("click", function () {
    if (panel.hidden || (!chat && !waiting && mount.classList.contains("cc-error"))) open();
    else hide();
  });
  close.addEventListener("click", hide);
  // not while an input method composes: there Escape cancels the word being typed. On the
  // button too: Tab from the panel's last control lands there with the panel still open.
  function escape(e) {
    if (e.key === "Escape" && !e.isComposing && !panel.hidden) hide();
  }
  panel.addEventListener("keydown", escape);
  launcher.addEventListener("keydown", escape);
  // While the panel is open, Tab goes round it and its button (the last stop, which closes
  // it), never on to the page behind: a link there may be under the panel, focused out of
  // sight (WCAG 2.4.11). Escape, the close button or the button give the page its Tab order
  // back, focus on the button. Not aria-modal: a screen reader may still read the page.
  launcher.addEventListener("keydown", function (e) {
    if (e.key === "Tab" && !e.shiftKey && !panel.hidden) { e.preventDefault(); close.focus(); }
  });
  close.addEventListener("keydown", function (e) {
    if (e.key === "Tab" && e.shiftKey && !panel.hidden) { e.preventDefault(); launcher.focus(); }
  });

  /* The page's Content-Security-Policy blocks citecast: say once in the console what it must
   * allow, and tell the visitor, in words that do not ask them to fix the site, that the chat
   * cannot work here. ``directive``: the one that blocked a request to citecast. */
  function csp(directive) {
    directive = directive.replace(/-(elem|attr)$/, "");  // script-src-elem: script-src
    if (!/^(script|style|connect)-src$/.test(directive) || blocked[directive]) return;
    blocked[directive] = true;
    console.error("citecast: this page's Content-Security-Policy blocks the widget (" +
      directive + "). It must allow " + origin + " in script-src, style-src and connect-src.");
    if (directive === "style-src") {
      launcher.hidden = true;  // drawn without its styles it would be broken
      panel.hidden = true;
    } else if (chat) {
      chat.refused = true;
      chat.setStatus(citecast.blockedByPage(), true);
    } else if (mount.classList.contains("cc-error")) {
      mount.textContent = citecast.blockedByPage();
    }
  }
  function blockedByTrustedTypes() {
    if (blocked["trusted-types"]) return;
    blocked["trusted-types"] = true;
    console.error("citecast: this page's Content-Security-Policy blocks the widget (Trusted " +
      "Types: require-trusted-types-for). It must allow the policy citecast in trusted-types, " +
      "and " + origin + " in script-src, style-src and connect-src.");
  }
  citecast.blockedByPage = function () {
    return "The chat cannot be used on this page: the site's security settings block it.";
  };
  document.addEventListener("securitypolicyviolation", function (e) {
    var url;
    try { url = new URL(e.blockedURI, window.location.href); } catch (err) { return; }
    if (url.origin === origin) csp(e.effectiveDirective || e.violatedDirective || "");
  });

  // Appended to <html>, after <body>, not inside it: a transform, filter, perspective or
  // will-change on <body> would make body the box its fixed button is placed in, at the foot
  // of a long page instead of the window's corner.
  function attach() { document.documentElement.appendChild(host); }
  if (document.body) attach(); else document.addEventListener("DOMContentLoaded", attach);
  /* Put the widget back when the page removed its element (a single-page app that rebuilt
   * the document and ran widget.js again), closed, as a reload shows it; on a page that still
   * has it, nothing (the tag was added twice: one widget). */
  citecast.reattach = function () {
    if (host.isConnected || !document.body) return;
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    attach();
  };
})();
