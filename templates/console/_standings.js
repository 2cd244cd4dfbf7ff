(function () {
  var phone = window.matchMedia("(max-width: 40rem)");
  // the big screen uses its height: the largest text at which every name fits on the screen
  // on one line, uncut (a phone scrolls instead, its text set by the stylesheet)
  function fits() {
    var root = document.documentElement;
    if (root.scrollHeight > window.innerHeight || root.scrollWidth > window.innerWidth) return false;
    return Array.prototype.every.call(document.querySelectorAll(".board"), function (b) {
      return b.scrollWidth <= b.clientWidth;
    });
  }
  function fit() {
    var style = document.body.style;
    style.fontSize = "";
    if (phone.matches) return;
    var lo = 12, hi = Math.max(lo, window.innerHeight / 10);
    for (var i = 0; i < 14; i++) {
      var mid = (lo + hi) / 2;
      style.fontSize = mid + "px";
      if (fits()) lo = mid; else hi = mid;
    }
    style.fontSize = Math.floor(lo) + "px";
  }
  document.fonts.ready.then(fit);
  window.addEventListener("resize", fit);
  // the live pages' script swaps in the new board when the game moves
  document.addEventListener("kit:swapped", fit);
  // reveals take turns: one that arrives while another has its turn waits, hidden, for its
  // own; a reveal whose turn ends gives way to the next one waiting, or stays, the latest.
  // Those on the screen when it opens all show, as without this script.
  var TURN_MS = 8000;
  var known = new WeakSet(), waiting = [], turn = null;
  function reveals() { return Array.prototype.slice.call(document.querySelectorAll(".reveal")); }
  function show(reveal) {
    reveal.hidden = false;
    turn = reveal;
    setTimeout(ended, TURN_MS);
  }
  function ended() {
    waiting = waiting.filter(function (r) { return document.contains(r); });
    if (!waiting.length) { turn = null; return; }
    turn.hidden = true;
    show(waiting.shift());
    fit();
  }
  function arrived() {
    var fresh = reveals().filter(function (r) { return !known.has(r); });
    fresh.forEach(function (reveal) {
      known.add(reveal);
      if (turn) { reveal.hidden = true; waiting.push(reveal); } else show(reveal);
    });
    if (fresh.length) fit();
  }
  reveals().forEach(function (r) { known.add(r); });
  document.addEventListener("kit:swapped", arrived);
{% include "console/_timer.js" %}
})();
