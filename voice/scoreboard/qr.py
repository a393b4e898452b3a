"""A link as a QR code, in SVG to put inline in a page (segno: pure Python, no files)."""

from __future__ import annotations

import segno


def qr_svg(link: str) -> str:
    """The QR code of `link` as an <svg> with a viewBox (the page sizes it), and the four
    modules of white around it that the standard asks for."""
    code = segno.make(link, error="m")
    return str(code.svg_inline(border=4, light="#fff", omitsize=True))
