// Aids of the inbox and message pages, which work without them: a focus ring around the mail view
// while focus is inside it (CSS :focus does not match a frame whose document has the focus).
(function () {
  "use strict";
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
})();
