"""Owns making Qt's SVG of a widget portable: Qt writes a cosmetic pen (pyqtgraph's lines,
outlines and bars) as `vector-effect="non-scaling-stroke"` inside a group scaled a hundred
times or more, which browsers honour and librsvg and ImageMagick do not (they draw strokes a
hundred times too thick: black blocks over the plot). Each such shape is rewritten in the
page's coordinates under the inverse of its group's transform, so its stroke is measured in
page pixels by every reader, with no vector effect to honour."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np

SVG, XLINK = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
MATRIX = re.compile(r"matrix\(([^)]*)\)")


def _matrix(transform: str | None) -> np.ndarray:
    """A transform attribute (Qt writes only `matrix(a,b,c,d,e,f)`) as a 3×3 matrix."""
    found = MATRIX.search(transform or "")
    if found is None:
        return np.eye(3)
    a, b, c, d, e, f = (float(x) for x in NUMBER.findall(found.group(1)))
    return np.array([[a, c, e], [b, d, f], [0.0, 0.0, 1.0]])


def _points(text: str, m: np.ndarray) -> str:
    """Every x,y pair of `text` (points, or a path of absolute M/L/C/Z) mapped through m."""
    numbers = iter(NUMBER.finditer(text))
    out, last = [], 0
    for x in numbers:
        y = next(numbers)
        px, py, _ = m @ np.array([float(x.group()), float(y.group()), 1.0])
        out.append(f"{text[last:x.start()]}{px:.7g},{py:.7g}")
        last = y.end()
    return "".join(out) + text[last:]


def _unscale(node: ET.Element, m: np.ndarray) -> None:
    if node.tag == f"{{{SVG}}}rect":
        x, y = float(node.get("x", 0)), float(node.get("y", 0))
        w, h = float(node.get("width", 0)), float(node.get("height", 0))
        for name in ("x", "y", "width", "height"):
            node.attrib.pop(name, None)
        node.tag = f"{{{SVG}}}polygon"
        node.set("points", _points(f"{x},{y} {x + w},{y} {x + w},{y + h} {x},{y + h}", m))
    elif node.tag in (f"{{{SVG}}}polyline", f"{{{SVG}}}polygon"):
        node.set("points", _points(node.get("points", ""), m))
    elif node.tag == f"{{{SVG}}}path" and not re.search(r"[a-zHVSQTA]", node.get("d", "")):
        node.set("d", _points(node.get("d", ""), m))
    else:
        return  # a shape this does not know is left for the reader to draw as it can
    inverse = np.linalg.inv(m)
    terms = (inverse[0, 0], inverse[1, 0], inverse[0, 1], inverse[1, 1], inverse[0, 2],
             inverse[1, 2])
    node.set("transform", f"matrix({','.join(f'{t:.8g}' for t in terms)})")
    del node.attrib["vector-effect"]


def portable_svg(data: bytes) -> bytes:
    """Qt's SVG with every non-scaling stroke rewritten in page pixels (see the module)."""
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    root = ET.fromstring(data)

    def walk(node: ET.Element, ctm: np.ndarray) -> None:
        for child in node:
            here = ctm @ _matrix(child.get("transform")) if child.tag == f"{{{SVG}}}g" else ctm
            if child.get("vector-effect") == "non-scaling-stroke" and np.linalg.det(
                    ctm[:2, :2]) != 0:
                _unscale(child, ctm)
            walk(child, here)

    walk(root, np.eye(3))
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
