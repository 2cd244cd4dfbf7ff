"""PDF post-processing with pypdf: stack rendered pages, drawn in layers, into one file.

Each output page is small: it draws pages rendered by WeasyPrint as Form XObjects, one over
the other (header and footer, the page body, a stamp such as "Table 2 of 3"). A body shared by
many pages or tables is rendered once and stored once per file, so a 100-table print file stays
small and fast to make.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    EncodedStreamObject,
    IndirectObject,
    NameObject,
    RectangleObject,
)

AUTHOR = "number-party-kit"


@dataclass(frozen=True)
class PageRef:
    """One output page: pages ``(source, index)`` of rendered PDFs, drawn in order."""

    layers: tuple[tuple[str, int], ...]


def _form(writer: PdfWriter, reader: PdfReader, index: int) -> tuple[IndirectObject, tuple]:
    """Turn one page into a Form XObject owned by ``writer``; returns it and the page size."""
    page = reader.pages[index]
    contents = page["/Contents"].get_object()
    if isinstance(contents, EncodedStreamObject) and "/DecodeParms" not in contents:
        form = EncodedStreamObject()  # reuse the compressed bytes: no decode and re-encode
        form._data = contents._data
        form[NameObject("/Filter")] = contents["/Filter"]
    else:
        form = DecodedStreamObject()
        form.set_data(page.get_contents().get_data())
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): RectangleObject(page.mediabox),
        NameObject("/Resources"): page["/Resources"].clone(writer),
    })
    if isinstance(form, DecodedStreamObject):
        form = form.flate_encode()
    return writer._add_object(form), (page.mediabox.width, page.mediabox.height)


def stack(sources: Mapping[str, bytes], pages: Sequence[PageRef], title: str,
          readers: dict[bytes, PdfReader] | None = None) -> bytes:
    """One PDF of ``pages``, asking viewers to print at actual size; same input, same bytes.

    ``readers`` caches parsed sources between calls (keyed by their bytes).
    """
    cache = {} if readers is None else readers
    for data in sources.values():
        if data not in cache:
            cache[data] = PdfReader(io.BytesIO(data))
    readers = {name: cache[data] for name, data in sources.items()}
    writer = PdfWriter()
    forms: dict[tuple[str, int], tuple[IndirectObject, tuple]] = {}

    def form(source: str, index: int) -> tuple[IndirectObject, tuple]:
        if (source, index) not in forms:
            forms[source, index] = _form(writer, readers[source], index)
        return forms[source, index]

    for ref in pages:
        drawn = [form(source, index) for source, index in ref.layers]
        width, height = drawn[0][1]
        page = writer.add_blank_page(width, height)
        xobjects = DictionaryObject({NameObject(f"/L{i}"): xobject
                                     for i, (xobject, _) in enumerate(drawn)})
        ops = b" ".join(b"q /L%d Do Q" % i for i in range(len(drawn)))
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        contents = DecodedStreamObject()
        contents.set_data(ops)
        page[NameObject("/Contents")] = writer._add_object(contents)

    writer.add_metadata({"/Title": title, "/Author": AUTHOR, "/Producer": AUTHOR})
    writer._root_object[NameObject("/ViewerPreferences")] = DictionaryObject(
        {NameObject("/PrintScaling"): NameObject("/None")})
    digest = hashlib.md5(title.encode(), usedforsecurity=False)
    for name in sorted(sources):
        digest.update(name.encode() + hashlib.md5(sources[name], usedforsecurity=False).digest())
    for ref in pages:
        digest.update(repr(ref).encode())
    file_id = ByteStringObject(digest.digest())
    writer._ID = ArrayObject([file_id, file_id])  # fixed, so the same input gives the same bytes
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


__all__ = ["PageRef", "stack"]
