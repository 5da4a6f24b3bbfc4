"""Hostile YAML: every case is one clear RulesError, with bounded work (the limits, not a clock)."""

import os

import pytest

from chargen.errors import RulesError
from chargen.rules import yamlio
from chargen.rules.yamlio import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, load_file, load_text

PLAIN = "(plain YAML only: mappings, lists, text, numbers, true/false)"


def error_of(text: str) -> str:
    with pytest.raises(RulesError) as e:
        load_text(text, "f.yaml")
    assert len(e.value.problems) == 1
    return e.value.problems[0]


def test_alias_bomb_of_256_bytes_stops_at_the_node_limit():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]"
              for i in range(1, 9)]
    text = "\n".join(lines)[:1000]
    assert len(text) < 800  # a few hundred bytes that would expand to 8^8 * 10 items
    assert error_of(text) == (f"f.yaml:1: too many YAML nodes (more than {MAX_NODES}, counting aliases; "
                              "an alias bomb?)")


def test_small_alias_bomb_under_256_bytes():
    text = "a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" \
           "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    assert len(text) <= 256
    assert "too many YAML nodes" in error_of(text)


@pytest.mark.parametrize("text", ["[" * 10_000 + "]" * 10_000, "a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 60))])
def test_deep_nesting_is_an_error_not_a_recursion_error(text):
    assert error_of(text).endswith(f"nesting deeper than {MAX_DEPTH} levels")


def test_nesting_at_the_limit_is_fine():
    assert load_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f.yaml").data is not None


def test_a_2_mb_file_is_refused_before_it_is_read(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_bytes(b"a: " + b"x" * 2_000_000)
    with pytest.raises(RulesError) as e:
        load_file(p, "big.yaml")
    assert e.value.problems == [f"big.yaml: file is 2000003 bytes (at most {MAX_FILE_BYTES})"]


def test_binary_file(tmp_path):
    p = tmp_path / "b.yaml"
    p.write_bytes(bytes(range(256)))
    with pytest.raises(RulesError) as e:
        load_file(p, "b.yaml")
    assert e.value.problems == ["b.yaml: binary file (contains NUL bytes; expected UTF-8 YAML text)"]


def test_latin_1_file(tmp_path):
    p = tmp_path / "l.yaml"
    p.write_bytes("name: Bjørn\n".encode("latin-1"))
    with pytest.raises(RulesError) as e:
        load_file(p, "l.yaml")
    assert e.value.problems == ["l.yaml: not UTF-8 text (bad byte at offset 8; save the file as UTF-8)"]


def test_utf8_with_a_byte_order_mark_is_fine(tmp_path):
    p = tmp_path / "bom.yaml"
    p.write_bytes("\ufeffname: Bjørn\n".encode("utf-8"))
    assert load_file(p).data == {"name": "Bjørn"}


def test_an_integer_of_400_digits_loads_and_one_of_5000_is_refused():
    assert load_text("n: " + "1" + "0" * 400, "f.yaml").data == {"n": 10**400}
    assert error_of("n: " + "9" * 5000) == \
        "f.yaml:1: number is too long (5000 characters; numbers in rules are at most a few digits)"
    assert error_of("? " + "9" * 5000 + "\n: 1") == \
        "f.yaml:1: number is too long (5000 characters; numbers in rules are at most a few digits)"


@pytest.mark.parametrize("text, tag", [
    ("a: !!python/object/apply:os.system [ls]", "!!python/object/apply:os.system"),
    ("a: !!python/name:os.system ''", "!!python/name:os.system"),
    ("a: !!binary aGVsbG8=", "!!binary"),
    ("!!set {a, b}", "!!set"),
    ("a: !!omap [{b: 1}]", "!!omap"),
    ("a: !custom x", "!custom"),
])
def test_tags_other_than_plain_yaml_are_refused(text, tag):
    assert error_of(text) == f"f.yaml:1: YAML tag '{tag}' is not allowed {PLAIN}"


def test_merge_keys_are_refused():
    assert error_of("a: &a {x: 1}\nb:\n  <<: *a\n") == \
        "f.yaml:3: YAML merge keys ('<<') are not supported; write the keys out"


def test_syntax_error_names_the_line():
    assert error_of("a: 1\nb: [1, 2\n") == "f.yaml:3: YAML syntax error: expected ',' or ']', but got '<stream end>'"


def test_duplicate_keys():
    assert error_of("a: 1\na: 2\n") == "f.yaml:2: duplicate key 'a'"


def test_devices_pipes_and_folders_are_not_read(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for path, what in [(fifo, "not a regular file (a device, pipe or socket cannot be read)"),
                       ("/dev/zero", "not a regular file (a device, pipe or socket cannot be read)"),
                       (tmp_path, "is a folder (expected a file)"),
                       (tmp_path / "missing.yaml", "cannot read (No such file or directory)")]:
        with pytest.raises(RulesError) as e:
            load_file(path, "x")
        assert e.value.problems == [f"x: {what}"]


def test_read_bytes_refuses_a_file_over_its_cap(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_bytes(b"a: 1\n" * 10)
    with pytest.raises(RulesError) as e:
        yamlio.read_bytes(p, "g.yaml", max_bytes=20)
    assert e.value.problems == ["g.yaml: file is 50 bytes (at most 20)"]


def test_lines_are_recorded_for_every_key_path():
    doc = load_text("a:\n  b:\n    - x\n    - {c: 1}\n", "f.yaml")
    assert doc.line(("a", "b", 1, "c")) == 4
    assert doc.where(("a", "b", 0)) == ("f.yaml", 3, ("a", "b", 0))
