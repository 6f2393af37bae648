#!/usr/bin/env python3
"""Reads an XWD screen dump (xwd -root) on stdin, prints how many distinct
pixel values it holds: 1 means a blank screen."""
import struct, sys
d = sys.stdin.buffer.read()
hsize, _, _, depth, w, h = struct.unpack(">6I", d[:24])
bpl, ncolors = struct.unpack(">I", d[48:52])[0], struct.unpack(">I", d[76:80])[0]
px = d[hsize + ncolors * 12:]
bpp = struct.unpack(">I", d[44:48])[0] // 8 or 4
seen = set()
for y in range(0, h, 4):
    row = px[y * bpl:(y * bpl) + w * bpp]
    for x in range(0, len(row), bpp * 4):
        seen.add(row[x:x + bpp])
print(len(seen))
