"""Hostile flavour overlays in every format (issue 39, item 8 and the review's unrun overlay attacks).

One party, made once with an overlay whose every flavour table holds one hostile entry (HTML and
script, Markdown links and images, spreadsheet formulas, Foundry enrichers, Roll20 syntax, template
syntax, a 160-character entry) and whose relation reasons, party name and member name are hostile
too, in every format chargen writes (json, yaml, csv, text, meg, foundry, foundry_npc, statblock,
html, pdf): the data formats keep the text as data, byte for byte; every other format keeps it
inert for the program that reads it. Foundry matches its enrichers in HTML's decoded text nodes and
Roll20 evaluates its syntax in any attribute sent to chat, so neither may hold ``[[``, ``@Word[``,
``&Word[``, ``@{``, ``%{``, ``&{``, ``?{`` or a URL (chargen.inert). Bidi and control
characters in an overlay are refused at its line (tests/test_flavour.py), as is an entry over 160.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import tinyhtml5
import yaml
from click.testing import CliRunner

from chargen.cli import cli
from chargen.formats import FORMATS
from chargen.inert import inert
from tests.test_statblock_markdown import FENCE, strings, unescape, unescaped_special

BASE = "http://127.0.0.1:9"
LONG = ("[[/r 1000d1000]] @UUID[Macro.x]{go} " * 5)[:160]
ENTRIES = {  # table -> its one entry
    "appearance": f"<script>alert(1)</script><img src={BASE}/i.png onerror=alert(2)>",
    "manner": f'=HYPERLINK("{BASE}/h","x")',
    "speech": "+cmd|' /C calc'!A0",
    "motive": f"[x](javascript:alert(1)) ![p]({BASE}/p.png) <{BASE}/a> [[secret]]",
    "secret": "[[/r 1000d1000]] and [[1000d1000]]",
    "hook": "@UUID[Macro.x]{click me} @Embed[Actor.y] @Check[type:will]",
    "quirk": "&Reference[str] @roll(/s 5) [[/check dex]]",
    "possession": "@{selected|token_id} %{x|y} &{template:default} {{name=x}} ?{q|1}",
    "fear": "{{ 7*7 }} {% for x in y %}x{% endfor %} ${7*7} #{7*7}",
    "rumour": LONG,
}
REASON = "[[/r 1d1000]] @UUID[Actor.z]{x} =1+1 <b>bold</b>"
PARTY_NAME = '=HYPERLINK("http://127.0.0.1:9/n","x") [[/r 1d6]] @{x}'
MEMBER = "=cmd|x ![p](http://127.0.0.1:9/m.png) <img src=x> [[/r 1d6]] @UUID[Macro.m]{m}"
FORMAT_NAMES = ("json", "yaml", "csv", "text", "meg", "foundry", "foundry_npc", "statblock", "html", "pdf")
# What Foundry (core and the systems' enrichers) and Roll20 take as live, written from their syntax:
LIVE = re.compile(r"\[\[|[@&][A-Za-z][\w.-]*[\[{(]|[@%&?]\{|https?://", re.I)
XHTML = "{http://www.w3.org/1999/xhtml}"
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def overlay() -> str:
    sets = "".join(f"      tables[id={t}].entries: [{{text: {quoted(e)}, weight: 1, source: default}}]\n"
                   for t, e in ENTRIES.items())
    reasons = "".join(f"      relations[id={k}].reasons: [{{text: {quoted(REASON)}, weight: 1, source: default}}]\n"
                      for k in ("debtor",))  # the fixed tie's kind: its reason is drawn from these
    return ("overlay: d100\nname: Hostile flavour\nchanges:\n  flavour:\n    set:\n" + sets + reasons +
            "    remove:\n      tables[id=appearance]: [variant_by, variants]\n"
            "      tables[id=possession]: [variant_by, variants]\n")


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("hostile-flavour")
    (base / "evil.yaml").write_text(overlay(), "utf-8")
    (base / "party.yaml").write_text(
        f"name: {quoted(PARTY_NAME)}\nsystem: d100\nseed: 5\nformats: [{', '.join(FORMAT_NAMES)}]\nmembers:\n"
        f"  - {{archetype: guard_sergeant, name: {quoted(MEMBER)}}}\n  - {{archetype: town_guard, count: 1}}\n"
        "relations:\n  draw: 0\n  fixed:\n    - {between: ['#0', '#1'], kind: debtor}\n", "utf-8")
    r = CliRunner().invoke(cli, ["party", str(base / "party.yaml"), "--rules", str(base / "evil.yaml"),
                                 "-o", str(base / "out"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return base / "out"


def test_every_format_chargen_writes_is_in_the_batch():
    assert set(FORMAT_NAMES) == set(FORMATS)


def test_the_overlay_reached_every_table_and_tie(out):
    docs = [json.loads(p.read_text("utf-8")) for p in sorted(out.glob("0*[0-9a-z].json"))
            if not p.name.endswith((".meg.json", ".foundry.json", ".foundry-npc.json"))]
    assert len(docs) == 2 and docs[0]["identity"]["name"] == MEMBER
    for doc in docs:  # json: the text as data, exactly as the overlay gives it
        assert {k: v["value"] for k, v in doc["flavour"].items()} == ENTRIES
        assert [r["reason"] for r in doc["relations"]] == [REASON]


def test_yaml_holds_the_text_as_data(out):
    for path in sorted(out.glob("0*.yaml")):
        doc = yaml.safe_load(path.read_text("utf-8"))
        assert {k: v["value"] for k, v in doc["flavour"].items()} == ENTRIES


def test_csv_cells_are_never_formulas(out):
    rows = list(csv.reader(io.StringIO((out / "roster.csv").read_text("utf-8-sig"))))
    for row in rows:
        for value in row:
            assert not value.startswith(FORMULA) or re.fullmatch(r"-?\d+(\.\d+)?", value), value
    head = rows[0]
    assert rows[1][head.index("manner")] == "'" + ENTRIES["manner"]
    assert rows[1][head.index("appearance")] == ENTRIES["appearance"]


def test_blocks_txt_is_plain_text_as_given(out):
    text = (out / "blocks.txt").read_text("utf-8")
    assert text.splitlines()[0] == MEMBER and ENTRIES["appearance"][:40] in text
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)


class _Text(HTMLParser):
    """The text nodes and elements of an HTML fragment, as a browser (and Foundry) decodes them."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.tags: set[str] = set()
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.texts.append(data)


