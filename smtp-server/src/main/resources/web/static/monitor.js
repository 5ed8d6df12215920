// Operator monitor: asks for the operator token once (kept in this tab's session storage, never in
// a URL or cookie), then lists the newest mail of every inbox, asking the API every 2 s.
// Text from mail is only ever set with textContent, never parsed as HTML.
(function () {
  "use strict";
  var section = document.querySelector("section.monitor");
  var form = document.getElementById("token-form");
  if (!section || !form) return;
  var input = document.getElementById("token");
  var status = document.getElementById("status");
  var list = document.getElementById("messages");
  var shown = {};
  var timer = null;

  var isolated = BurnboxRows.isolated; // /static/rows.js, as on the inbox page

  // a row as the inbox page's (inbox.js row(mail)), the inbox's name in a column before the sender
  function entry(mail) {
    var item = document.createElement("li");
    item.className = "message";
    item.dataset.id = mail.id;
    var link = document.createElement("a");
    link.href = "/message/" + encodeURIComponent(mail.id);
    link.append(isolated("inbox", mail.to), " ",
                isolated("from", mail.from || mail.envelopeSender || "(unknown sender)"), " ",
                isolated("subject", mail.subject || "(no subject)"));
    var verdict = BurnboxRows.listed(mail.spam);
    if (verdict) link.append(" ", verdict);
    item.append(link);
    return item;
  }

  function ask() {
    var token = sessionStorage.getItem("burnbox-operator-token");
    if (!token) {
      form.hidden = false;
      return;
    }
    fetch("/api/v1/messages?limit=100", { headers: { Authorization: "Bearer " + token } })
      .then(function (response) {
        if (response.status === 401) {
          sessionStorage.removeItem("burnbox-operator-token");
          status.textContent = "That token was refused.";
          form.hidden = false;
          return null;
        }
        return response.ok ? response.json() : null;
      })
      .then(function (body) {
        if (!body) return;
        form.hidden = true;
        status.textContent = "Live: new mail of every inbox appears here.";
        body.messages.slice().reverse().forEach(function (mail) {
          if (!shown[mail.id]) {
            shown[mail.id] = true;
            list.prepend(entry(mail));
          }
        });
        timer = setTimeout(ask, 2000);
      })
      .catch(function () {
        status.textContent = "Burnbox is not answering; trying again.";
        timer = setTimeout(ask, 2000);
      });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    sessionStorage.setItem("burnbox-operator-token", input.value.trim());
    input.value = "";
    if (timer) clearTimeout(timer);
    ask();
  });
  ask();
})();
