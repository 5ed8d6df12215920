// Live inbox: new mail from the inbox's Server-Sent Events stream is added to the top of the list
// (the newest page only), and after a reconnect the newest page is fetched for what came meanwhile.
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

  // sender text as the server shows it (Html.isolated): without bidi controls, in a <bdi>
  function isolated(className, text) {
    var element = document.createElement("span");
    element.className = className;
    var bdi = document.createElement("bdi");
    bdi.textContent = text.replace(/[\u202A-\u202E\u2066-\u2069]/g, "");
    element.append(bdi);
    return element;
  }

  // the same text as SpamHtml.percent on the server
  function percent(probability) {
    if (probability > 0 && probability < 0.005) return "<1%";
    if (probability < 1 && probability >= 0.995) return ">99%";
    return Math.round(probability * 100) + "%";
  }

  function signed(value) {
    return (value >= 0 ? "+" : "") + value.toFixed(2);
  }

  // SpamVerdict.CLEAN is mail that was never scanned: no badge
  function scanned(spam) {
    return spam.probability !== 0 || spam.score !== 0 || spam.spam || spam.terms.length > 0;
  }

  // the same badge as SpamHtml.badge: "spam 97%", or a quieter "12%", read out as "spam,
  // probability 97%" or "not spam, spam probability 12%"; terms and score on hover
  function badge(spam) {
    var element = document.createElement("span");
    element.className = spam.spam ? "spam" : "spam quiet";
    if (spam.spam) {
      element.append("spam", span("visually-hidden", ", probability"),
                     " " + percent(spam.probability));
    } else {
      element.append(span("visually-hidden", "not spam, spam probability "),
                     percent(spam.probability));
    }
    var terms = spam.terms.length > 0 ? spam.terms.join(", ") : "no spam terms";
    element.title = terms + " (score " + signed(spam.score) + ")";
    return element;
  }

  function row(mail) {
    var item = document.createElement("li");
    item.className = "message new";
    item.dataset.id = mail.id;
    var link = document.createElement("a");
    link.href = "/message/" + encodeURIComponent(mail.id);
    link.append(isolated("from", mail.from || mail.envelopeSender || "(unknown sender)"), " ",
                isolated("subject", mail.subject || "(no subject)"), " ");
    var time = document.createElement("time");
    time.dateTime = mail.receivedAt;
    time.textContent = age(mail.receivedAt);
    link.append(time);
    if (mail.spam && scanned(mail.spam)) {
      link.append(" ", badge(mail.spam));
    }
    item.append(link);
    return item;
  }

  // an older page (?cursor=) keeps its list: new mail is only announced, with its link to the newest
  var older = section.dataset.older === "true";
  var newest = live.querySelector("a");

  function add(mail) {
    if (list.querySelector('[data-id="' + CSS.escape(mail.id) + '"]')) return false;
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    list.prepend(row(mail));
    return true;
  }

  function announce(mail) {
    var text = "New mail from " + (mail.from || mail.envelopeSender || "unknown sender");
    if (older) {
      live.replaceChildren(text + ". ", newest);
    } else {
      live.textContent = text;
    }
  }

  // after a reconnect, the mail that came while the stream was down: the newest page, oldest first
  function catchUp() {
    var url = section.dataset.events.replace(/\/events$/, "");
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (page) {
        if (!page) return;
        page.messages.slice().reverse().forEach(function (mail) {
          if (add(mail)) announce(mail);
        });
      })
      .catch(function () { /* the next reconnect tries again */ });
  }

  var dropped = false;
  var events = new EventSource(section.dataset.events);
  events.addEventListener("open", function () {
    document.body.dataset.live = "on";
    if (older) {
      live.replaceChildren("Older mail. ", newest);
    } else {
      live.textContent = "Live: new mail appears here without reloading.";
      if (dropped) catchUp();
    }
    dropped = false;
  });
  events.addEventListener("error", function () {
    document.body.dataset.live = "off";
    dropped = true;
    live.textContent = "Live updates paused; reconnecting\u2026";
  });
  events.addEventListener("mail", function (event) {
    var mail = JSON.parse(event.data);
    if (older || add(mail)) announce(mail);
  });

  setInterval(function () {
    list.querySelectorAll("time").forEach(function (time) {
      time.textContent = age(time.dateTime);
    });
  }, 30000);
})();
