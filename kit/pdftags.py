"""The structure tree of a kit's PDF, so that a screen reader reads its pages in order.

WeasyPrint tags each prose page it renders (headings, paragraphs, lists and tables, in the
order of the HTML), but pypdf keeps neither a page's ``/StructParents`` nor the document's
``/StructTreeRoot`` when it copies the page into a kit's file. The marked content stays in the
page's content stream, so each file's tree is built again here: the prose pages' elements are
copied from WeasyPrint's own PDF onto the page they became, a drawn page's content is one
``/Div`` of text in drawing order, and the chrome laid over a prose page is an artifact.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pypdf import PageObject, PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, PdfObject

DRAWN_TAG = "/Div"  # a drawn page (a form): its words in the order they are drawn


def _wrap(page: PageObject, head: bytes, tail: bytes = b"\nEMC\n") -> None:
    """Put the page's whole content between ``head`` and ``tail`` (a marked-content pair)."""
    content = page.get_contents()
    if content is None:
        return
    content.set_data(head + content.get_data() + tail)
    page.replace_contents(content)


def mark_artifact(page: PageObject) -> None:
    """Mark everything on ``page`` as an artifact: the chrome (header, folio, ruler) that a
    prose page's text is read without."""
    _wrap(page, b"/Artifact BMC\n")


def mark_drawn(page: PageObject) -> None:
    """Mark a drawn page's content as the one element its tree gives it (MCID 0)."""
    _wrap(page, DRAWN_TAG.encode() + b" <</MCID 0>> BDC\n")


