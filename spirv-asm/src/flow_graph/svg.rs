//! The control-flow graph drawn as SVG: one cluster per function (laid out by
//! [`super::layout`]), clusters packed in rows, a legend on top. Blocks are labelled
//! with friendly names, the entry block is a square box as in the DOT, merge edges
//! are dashed and continue edges dotted. A branch target that `spirv-cfg` never prints
//! (a block ending in `OpTerminateInvocation`, say) is drawn with a dashed outline.
//!
//! Text is XML-escaped and characters XML forbids are dropped, so any module gives a
//! well-formed document.

use super::layout;
use super::{ControlFlow, EdgeKind};
use spirv_core::Id;
use std::collections::HashMap;
use std::fmt::Write;

/// How [`ControlFlow::to_svg`] draws.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SvgOptions {
    /// Each block lists its instructions (disassembled, with friendly names) under its
    /// name.
    pub with_instructions: bool,
}

impl SvgOptions {
    /// The default drawing, with each block's instructions or not.
    pub fn with_instructions(yes: bool) -> SvgOptions {
        SvgOptions {
            with_instructions: yes,
        }
    }
}

/// Font metrics of the monospace text, in pixels.
const CHAR_W: f64 = 7.2;
const LINE_H: f64 = 15.0;
const FONT: f64 = 12.0;
/// A node's inner margin, a cluster's padding and its title's height.
const PAD: f64 = 8.0;
const CLUSTER_PAD: f64 = 16.0;
const TITLE_H: f64 = 22.0;
/// How far right of its block a block's loop to itself reaches (its curve's control
/// points; the curve itself reaches 3/4 of this, inside the gap between blocks).
const LOOP_REACH: f64 = layout::GAP_X;
/// Instruction lines longer than this are cut (with `…`).
const MAX_LINE: usize = 120;
/// Rows of clusters are at least this wide before wrapping.
const ROW_WIDTH: f64 = 1600.0;
const LEGEND_H: f64 = 36.0;

/// One node of a cluster: a printed block, or a target never printed.
struct Node {
    label: Id,
    lines: Vec<String>,
    entry: bool,
    printed: bool,
}

/// One function's drawing before placement.
struct Cluster {
    function: Id,
    nodes: Vec<Node>,
    edges: Vec<(usize, usize, EdgeKind)>,
    layout: layout::Layout,
    sizes: Vec<(f64, f64)>,
}

pub(super) fn render(cfg: &ControlFlow, opts: &SvgOptions) -> String {
    let texts = if opts.with_instructions {
        cfg.instruction_texts()
    } else {
        Vec::new()
    };
    let clusters: Vec<Cluster> = cfg
        .functions()
        .into_iter()
        .map(|f| cluster(cfg, f, &texts))
        .collect();
    // Shelf packing: clusters left to right, a new row when the row is full.
    let row_width = clusters
        .iter()
        .map(|c| c.layout.size.0 + 2.0 * CLUSTER_PAD)
        .fold(ROW_WIDTH, f64::max);
    let mut places = Vec::with_capacity(clusters.len());
    let (mut x, mut y, mut row_h, mut width) = (CLUSTER_PAD, LEGEND_H, 0.0f64, 0.0f64);
    for c in &clusters {
        let (w, h) = (
            c.layout.size.0 + 2.0 * CLUSTER_PAD,
            c.layout.size.1 + 2.0 * CLUSTER_PAD + TITLE_H,
        );
        if x > CLUSTER_PAD && x + w > row_width {
            x = CLUSTER_PAD;
            y += row_h + CLUSTER_PAD;
            row_h = 0.0;
        }
        places.push((x, y, w, h));
        x += w + CLUSTER_PAD;
        row_h = row_h.max(h);
        width = width.max(x);
    }
    let height = y + row_h + CLUSTER_PAD;
    let width = width.max(260.0);

    let mut s = String::with_capacity(4096 + cfg.blocks.len() * 400);
    let _ = write!(
        s,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"monospace\" font-size=\"{FONT}\">\n\
<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#333\"/></marker></defs>\n\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    legend(&mut s);
    for (c, &(cx, cy, cw, ch)) in clusters.iter().zip(&places) {
        draw_cluster(&mut s, cfg, c, (cx, cy, cw, ch));
    }
    s.push_str("</svg>\n");
    s
}

/// The merge and continue line styles, as in the DOT's legend.
fn legend(s: &mut String) {
    for (i, (kind, name)) in [(EdgeKind::Merge, "merge"), (EdgeKind::Continue, "continue")]
        .into_iter()
        .enumerate()
    {
        let x = CLUSTER_PAD + i as f64 * 130.0;
        let _ = writeln!(
            s,
            "<g class=\"legend\"><path d=\"M{x:.1},18H{:.1}\" {} marker-end=\"url(#arrow)\"/><text x=\"{:.1}\" y=\"22\">{name}</text></g>",
            x + 44.0,
            edge_style(kind),
            x + 50.0
        );
    }
}

fn edge_style(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Branch => "class=\"branch\" fill=\"none\" stroke=\"#333\"",
        EdgeKind::Merge => {
            "class=\"merge\" fill=\"none\" stroke=\"#2060c0\" stroke-dasharray=\"6 4\""
        }
        EdgeKind::Continue => {
            "class=\"continue\" fill=\"none\" stroke=\"#208040\" stroke-dasharray=\"2 3\""
        }
    }
}

