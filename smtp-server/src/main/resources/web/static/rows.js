// What the inbox and monitor pages share to build the rows of mail they add themselves: a row's
// text from mail (isolated, as Html.isolated on the server) and its spam verdict (listed, the same
// markup as SpamHtml.listed). Loaded before the script that uses it, as BurnboxRows. Text from mail
// and models is only ever set with textContent, never parsed as HTML.
var BurnboxRows = (function () {
  "use strict";

  function span(className, text) {
    var element = document.createElement("span");
    element.className = className;
    element.textContent = text;
    return element;
  }

  // text from mail as the server shows it (Html.isolated): without bidi controls, in a <bdi>
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

  var LISTED_TERMS = 5; // SpamScanner.VERDICT_TERMS: the most terms shown beside a badge

  // the same as SpamHtml.listed: the badge and, for spam, its terms shown beside it, read out after
  // it as "for the words viagra, casino"; null for mail that was never scanned
  function listed(spam) {
    if (!spam || !scanned(spam)) return null;
    var line = document.createElement("span");
    line.className = "spam-line";
    line.append(badge(spam));
    if (spam.spam && spam.terms.length > 0) {
      var terms = span("spam-terms", "");
      terms.append(span("visually-hidden", "for the words "),
                   spam.terms.slice(0, LISTED_TERMS).join(", "));
      line.append(" ", terms);
    }
    return line;
  }

  return { isolated: isolated, listed: listed };
})();
