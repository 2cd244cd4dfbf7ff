"""PDF post-processing with pypdf: stack rendered pages (each optionally stamped) into one file.

Pages shared between tables are rendered once by WeasyPrint; each copy here is a small page
that draws the shared page as a Form XObject and then a stamp (e.g. "Table 2 of 3") on top.
The shared content is stored once per file, so a 100-table print file stays small and fast.
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
    """Page ``index`` of the PDF called ``source``, with an optional stamp page drawn over it."""

    source: str
    index: int
    stamp_source: str | None = None
    stamp_index: int = 0


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
        base, (width, height) = form(ref.source, ref.index)
        page = writer.add_blank_page(width, height)
        xobjects = DictionaryObject({NameObject("/P"): base})
        ops = b"q /P Do Q"
        if ref.stamp_source is not None:
            xobjects[NameObject("/S")] = form(ref.stamp_source, ref.stamp_index)[0]
            ops += b" q /S Do Q"
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
