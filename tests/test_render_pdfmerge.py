"""The streaming PDF concatenation behind party.pdf."""

import io

import pypdf

from chargen.render.pdfmerge import PdfConcatenator


def blank_pdf(sizes) -> bytes:
    writer = pypdf.PdfWriter()
    for w, h in sizes:
        writer.add_blank_page(w, h)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def concat(inputs) -> bytes:
    out = io.BytesIO()
    writer = PdfConcatenator(out, "The Red Lanterns")
    counts = [writer.add(data, title) for title, data in inputs]
    writer.close()
    assert counts == [len(pypdf.PdfReader(io.BytesIO(d)).pages) for _, d in inputs]
    assert writer.page_count == sum(counts)
    return out.getvalue()


def test_pages_in_order_with_a_bookmark_per_input(tmp_path):
    a, b = blank_pdf([(100, 200)]), blank_pdf([(300, 400), (500, 600)])
    path = tmp_path / "b.pdf"
    path.write_bytes(b)
    out = io.BytesIO()
    writer = PdfConcatenator(out, "The Red Lanterns")
    writer.add(a, "Cover")
    writer.add(path, "Ulf Hayward")
    writer.close()
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()), strict=True)
    assert [(p.mediabox.width, p.mediabox.height) for p in reader.pages] == [(100, 200), (300, 400), (500, 600)]
    assert [(o.title, reader.get_destination_page_number(o)) for o in reader.outline] == [("Cover", 0), ("Ulf Hayward", 1)]
    assert reader.metadata.title == "The Red Lanterns" and reader.metadata.creation_date is None


def test_same_inputs_same_bytes_and_an_identifier_from_them():
    inputs = [("one", blank_pdf([(100, 100)])), ("two", blank_pdf([(200, 100)]))]
    first = concat(inputs)
    assert concat(inputs) == first
    other = concat([("one", blank_pdf([(100, 100)])), ("two", blank_pdf([(200, 101)]))])
    ids = [pypdf.PdfReader(io.BytesIO(d)).trailer["/ID"][0] for d in (first, other)]
    assert ids[0] != ids[1]


def test_front_matter_comes_first_and_is_labelled_in_roman():
    out = io.BytesIO()
    writer = PdfConcatenator(out, "Party")
    writer.add(blank_pdf([(100, 100)]), "Ulf")
    writer.add(blank_pdf([(200, 200), (200, 200)]), "Ivar")
    writer.add(blank_pdf([(300, 300), (300, 300)]), "Cover", front=True)
    writer.close()
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()), strict=True)
    assert [p.mediabox.width for p in reader.pages] == [300, 300, 100, 200, 200]
    assert reader.page_labels == ["i", "ii", "1", "2", "3"]
    assert [(o.title, reader.get_destination_page_number(o)) for o in reader.outline] == [
        ("Cover", 0), ("Ulf", 2), ("Ivar", 3)]