class _Tree:
    """The structure tree being built in ``writer``: one ``/Document`` element, and the
    ParentTree's entries (a page's elements by MCID) in page order."""

    def __init__(self, writer: PdfWriter) -> None:
        from pypdf.generic import ArrayObject, DictionaryObject, NameObject

        self.writer = writer
        self.root = DictionaryObject({NameObject("/Type"): NameObject("/StructTreeRoot")})
        self.root_ref = writer._add_object(self.root)
        self.kids = ArrayObject()  # the document's: each page's top elements, in page order
        self.document_ref = writer._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/StructElem"),
            NameObject("/S"): NameObject("/Document"),
            NameObject("/P"): self.root_ref,
            NameObject("/K"): self.kids}))
        self.nums = ArrayObject()

    def element(self, kind: str, parent: IndirectObject, page: IndirectObject
                ) -> tuple[DictionaryObject, ArrayObject, IndirectObject]:
        """A new structure element of type ``kind`` on ``page``: itself, its (empty) kids
        and its reference."""
        from pypdf.generic import ArrayObject, DictionaryObject, NameObject

        kids = ArrayObject()
        element = DictionaryObject({
            NameObject("/Type"): NameObject("/StructElem"), NameObject("/S"): NameObject(kind),
            NameObject("/P"): parent, NameObject("/Pg"): page, NameObject("/K"): kids})
        return element, kids, self.writer._add_object(element)

    def add_page(self, page: PageObject, kids: Sequence[IndirectObject],
                 owners: dict[int, IndirectObject]) -> None:
        """Attach a page's top elements to the document and its MCIDs' owners to the
        ParentTree."""
        from pypdf.generic import ArrayObject, NameObject, NullObject, NumberObject

        self.kids.extend(kids)
        key = len(self.nums) // 2
        page[NameObject("/StructParents")] = NumberObject(key)
        page[NameObject("/Tabs")] = NameObject("/S")
        self.nums.extend([NumberObject(key), ArrayObject(
            owners.get(mcid, NullObject()) for mcid in range(max(owners, default=-1) + 1))])

    def finish(self) -> None:
        """Write the tree's root into the catalog and declare the file tagged."""
        from pypdf.generic import (
            ArrayObject,
            BooleanObject,
            DictionaryObject,
            NameObject,
            NumberObject,
        )

        self.root[NameObject("/K")] = ArrayObject([self.document_ref])
        self.root[NameObject("/ParentTree")] = self.writer._add_object(
            DictionaryObject({NameObject("/Nums"): self.nums}))
        self.root[NameObject("/ParentTreeNextKey")] = NumberObject(len(self.nums) // 2)
        catalog = self.writer.root_object
        catalog[NameObject("/StructTreeRoot")] = self.root_ref
        catalog[NameObject("/MarkInfo")] = DictionaryObject(
            {NameObject("/Marked"): BooleanObject(True)})


class _Copy:
    """WeasyPrint's elements of one prose page, copied onto the page it became in a file."""

    def __init__(self, tree: _Tree, page: IndirectObject, prefix: str) -> None:
        self.tree, self.page, self.prefix = tree, page, prefix
        self.owners: dict[int, IndirectObject] = {}  # MCID: the element whose content it is

    def element(self, source: DictionaryObject, parent: IndirectObject) -> IndirectObject | None:
        """A copy of ``source`` and its kids under ``parent``; None for a link's annotation
        reference (the kit's prose pages carry no annotations)."""
        from pypdf.generic import NameObject

        if source.get("/Type") == "/OBJR":
            return None
        element, kids, ref = self.tree.element(str(source["/S"]), parent, self.page)
        for key, value in source.items():
            if key not in ("/Type", "/S", "/P", "/Pg", "/K", "/NS"):
                element[NameObject(key)] = self._value(key, value)
        given = source.get("/K")
        for kid in given if isinstance(given, list) else [] if given is None else [given]:
            self._kid(kid.get_object(), kids, ref)
        return ref

    def _kid(self, kid: PdfObject, kids: ArrayObject, ref: IndirectObject) -> None:
        from pypdf.generic import DictionaryObject, NumberObject

        mcid = kid.get("/MCID") if isinstance(kid, DictionaryObject) else kid
        if isinstance(mcid, int):  # marked content of this page (bare, or an /MCR)
            kids.append(NumberObject(mcid))
            self.owners[int(mcid)] = ref
        elif isinstance(kid, DictionaryObject) and (copied := self.element(kid, ref)):
            kids.append(copied)

    def _value(self, key: str, value: PdfObject) -> PdfObject:
        """A direct copy of an element's entry, its table-header ids made unique in the file
        (WeasyPrint numbers them after its own objects, which repeat from page to page)."""
        from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

        direct = value.get_object()
        if key == "/ID":
            return TextStringObject(self.prefix + str(direct))
        if key == "/A" and isinstance(direct, DictionaryObject):
            copy = DictionaryObject({NameObject(k): v.clone(self.tree.writer)
                                     for k, v in direct.items()})
            headers = direct.get("/Headers")
            if isinstance(headers, ArrayObject):
                copy[NameObject("/Headers")] = ArrayObject(
                    TextStringObject(self.prefix + str(h)) for h in headers)
            return copy
        return value.clone(self.tree.writer)


_local = threading.local()  # the readers of the kit being finished in this thread


@contextlib.contextmanager
def parsing() -> Iterator[None]:
    """While a kit's files are finished in this thread: each prose page's PDF is parsed once
    (``reader``) for the assembly and the tags of every file it is in, then let go."""
    _local.readers = {}
    try:
        yield
    finally:
        del _local.readers


def reader(pdf: bytes) -> PdfReader:
    """WeasyPrint's PDF of a prose page, parsed (once while ``parsing``: parsing one takes
    tens of milliseconds, and a reader reads its stream lazily)."""
    from pypdf import PdfReader

    kept: dict[bytes, PdfReader] | None = getattr(_local, "readers", None)
    if kept is None:
        return PdfReader(io.BytesIO(pdf))
    if pdf not in kept:
        kept[pdf] = PdfReader(io.BytesIO(pdf))
    return kept[pdf]


def _prose_elements(pdf: bytes) -> list[DictionaryObject]:
    """The elements under the ``/Document`` of WeasyPrint's one-page PDF."""
    from pypdf.generic import DictionaryObject

    root = reader(pdf).root_object
    document = root["/StructTreeRoot"]["/K"][0].get_object()  # type: ignore[index]
    kids = [kid.get_object() for kid in document["/K"]]
    return [kid for kid in kids if isinstance(kid, DictionaryObject)]


def tag(writer: PdfWriter, prose: Sequence[bytes | None]) -> None:
    """Give the file in ``writer`` its structure tree: page n's elements copied from
    ``prose[n]`` (WeasyPrint's PDF of that page) or, for a drawn page (None), one element
    holding all its content."""
    from pypdf.generic import NumberObject

    if len(prose) != len(writer.pages):
        raise ValueError(f"{len(prose)} page sources for {len(writer.pages)} pages")
    tree = _Tree(writer)
    for number, (page, source) in enumerate(zip(writer.pages, prose, strict=True)):
        ref = page.indirect_reference
        assert ref is not None  # a writer's pages are indirect objects
        if source is None:
            _, content, kid = tree.element(DRAWN_TAG, tree.document_ref, ref)
            content.append(NumberObject(0))
            tree.add_page(page, [kid], {0: kid})
            continue
        copy = _Copy(tree, ref, f"p{number + 1}-")
        tops = [k for e in _prose_elements(source) if (k := copy.element(e, tree.document_ref))]
        tree.add_page(page, tops, copy.owners)
    tree.finish()

