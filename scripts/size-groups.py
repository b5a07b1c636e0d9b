#!/usr/bin/env python3
"""Where an optimized wasm's bytes go, by part of the program (docs/size.md).

Usage: scripts/size-groups.py FILE.wasm

FILE.wasm must keep its function names: the cargo wasm after `wasm-bindgen --target web`
and `wasm-opt -Oz -g` (Trunk runs `wasm-opt -Oz` without `-g`, which drops them). Every
function body is put in a group by its demangled name; the data segments are one group.
Each group is compressed alone (zlib -9, the same deflate as gzip -9); the groups' sizes
are then scaled so that they add up to the whole file's, since one group compresses
better next to the others. Prints a table: group, raw KB, gzip KB.
"""

import collections
import re
import sys
import zlib


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def sections(b):
    i = 8
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        yield sid, i, i + size
        i += size


def read(path):
    b = open(path, "rb").read()
    imported, names, bodies, data = 0, {}, [], b""
    for sid, s, e in sections(b):
        if sid == 2:  # imports: functions among them shift the function indexes
            n, j = leb(b, s)
            for _ in range(n):
                for _ in range(2):
                    length, j = leb(b, j)
                    j += length
                kind = b[j]
                j += 1
                if kind == 0:
                    _, j = leb(b, j)
                    imported += 1
                elif kind in (1, 2):
                    j += 1 if kind == 1 else 0
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 3:
                    j += 2
        elif sid == 10:
            n, j = leb(b, s)
            for _ in range(n):
                length, j = leb(b, j)
                bodies.append(b[j : j + length])
                j += length
        elif sid == 11:
            data += b[s:e]
        elif sid == 0:
            length, j = leb(b, s)
            if b[j : j + length] != b"name":
                continue
            j += length
            while j < e:
                sub = b[j]
                size, j = leb(b, j + 1)
                end = j + size
                if sub == 1:
                    n, k = leb(b, j)
                    for _ in range(n):
                        idx, k = leb(b, k)
                        length, k = leb(b, k)
                        names[idx] = b[k : k + length].decode("utf8", "replace")
                        k += length
                j = end
    return [(names.get(imported + k, "?"), body) for k, body in enumerate(bodies)], data


ESCAPES = [
    ("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$C$", ","), ("$RF$", "&"),
    ("$LP$", "("), ("$RP$", ")"), ("$BP$", "*"), ("$u7b$", "{"), ("$u7d$", "}"),
    ("$u5b$", "["), ("$u5d$", "]"), ("$u27$", "'"), ("$u3b$", ";"), ("$u21$", "!"),
    ("..", "::"),
]


def demangle(name):
    """Rust's legacy mangling (`_ZN…E`), enough to read the path."""
    if not name.startswith("_ZN"):
        return name
    i, parts = 3, []
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        length = int(name[i:j])
        parts.append(name[j : j + length])
        i = j + length
    out = "::".join(parts)
    for code, char in ESCAPES:
        out = out.replace(code, char)
    return out.lstrip("_")


def group(name):
    n = demangle(name)
    if "drop_in_place" in n:
        return "(drop glue)"
    # Yew inlines a function component's body into its generic view(): count it as ours.
    if re.search(r"CompStateInner.*::view|FunctionProvider.*::run", n):
        return "ui: components (render code)"
    m = re.search(r"eos_playground::(ui::components|ui|[a-z_0-9]+)", n)
    if m:
        top = m.group(1)
        if top == "ui::components":
            return "ui: components (render code)"
        if top == "ui":
            return "ui: pages, state, links, embed"
        return "engine: " + top
    if re.search(r"fmt::|::fmt$", n):
        return "core::fmt"
    if "yew" in n or "implicit_clone" in n:
        return "yew (framework)"
    if re.search(r"web_sys|js_sys|wasm_bindgen|gloo", n):
        return "wasm-bindgen, js-sys, web-sys, gloo"
    if "dlmalloc" in n:
        return "std: allocator"
    if re.search(r"hashbrown|HashMap", n):
        return "std: HashMap"
    return "std, core, alloc (generic: iterators, Vec, Rc, …)"


def main():
    functions, data = read(sys.argv[1])
    groups = collections.defaultdict(list)
    for name, body in functions:
        groups[group(name)].append(body)
    groups["(data: strings, tables)"] = [data]
    joined = {k: b"".join(v) for k, v in groups.items()}
    alone = {k: len(zlib.compress(v, 9)) for k, v in joined.items()}
    whole = len(zlib.compress(b"".join(joined.values()), 9))
    scale = whole / sum(alone.values())
    print("| part | raw KB | gzip KB |")
    print("|---|---:|---:|")
    for k in sorted(joined, key=lambda k: -alone[k]):
        print("| %s | %.1f | %.1f |" % (k, len(joined[k]) / 1024, alone[k] * scale / 1024))
    raw = sum(len(v) for v in joined.values())
    print("| total (code and data) | %.1f | %.1f |" % (raw / 1024, whole / 1024))


if __name__ == "__main__":
    main()
