// Live inbox: new mail from the inbox's Server-Sent Events stream is added to the top of the list.
// Text from mail is only ever set with textContent, never parsed as HTML.
(function () {
  "use strict";
  var section = document.querySelector("section.inbox");
  if (!section) return;
  var list = document.getElementById("messages");
  var live = document.getElementById("live");

  function age(iso) {
    var seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
    if (seconds < 60) return "just now";
    if (seconds < 3600) return Math.floor(seconds / 60) + " min ago";
    if (seconds < 86400) return Math.floor(seconds / 3600) + " h ago";
    return Math.floor(seconds / 86400) + " d ago";
  }

  function span(className, text) {
    var element = document.createElement("span");
    element.className = className;
    element.textContent = text;
    return element;
  }

  function row(mail) {
    var item = document.createElement("li");
    item.className = "message new";
    item.dataset.id = mail.id;
    var link = document.createElement("a");
    link.href = "/message/" + encodeURIComponent(mail.id);
    link.append(span("from", mail.from || mail.envelopeSender), " ",
                span("subject", mail.subject || "(no subject)"), " ");
    var time = document.createElement("time");
    time.dateTime = mail.receivedAt;
    time.textContent = age(mail.receivedAt);
    link.append(time);
    if (mail.spam && mail.spam.terms.length > 0) {
      var badge = span("spam", "spam: " + mail.spam.terms.join(", "));
      badge.title = "spam score " + mail.spam.score.toFixed(1);
      link.append(" ", badge);
    }
    item.append(link);
    return item;
  }

  var events = new EventSource(section.dataset.events);
  events.addEventListener("open", function () {
    document.body.dataset.live = "on";
    live.textContent = "Live: new mail appears here without reloading.";
  });
  events.addEventListener("error", function () {
    document.body.dataset.live = "off";
    live.textContent = "Live updates paused; reconnecting\u2026";
  });
  events.addEventListener("mail", function (event) {
    var mail = JSON.parse(event.data);
    if (list.querySelector('[data-id="' + CSS.escape(mail.id) + '"]')) return;
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    list.prepend(row(mail));
    live.textContent = "New mail from " + (mail.from || mail.envelopeSender || "unknown sender");
  });

  setInterval(function () {
    list.querySelectorAll("time").forEach(function (time) {
      time.textContent = age(time.dateTime);
    });
  }, 30000);
})();
