#!/usr/bin/env python3
"""Fails on a broken relative Markdown link: a [text](target) or ![alt](target) whose file does not
exist, or whose #anchor names no heading of the target Markdown file. Web links (scheme:...) are
not checked. Usage: check_links.py ROOT [PATH...]; PATHs (files or folders, relative to ROOT)
default to README.md and docs/. Standard library only."""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).*?\1")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files(root, paths):
    for p in paths:
        full = os.path.join(root, p)
        if not os.path.exists(full):
            sys.exit(f"check_links.py: {p} does not exist under {root}")
        if os.path.isfile(full):
            yield full
        for d, _, names in os.walk(full):
            for n in sorted(names):
                if n.endswith(".md"):
                    yield os.path.join(d, n)


def lines_outside_code(path):
    in_fence = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if not in_fence:
                yield number, CODE_SPAN.sub("", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        for _, line in lines_outside_code(path):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(1))
                n = seen.get(s, 0)
                found.add(s if n == 0 else f"{s}-{n}")
                seen[s] = n + 1
        cache[path] = found
    return cache[path]


def broken_links(path):
    for number, line in lines_outside_code(path):
        targets = [m.group(1) for m in LINK.finditer(line)]
        ref = REFERENCE.match(line)
        if ref:
            targets.append(ref.group(1))
        for target in targets:
            if SCHEME.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(dest):
                yield number, target, "no such file"
            elif anchor and dest.endswith(".md") and anchor.lower() not in anchors(dest):
                yield number, target, "no heading with this anchor"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    files = list(markdown_files(root, argv[2:] or ["README.md", "docs"]))
    bad = 0
    for path in files:
        for number, target, why in broken_links(path):
            print(f"{os.path.relpath(path, root)}:{number}: {target}: {why}")
            bad += 1
    if bad:
        print(f"{bad} broken link(s) in {len(files)} Markdown files; fix the path, or the anchor "
              "(a heading's text in lower case, spaces as hyphens)", file=sys.stderr)
        return 1
    print(f"{len(files)} Markdown files, no broken relative links")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
