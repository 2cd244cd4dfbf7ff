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
{% include "console/_timer.js" %}
})();
