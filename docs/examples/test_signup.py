"""A sign-up test against Burnbox, in Python with the standard library only.

Runs with `python3 docs/examples/test_signup.py -v` (or `pytest`, which collects it too) against a
Burnbox on BURNBOX_SMTP_PORT and BURNBOX_HTTP_PORT of 127.0.0.1 (defaults 2525 and 8080). It plays
the application too: it sends the sign-up mail over SMTP, then waits for it through the JSON API
and follows its verification link and reads its code, as a test of your own application would.
"""

import datetime
import json
import os
import smtplib
import unittest
import urllib.parse
import urllib.request
from email.message import EmailMessage

SMTP_PORT = int(os.environ.get("BURNBOX_SMTP_PORT", "2525"))
API = "http://127.0.0.1:%s/api/v1" % os.environ.get("BURNBOX_HTTP_PORT", "8080")


def get(path):
    with urllib.request.urlopen(API + path, timeout=40) as response:
        return response.status, json.loads(response.read() or b"null")


def sign_up(address):
    """The application under test: its sign-up mail, with a link and a code."""
    mail = EmailMessage()
    mail["From"] = "no-reply@app.example"
    mail["To"] = address
    mail["Subject"] = "Verify your address"
    mail.set_content("Your code is 604112.")
    mail.add_alternative(
        '<p>Your code is <b>604112</b>.</p>'
        '<p><a href="https://app.example/verify?token=abc&amp;user=ann">Verify</a></p>',
        subtype="html",
    )
    with smtplib.SMTP("127.0.0.1", SMTP_PORT) as smtp:
        smtp.send_message(mail)


class SignUpTest(unittest.TestCase):
    def test_the_sign_up_mail_has_a_verification_link_and_a_code(self):
        since = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        sign_up("ann.py@burnbox.test")

        query = urllib.parse.urlencode({"since": since, "subject": "verify", "timeout": "30s"})
        status, mail = get("/inboxes/ann.py/next?" + query)
        self.assertEqual(status, 200)
        _, links = get("/messages/%s/links" % mail["id"])
        _, codes = get("/messages/%s/codes" % mail["id"])

        self.assertEqual(links["links"][0]["url"], "https://app.example/verify?token=abc&user=ann")
        self.assertEqual(codes["codes"][0]["value"], "604112")


if __name__ == "__main__":
    unittest.main()
