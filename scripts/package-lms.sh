#!/usr/bin/env bash
# Course packages for learning management systems (docs/lms.md), from the release build:
#
#   scripts/package-lms.sh [--title T] [--lang en|ko|th] [--id-base IRI] [LESSON...]
#
# writes dist-lms/eos-playground-scorm12.zip (SCORM 1.2: imsmanifest.xml, one SCO a
# lesson) and dist-lms/eos-playground-cmi5.zip (cmi5: cmi5.xml, one AU a lesson), each
# with the whole site inside (dist/, and dist/pulsar/ when a Pulsar lesson is in it), the
# launch page www/lms.html and its adapter www/lms.js. Every URL in them is relative.
#
# LESSON...   lessons by name (`eos lessons`), in the order given; default: the whole
#             course in course order. An unknown name stops the script and is named.
# --title T   the course's title in the LMS (default "Exactly-once playground").
# --lang L    the language of the lesson titles in the packages, and of the lessons
#             themselves (lang=L in every launch URL); default: titles in English (cmi5
#             also carries the Korean and Thai ones), the learner's browser picks.
# --id-base   the IRI the course, AU and question ids start with (default
#             urn:eos-playground:). Keep it fixed across versions of a course: an LMS
#             and an LRS know a lesson by its id.
#
# Nothing is downloaded. A missing dist/ (or dist/pulsar/) is built with trunk first.
# The manifest and cmi5.xml are parsed back and checked before anything is zipped.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/.tools/node_modules/.bin:$PATH"

die() {
  echo "package-lms.sh: $*" >&2
  exit 1
}

title="Exactly-once playground"
lang=""
id_base="urn:eos-playground:"
lessons=()
while [ $# -gt 0 ]; do
  case "$1" in
    --title)
      [ $# -ge 2 ] && [ -n "$2" ] || die "--title needs a title"
      title=$2
      shift 2
      ;;
    --lang)
      [ $# -ge 2 ] || die "--lang needs en, ko or th"
      case "$2" in en | ko | th) lang=$2 ;; *) die "--lang $2: choose en, ko or th" ;; esac
      shift 2
      ;;
    --id-base)
      [ $# -ge 2 ] && [[ "$2" =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] || die "--id-base needs an IRI (scheme:...)"
      id_base=$2
      shift 2
      ;;
    -h | --help)
      sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*) die "unknown option $1 (see --help)" ;;
    *)
      lessons+=("$1")
      shift
      ;;
  esac
done

# The course, as the engine lists it: name, site, module, minutes, questions, titles.
if [ -n "${EOS_BIN:-}" ]; then
  course_tsv=$("$EOS_BIN" lessons --tsv)
else
  course_tsv=$(cargo run --quiet --bin eos -- lessons --tsv)
fi
[ -n "$course_tsv" ] || die "eos lessons --tsv listed nothing"

# Names first, so a typo stops the script before any build.
for name in "${lessons[@]}"; do
  cut -f1 <<<"$course_tsv" | grep -qxF -- "$name" ||
    die "no lesson named \"$name\"; the lessons: $(cut -f1 <<<"$course_tsv" | paste -sd' ')"
