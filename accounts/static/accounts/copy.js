// Copy buttons: <button data-copy="#selector"> copies that element's value or text.
(function () {
  "use strict";
  function announce(message) {
    var status = document.querySelector(".copy-status");
    if (status) { status.textContent = message; }
  }
  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "absolute";
    area.style.left = "-9999px";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) { return; }
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) { return; }
    var text = ("value" in source && source.value) ? source.value : source.textContent;
    var done = function () { announce("Copied to the clipboard."); };
    var failed = function () {
      if (fallbackCopy(text)) { done(); } else { announce("Copy failed: select the text and copy it by hand."); }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  });
})();
