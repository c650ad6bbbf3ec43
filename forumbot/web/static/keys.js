// Keyboard shortcuts for the GM page: progressive enhancement only; every action also works
// with plain links and forms. Keys are ignored while typing in a field.
(function () {
  "use strict";
  var items = [], current = -1;
  function typing(e) {
    var t = e.target.tagName;
    return t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || e.target.isContentEditable;
  }
  function focusItem(i) {
    if (!items.length) return;
    current = Math.max(0, Math.min(items.length - 1, i));
    items.forEach(function (el) { el.classList.remove("current"); });
    items[current].classList.add("current");
    items[current].focus();
    items[current].scrollIntoView({ block: "nearest" });
  }
  function inCurrent(selector) {
    if (current < 0) focusItem(0);
    return items[current] ? items[current].querySelector(selector) : null;
  }
  function click(el) { if (el && !el.disabled) el.click(); }
  function help() {
    var box = document.getElementById("keys-help");
    if (box) { box.remove(); return; }
    box = document.createElement("div");
    box.id = "keys-help";
    box.textContent = "j/k: next/previous · 1-9: accept candidate · e: edit · r: reject note · " +
      "a: approve · h: hold · q/p/d/g/s: queue, phase, drafts, report, state · ?: close";
    document.body.appendChild(box);
  }
  document.addEventListener("DOMContentLoaded", function () {
    items = Array.prototype.slice.call(document.querySelectorAll("[data-item]"));
    var form = document.querySelector("[data-edit-form]");
    if (form) {  // show only the chosen ability's pickers
      var sync = function () {
        form.querySelectorAll("fieldset.ability").forEach(function (fs) {
          var radio = fs.querySelector("input[name=ability]");
          fs.classList.toggle("inactive", !radio.checked);
        });
      };
      form.addEventListener("change", sync);
      sync();
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) return;
    var k = e.key, nav = document.querySelector("header.top nav a[data-key='" + k + "']");
    if (k === "j") focusItem(current + 1);
    else if (k === "k") focusItem(current - 1);
    else if (k >= "1" && k <= "9") click(inCurrent("[data-accept='" + k + "']"));
    else if (k === "e") click(inCurrent("[data-edit]"));
    else if (k === "r") { var note = inCurrent("[data-reject-note]"); if (note) { note.focus(); e.preventDefault(); } }
    else if (k === "a") click(inCurrent("[data-approve]"));
    else if (k === "h") click(inCurrent("[data-hold]"));
    else if (k === "?") help();
    else if (nav) nav.click();
    else return;
    e.preventDefault();
  });
})();
