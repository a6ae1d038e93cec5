// robotsrules workbench: the copy buttons, and answers that follow the edits. The page works
// without this script (the Test button sends the form); it is served from the page's own
// origin, the only script the Content-Security-Policy allows.
"use strict";
(function () {
  function copyButtons(root) {
    root.querySelectorAll("button.copy").forEach(function (button) {
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
  }

  // After an edit settles, the form is sent as the Test button sends it and the results are
  // replaced by the server's new ones: HTML the server rendered and escaped, parsed inert.
  function followEdits(form) {
    var timer = null;
    var sent = 0;
    function update() {
      var results = document.getElementById("results");
      var data = new FormData(form);
      data.set("action", "test");
      data.delete("upload");
      var mine = ++sent;
      fetch(form.getAttribute("action").split("#")[0], {
        method: "POST", body: data, credentials: "same-origin"
      }).then(function (response) {
        return response.text();
      }).then(function (html) {
        if (mine !== sent) {
          return; // a later edit's answer is on its way
        }
        var fresh = new DOMParser().parseFromString(html, "text/html")
          .getElementById("results");
        if (fresh && results) {
          results.replaceWith(fresh);
          copyButtons(fresh);
        }
      });
    }
    ["robots", "urls", "agents", "base"].forEach(function (name) {
      var field = document.getElementById(name);
      if (field) {
        field.addEventListener("input", function () {
          clearTimeout(timer);
          timer = setTimeout(update, 500);
        });
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    copyButtons(document);
    var form = document.getElementById("tester");
    if (form && window.fetch && window.DOMParser) {
      followEdits(form);
    }
  });
})();