def foundry_strings(actor: dict) -> list[str]:
    """Every string of an actor Foundry shows or enriches: all but its flags (the chargen document)."""
    return list(strings({k: v for k, v in actor.items() if k != "flags"}))


def html_fields(value, key: str = "") -> list[str]:
    """The HTML fields of an actor and its items (brp's biography, extDesc, description), flags left out."""
    if isinstance(value, dict):
        return [h for k, v in value.items() if k != "flags" for h in html_fields(v, k)]
    if isinstance(value, list):
        return [h for v in value for h in html_fields(v, key)]
    return [value] if key in ("biography", "extDesc", "description") and isinstance(value, str) else []


@pytest.mark.parametrize("fmt, suffix", [("foundry", ".foundry.json"), ("foundry_npc", ".foundry-npc.json")])
def test_foundry_actors_hold_no_live_enricher(out, fmt, suffix):
    actors = [json.loads(p.read_text("utf-8")) for p in sorted(out.glob(f"0*{suffix}"))]
    actors += json.loads((out / FORMATS[fmt].batch_file).read_text("utf-8"))
    for actor in actors:
        live = [s for s in foundry_strings(actor) if LIVE.search(s)]  # a name, an item: text Foundry escapes
        assert live == [], live[0][:120]
        for html in html_fields(actor):  # enriched: its decoded text nodes, its elements
            parsed = _Text(html)
            assert parsed.tags <= {"p", "strong"}, (parsed.tags, html[:80])
            live = [t for t in parsed.texts if LIVE.search(t)]
            assert live == [], live[0][:120]
        assert actor["flags"]["chargen"]["document"]["flavour"]["secret"]["value"] == ENTRIES["secret"]  # data
    field = "extDesc" if fmt == "foundry_npc" else "biography"
    shown = "".join(_Text(actors[0]["system"][field]).texts)
    assert "Secret: [ [/r 1000d1000]] and [ [1000d1000]]" in shown  # visible, readable, not a roll
    assert "Hook: @ UUID[Macro.x]{click me} @ Embed[Actor.y] @ Check[type:will]" in shown
    assert "Appearance: <script>alert(1)</script>" in shown  # escaped markup shows as text


def test_meg_npcs_hold_no_live_roll20_or_foundry_syntax(out):
    npcs = [n for p in sorted(out.glob("0*.meg.json")) for n in json.loads(p.read_text("utf-8"))]
    npcs += json.loads((out / "party.meg.json").read_text("utf-8"))
    for npc in npcs:
        live = [s for s in strings(npc) if LIVE.search(s)]
        assert live == [], live[0][:120]
    assert f"Possession: {inert(ENTRIES['possession'])}" in npcs[0]["features"]
    assert "Possession: @ {selected|token_id} % {x|y} & {template:default} {{name=x}} ? {q|1}" in npcs[0]["features"]


