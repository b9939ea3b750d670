#!/usr/bin/env python3
"""Sets the translation of one message in each locale catalog.
Usage: set-translation.py 'English msgid' 'ko=…' 'jp=…' …  (run from the repository root)"""
import re, sys

msgid = sys.argv[1]
for pair in sys.argv[2:]:
    locale, text = pair.split('=', 1)
    path = f'src/locales/{locale}/messages.po'
    source = open(path, encoding='utf-8').read()
    escaped = msgid.replace('\\', '\\\\').replace('"', '\\"')
    pattern = re.compile(r'(msgid "' + re.escape(escaped) + r'"\nmsgstr )"[^\n]*"')
    value = text.replace('\\', '\\\\').replace('"', '\\"')
    updated, count = pattern.subn(lambda m: m.group(1) + '"' + value + '"', source)
    if count != 1:
        sys.exit(f'{path}: found {count} entries for {msgid!r}')
    open(path, 'w', encoding='utf-8').write(updated)
