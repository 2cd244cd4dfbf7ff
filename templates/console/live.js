/* The console's live pages: the body's data-events names the page's event stream. On an
   event the page is fetched again and each region (data-live="name") whose HTML changed is
   replaced (a region of parts, data-parts, only in its parts that changed), except what the
   person is typing: a changed form is either held (data-hold: the
   host's grid) or replaced with the typed values carried into the new form and a note saying
   why (a player's form whose turn closed). A page asks within the event's spread_ms.
   The body's data-following says whether the stream is open. Without this script the pages
   work as before. */
(function () {
  "use strict";
  var body = document.body;
  var events = body.getAttribute("data-events");
  if (!events || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var version = body.getAttribute("data-version");
  var source = null, fetching = false, again = false, pending = false;

  function typed(field) {
    if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    return field.value !== field.defaultValue;
  }
  // a region someone is typing in: a box changed and not sent, or the focus in one of its forms
  function busy(region) {
    var active = document.activeElement;
    var forms = Array.prototype.slice.call(region.querySelectorAll("form"));
    if (region.tagName === "FORM") forms.push(region);
    return forms.some(function (form) {
      return Array.prototype.some.call(form.elements, typed) ||
        (active && form.contains(active) && active.tagName !== "BUTTON");
    });
  }
  function values(region) {
    var kept = [];
    Array.prototype.forEach.call(region.querySelectorAll("input, textarea, select"), function (f) {
      if (f.name && typed(f)) kept.push([f.form ? f.form.getAttribute("data-form") : "", f.name, f.value, f]);
    });
    return kept;
  }
  function carry(kept, region) {
    var left = [];
    kept.forEach(function (k) {
      var sel = (k[0] ? "form[data-form='" + k[0] + "'] " : "") + "[name='" + k[1] + "']";
      var field = region.querySelector(sel);
      if (field && field.type !== "hidden") field.value = k[2]; else if (k[2]) left.push(k);
    });
    return left;
  }
  function say(region, text, left) {
    if (!text && !left.length) return;
    var note = document.createElement("div");
    note.className = "notice-kept";
    note.setAttribute("role", "status");
    if (text) {
      var p = document.createElement("p");
      p.textContent = text;
      note.appendChild(p);
    }
    if (left.length) {
      var q = document.createElement("p");
      q.textContent = (region.getAttribute("data-unsent") || "") + " " +
        left.map(function (k) { return k[2]; }).join(", ");
      note.appendChild(q);
    }
    region.insertBefore(note, region.firstChild);
  }
  // a region made of parts (data-parts): its children with an id are kept, the very same
  // nodes, while their digest is unchanged, so a reveal taking its turn or a countdown goes on;
  // a part made of parts is patched the same way, any other child is the new page's
  function same(old, next) {
    var digest = old.getAttribute("data-digest");
    return digest !== null && digest === next.getAttribute("data-digest");
  }
  function patch(old, next) {
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if (!next.hasAttribute(a.name)) old.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(next.attributes, function (a) {
      if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
    });
    var had = {};
    Array.prototype.forEach.call(old.children, function (c) { if (c.id) had[c.id] = c; });
    var wanted = Array.prototype.slice.call(next.childNodes).map(function (n) {
      var was = n.nodeType === 1 && n.id ? had[n.id] : null;
      if (!was || was.tagName !== n.tagName) return n;
      if (same(was, n)) return was;
      if (!was.hasAttribute("data-parts") || !n.hasAttribute("data-parts")) return n;
      patch(was, n);
      return was;
    });
    // the nodes not kept go first, so that a kept node never moves (a move restarts it)
    Array.prototype.slice.call(old.childNodes).forEach(function (n) {
      if (wanted.indexOf(n) < 0) old.removeChild(n);
    });
    wanted.forEach(function (n, i) {
      var at = old.childNodes[i];
      if (at !== n) old.insertBefore(n, at || null);
    });
  }
  function swap(fresh) {
    var held = false;
    Array.prototype.forEach.call(document.querySelectorAll("[data-live]"), function (old) {
      var name = old.getAttribute("data-live");
      var next = fresh.querySelector("[data-live='" + name + "']");
      if (!next) return;
      next = document.importNode(next, true);
      if (next.outerHTML === old.getAttribute("data-shown")) return;
      var html = next.outerHTML;
      if (busy(old)) {
        if (old.hasAttribute("data-hold")) { held = true; return; }
        var kept = values(old);
        var turn = old.querySelector("input[name=turn]");
        var turnNext = next.querySelector("input[name=turn]");
        var moved = turn && (!turnNext || turn.value !== turnNext.value);
        old.replaceWith(next);
        next.setAttribute("data-shown", html);
        var left = carry(kept, next);
        // a note only when something typed was carried over (a focused empty box is not)
        say(next, moved && kept.length > left.length ? next.getAttribute("data-kept") : "", left);
        return;
      }
      if (old.hasAttribute("data-parts") && next.hasAttribute("data-parts")) {
        patch(old, next);
        old.setAttribute("data-shown", html);
        return;
      }
      old.replaceWith(next);
      next.setAttribute("data-shown", html);
    });
    var title = fresh.querySelector("title");
    if (title) document.title = title.textContent;
    var note = document.getElementById("live-coming");
    if (note) note.remove();
    pending = held;
    document.dispatchEvent(new CustomEvent("kit:swapped"));
  }
  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    // the address without ?sent=...: the echo of a post belongs to the page that made it
    var url = location.pathname + location.search.replace(/([?&])(sent|saved|same)=[^&]*&?/g, "$1")
      .replace(/[?&]$/, "");
    fetch(url, {cache: "no-cache", credentials: "same-origin"})
      .then(function (r) { return r.ok || r.status === 409 ? r.text() : null; })
      .then(function (html) {
        if (html) swap(new DOMParser().parseFromString(html, "text/html"));
      })
      .catch(function () {})
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }
  // a page asks at a random moment of the event's spread_ms, past its first tenth (when the
  // server is sending every page its event), so that a room of phones does not ask all at
  // once; one fetch is due at a time
  var due = null;
  // a publish heard: said at once, while the page waits for its moment
  function coming() {
    var main = document.getElementById("main");
    if (!main || document.getElementById("live-coming")) return;
    var note = document.createElement("p");
    note.id = "live-coming";
    note.className = "notice-ok";
    note.setAttribute("role", "status");
    note.textContent = body.getAttribute("data-coming") || "";
    main.insertBefore(note, main.firstChild);
  }
  function soon(event) {
    var spread = 0;
    try { spread = JSON.parse(event.data).spread_ms || 0; } catch (e) { spread = 0; }
    if (!(spread > 0)) { refresh(); return; }
    if (event.type === "published") coming();
    if (due !== null) return;
    due = setTimeout(function () { due = null; refresh(); },
                     spread * (0.1 + 0.9 * Math.random()));
  }
  function heard(event) {
    // "seen": a seat's page opened or closed, at the same version
    if (event.type !== "seen" && event.lastEventId && event.lastEventId === version) return;
    version = event.lastEventId;
    body.setAttribute("data-version", version);
    soon(event);
  }
  function open() {
    var url = events + (version ? (events.indexOf("?") < 0 ? "?" : "&") + "version=" + version : "");
    source = new EventSource(url);
    ["version", "published", "undone", "entered", "seen"].forEach(function (name) {
      source.addEventListener(name, heard);
    });
    // the browser connects again by itself after a drop; a refused connection (a server
    // stopping, a proxy's 502) closes the stream for good, so open a new one
    source.onopen = function () { body.setAttribute("data-following", "open"); };
    source.onerror = function () {
      body.setAttribute("data-following", "lost");
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(open, 3000);
      }
    };
  }
  // the time left to a deadline, in the page's words ("in %(hours)s h %(minutes)s min|...")
  function countdown() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-deadline]"), function (el) {
      var words = (el.getAttribute("data-words") || "").split("|");
      var left = Math.ceil((Date.parse(el.getAttribute("data-deadline")) - Date.now()) / 60000);
      if (words.length !== 3 || isNaN(left)) return;
      var text = left <= 0 ? words[2] : left < 60 ? words[1].replace("%(minutes)s", left)
        : words[0].replace("%(hours)s", Math.floor(left / 60)).replace("%(minutes)s", left % 60);
      el.textContent = "(" + text + ")";
    });
  }
  setInterval(countdown, 20000);
  document.addEventListener("kit:swapped", countdown);
  // a held region is replaced once its form is sent or left alone
  document.addEventListener("focusout", function () { if (pending) setTimeout(refresh, 0); });
  Array.prototype.forEach.call(document.querySelectorAll("[data-live]"), function (r) {
    r.setAttribute("data-shown", r.outerHTML);
  });
  open();
})();