def test_statblock_notes_escape_every_markdown_character(out):
    for path in sorted(out.glob("0*.md")):
        block = yaml.safe_load(FENCE.search(path.read_text("utf-8"))[1])
        block["name"] = block["name"].rsplit(" ", 1)[0]
        bad = [s for s in strings(block) if unescaped_special(s)]
        assert bad == [], bad[0][:120]
        assert {t["name"]: unescape(t["desc"]) for t in block["flavour"] if t["name"] in ("Secret", "Rumour")} == \
            {"Secret": ENTRIES["secret"], "Rumour": LONG.strip()}


def test_html_sheets_and_index_hold_the_text_as_text(out):
    for page in [out / "index.html", *sorted(out.glob("0*.html"))]:
        root = tinyhtml5.parse(page.read_text("utf-8"), scripting=True)
        tags = {e.tag for e in root.iter() if isinstance(e.tag, str)}
        assert f"{XHTML}script" not in tags, page.name
        assert all(not (i.get("src") or "").startswith("http") for i in root.iter(f"{XHTML}img")), page.name
        for a in root.iter(f"{XHTML}a"):
            assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*|#.*", a.get("href")), a.get("href")
    sheet = "".join(tinyhtml5.parse(sorted(out.glob("0*.html"))[0].read_text("utf-8")).itertext())
    assert " ".join(ENTRIES["appearance"].split()) in " ".join(sheet.split())


def test_pdfs_hold_no_action_and_read_back_as_the_data(out, tmp_path):
    from pypdf import PdfReader

    for path in [out / "party.pdf", *sorted(out.glob("0*.pdf"))]:
        raw = path.read_bytes()
        assert b"/JavaScript" not in raw and b"/Launch" not in raw and b"/SubmitForm" not in raw, path.name
        for page in PdfReader(path).pages:
            for annot in page.get("/Annots") or []:
                uri = (annot.get_object().get("/A") or {}).get("/URI")
                assert uri is None or not str(uri).startswith(("http", "javascript", "file")), uri
    r = CliRunner().invoke(cli, ["render", str(out / "party.pdf"), "--format", "json", "-o", str(tmp_path / "back")])
    assert r.exit_code == 0, r.output
    docs = [json.loads(p.read_text("utf-8")) for p in sorted((tmp_path / "back").glob("0*.json"))]
    assert [{k: v["value"] for k, v in d["flavour"].items()} for d in docs] == [ENTRIES, ENTRIES]


@pytest.mark.parametrize("text, shown", [
    ("[[/r 1000d1000]]", "[ [/r 1000d1000]]"), ("[[[x]]]", "[ [ [x]]]"),
    ("@UUID[Macro.x]{click me}", "@ UUID[Macro.x]{click me}"), ("&Reference[str]", "& Reference[str]"),
    ("@{selected|token_id}", "@ {selected|token_id}"), ("&{template:default}", "& {template:default}"),
    ("%{a|b}", "% {a|b}"), ("?{q}", "? {q}"), ("see https://x.test/a", "see https: //x.test/a"),
    ("ulf@example.com, R&D, 50% [sic] {x}", "ulf@example.com, R&D, 50% [sic] {x}"), ("", "")])
def test_inert_breaks_each_live_sequence_visibly_and_nothing_else(text, shown):
    assert inert(text) == shown and inert(shown) == shown and not LIVE.search(shown)


@pytest.mark.parametrize("length, ok", [(160, True), (161, False), (100_000, False)])
def test_a_flavour_entry_is_at_most_160_characters(tmp_path, length, ok):
    path = tmp_path / "long.yaml"
    text = ("[[/r 1d6]] " * (length // 11 + 1))[:length - 1] + "x"
    path.write_text("overlay: d100\nname: Long\nchanges:\n  flavour:\n    set:\n"
                    f"      tables[id=quirk].entries: [{{text: {quoted(text)}, weight: 1, source: default}}]\n", "utf-8")
    r = CliRunner().invoke(cli, ["generate", "--rules", str(path), "--seed", "1", "--format", "meg"])
    if ok:
        assert r.exit_code == 0 and f"Quirk: {inert(' '.join(text.split()))}" in r.output, r.output[-300:]
    else:
        assert r.exit_code == 1 and r.output.startswith("Error: ") and f"text is {length} characters long (at most 160)" \
            in r.output and len(r.output) < 1000, r.output[:300]