/// A function's nodes (by label: a label printed twice is one node, as in the DOT),
/// edges and layout.
fn cluster(cfg: &ControlFlow, function: Id, texts: &[Vec<String>]) -> Cluster {
    let mut nodes: Vec<Node> = Vec::new();
    let mut by_label: HashMap<Id, usize> = HashMap::new();
    let mut edges = Vec::new();
    let blocks = cfg
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.function == function);
    for (i, b) in blocks.clone() {
        let k = *by_label.entry(b.label).or_insert_with(|| {
            nodes.push(Node {
                label: b.label,
                lines: vec![cfg.name(b.label)],
                entry: false,
                printed: true,
            });
            nodes.len() - 1
        });
        if b.entry && !nodes[k].entry {
            nodes[k].entry = true;
            nodes[k]
                .lines
                .push(format!("Fn {} entry", cfg.name(function)));
        }
        if let Some(t) = texts.get(i) {
            nodes[k].lines.extend(t.iter().map(|l| cut(l)));
        }
    }
    for (_, b) in blocks {
        let from = by_label[&b.label];
        for &(kind, to) in &b.edges {
            let to = *by_label.entry(to).or_insert_with(|| {
                nodes.push(Node {
                    label: to,
                    lines: vec![cfg.name(to)],
                    entry: false,
                    printed: false,
                });
                nodes.len() - 1
            });
            edges.push((from, to, kind));
        }
    }
    let sizes: Vec<(f64, f64)> = nodes
        .iter()
        .map(|n| {
            let chars = n.lines.iter().map(|l| l.chars().count()).max().unwrap_or(1);
            (
                (chars as f64 * CHAR_W + 2.0 * PAD).max(40.0),
                n.lines.len() as f64 * LINE_H + PAD,
            )
        })
        .collect();
    let pairs: Vec<(usize, usize)> = edges.iter().map(|&(a, b, _)| (a, b)).collect();
    let layout = layout::layout(&sizes, &pairs);
    Cluster {
        function,
        nodes,
        edges,
        layout,
        sizes,
    }
}