done
needs_pulsar=no
if [ ${#lessons[@]} -eq 0 ]; then
  needs_pulsar=yes
else
  for name in "${lessons[@]}"; do
    [ "$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' <<<"$course_tsv")" = pulsar ] && needs_pulsar=yes
  done
fi

if [ ! -f dist/index.html ]; then
  echo "package-lms.sh: no dist/index.html: trunk build --release"
  trunk build --release
fi
if [ "$needs_pulsar" = yes ] && [ ! -f dist/pulsar/index.html ]; then
  echo "package-lms.sh: no dist/pulsar/index.html: trunk build www/pulsar.html --release --dist dist/pulsar"
  trunk build www/pulsar.html --release --dist dist/pulsar
fi

mkdir -p dist-lms
COURSE_TSV=$course_tsv TITLE=$title LANG_CODE=$lang ID_BASE=$id_base \
  python3 - "${lessons[@]}" <<'PY'
import hashlib, json, os, sys, zipfile
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

MASTERY = 80  # percent of a lesson's questions answered right to pass (docs/lms.md)
LANGS = ["en", "ko", "th"]
XML_LANG = {"en": "en-US", "ko": "ko-KR", "th": "th-TH"}
# A lesson's length and question count, as its description in the LMS says them.
LENGTH = {"en": "%d min, %d questions", "ko": "%d분, 질문 %d개", "th": "%d นาที, %d คำถาม"}

def fail(msg):
    sys.exit("package-lms.sh: " + msg)

rows = {}
order = []
for line in os.environ["COURSE_TSV"].splitlines():
    f = line.split("\t")
    if len(f) != 11:
        fail("eos lessons --tsv: a line without 11 fields: %r" % line)
    name, site, module, minutes, questions = f[0], f[1], f[2], int(f[3]), int(f[4])
    rows[name] = dict(name=name, site=site, module=module, minutes=minutes,
                      questions=questions, title=dict(zip(LANGS, f[5:8])),
                      module_title=dict(zip(LANGS, f[8:11])))
    order.append(name)
picked = sys.argv[1:] or order
if len(set(picked)) != len(picked):
    fail("a lesson is named twice: " + " ".join(picked))
title, lang, id_base = (os.environ[k] for k in ("TITLE", "LANG_CODE", "ID_BASE"))
shown = lang or "en"
lessons = [rows[n] for n in picked]
pulsar = any(l["site"] == "pulsar" for l in lessons)
digest = hashlib.sha256(("\n".join([title] + picked)).encode()).hexdigest()[:12]
course_id = "%scourse:%s" % (id_base, digest)
for l in lessons:
    l["au"] = "%slesson:%s" % (id_base, l["name"])
    l["url"] = "lms.html?lesson=%s%s" % (l["name"], "&lang=" + lang if lang else "")

# Modules in the order their first lesson comes.
modules = []
for l in lessons:
    if not modules or modules[-1]["key"] != l["module"]:
        modules.append(dict(key=l["module"], title=l["module_title"], lessons=[]))
    modules[-1]["lessons"].append(l)

# ---- The site's files: dist/ (without the chaos search and the embedding demos), the
# Pulsar site when a Pulsar lesson needs it, the launch page and its adapter.
def site_files():
    out = []
    for root, dirs, files in os.walk("dist"):
        rel_root = os.path.relpath(root, "dist")
        dirs[:] = sorted(d for d in dirs if not (rel_root == "." and (d == "chaos" or (d == "pulsar" and not pulsar))))
        for f in sorted(files):
            rel = os.path.normpath(os.path.join(rel_root, f)).replace(os.sep, "/")
            if rel.startswith("embed-demo") or rel == "lms.html" or rel.startswith("lms"):
                continue
            out.append((os.path.join(root, f), rel))
    return out

course_js = "window.eosCourse = %s;\n" % json.dumps({
    "title": title,
    "masteryScore": MASTERY / 100,
    "lessons": {l["name"]: {"site": l["site"], "questions": l["questions"], "title": l["title"], "au": l["au"]} for l in lessons},
}, ensure_ascii=False, indent=1)
adapter = [("www/lms.html", "lms.html"), ("www/lms.js", "lms.js")]
files = site_files()
if not any(rel == "index.html" for _, rel in files):
    fail("dist/index.html is missing")
if pulsar and not any(rel == "pulsar/index.html" for _, rel in files):
    fail("dist/pulsar/index.html is missing (a Pulsar lesson is in the package)")

# ---- SCORM 1.2: imsmanifest.xml (IMS Content Packaging 1.1.2 with ADL's adlcp).
def manifest():
    x = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<manifest identifier=%s version="1.0"' % quoteattr("eos-playground-" + digest),
         '  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"',
         '  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"',
         '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
         '  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd'
         ' http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd'
         ' http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">',
         '  <metadata>', '    <schema>ADL SCORM</schema>', '    <schemaversion>1.2</schemaversion>', '  </metadata>',
         '  <organizations default="course">',
         '    <organization identifier="course">',
         '      <title>%s</title>' % escape(title)]
    for i, m in enumerate(modules):
        x.append('      <item identifier="module-%d-%s">' % (i + 1, m["key"]))
        x.append('        <title>%s</title>' % escape(m["title"][shown]))
        for l in m["lessons"]:
            x.append('        <item identifier="item-%s" identifierref="sco-%s" isvisible="true">' % (l["name"], l["name"]))
            x.append('          <title>%s</title>' % escape(l["title"][shown]))
            if l["questions"]:
                x.append('          <adlcp:masteryscore>%d</adlcp:masteryscore>' % MASTERY)
            x.append('        </item>')
        x.append('      </item>')
    x += ['    </organization>', '  </organizations>', '  <resources>']
    for l in lessons:
        x.append('    <resource identifier="sco-%s" type="webcontent" adlcp:scormtype="sco" href=%s>' % (l["name"], quoteattr(l["url"])))
        x.append('      <file href="lms.html"/>')
        x.append('      <dependency identifierref="site"/>')
        x.append('    </resource>')
    x.append('    <resource identifier="site" type="webcontent" adlcp:scormtype="asset">')
    for _, rel in adapter[1:] + [(None, "lms-course.js")] + files:
        x.append('      <file href=%s/>' % quoteattr(rel))
    x += ['    </resource>', '  </resources>', '</manifest>', '']
    return "\n".join(x)

# ---- cmi5: cmi5.xml (the course structure of cmi5, Quartz edition, section 13).
CS = "https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"
def langstrings(texts, indent):
    pick = [shown] if lang else [l for l in LANGS if texts.get(l)]
    return "\n".join('%s<langstring lang="%s">%s</langstring>' % (indent, XML_LANG[g], escape(texts[g])) for g in pick)
def cmi5():
    x = ['<?xml version="1.0" encoding="utf-8"?>',
         '<courseStructure xmlns="%s">' % CS,
         '  <course id=%s>' % quoteattr(course_id),
         '    <title><langstring lang="%s">%s</langstring></title>' % (XML_LANG[shown], escape(title)),
         '    <description><langstring lang="%s">%s</langstring></description>' % (
             XML_LANG[shown], escape("%d lessons of the exactly-once playground: %s." % (len(lessons), ", ".join(picked)))),
         '  </course>']
    for m in modules:
        x.append('  <block id=%s>' % quoteattr("%smodule:%s" % (id_base, m["key"])))
        x.append('    <title>\n%s\n    </title>' % langstrings(m["title"], "      "))
        x.append('    <description>\n%s\n    </description>' % langstrings(m["title"], "      "))
        for l in m["lessons"]:
            attrs = 'id=%s moveOn="%s"' % (quoteattr(l["au"]), "CompletedAndPassed" if l["questions"] else "Completed")
            if l["questions"]:
                attrs += ' masteryScore="%.2f"' % (MASTERY / 100)
            attrs += ' launchMethod="AnyWindow"'
            x.append('    <au %s>' % attrs)
            x.append('      <title>\n%s\n      </title>' % langstrings(l["title"], "        "))
            desc = {g: "%s (%s)" % (l["title"][g], LENGTH[g] % (l["minutes"], l["questions"])) for g in LANGS}
            x.append('      <description>\n%s\n      </description>' % langstrings(desc, "        "))
            x.append('      <url>%s</url>' % escape(l["url"]))
            x.append('    </au>')
        x.append('  </block>')
    x += ['</courseStructure>', '']
    return "\n".join(x)

# ---- Our own checks of what we wrote: well-formed, and the structure each standard asks
# for (the XSDs cannot be fetched here, so their rules that matter are asserted).
def check_manifest(text, names):
    ns = {"cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "adlcp": "http://www.adlnet.org/xsd/adlcp_rootv1p2"}
    try:
        root = ET.fromstring(text.encode())
    except ET.ParseError as e:
        fail("imsmanifest.xml does not parse: %s" % e)
    def need(cond, what):
        if not cond:
            fail("imsmanifest.xml: " + what)
    need(root.tag == "{%s}manifest" % ns["cp"], "the root is not an IMS CP manifest")
    need(root.findtext("cp:metadata/cp:schema", namespaces=ns) == "ADL SCORM", "metadata/schema is not ADL SCORM")
    need(root.findtext("cp:metadata/cp:schemaversion", namespaces=ns) == "1.2", "schemaversion is not 1.2")
    orgs = root.find("cp:organizations", ns)
    org = orgs.findall("cp:organization", ns)
    need(len(org) == 1 and orgs.get("default") == org[0].get("identifier"), "not one default organization")
    ids = [e.get("identifier") for e in root.iter() if e.get("identifier")]
    need(len(ids) == len(set(ids)), "identifiers repeat")
    resources = {r.get("identifier"): r for r in root.findall("cp:resources/cp:resource", ns)}
    leaves = [i for i in org[0].iter("{%s}item" % ns["cp"]) if i.get("identifierref")]
    need([i.get("identifier")[len("item-"):] for i in leaves] == names, "the items are not the lessons in order")
    for item in leaves:
        need(item.findtext("cp:title", namespaces=ns), "an item without a title")
        res = resources.get(item.get("identifierref"))
        need(res is not None, "item %s refers to no resource" % item.get("identifier"))
        need(res.get("{%s}scormtype" % ns["adlcp"]) == "sco", "resource %s is not a sco" % res.get("identifier"))
        href = res.get("href", "")
        need(href.startswith("lms.html?lesson=") and "://" not in href, "resource %s: href %r" % (res.get("identifier"), href))
        ms = item.findtext("adlcp:masteryscore", namespaces=ns)
        need(ms is None or 0 <= int(ms) <= 100, "masteryscore %r" % ms)
    return [f.get("href") for f in root.iter("{%s}file" % ns["cp"])]

def check_cmi5(text, names):
    try:
        root = ET.fromstring(text.encode())
    except ET.ParseError as e:
        fail("cmi5.xml does not parse: %s" % e)
    def need(cond, what):
        if not cond:
            fail("cmi5.xml: " + what)
    q = lambda t: "{%s}%s" % (CS, t)
    need(root.tag == q("courseStructure"), "the root is not a cmi5 courseStructure")
    course = root.find(q("course"))
    need(course is not None and course.get("id") and [c.tag for c in course] == [q("title"), q("description")],
         "course needs an id, then title and description")
    aus = list(root.iter(q("au")))
    need([a.get("id").rsplit(":", 1)[-1] for a in aus] == names, "the AUs are not the lessons in order")
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    need(len(ids) == len(set(ids)), "ids repeat")
    for e in [course] + list(root.iter(q("block"))) + aus:
        need(e.get("id") and ":" in e.get("id"), "an id that is not an IRI: %r" % e.get("id"))
        for t in ("title", "description"):
            ls = e.findall("%s/%s" % (q(t), q("langstring")))
            need(ls and all(s.text and s.get("lang") for s in ls), "%s of %s needs langstrings" % (t, e.get("id")))
    for a in aus:
        tags = [c.tag for c in a]
        need(tags == [q("title"), q("description"), q("url")], "au %s: title, description, url in order" % a.get("id"))
        need(a.get("moveOn") in ("Passed", "Completed", "CompletedAndPassed", "CompletedOrPassed", "NotApplicable"), "moveOn")
        ms = a.get("masteryScore")
        need(ms is None or 0 <= float(ms) <= 1, "masteryScore %r" % ms)
        need((a.get("moveOn") == "CompletedAndPassed") == (ms is not None), "au %s: a mastery score exactly where it is passed" % a.get("id"))
        need(a.get("launchMethod") in ("AnyWindow", "OwnWindow"), "launchMethod")
        url = a.findtext(q("url"))
        need(url.startswith("lms.html?lesson=") and "://" not in url, "au %s: url %r is not relative" % (a.get("id"), url))

def write_zip(path, entries):
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in entries:
            info = zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    with zipfile.ZipFile(tmp) as z:
        bad = z.testzip()
        if bad:
            fail("%s: %s is damaged" % (path, bad))
    os.replace(tmp, path)

read = lambda p: open(p, "rb").read()
common = [(rel, read(src)) for src, rel in files] + [(arc, read(src)) for src, arc in adapter] + [("lms-course.js", course_js.encode())]

text = manifest()
listed = check_manifest(text, picked)
names_in_zip = {arc for arc, _ in common}
missing = [f for f in listed if f not in names_in_zip]
if missing:
    fail("imsmanifest.xml lists files the package lacks: " + ", ".join(missing[:5]))
write_zip("dist-lms/eos-playground-scorm12.zip", [("imsmanifest.xml", text.encode())] + common)

text = cmi5()
check_cmi5(text, picked)
write_zip("dist-lms/eos-playground-cmi5.zip", [("cmi5.xml", text.encode())] + common)

size = lambda p: os.path.getsize(p) / 1e6
print("package-lms.sh: %d lessons (%s)%s" % (len(picked), ", ".join(picked), ", with the Pulsar site" if pulsar else ""))
print("  dist-lms/eos-playground-scorm12.zip  %.1f MB  (imsmanifest.xml checked)" % size("dist-lms/eos-playground-scorm12.zip"))
print("  dist-lms/eos-playground-cmi5.zip     %.1f MB  (cmi5.xml checked)" % size("dist-lms/eos-playground-cmi5.zip"))
PY
