"""`jobc plan`'s pictures: the rank layout as a node × GPU grid per parallel dimension, and the
per-GPU memory as a stacked bar against the GPU's size; as terminal text (coloured or plain) and
as SVG.

A grid shows one dimension (tp, cp, dp, pp, ep): each cell is a GPU, and the number in it is the
GPU's group in that dimension, so GPUs with the same number are the ranks that talk to each
other in it (a tp group all-reduces on every layer and should stay inside a node; a dp group
spans the nodes). Colour, where it is on, repeats the number as a background, so blocks read at
a glance; the plain text says everything without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from jobc.memory import placement
from jobc.memory import ranks as layout

# Nodes and GPUs shown: all up to these counts, else the first ones, an ellipsis and the last ones.
_ROWS = 16
_COLS = 16
_BAR = 60  # characters of the bar that stand for the GPU's memory (or the total, when larger)

# Okabe and Ito's palette, which stays distinguishable with the common colour-vision deficiencies;
# as SVG fills and as the nearest xterm-256 colours for the terminal.
_PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999")
_XTERM = (214, 117, 36, 227, 25, 166, 175, 246)
_DARK = {4}  # palette entries that need light text
_RESET = "\033[0m"


@dataclass(frozen=True)
class Grid:
    """One dimension's groups on the GPUs shown: `cells[i][j]` is the group number of the GPU in
    column `cols[j]` of the node in row `rows[i]` (-1 in `rows` or `cols` stands for an ellipsis,
    whose cells are -1)."""

    dim: str
    size: int  # ranks in one group
    groups: int
    rows: list[int]
    cols: list[int]
    cells: list[list[int]]
    nodes_per_group: int  # the most nodes any one group spans


# Megatron's grids, fastest-varying dimension first: dense layers and expert layers.
_DENSE = ("tp", "cp", "dp", "pp")
_EXPERT = ("etp", "ep", "edp", "pp")


def _shown(count: int, limit: int) -> list[int]:
    """The indices shown of `count` rows or columns: all, or the first, -1 for "…", the last."""
    if count <= limit:
        return list(range(count))
    return [*range(limit - 4), -1, *range(count - 3, count)]


def _group(coords: layout.RankCoords, dim: str, grid: tuple[str, ...], sizes: placement.Sizes) -> int:
    """The group of a rank in `dim`: its other coordinates of the grid as one mixed-radix number,
    fastest first, which numbers the groups in the order their first ranks come."""
    number, radix = 0, 1
    for other in grid:
        if other != dim:
            number += getattr(coords, other) * radix
            radix *= getattr(sizes, other)
    return number


def _span(stride: int, size: int, world: int, gpus: int) -> int:
    """The most nodes one group spans: a group is the ranks r0 + k·stride (k < size), and how
    many nodes that crosses depends only on r0 mod gpus, so every residue of a group's first rank
    is tried once (the first ranks are j + b·stride·size, j < stride)."""
    blocks = world // (stride * size)
    most = 1
    for j in range(min(stride, gpus)):
        for b in range(min(blocks, gpus)):
            r0 = j + b * stride * size
            most = max(most, len({(r0 + k * stride) // gpus for k in range(size)}))
    return most


def grids(data: dict[str, Any]) -> list[Grid]:
    """A grid for every dimension of size > 1 (ep only for a model with experts), in the order
    tp, cp, dp, pp, ep; none when the sizes do not divide the world. Only the GPUs shown are
    computed, so a world of a hundred thousand ranks costs what one of a hundred does."""
    par = data["parallelism"]
    if par["dp"] is None:
        return []
    sizes = placement.Sizes(data["world"], par["tp"], par["pp"], par["cp"], par["ep"], par["etp"], par["vpp"])
    gpus = data["gpus_per_node"] or sizes.world
    nodes = max(sizes.world // gpus, 1)
    rows, cols = _shown(nodes, _ROWS), _shown(gpus, _COLS)
    moe = bool(data["model"] and data["model"]["moe"])
    dims = [(d, _DENSE) for d in _DENSE] + ([("ep", _EXPERT)] if moe else [])
    out = []
    for dim, grid in dims:
        size = getattr(sizes, dim)
        if size <= 1:
            continue
        stride = 1
        for faster in grid[: grid.index(dim)]:
            stride *= getattr(sizes, faster)
        cells = [
            [
                -1
                if node < 0 or gpu < 0
                else _group(layout.coords(node * gpus + gpu, sizes, gpus), dim, grid, sizes)
                for gpu in cols
            ]
            for node in rows
        ]
        groups = sizes.world // size
        out.append(Grid(dim, size, groups, rows, cols, cells, _span(stride, size, sizes.world, gpus)))
    return out


def _paint(text: str, group: int, colour: bool) -> str:
    if not colour:
        return text
    index = group % len(_PALETTE)
    fg = 97 if index in _DARK else 30
    return f"\033[{fg};48;5;{_XTERM[index]}m{text}{_RESET}"


def _span_words(grid: Grid) -> str:
    nodes = grid.nodes_per_group
    if grid.groups == 1:
        where = "inside one node" if nodes == 1 else f"across {nodes} nodes"
        return f"{grid.dim}: one group of all {grid.size} ranks, {where}"
    where = "each inside one node" if nodes == 1 else f"each spanning up to {nodes} nodes"
    return f"{grid.dim}: {grid.groups} groups of {grid.size} ranks, {where}"


def grid_lines(data: dict[str, Any], colour: bool) -> list[str]:
    """The grids as text: a heading, then per dimension a line and one row per node."""
    found = grids(data)
    if not found:
        return []
    gpus = data["gpus_per_node"] or data["world"]
    out = [
        f"rank layout (Megatron order {layout.ORDER}; rank = node × {gpus} + GPU): the number in a "
        "cell is the GPU's group in that dimension"
    ]
    label = max(len(f"node {found[0].rows[-1]}"), len("GPU"))
    for grid in found:
        width = max(len(str(grid.groups - 1)), len(str(gpus - 1)))
        head = " ".join("…".rjust(width) if c < 0 else str(c).rjust(width) for c in grid.cols)
        out += ["", f"  {_span_words(grid)}"]
        if grid.groups == 1:
            continue  # a grid of one number says nothing the line does not
        out.append(f"  {'GPU'.rjust(label)}  {head}")
        for node, row in zip(grid.rows, grid.cells, strict=True):
            if node < 0:
                out.append(f"  {'…'.rjust(label)}")
                continue
            cells = [
                "…".rjust(width) if group < 0 else _paint(str(group).rjust(width), group, colour)
                for group in row
            ]
            out.append(f"  {f'node {node}'.rjust(label)}  " + " ".join(cells))
    return out


# The parts of the bar: (key in the plan's memory data, name, letter when there is no colour).
_PARTS = (
    ("weights_bytes", "weights", "W"),
    ("gradients_bytes", "gradients", "G"),
    ("optimizer_bytes", "optimizer state", "O"),
    ("activations_bytes", "activations", "A"),
    ("kv_cache_bytes", "KV cache", "K"),
    ("overhead_bytes", "overhead", "*"),
)


def _parts(memory: dict[str, Any]) -> list[tuple[str, str, int]]:
    missing = set(memory.get("not_estimated", []))
    out = []
    for key, name, letter in _PARTS:
        value = memory.get(key)
        if isinstance(value, int) and value > 0 and name not in missing:
            out.append((name, letter, value))
    return out


def _cells(parts: list[tuple[str, str, int]], scale: int) -> list[int]:
    """How many bar cells each part gets out of `_BAR` for `scale` bytes: at least one for any
    part, the rest by largest remainders so the cells add up to the total's share."""
    total = sum(v for _, _, v in parts)
    want = round(_BAR * total / scale) if scale else 0
    exact = [_BAR * v / scale for _, _, v in parts]
    cells = [max(1, int(x)) for x in exact]
    order = sorted(range(len(parts)), key=lambda i: exact[i] - int(exact[i]), reverse=True)
    i = 0
    while sum(cells) < want and order:
        cells[order[i % len(order)]] += 1
        i += 1
    return cells