fn draw_cluster(
    s: &mut String,
    cfg: &ControlFlow,
    c: &Cluster,
    (cx, cy, cw, ch): (f64, f64, f64, f64),
) {
    let name = cfg.name(c.function);
    let _ = writeln!(
        s,
        "<g class=\"function\" id=\"fn-{}\"><rect x=\"{cx:.1}\" y=\"{cy:.1}\" width=\"{cw:.1}\" height=\"{ch:.1}\" fill=\"#f6f6f6\" stroke=\"#999\"/><text x=\"{:.1}\" y=\"{:.1}\" font-weight=\"bold\">Fn {}</text>",
        c.function.0,
        cx + CLUSTER_PAD,
        cy + 16.0,
        escape(&name)
    );
    if !c.layout.reordered {
        s.push_str("<!-- large function: blocks of a rank kept in walk order -->\n");
    }
    let (ox, oy) = (cx + CLUSTER_PAD, cy + CLUSTER_PAD + TITLE_H);
    let at = |k: usize| {
        let (x, y) = c.layout.centre[k];
        (x + ox, y + oy)
    };
    let ports = ports(c, &at);
    for (e, &(a, b, kind)) in c.edges.iter().enumerate() {
        let d = if a == b {
            // A block that branches to itself: a loop on its right side, within the
            // gap to the next block of its rank (it reaches 3/4 of LOOP_REACH out).
            let ((x, y), (w, h)) = (at(a), c.sizes[a]);
            let r = x + w / 2.0;
            let reach = r + LOOP_REACH;
            format!(
                "M{r:.1},{:.1}C{reach:.1},{:.1} {reach:.1},{:.1} {r:.1},{:.1}",
                y - h / 4.0,
                y - h,
                y + h,
                y + h / 4.0
            )
        } else {
            route(c, e, ports[e], (ox, oy))
        };
        let _ = writeln!(
            s,
            "<path d=\"{d}\" {} marker-end=\"url(#arrow)\"/>",
            edge_style(kind)
        );
    }
    for (k, n) in c.nodes.iter().enumerate() {
        let (x, y) = at(k);
        let (w, h) = c.sizes[k];
        let style = match (n.entry, n.printed) {
            (true, _) => "rx=\"0\" fill=\"#fff8e0\" stroke=\"#000\" stroke-width=\"2\"",
            (false, true) => "rx=\"8\" fill=\"white\" stroke=\"#000\"",
            (false, false) => "rx=\"8\" fill=\"white\" stroke=\"#888\" stroke-dasharray=\"4 3\"",
        };
        let _ = write!(
            s,
            "<g class=\"block\" id=\"b-{}\"><title>{}</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" {style}/>",
            n.label.0,
            n.label.0,
            x - w / 2.0,
            y - h / 2.0
        );
        let top = y - h / 2.0 + PAD / 2.0 + FONT;
        for (i, line) in n.lines.iter().enumerate() {
            // Names centred; instruction lines left-aligned under them.
            let (lx, anchor) = if i == 0 || (n.entry && i == 1) {
                (x, "middle")
            } else {
                (x - w / 2.0 + PAD, "start")
            };
            let _ = write!(
                s,
                "<text x=\"{lx:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\" xml:space=\"preserve\">{}</text>",
                top + i as f64 * LINE_H,
                escape(line)
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n");
}

/// An edge's path from its start port to its end port through its bends, one per rank
/// between its ends. Nodes lie only within rows and the gaps between rows are empty,
/// so the path crosses each row straight (from the start port to the row's edge, then
/// through each bend's row at the bend's place, which the layout keeps clear) and
/// bends only in the gaps: it never enters another node's box. An edge whose bends
/// the layout left out (over its budget) is one curve.
fn route(
    c: &Cluster,
    e: usize,
    (start, end): ((f64, f64), (f64, f64)),
    (ox, oy): (f64, f64),
) -> String {
    let (a, b, _) = c.edges[e];
    let (from, to) = (c.layout.rank[a], c.layout.rank[b]);
    let bends = &c.layout.bends[e];
    let mut d = format!("M{:.1},{:.1}", start.0, start.1);
    // Rows are crossed downwards unless the edge is drawn upwards (a back edge).
    let down = to > from;
    let routed = from != to && from.abs_diff(to) == bends.len() + 1;
    if !routed {
        let mid = (start.1 + end.1) / 2.0;
        let _ = write!(
            d,
            "C{:.1},{mid:.1} {:.1},{mid:.1} {:.1},{:.1}",
            start.0, end.0, end.0, end.1
        );
        return d;
    }
    let row = |r: usize| {
        let (top, bottom) = c.layout.rows[r];
        (top + oy, bottom + oy)
    };
    // Where a path leaves row `r` and where it enters it.
    let leave = |r: usize| if down { row(r).1 } else { row(r).0 };
    let enter = |r: usize| if down { row(r).0 } else { row(r).1 };
    let mut x = start.0;
    let mut y = start.1;
    let mut rank = from;
    let stops = bends
        .iter()
        .map(|&(bx, _)| (bx + ox, false))
        .chain([(end.0, true)]);
    for (next_x, last) in stops {
        let exit = leave(rank);
        if (exit - y).abs() > 0.05 {
            let _ = write!(d, "V{exit:.1}");
        }
        rank = if down { rank + 1 } else { rank - 1 };
        let entry = enter(rank);
        let mid = (exit + entry) / 2.0;
        let _ = write!(
            d,
            "C{x:.1},{mid:.1} {next_x:.1},{mid:.1} {next_x:.1},{entry:.1}"
        );
        x = next_x;
        y = entry;
        if last && (end.1 - y).abs() > 0.05 {
            let _ = write!(d, "V{:.1}", end.1);
        }
    }
    d
}

/// Where each edge leaves and enters its nodes: an edge drawn downwards leaves the
/// bottom of its source and enters the top of its target; a back edge leaves the top
/// of its source and enters the bottom of its target. The edges meeting one side of a
/// node are spread along it, ordered by where their other end lies, so that parallel
/// edges (a branch and a merge to one block) stay apart.
fn ports(c: &Cluster, at: &dyn Fn(usize) -> (f64, f64)) -> Vec<((f64, f64), (f64, f64))> {
    let n = c.nodes.len();
    // Per node and side (0 top, 1 bottom): (x of the other end, edge, is start).
    let mut sides: Vec<[Vec<(f64, usize, bool)>; 2]> =
        (0..n).map(|_| [Vec::new(), Vec::new()]).collect();
    for (e, &(a, b, _)) in c.edges.iter().enumerate() {
        if a == b {
            continue;
        }
        let bends = &c.layout.bends[e];
        let near_a = bends.first().map_or(at(b).0, |p| p.0);
        let near_b = bends.last().map_or(at(a).0, |p| p.0);
        let (side_a, side_b) = if c.layout.back[e] { (0, 1) } else { (1, 0) };
        sides[a][side_a].push((near_a, e, true));
        sides[b][side_b].push((near_b, e, false));
    }
    let mut out = vec![((0.0, 0.0), (0.0, 0.0)); c.edges.len()];
    for (v, [top, bottom]) in sides.iter_mut().enumerate() {
        let ((x, y), (w, h)) = (at(v), c.sizes[v]);
        for (side, list) in [(-1.0, top), (1.0, bottom)] {
            list.sort_by(|p, q| p.0.total_cmp(&q.0));
            let m = list.len() as f64;
            for (k, &(_, e, is_start)) in list.iter().enumerate() {
                let px = x - 0.3 * w + 0.6 * w * (k as f64 + 1.0) / (m + 1.0);
                let point = (px, y + side * h / 2.0);
                if is_start {
                    out[e].0 = point;
                } else {
                    out[e].1 = point;
                }
            }
        }
    }
    out
}

/// A line cut to [`MAX_LINE`] characters.
fn cut(line: &str) -> String {
    let line = line.trim_start();
    match line.char_indices().nth(MAX_LINE) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

/// Text as XML character data: markup escaped, characters XML 1.0 forbids dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_escaped_and_cut() {
        assert_eq!(
            super::escape("a<&>\"\u{1}\tb\u{FFFE}"),
            "a&lt;&amp;&gt;&quot; b"
        );
        let long = "x".repeat(200);
        assert_eq!(super::cut(&long).chars().count(), super::MAX_LINE + 1);
    }
}
