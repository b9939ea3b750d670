#!/usr/bin/env python3
"""Sets translations in the locale catalogs (messages, account, market), wherever the msgid lives.

Usage (from the repository root):
  set-translation.py 'English msgid' 'ko=…' 'jp=…' …
  set-translation.py --json file.json      # {"English msgid": {"ko": "…", "jp": "…", …}, …}

Catalog changes are serialised: run `npm run i18n:extract` and this script inside one
`flock /tmp/bourse-i18n.lock sh -c '…'` when other people may be editing catalogs too."""
import glob, json, re, sys


def set_one(msgid, locale, text):
    escaped = msgid.replace('\\', '\\\\').replace('"', '\\"')
    pattern = re.compile(r'(msgid "' + re.escape(escaped) + r'"\nmsgstr )"[^\n]*"(\n"[^\n]*")*')
    value = text.replace('\\', '\\\\').replace('"', '\\"')
    found = 0
    for path in sorted(glob.glob(f'src/locales/{locale}/*.po')):
        source = open(path, encoding='utf-8').read()
        updated, count = pattern.subn(lambda m: m.group(1) + '"' + value + '"', source)
        if count:
            found += count
            open(path, 'w', encoding='utf-8').write(updated)
    if found == 0:
        sys.exit(f'src/locales/{locale}: no entry for {msgid!r} (run npm run i18n:extract first)')


if sys.argv[1] == '--json':
    table = json.load(open(sys.argv[2], encoding='utf-8'))
    for msgid, by_locale in table.items():
        for locale, text in by_locale.items():
            set_one(msgid, locale, text)
else:
    for pair in sys.argv[2:]:
        locale, text = pair.split('=', 1)
        set_one(sys.argv[1], locale, text)
