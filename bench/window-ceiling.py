#!/usr/bin/env python3
"""What per-message compression could reach on the unseen stream with more reference than a
trained dictionary: the ceiling behind issue 15's comparison with whole-stream xz.

The stream is StoreRatio's "unseen" one: easy-ham-2 and spam-2 alternating, the first 500 of each
group as history, the 1,796 later mails measured. Each measured mail is compressed on its own
(zstd, no checksum, no content size) with, as its reference:
  - a 448 KiB dictionary trained on the first 16 KiB of each history mail (the store's form);
  - the raw bytes of the 1 MiB of mail delivered just before it (a sliding window: every mail
    decodes against a different window, so reading one would need the mails before it);
  - a fixed window: the last 448 KiB, 1 MiB or 2 MiB of the history (a raw-content dictionary
    taken once, as a store could take one now and then).
Prints raw / compressed over the measured mails and the mean compressed bytes per mail.

Usage: python3 bench/window-ceiling.py [CORPUS_DIR]   (default bench/corpus; pip install zstandard)
About 2 minutes on one core; the sliding window at level 19 is most of it.
"""
import os
import sys

import zstandard as zs

corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")


def group(name):
    d = os.path.join(corpus, name)
    return [open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d)) if not f.startswith(".")]


ham, spam = group("easy-ham-2"), group("spam-2")
history, measured = [], []
for i in range(max(len(ham), len(spam))):
    for g in (ham, spam):
        if i < len(g):
            (history if i < 500 else measured).append(g[i])
raw = sum(map(len, measured))
print(f"history {len(history)} mails, measured {len(measured)} mails, {raw} bytes")


def report(label, compressed):
    print(f"{label}: raw / compressed {raw / compressed:.2f}, {compressed / len(measured):.0f} B a mail")


def compressor(dictionary, level):
    return zs.ZstdCompressor(level=level, dict_data=dictionary, write_content_size=False,
                             write_checksum=False, write_dict_id=False)


trained = zs.train_dictionary(448 << 10, [m[:16 << 10] for m in history], level=19)
for level in (6, 19):
    c = compressor(trained, level)
    report(f"trained 448 KiB dictionary, level {level}", sum(len(c.compress(m)) for m in measured))

stream = b"".join(history)
for size in (448 << 10, 1 << 20, 2 << 20):
    fixed = zs.ZstdCompressionDict(stream[-size:], dict_type=zs.DICT_TYPE_RAWCONTENT)
    for level in (6, 19):
        c = compressor(fixed, level)
        report(f"fixed window of the last {size >> 10} KiB of history, level {level}",
               sum(len(c.compress(m)) for m in measured))

window = bytearray(stream)
total = 0
for m in measured:
    reference = zs.ZstdCompressionDict(bytes(window[-(1 << 20):]), dict_type=zs.DICT_TYPE_RAWCONTENT)
    total += len(compressor(reference, 19).compress(m))
    window += m
report("sliding window of the 1 MiB just before each mail, level 19", total)
