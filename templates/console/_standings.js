(function () {
  var board = document.getElementById("board");
  var busy = false;
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
  function swap() {
    return fetch(location.href, {cache: "no-cache"}).then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("board");
        if (fresh) board.replaceWith(fresh), board = fresh, fit();
      });
  }
  setInterval(function () {
    if (busy) return;
    busy = true;
    fetch("/api/games/{{ game_id }}/version.json", {cache: "no-cache"})
      .then(function (r) { return r.json(); })
      .then(function (data) { if (String(data.version) !== board.dataset.version) return swap(); })
      .catch(function () {})
      .then(function () { busy = false; });
  }, {{ poll }});
{% include "console/_timer.js" %}
})();