def bar_lines(memory: dict[str, Any], colour: bool) -> list[str]:
    """The memory of one GPU as a stacked bar: each part's share of the GPU's memory (`|` marks
    the GPU's size when the total is larger), and a legend with each part's GB."""
    parts = _parts(memory)
    capacity = memory.get("gpu_memory_bytes")
    total = memory["total_bytes"]
    if not parts or not total:
        return []
    scale = max(total, capacity or 0)
    cells = _cells(parts, scale)
    bar = ""
    for i, ((_, letter, _), n) in enumerate(zip(parts, cells, strict=True)):
        bar += _paint(("█" if colour else letter) * n, i, colour)
    used = sum(cells)
    if capacity:
        edge = round(_BAR * capacity / scale)
        if used < edge:
            bar += "·" * (edge - used) + "|"
        elif total > capacity:
            # over the GPU: the capacity line falls inside the bar; shown beneath it
            bar += "!"
        else:
            bar += "|"
    share = f" {total / 1e9:.1f} of {capacity / 1e9:.1f} GB ({total / capacity:.0%})" if capacity else ""
    out = [f"  {bar}{share}"]
    if capacity and total > capacity:
        edge = round(_BAR * capacity / scale)
        out.append("  " + " " * edge + f"^ the GPU's {capacity / 1e9:.1f} GB end here")
    legend = []
    for i, (name, letter, value) in enumerate(parts):
        key = _paint("█", i, True) if colour else letter
        legend.append(f"{key} {name} {value / 1e9:.1f}")
    out.append("  " + "  ".join(legend) + " (GB)")
    return out


