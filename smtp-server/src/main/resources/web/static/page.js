// Aids of the inbox and message pages, which work without them: a page the browser brings back
// from its back-forward cache is loaded again (it may show mail deleted since); a focus ring around
// the mail view while focus is inside it (CSS :focus does not match a frame whose document has the
// focus); copy buttons, shown where the browser lets a page write to the clipboard; times in the
// reader's zone (the server writes UTC).
(function () {
  "use strict";
  // an exact time (class "exact") shows in the reader's zone, its title keeps UTC; an age
  // ("5 min ago") gets the exact time in the reader's zone as its title
  document.querySelectorAll("time[datetime]").forEach(function (time) {
    var date = new Date(time.dateTime);
    if (isNaN(date.getTime())) return;
    var local = date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" });
    if (time.classList.contains("exact")) {
      time.textContent = local;
    } else {
      time.title = local;
    }
  });

  // Chromium keeps even pages sent with Cache-Control: no-store in that cache
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) location.reload();
  });

  var frame = document.querySelector("iframe.mail-html");
  if (frame) {
    // focus going into the frame blurs this window, focus coming back out focuses it again
    window.addEventListener("blur", function () {
      setTimeout(function () {
        frame.classList.toggle("focus-inside", document.activeElement === frame);
      }, 0);
    });
    window.addEventListener("focus", function () {
      frame.classList.remove("focus-inside");
    });
  }

  if (navigator.clipboard) {
    document.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.dataset.copy).then(function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy"; }, 2000);
        }, function () { /* the address stays there to select */ });
      });
    });
  }
})();
