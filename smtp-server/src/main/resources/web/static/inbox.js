// Live inbox: new mail from the inbox's Server-Sent Events stream is put into the list (the newest
// page only, not an older page or a search) in the order it was received, and whenever the stream (re)opens the JSON listing is
// read back to the mail shown when it went down, so nothing that came meanwhile is missing.
// A stream that the server or a proxy refused (EventSource gives up for good on any answer but 200)
// is opened again after a growing pause. A tab hidden for a few seconds closes its stream, since
// every open stream holds one of the browser's six connections to the host, and looks at the
// listing once a minute instead; it reopens the stream when it is shown again.
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

  // the exact time in the reader's zone, e.g. "28 Nov 2026, 04:13:33 CET"
  function localTime(iso) {
    return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" });
  }

  var isolated = BurnboxRows.isolated; // /static/rows.js

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
    time.title = localTime(mail.receivedAt); // as page.js does for the rows the page came with
    link.append(time);
    var verdict = BurnboxRows.listed(mail.spam);
    if (verdict) link.append(" ", verdict);
    item.append(link);
    return item;
  }

  // an older page (?cursor=) and a search (?q=) keep their list: new mail is only announced, with
  // the page's link to the newest mail; data-note says what the page is ("Older mail.")
  var older = section.dataset.older === "true";
  var newest = live.querySelector("a");
  var listing = section.dataset.events.replace(/\/events$/, "");

  var HIDDEN_GRACE_MS = 5000; // a hidden tab keeps its stream this long: quick switches keep it
  var HIDDEN_POLL_MS = 60000; // a hidden tab's look at the listing, holding no connection
  var RETRY_FIRST_MS = 1000; // the pause before opening a refused stream again, doubling...
  var RETRY_MAX_MS = 30000; // ...up to this
  var CATCH_UP_MAX = 200; // mail read back at most after a gap; past it a note says more came

  // receivedAt (Instant.toString: 0, 3, 6 or 9 digits of fraction) as text that sorts as the time
  function timeKey(iso) {
    var parts = /^([^.]*?)(?:\.(\d+))?Z$/.exec(iso);
    return parts ? parts[1] + "." + ((parts[2] || "") + "000000000").slice(0, 9) : iso;
  }

  function shown(id) {
    return list.querySelector('li[data-id="' + CSS.escape(id) + '"]') !== null;
  }

  // the time of the newest mail listed, or "" when the list is empty
  function newestShown() {
    var time = list.querySelector("li.message time");
    return time ? timeKey(time.dateTime) : "";
  }

  var title = document.title;
  var unseen = 0; // mail added while the tab is hidden, counted in its title

  // the first (newest) row received before `key`, or also at it if `orAt`; null if none is
  function firstBefore(key, orAt) {
    var rows = list.querySelectorAll("li.message");
    for (var i = 0; i < rows.length; i++) {
      var time = timeKey(rows[i].querySelector("time").dateTime);
      if (time < key || (orAt && time === key)) return rows[i];
    }
    return null;
  }

  // puts mail in the list above every mail received no later than it, so that the order does not
  // depend on which of the stream and the listing brought it first; false if it is there already
  function add(mail) {
    if (shown(mail.id)) return false;
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    list.insertBefore(row(mail), firstBefore(timeKey(mail.receivedAt), true));
    if (document.hidden) {
      unseen++;
      document.title = "(" + unseen + ") " + title;
    }
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

  // a note where the list has a gap: more mail came while the stream was down than was read back
  function noteGap(above) {
    var gap = document.createElement("li");
    gap.className = "gap";
    gap.textContent = "More than " + CATCH_UP_MAX + " messages came while live updates were"
        + " paused; the newest " + CATCH_UP_MAX + " are above. Reload the page to see them all.";
    list.insertBefore(gap, firstBefore(above, false));
  }

  // The mail received after `since` (a timeKey; "" for all), read from the listing newest first
  // until older mail or CATCH_UP_MAX, and put into the list oldest first. One at a time: a call
  // while one runs makes it run once more when it ends.
  var since = newestShown(); // what the list held when the stream was last known to be complete
  var catching = false;
  var catchUpAgain = false;

  function catchUp() {
    if (older) return;
    if (catching) {
      catchUpAgain = true;
      return;
    }
    catching = true;
    var from = since;
    var missed = [];
    var complete = false;
    function read(cursor) {
      // the first page is the inbox page's own size, which is most gaps; then larger ones
      var url = listing + (cursor ? "?limit=100&cursor=" + encodeURIComponent(cursor) : "");
      return fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
        .then(function (response) {
          if (!response.ok) throw new Error("listing answered " + response.status);
          return response.json();
        })
        .then(function (page) {
          for (var i = 0; i < page.messages.length; i++) {
            var mail = page.messages[i];
            var key = timeKey(mail.receivedAt);
            if (key < from || (key === from && shown(mail.id))) {
              complete = true;
              return;
            }
            if (missed.length === CATCH_UP_MAX) return;
            missed.push(mail);
          }
          if (!page.nextCursor) {
            complete = true;
            return;
          }
          return read(page.nextCursor);
        });
    }
    read(null)
      .then(function () {
        var last = null;
        for (var i = missed.length - 1; i >= 0; i--) {
          if (add(missed[i])) last = missed[i];
        }
        if (last) announce(last);
        if (!complete) noteGap(timeKey(missed[missed.length - 1].receivedAt));
        if (!events) since = newestShown(); // a hidden tab's look: the next starts from here
      })
      .catch(function () { /* the next (re)connection or look tries again */ })
      .then(function () {
        catching = false;
        if (catchUpAgain) {
          catchUpAgain = false;
          catchUp();
        }
      });
  }

  var events = null; // the open (or opening) stream, if any
  var retryTimer = null;
  var retries = 0;
  var hiddenTimer = null;
  var pollTimer = null;

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (events) return;
    var source = new EventSource(section.dataset.events);
    events = source;
    source.addEventListener("open", function () {
      retries = 0;
      document.body.dataset.live = "on";
      if (older) {
        live.replaceChildren(section.dataset.note + " ", newest);
      } else {
        live.textContent = "Live: new mail appears here without reloading.";
      }
      catchUp();
    });
    source.addEventListener("error", function () {
      if (source !== events) return;
      if (document.body.dataset.live === "on") since = newestShown();
      document.body.dataset.live = "off";
      if (source.readyState !== EventSource.CLOSED) {
        live.textContent = "Live updates paused; reconnecting\u2026";
        return;
      }
      // refused (a 502 from a proxy, a 503 from Burnbox): EventSource will not try again itself
      source.close();
      events = null;
      var pause = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, retries++));
      pause = pause / 2 + Math.random() * pause / 2; // pages refused together come back spread out
      live.textContent = "Live updates paused; trying again in "
          + Math.max(1, Math.round(pause / 1000)) + " s\u2026";
      retryTimer = setTimeout(function () {
        retryTimer = null;
        if (document.hidden) {
          sleep();
        } else {
          live.textContent = "Live updates paused; reconnecting\u2026";
          connect();
        }
      }, pause);
    });
    source.addEventListener("mail", function (event) {
      var mail = JSON.parse(event.data);
      if (older || add(mail)) announce(mail);
    });
  }

  // a tab hidden past the grace: no stream (it holds a connection), a look at the listing instead
  function sleep() {
    clearTimeout(hiddenTimer);
    hiddenTimer = null;
    clearTimeout(retryTimer);
    retryTimer = null;
    retries = 0;
    if (events) {
      if (document.body.dataset.live === "on") since = newestShown();
      events.close();
      events = null;
    }
    document.body.dataset.live = "off";
    live.textContent = "Live updates paused while this tab is hidden.";
    if (!pollTimer) pollTimer = setInterval(catchUp, HIDDEN_POLL_MS);
  }

  function visibilityChanged() {
    if (document.hidden) {
      if (!hiddenTimer && events) hiddenTimer = setTimeout(sleep, HIDDEN_GRACE_MS);
      return;
    }
    clearTimeout(hiddenTimer);
    hiddenTimer = null;
    clearInterval(pollTimer);
    pollTimer = null;
    unseen = 0;
    document.title = title;
    if (!events && !retryTimer) {
      live.textContent = "Live updates paused; reconnecting\u2026";
      connect();
    }
  }

  document.addEventListener("visibilitychange", visibilityChanged);
  connect();
  visibilityChanged(); // a tab opened in the background starts its grace now

  setInterval(function () {
    list.querySelectorAll("time").forEach(function (time) {
      time.textContent = age(time.dateTime);
    });
  }, 30000);
})();