# ---------------------------------------------------------------------------------------------
# SVG

_CELL = 28
_GAP = 4
_FONT = 'font-family="monospace" font-size="12"'


def _svg_grid(grid: Grid, top: int) -> tuple[list[str], int]:
    """The grid's elements, with their top at `top`; and the y below them."""
    left = 70
    out = [f'<text x="10" y="{top + 14}" {_FONT} font-weight="bold">{escape(_span_words(grid))}</text>']
    if grid.groups == 1:
        return out, top + 28
    y = top + 24
    out.append(f'<text x="10" y="{y + 12}" {_FONT}>GPU</text>')
    for j, c in enumerate(grid.cols):
        x = left + j * (_CELL + _GAP)
        text = "…" if c < 0 else str(c)
        out.append(f'<text x="{x + _CELL // 2}" y="{y + 12}" {_FONT} text-anchor="middle">{text}</text>')
    y += 18
    for node, row in zip(grid.rows, grid.cells, strict=True):
        if node < 0:
            out.append(f'<text x="10" y="{y + 18}" {_FONT}>…</text>')
            y += _CELL + _GAP
            continue
        out.append(f'<text x="10" y="{y + 18}" {_FONT}>node {node}</text>')
        for j, group in enumerate(row):
            x = left + j * (_CELL + _GAP)
            if group < 0:
                out.append(f'<text x="{x + _CELL // 2}" y="{y + 18}" {_FONT} text-anchor="middle">…</text>')
                continue
            index = group % len(_PALETTE)
            ink = "#FFFFFF" if index in _DARK else "#000000"
            out.append(
                f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{_PALETTE[index]}" '
                f'stroke="#333333" stroke-width="0.5"/>'
            )
            out.append(
                f'<text x="{x + _CELL // 2}" y="{y + 18}" {_FONT} fill="{ink}" text-anchor="middle">'
                f"{group}</text>"
            )
        y += _CELL + _GAP
    return out, y + 10


def _svg_bar(memory: dict[str, Any], top: int) -> tuple[list[str], int]:
    parts = _parts(memory)
    capacity = memory.get("gpu_memory_bytes")
    total = memory["total_bytes"]
    if not parts or not total:
        return [], top
    width = 600
    scale = max(total, capacity or 0)
    share = f": {total / 1e9:.1f} of {capacity / 1e9:.1f} GB ({total / capacity:.0%})" if capacity else ""
    out = [f'<text x="10" y="{top + 14}" {_FONT} font-weight="bold">memory per GPU{escape(share)}</text>']
    y, x = top + 24, 10.0
    for i, (name, _, value) in enumerate(parts):
        w = width * value / scale
        out.append(
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="24" fill="{_PALETTE[i % len(_PALETTE)]}">'
            f"<title>{escape(name)} {value / 1e9:.1f} GB</title></rect>"
        )
        x += w
    if capacity:
        edge = 10 + width * capacity / scale
        out.append(f'<rect x="10" y="{y}" width="{edge - 10:.1f}" height="24" fill="none" stroke="#333333"/>')
        out.append(f'<line x1="{edge:.1f}" y1="{y - 4}" x2="{edge:.1f}" y2="{y + 28}" stroke="#000000"/>')
    y += 40
    for i, (name, _, value) in enumerate(parts):
        lx = 10 + (i % 3) * 200
        ly = y + (i // 3) * 18
        out.append(
            f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{_PALETTE[i % len(_PALETTE)]}"/>'
        )
        out.append(f'<text x="{lx + 18}" y="{ly}" {_FONT}>{escape(name)} {value / 1e9:.1f} GB</text>')
    return out, y + ((len(parts) + 2) // 3) * 18 + 10


def svg(data: dict[str, Any]) -> str:
    """The plan's pictures as one SVG document (deterministic: the same plan, the same bytes)."""
    body: list[str] = []
    title = f"{data['spec']}: {data['world']} GPUs = {data['nodes']} nodes × {data['gpus_per_node']} GPUs"
    big = 'font-family="monospace" font-size="14" font-weight="bold"'
    body.append(f'<text x="10" y="20" {big}>{escape(title)}</text>')
    y = 34
    for grid in grids(data):
        elements, y = _svg_grid(grid, y)
        body += elements
    if data.get("memory"):
        elements, y = _svg_bar(data["memory"], y)
        body += elements
    cols = max([len(g.cols) for g in grids(data)] or [0])
    width = max(640, 70 + cols * (_CELL + _GAP) + 20)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 10}" '
        f'viewBox="0 0 {width} {y + 10}">'
    )
    return "\n".join([head, '<rect width="100%" height="100%" fill="#FFFFFF"/>', *body, "</svg>"]) + "\n"
