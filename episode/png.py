"""A tiny RGB canvas written as PNG with zlib and struct (no plotting
library): lines, rectangles and a 5x7 bitmap font, enough for a chart."""

from __future__ import annotations

import struct
import zlib

Color = tuple[int, int, int]

# 5x7 glyphs, one string of 7 rows per character ('#' set).
_GLYPHS = {
    "0": ".###.#...##..###.#.###..##...#.###.", "1": "..#...##....#....#....#....#...###.",
    "2": ".###.#...#....#...#...#...#...#####", "3": "#####...#...#...###.....##...#.###.",
    "4": "...#...##..#.#.#..#.#####...#....#.", "5": "######....####.....#....##...#.###.",
    "6": "..##..#...#....####.#...##...#.###.", "7": "#####....#...#...#...#....#....#...",
    "8": ".###.#...##...#.###.#...##...#.###.", "9": ".###.#...##...#.####....#...#..##..",
    "A": ".###.#...##...#######...##...##...#", "B": "####.#...##...#####.#...##...#####.",
    "C": ".###.#...##....#....#....#...#.###.", "D": "###..#..#.#...##...##...##..#.###..",
    "E": "######....#....####.#....#....#####", "F": "######....#....####.#....#....#....",
    "G": ".###.#...##....#.####...##...#.####", "H": "#...##...##...#######...##...##...#",
    "I": ".###...#....#....#....#....#...###.", "J": "..###...#....#....#....##..#..##...",
    "K": "#...##..#.#.#..##...#.#..#..#.#...#", "L": "#....#....#....#....#....#....#####",
    "M": "#...###.###.#.##...##...##...##...#", "N": "#...##...###..##.#.##..###...##...#",
    "O": ".###.#...##...##...##...##...#.###.", "P": "####.#...##...#####.#....#....#....",
    "Q": ".###.#...##...##...##.#.##..#..##.#", "R": "####.#...##...#####.#.#..#..#.#...#",
    "S": ".#####....#.....###.....#....#####.", "T": "#####..#....#....#....#....#....#..",
    "U": "#...##...##...##...##...##...#.###.", "V": "#...##...##...##...##...#.#.#...#..",
    "W": "#...##...##...##.#.##.#.##.#.#.#.#.", "X": "#...##...#.#.#...#...#.#.#...##...#",
    "Y": "#...##...#.#.#...#....#....#....#..", "Z": "#####....#...#...#...#...#....#####",
    ".": "..........................##...##..", ",": ".....................##...#...#....",
    "-": "...............###.................", "+": ".......#....#..#####..#....#.......",
    "%": "##...##..#...#...#...#...#..##...##", "@": ".###.#...#....#.##.##.#.##.#.#.###.",
    ":": ".....##...##.........##...##.......", "/": ".....#...#...#...#...#.............",
    "(": "...#...#...#....#....#.....#.....#.", ")": ".#.....#.....#....#....#...#...#...",
    "=": "..........#####.....#####..........", "_": "..............................#####",
    "*": ".......#..#.#.#.###.#.#.#..#.......", " ": "." * 35, "?": ".###.#...#....#...#...#.........#..",
    "#": ".#.#..#.#.#####.#.#.#####.#.#..#.#.",
}


def _glyph(ch: str) -> str:
    g = _GLYPHS.get(ch) or _GLYPHS.get(ch.upper()) or _GLYPHS["?"]
    return (g + "." * 35)[:35]


class Canvas:
    def __init__(self, width: int, height: int, background: Color = (255, 255, 255)) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(background) * (width * height))

    def set(self, x: int, y: int, color: Color) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y * self.width + x) * 3
            self.pixels[i:i + 3] = bytes(color)

    def rect(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        for y in range(max(0, y0), min(self.height, y1 + 1)):
            for x in range(max(0, x0), min(self.width, x1 + 1)):
                self.set(x, y, color)

    def line(self, x0: int, y0: int, x1: int, y1: int, color: Color, width: int = 1) -> None:
        """Bresenham's line, `width` pixels thick."""
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        half = width // 2
        while True:
            self.rect(x0 - half, y0 - half, x0 - half + width - 1, y0 - half + width - 1, color)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, x: int, y: int, text: str, color: Color = (0, 0, 0), scale: int = 1) -> int:
        """Draw `text` with its top-left corner at (x, y); return its width."""
        start = x
        for ch in text:
            glyph = _glyph(ch)
            for row in range(7):
                for col in range(5):
                    if glyph[row * 5 + col] == "#":
                        self.rect(x + col * scale, y + row * scale, x + col * scale + scale - 1, y + row * scale + scale - 1, color)
            x += 6 * scale
        return x - start

    @staticmethod
    def text_width(text: str, scale: int = 1) -> int:
        return len(text) * 6 * scale

    def png(self) -> bytes:
        row = self.width * 3
        raw = b"".join(b"\x00" + bytes(self.pixels[y * row:(y + 1) * row]) for y in range(self.height))

        def chunk(tag: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


PALETTE: tuple[Color, ...] = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (255, 127, 14), (148, 103, 189),
                              (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207))


def curve_chart(series: list[tuple[str, list[float | None]]], labels: list[str], title: str, highlight: int | None = None,
                width: int = 760, height: int = 440) -> bytes:
    """A line chart of accuracy (0-100) per milestone, one line per series."""
    c = Canvas(width, height)
    left, right, top, bottom = 56, 200, 40, 48
    x0, x1, y0, y1 = left, width - right, top, height - bottom
    c.text(left, 14, title, (0, 0, 0), 2)
    for value in range(0, 101, 20):
        y = y1 - round((y1 - y0) * value / 100)
        c.line(x0, y, x1, y, (225, 225, 225))
        label = str(value)
        c.text(x0 - 8 - Canvas.text_width(label), y - 3, label, (60, 60, 60))
    n = max(1, len(labels) - 1)
    xs = [x0 + round((x1 - x0) * i / n) if len(labels) > 1 else (x0 + x1) // 2 for i in range(len(labels))]
    for x, label in zip(xs, labels):
        c.line(x, y0, x, y1, (240, 240, 240))
        c.text(x - Canvas.text_width(label) // 2, y1 + 10, label, (40, 40, 40))
    c.line(x0, y0, x0, y1, (0, 0, 0))
    c.line(x0, y1, x1, y1, (0, 0, 0))
    c.text(x0, y1 + 28, "ACCURACY % BY MILESTONE", (90, 90, 90))
    order = [i for i in range(len(series)) if i != highlight] + ([highlight] if highlight is not None else [])
    for i in order:
        name, values = series[i]
        color = PALETTE[i % len(PALETTE)]
        thick = 4 if i == highlight else 2
        points = [(xs[j], y1 - round((y1 - y0) * v / 100)) for j, v in enumerate(values[:len(xs)]) if v is not None]
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            c.line(ax, ay, bx, by, color, thick)
        for px, py in points:
            c.rect(px - thick, py - thick, px + thick, py + thick, color)
    for i, (name, _) in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        ly = y0 + 6 + i * 16
        if ly > y1:
            break
        c.rect(x1 + 16, ly, x1 + 28, ly + 8, color)
        c.text(x1 + 34, ly + 1, (name + (" *" if i == highlight else ""))[:26], (0, 0, 0))
    return c.png()
