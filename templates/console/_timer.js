  // a round timer's countdown to its end, then the page's word for "locked"
  (function () {
    function tick() {
      document.querySelectorAll("[data-timer-end]").forEach(function (el) {
        var left = Math.ceil((Date.parse(el.dataset.timerEnd) - Date.now()) / 1000);
        var out = el.querySelector(".timer-left");
        if (out) out.textContent = left > 0 ? String(left) : el.dataset.locked;
      });
    }
    tick();
    setInterval(tick, 250);
  })();
