#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The identity that mails of the series are sent as.

  mail-identity.py ident
      Print the sender, "Name <address>": $AUTHOR if set, else git config
      user.name and user.email. Exit 1 with a one-line message on stdout when
      it is unset, malformed or a placeholder (an address in a reserved
      domain: .example, .invalid, .test, .localhost, example.com/.net/.org).

  mail-identity.py rewrite IDENT MAIL...
      In each git format-patch MAIL, in place: if its From: is a placeholder,
      put IDENT in its place in From:, in the Signed-off-by: trailers, in the
      cover letter's shortlog and in the Message-Id, In-Reply-To and
      References headers. A mail from a real identity is left as it is.
"""
import email.header
import email.utils
import os
import re
import subprocess
import sys

RESERVED = (".example", ".invalid", ".test", ".localhost")
HOW = ("set git config user.name and user.email, "
       "or AUTHOR='Your Name <you@your.domain>'")


def problem(name, addr):
    """Why NAME <ADDR> cannot sign a mail, or None."""
    if not name or not addr:
        return "no sender identity"
    if not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+", addr):
        return f"sender address '{addr}' is not an address"
    domain = addr.rsplit("@", 1)[1].lower().rstrip(".")
    if domain.endswith(RESERVED) or domain in ("example", "invalid", "test", "localhost") or \
            re.fullmatch(r"(.*\.)?example\.(com|net|org)", domain):
        return f"sender address '{addr}' is a placeholder (reserved domain {domain})"
    return None


def git_config(key):
    try:
        return subprocess.run(["git", "config", key], capture_output=True, text=True,
                              check=False).stdout.strip()
    except OSError:
        return ""


def ident():
    author = os.environ.get("AUTHOR", "")
    if author:
        name, addr = email.utils.parseaddr(author)
        src = f"AUTHOR='{author}'"
        if not name.strip() or "@" not in addr:
            print(f"{src} is not an address with a name, 'Name <address>': {HOW}")
            return 1
    else:
        name, addr = git_config("user.name"), git_config("user.email")
        src = "git config user.name/user.email"
    why = problem(name.strip(), addr.strip())
    if why:
        print(f"{why} ({src}): {HOW}")
        return 1
    print(f"{name.strip()} <{addr.strip()}>")
    return 0


def header_from(mail):
    """The From: header of MAIL (continuation lines joined), decoded."""
    lines = mail.split("\n")
    for i, line in enumerate(lines):
        if line == "":
            break
        if line.startswith("From: "):
            value = line[6:]
            for cont in lines[i + 1:]:
                if not cont[:1] in (" ", "\t"):
                    break
                value += " " + cont.strip()
            value = str(email.header.make_header(email.header.decode_header(value)))
            return email.utils.parseaddr(value)
    return ("", "")


def rewrite(new, path):
    with open(path, encoding="utf-8") as f:
        mail = f.read()
    old_name, old_addr = header_from(mail)
    if not old_addr:
        print(f"{path}: no From: header")
        return 1
    if not problem(old_name, old_addr):
        return 0
    new_name, new_addr = email.utils.parseaddr(new)
    head, sep, body = mail.partition("\n\n")
    out = []
    skip = False
    for line in head.split("\n"):
        if skip and line[:1] in (" ", "\t"):
            continue
        skip = False
        if line.startswith("From: "):
            out.append("From: " + email.utils.formataddr((new_name, new_addr), charset="utf-8"))
            skip = True
            continue
        if re.match(r"(Message-Id|In-Reply-To|References): ", line, re.I):
            line = line.replace(old_addr, new_addr)
        out.append(line)
    old_id, new_id = f"{old_name} <{old_addr}>", f"{new_name} <{new_addr}>"
    body = body.replace(f"Signed-off-by: {old_id}", f"Signed-off-by: {new_id}")
    body = re.sub(r"^" + re.escape(old_name) + r"( \(\d+\):)$", lambda m: new_name + m.group(1),
                  body, flags=re.M)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + sep + body)
    return 0


def main(argv):
    if argv[1:2] == ["ident"] and len(argv) == 2:
        return ident()
    if argv[1:2] == ["rewrite"] and len(argv) >= 4:
        why = problem(*(s.strip() for s in email.utils.parseaddr(argv[2])))
        if why:
            print(f"{why}: {HOW}")
            return 1
        return max(rewrite(argv[2], p) for p in argv[3:])
    print("usage: mail-identity.py ident | rewrite IDENT MAIL...")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
