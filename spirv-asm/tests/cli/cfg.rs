//! `spirv-asm cfg`: spirv-cfg 2025.5's DOT byte for byte on every corpus module (live,
//! where SPIRV-Tools is installed), its quirks on assembled cases, and the SVG drawing
//! parsed as XML: one cluster per function, one box per block, edges styled by kind,
//! coordinates finite, for every corpus module and for a function of 90,000 blocks.

use spirv_asm::flow_graph::{ControlFlow, EdgeKind, SvgOptions};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::Id;
use std::path::{Path, PathBuf};
use std::process::Command;

use spirv_tests as env;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_spirv-asm"))
}

fn words_of(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).expect("read");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn assemble(text: &str) -> Vec<u32> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    assemble_str(text, &opts).expect("assembles")
}

const LEGEND: &str = "digraph {\nlegend_merge_src [shape=plaintext, label=\"\"];\nlegend_merge_dest [shape=plaintext, label=\"\"];\nlegend_merge_src -> legend_merge_dest [label=\" merge\",style=dashed];\nlegend_continue_src [shape=plaintext, label=\"\"];\nlegend_continue_dest [shape=plaintext, label=\"\"];\nlegend_continue_src -> legend_continue_dest [label=\" continue\",style=dotted];\n";

#[test]
fn dot_equals_spirv_cfg_on_every_corpus_module() {
    let Some(corpus) = env::require_corpus("cfg against spirv-cfg") else {
        return;
    };
    let Some(bin) = env::require_spirv_tools("cfg against spirv-cfg") else {
        return;
    };
    let files = env::files(&corpus.join("bin"), "spv");
    assert!(files.len() > 1000, "the corpus has its modules");
    let mut different = Vec::new();
    for f in &files {
        let theirs = Command::new(bin.join("spirv-cfg"))
            .arg(f)
            .output()
            .expect("spirv-cfg runs");
        let ours = ControlFlow::read(&words_of(f)).map(|c| c.to_dot());
        match ours {
            Ok(dot) if theirs.status.success() && dot == theirs.stdout => {}
            _ => different.push(f.display().to_string()),
        }
    }
    eprintln!(
        "cfg: {} of {} corpus modules print what spirv-cfg prints",
        files.len() - different.len(),
        files.len()
    );
    assert!(different.is_empty(), "differ from spirv-cfg: {different:?}");
}

