// robotsrules workbench: the copy buttons. The page works without this script; it is
// served from the page's own origin (the Content-Security-Policy allows no other script).
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button.copy").forEach(function (button) {
    var code = button.parentElement.querySelector("code.command");
    if (!code || !navigator.clipboard) {
      return;
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(code.textContent).then(function () {
        button.textContent = "Copied";
      }, function () {
        button.textContent = "Select the command and copy it";
      });
    });
  });
});