#[test]
fn the_command_line_prints_the_dot_and_the_parser_error() {
    let dir = std::env::temp_dir().join(format!("spirv-asm-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let words = assemble(QUIRKS);
    let good = dir.join("q.spv");
    std::fs::write(&good, spirv_core::binary::words_to_bytes(&words)).expect("write");
    let out = Command::new(exe())
        .args(["cfg"])
        .arg(&good)
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(
        out.stdout,
        ControlFlow::read(&words).expect("reads").to_dot()
    );
    // The last instruction runs past the end: the parser's message, nothing on
    // standard output, its exit code.
    let bad = dir.join("bad.spv");
    let mut broken = words.clone();
    if let Some(last) = broken.last_mut() {
        *last = (5 << 16) | (*last & 0xffff);
    }
    std::fs::write(&bad, spirv_core::binary::words_to_bytes(&broken)).expect("write");
    let out = Command::new(exe())
        .args(["cfg"])
        .arg(&bad)
        .output()
        .expect("runs");
    assert!(out.stdout.is_empty());
    assert_ne!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: "),
        "{out:?}"
    );
    let out = Command::new(exe()).args(["cfg"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: exactly one input file must be specified.\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A block ending in `OpTerminateInvocation` is never printed: as the first block of
/// `%1` it hands the entry label to the next one, and the merge it declared is carried
/// to the next printed block. `%20` branches to itself.
const QUIRKS: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 \"main\"
OpExecutionMode %1 OriginUpperLeft
OpName %1 \"main\"
OpName %12 \"then\"
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeBool
%5 = OpConstantTrue %4
%1 = OpFunction %2 None %3
%10 = OpLabel
OpSelectionMerge %13 None
OpTerminateInvocation
%11 = OpLabel
OpBranchConditional %5 %12 %13
%12 = OpLabel
OpBranch %13
%13 = OpLabel
OpReturn
OpFunctionEnd
%6 = OpFunction %2 None %3
%20 = OpLabel
OpLoopMerge %21 %20 None
OpBranchConditional %5 %20 %21
%21 = OpLabel
OpReturn
OpFunctionEnd
";

#[test]
fn quirks_of_spirv_cfg_are_kept() {
    let cfg = ControlFlow::read(&assemble(QUIRKS)).expect("reads");
    let dot = String::from_utf8(cfg.to_dot()).expect("utf-8");
    let expected = format!(
        "{LEGEND}11 [label=\"11\nFn main entry\", shape=box];\n11 -> 12;\n11 -> 13;\n11 -> 13 [style=dashed];\n\
12 [label=\"then\"];\n12 -> 13;\n13 [label=\"13\"];\n\
20 [label=\"20\nFn 6 entry\", shape=box];\n20 -> 20;\n20 -> 21;\n20 -> 21 [style=dashed];\n20 -> 20 [style=dotted];\n21 [label=\"21\"];\n}}\n"
    );
    assert_eq!(dot, expected);
    if let Some(bin) = env::spirv_tools() {
        let path =
            std::env::temp_dir().join(format!("spirv-asm-cfg-quirks-{}.spv", std::process::id()));
        std::fs::write(&path, spirv_core::binary::words_to_bytes(&assemble(QUIRKS)))
            .expect("write");
        let theirs = Command::new(bin.join("spirv-cfg"))
            .arg(&path)
            .output()
            .expect("runs");
        assert_eq!(
            String::from_utf8_lossy(&theirs.stdout),
            expected,
            "spirv-cfg agrees"
        );
        let _ = std::fs::remove_file(path);
    }
    assert_eq!(cfg.functions(), [Id(1), Id(6)]);
    assert_eq!(cfg.blocks()[0].edges[2], (EdgeKind::Merge, Id(13)));
    let mut main_only = ControlFlow::read(&assemble(QUIRKS)).expect("reads");
    assert!(main_only.retain_function("main"));
    assert_eq!(main_only.blocks().len(), 3);
    let mut by_id = ControlFlow::read(&assemble(QUIRKS)).expect("reads");
    assert!(by_id.retain_function("%6"));
    assert_eq!(by_id.blocks().len(), 2);
    assert!(!by_id.retain_function("nothing"));
}

/// Checks an SVG document: well-formed, one cluster per function, one box per node
/// (printed blocks and the targets never printed), one path per edge with the kind's
/// class, every number finite. Returns the number of block boxes.
fn check_svg(svg: &str, cfg: &ControlFlow) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    for a in ["width", "height"] {
        let v: f64 = root.attribute(a).expect("size").parse().expect("a number");
        assert!(v.is_finite() && v > 0.0);
    }
    let groups = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!(groups("function"), cfg.functions().len());
    let edges: usize = cfg.blocks().iter().map(|b| b.edges.len()).sum();
    let paths = groups("branch") + groups("merge") + groups("continue");
    // The legend draws one merge and one continue line.
    assert_eq!(paths, edges + 2);
    for n in doc.descendants() {
        for a in n.attributes() {
            if matches!(a.name(), "x" | "y" | "width" | "height" | "d") {
                assert!(
                    !a.value().contains("NaN") && !a.value().contains("inf"),
                    "{}={}",
                    a.name(),
                    a.value()
                );
            }
        }
    }
    groups("block")
}

#[test]
fn svg_of_every_corpus_module_is_well_formed() {
    let Some(corpus) = env::require_corpus("cfg --format svg") else {
        return;
    };
    let mut blocks = 0;
    for f in env::files(&corpus.join("bin"), "spv") {
        let cfg = ControlFlow::read(&words_of(&f)).expect("corpus modules read");
        let svg = cfg.to_svg(&SvgOptions::default());
        let printed: std::collections::HashSet<(Id, Id)> =
            cfg.blocks().iter().map(|b| (b.function, b.label)).collect();
        let boxes = check_svg(&svg, &cfg);
        assert!(boxes >= printed.len(), "{}", f.display());
        blocks += boxes;
    }
    eprintln!("cfg --format svg: {blocks} block boxes drawn over the corpus");
    assert!(blocks > 1000);
}

#[test]
fn svg_with_instructions_lists_them() {
    let text = QUIRKS.replace(
        "%12 = OpLabel\nOpBranch %13",
        "%12 = OpLabel\nOpTerminateInvocation",
    );
    let cfg = ControlFlow::read(&assemble(&text)).expect("reads");
    let svg = cfg.to_svg(&SvgOptions::with_instructions(true));
    check_svg(&svg, &cfg);
    assert!(
        svg.contains("OpBranchConditional %true %then %13"),
        "instruction lines with friendly names"
    );
    assert!(
        svg.contains("stroke-dasharray=\"4 3\""),
        "the block never printed is drawn dashed"
    );
    let plain = cfg.to_svg(&SvgOptions::default());
    assert!(!plain.contains("OpBranch"));
}

#[test]
fn svg_of_a_huge_function_stays_linear() {
    // 30,000 selection diamonds in a row: 90,000 blocks, 150,000 edges.
    let mut t = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\n%void = OpTypeVoid\n%bool = OpTypeBool\n%t = OpConstantTrue %bool\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%b0 = OpLabel\n",
    );
    for i in 0..30_000 {
        t.push_str(&format!(
            "OpSelectionMerge %m{i} None\nOpBranchConditional %t %x{i} %m{i}\n%x{i} = OpLabel\nOpBranch %m{i}\n%m{i} = OpLabel\n"
        ));
    }
    t.push_str("OpReturn\nOpFunctionEnd\n");
    let words = assemble_str(&t, &AsmOptions::default()).expect("assembles");
    let cfg = ControlFlow::read(&words).expect("reads");
    assert_eq!(cfg.blocks().len(), 60_001);
    let svg = cfg.to_svg(&SvgOptions::default());
    assert_eq!(check_svg(&svg, &cfg), 60_001);
    // Output linear in the graph: a few hundred bytes per block and edge.
    assert!(svg.len() < 600 * (60_001 + 150_000), "{} bytes", svg.len());
}

/// The points of a path's `d` (`M`, `L`, `H`, `V` and `C`, absolute), cubic curves
/// sampled.
fn path_points(d: &str) -> Vec<(f64, f64)> {
    let mut tokens: Vec<(char, Vec<f64>)> = Vec::new();
    for part in d.split_inclusive(|c: char| c.is_ascii_alphabetic()) {
        // Each piece ends with the next command's letter.
        let (numbers, next) = match part.chars().last() {
            Some(c) if c.is_ascii_alphabetic() => (&part[..part.len() - 1], Some(c)),
            _ => (part, None),
        };
        let values: Vec<f64> = numbers
            .split([',', ' '])
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("a number"))
            .collect();
        if let Some(last) = tokens.last_mut() {
            last.1.extend(values);
        }
        if let Some(c) = next {
            tokens.push((c, Vec::new()));
        }
    }
    let mut at = (0.0, 0.0);
    let mut points = Vec::new();
    for (command, values) in tokens {
        match command {
            'M' | 'L' => at = (values[0], values[1]),
            'H' => at.0 = values[0],
            'V' => at.1 = values[0],
            'C' => {
                for c in values.chunks_exact(6) {
                    let (p0, p1, p2, p3) = (at, (c[0], c[1]), (c[2], c[3]), (c[4], c[5]));
                    for k in 1..=32 {
                        let t = k as f64 / 32.0;
                        let u = 1.0 - t;
                        let (a, b, cc, dd) =
                            (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                        points.push((
                            a * p0.0 + b * p1.0 + cc * p2.0 + dd * p3.0,
                            a * p0.1 + b * p1.1 + cc * p2.1 + dd * p3.1,
                        ));
                    }
                    at = p3;
                }
                continue;
            }
            other => panic!("path command {other} in {d}"),
        }
        // A straight piece: sampled too, so that it cannot jump over a box.
        let from = points.last().copied().unwrap_or(at);
        for k in 1..=16 {
            let t = k as f64 / 16.0;
            points.push((from.0 + (at.0 - from.0) * t, from.1 + (at.1 - from.1) * t));
        }
    }
    points
}

/// Each edge of each function that enters a block's box other than at its border:
/// `(function, block, path)`.
fn edges_through_boxes(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let num = |n: roxmltree::Node, a: &str| -> f64 {
        n.attribute(a)
            .expect("attribute")
            .parse()
            .expect("a number")
    };
    let mut found = Vec::new();
    for function in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("function"))
    {
        let boxes: Vec<(&str, [f64; 4])> = function
            .children()
            .filter(|n| n.attribute("class") == Some("block"))
            .filter_map(|g| {
                let rect = g.children().find(|n| n.has_tag_name("rect"))?;
                Some((
                    g.attribute("id").unwrap_or(""),
                    [
                        num(rect, "x"),
                        num(rect, "y"),
                        num(rect, "width"),
                        num(rect, "height"),
                    ],
                ))
            })
            .collect();
        for path in function.children().filter(|n| n.has_tag_name("path")) {
            let d = path.attribute("d").unwrap_or("");
            let points = path_points(d);
            for &(id, [x, y, w, h]) in &boxes {
                // Strictly inside, a pixel in from the border (ports lie on it).
                let inside = |&(px, py): &(f64, f64)| {
                    px > x + 1.0 && px < x + w - 1.0 && py > y + 1.0 && py < y + h - 1.0
                };
                if points.iter().any(inside) {
                    found.push(format!(
                        "{}: {id}: {d}",
                        function.attribute("id").unwrap_or("")
                    ));
                }
            }
        }
    }
    found
}

/// No edge runs through a block's box: long edges and back edges cross each rank
/// straight down (or up) beside the blocks there and bend only in the gaps between
/// ranks, and a block's loop to itself stays in the gap beside it. Checked on shapes
/// that provoke it (a tall block beside an edge that passes its rank, a loop beside a
/// neighbour) and on every corpus module.
#[test]
fn svg_edges_avoid_other_blocks_boxes() {
    // `%first` and `%tall` list many instructions, so their ranks are tall; edges pass
    // those ranks beside them (%entry to %head, %a to %m, and the back edge from %m to
    // %head), and %spin loops on itself beside %tall.
    let mut body = String::new();
    for i in 0..20 {
        body.push_str(&format!("%v{i} = OpIAdd %int %one %one\n"));
    }
    // %entry is wide and %first tall, so that the edge from %entry to %head passes
    // %first's rank beside it, leaving %entry above %first.
    let first = body.replace("%v", "%q");
    let wide = "%w = OpIAdd %int %one %one\n".replace("%w", &format!("%{}", "w".repeat(60)));
    let text = format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\n\
%void = OpTypeVoid\n%bool = OpTypeBool\n%int = OpTypeInt 32 1\n%one = OpConstant %int 1\n%t = OpConstantTrue %bool\n%fn = OpTypeFunction %void\n\
%main = OpFunction %void None %fn\n%entry = OpLabel\n{wide}OpSelectionMerge %head None\nOpBranchConditional %t %first %head\n\
%first = OpLabel\n{first}OpBranch %head\n\
%head = OpLabel\nOpLoopMerge %exit %m None\nOpBranch %a\n\
%a = OpLabel\nOpSelectionMerge %m None\nOpBranchConditional %t %tall %spin\n\
%tall = OpLabel\n{body}OpBranch %b\n\
%b = OpLabel\nOpBranch %m\n\
%spin = OpLabel\nOpLoopMerge %m %spin None\nOpBranchConditional %t %spin %m\n\
%m = OpLabel\nOpBranchConditional %t %head %exit\n\
%exit = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    let cfg = ControlFlow::read(&assemble_str(&text, &AsmOptions::default()).expect("assembles"))
        .expect("reads");
    for opts in [SvgOptions::with_instructions(true), SvgOptions::default()] {
        let svg = cfg.to_svg(&opts);
        check_svg(&svg, &cfg);
        let through = edges_through_boxes(&svg);
        assert!(through.is_empty(), "{through:#?}");
    }
    let Some(corpus) = env::require_corpus("cfg --format svg edge routes") else {
        return;
    };
    let mut through = Vec::new();
    for f in env::files(&corpus.join("bin"), "spv") {
        let cfg = ControlFlow::read(&words_of(&f)).expect("corpus modules read");
        let svg = cfg.to_svg(&SvgOptions::with_instructions(true));
        through.extend(
            edges_through_boxes(&svg)
                .into_iter()
                .map(|e| format!("{}: {e}", f.display())),
        );
    }
    assert!(
        through.is_empty(),
        "{} edges, first {:#?}",
        through.len(),
        &through[..through.len().min(5)]
    );
}
