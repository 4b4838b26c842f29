//! Fast layouts beyond the shapes, for instructions of single words that end in one
//! operand sized by its own words: a string (`OpName`, `OpMemberName`, `OpString`,
//! `OpExtInstImport`), a value enumerant with single-word parameters (`OpDecorate`,
//! `OpMemberDecorate`, `OpExecutionMode`), or a mask whose bits take single-word
//! parameters (`OpLoad`/`OpStore` with `Aligned`, the image operands); and for extended
//! instructions whose set lays them out in single words. A shape cannot say where
//! these end, so without this each would be walked; what they find is what
//! [`walk`](super::walk) finds with default options.

use super::{Ids, Summary};
use crate::codec::decode_string;
use crate::grammar::{InstructionInfo, KindClass, OperandInfo, OperandKind, Quantifier};
use crate::types::Id;

/// The summary of an instruction with such a layout (`words` are its operands), calling
/// `f(class, word)` for each id operand in order; `None`, having called nothing, when
/// the layout is not one of these or the words do not lay out exactly (an enumerant not
/// known, or one with parameters where a single word is wanted, a string not ending at
/// the last word, a count that does not fit): the walk then takes over and says why.
#[inline]
pub fn trailing(
    info: &'static InstructionInfo,
    words: &[u32],
    f: &mut impl FnMut(KindClass, usize),
) -> Option<Summary> {
    trailing_layout(info, words).map(|found| found.report(words, f))
}

/// What [`trailing`] finds before it reports: apart from `f`, so that this is compiled
/// once rather than once per caller's `f`.
fn trailing_layout(info: &'static InstructionInfo, words: &[u32]) -> Option<Found> {
    let (last, prefix) = info.operands.split_last()?;
    // A switch sizes its literals by the selector: never one of these.
    if info.switch_literals || words.len() > 64 {
        return None;
    }
    let mut found = Found::default();
    let mut pos = found.singles(prefix, words, 0)?;
    match last.quantifier {
        Quantifier::Optional if pos == words.len() => {}
        Quantifier::Variadic => pos = found.singles(core::slice::from_ref(last), words, pos)?,
        _ => pos = found.last(last.kind, words, pos)?,
    }
    (pos == words.len()).then_some(found)
}

/// [`trailing`] for `OpExtInst`: the result type, the result, the set, the instruction
/// number, then the operands the set's grammar gives that instruction, when they are
/// single words. `ids` says what the set is.
#[inline]
pub fn ext_inst(
    info: &'static InstructionInfo,
    words: &[u32],
    ids: &Ids,
    f: &mut impl FnMut(KindClass, usize),
) -> Option<Summary> {
    ext_inst_layout(info, words, ids).map(|found| found.report(words, f))
}

/// What [`ext_inst`] finds before it reports (see [`trailing_layout`]).
fn ext_inst_layout(info: &'static InstructionInfo, words: &[u32], ids: &Ids) -> Option<Found> {
    let head = [
        KindClass::ResultType,
        KindClass::Result,
        KindClass::Id,
        KindClass::ExtInstNumber,
    ];
    let classes = info.operands.iter().map(|o| o.kind.class);
    if words.len() < 4 || words.len() > 64 || !classes.take(4).eq(head) {
        return None;
    }
    let ext = ids.ext_set(Id(words[2]))?.grammar?.instruction(words[3])?;
    let mut found = Found {
        ids: 0b111,
        result_type: Some(0),
        result: Some(1),
    };
    let pos = found.singles(ext.operands, words, 4)?;
    (pos == words.len()).then_some(found)
}

/// What a layout found so far: where the ids, the result type and the result are.
#[derive(Default)]
struct Found {
    ids: u64,
    result_type: Option<usize>,
    result: Option<usize>,
}

impl Found {
    /// Takes `word`, at operand `at`, as one operand of `kind`; false if it is not a
    /// single word the walk would take as it is.
    #[inline]
    fn single(&mut self, kind: &'static OperandKind, word: u32, at: usize) -> bool {
        match kind.class {
            KindClass::ResultType => self.result_type = Some(at),
            KindClass::Result => self.result = Some(at),
            KindClass::Id => {}
            KindClass::Integer | KindClass::Float => return true,
            KindClass::ValueEnum => {
                return kind
                    .enumerant(word)
                    .is_some_and(|e| e.parameters.is_empty());
            }
            _ => return false,
        }
        self.ids |= 1 << at;
        true
    }

    /// Lays `ops` over the words from `pos` as the walk lays out single words (an
    /// optional operand taken if a word is left, a variadic one while words are left);
    /// returns where they end, or `None` if one is not a single word or a required one
    /// has no word.
    #[inline]
    fn singles(&mut self, ops: &[OperandInfo], words: &[u32], mut pos: usize) -> Option<usize> {
        for op in ops {
            let mut take = |pos: &mut usize| -> Option<()> {
                let word = *words.get(*pos)?;
                self.single(op.kind, word, *pos).then_some(())?;
                *pos += 1;
                Some(())
            };
            match op.quantifier {
                Quantifier::One => take(&mut pos)?,
                Quantifier::Optional if pos < words.len() => take(&mut pos)?,
                Quantifier::Optional => {}
                Quantifier::Variadic => {
                    while pos < words.len() {
                        take(&mut pos)?;
                    }
                }
            }
        }
        Some(pos)
    }

    /// Lays out the last operand, of `kind`, at `pos`: a string, an enumerant and its
    /// parameters, a mask and its bits' parameters, or a single word; returns where it
    /// ends.
    #[inline]
    fn last(&mut self, kind: &'static OperandKind, words: &[u32], pos: usize) -> Option<usize> {
        let word = *words.get(pos)?;
        match kind.class {
            KindClass::String => decode_string(&words[pos..]).map(|(_, _, used)| pos + used),
            KindClass::ValueEnum => {
                let e = kind.enumerant(word)?;
                self.exact(e.parameters, words, pos + 1)
            }
            KindClass::BitEnum => {
                let mut pos = pos + 1;
                for bit in crate::grammar::set_bits(word) {
                    pos = self.exact(kind.enumerant(bit)?.parameters, words, pos)?;
                }
                Some(pos)
            }
            _ => self.single(kind, word, pos).then_some(pos + 1),
        }
    }

    /// Parameters, each once and a single word, from `pos`; where they end.
    #[inline]
    fn exact(&mut self, params: &[OperandInfo], words: &[u32], pos: usize) -> Option<usize> {
        if params.iter().any(|p| p.quantifier != Quantifier::One) {
            return None;
        }
        self.singles(params, words, pos)
    }

    /// Reports the ids found to `f`, in order; the summary.
    fn report(&self, words: &[u32], f: &mut impl FnMut(KindClass, usize)) -> Summary {
        let mut bits = self.ids;
        while bits != 0 {
            let at = bits.trailing_zeros() as usize;
            let class = if Some(at) == self.result_type {
                KindClass::ResultType
            } else if Some(at) == self.result {
                KindClass::Result
            } else {
                KindClass::Id
            };
            f(class, at);
            bits &= bits - 1;
        }
        Summary {
            result_type: self.result_type.map(|at| words[at]),
            result_id: self.result.map(|at| words[at]),
            saw_unknown: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::Vec;
    use crate::spv;
    use crate::walk::{Ids, WalkOptions, walk};
    use alloc::vec;

    /// Every instruction, over lengths and fills, and every enumerant of a trailing
    /// value enum with parameters of every count: where the fast layout answers, the
    /// walk agrees on the ids and the summary.
    #[test]
    fn trailing_matches_the_walk() {
        let ids = Ids::new(0);
        let mut cases: Vec<(&'static InstructionInfo, Vec<u32>)> = Vec::new();
        // Fills: small ids and enumerants, `DescriptorSet` (34), a string's last word
        // (a NUL in it), a word with no NUL byte.
        let fills = [0u32, 1, 2, 11, 34, 0x0067_6f6c, 0x6f6c_6f6c];
        for info in spv::GRAMMAR.instructions {
            for n in 0..7u32 {
                for &fill in &fills {
                    for last in [fill, 0, 0x6f6c_6f6c] {
                        let mut words: Vec<u32> =
                            (0..n).map(|i| fill.wrapping_add(i % 2)).collect();
                        if let Some(w) = words.last_mut() {
                            *w = last;
                        }
                        cases.push((info, words));
                    }
                }
            }
            let Some((last, prefix)) = info.operands.split_last() else {
                continue;
            };
            if last.kind.class != KindClass::ValueEnum {
                continue;
            }
            for e in last.kind.enumerants {
                for extra in 0..4 {
                    for &fill in &fills[..4] {
                        let mut words = vec![fill; prefix.len()];
                        words.push(e.value);
                        words.extend((0..extra).map(|_| fill));
                        cases.push((info, words));
                    }
                }
            }
        }
        let mut answered = 0;
        for (info, words) in &cases {
            let mut fast = Vec::new();
            let Some(summary) = trailing(info, words, &mut |c, at| fast.push((c, at))) else {
                assert!(fast.is_empty());
                continue;
            };
            answered += 1;
            let mut walked = Vec::new();
            let mut unknown = false;
            let s = walk(info, words, &ids, WalkOptions::default(), &mut |p| {
                unknown |= p.unknown;
                if p.kind.is_id() {
                    walked.push((p.kind.class, p.start));
                }
            })
            .unwrap_or_else(|e| panic!("{} {words:?}: walk fails: {e:?}", info.opname));
            assert!(!unknown, "{} {words:?}", info.opname);
            assert_eq!(fast, walked, "{} {words:?}", info.opname);
            assert_eq!(summary, s, "{} {words:?}", info.opname);
        }
        assert!(answered > 2000, "{answered} of {}", cases.len());
    }

    /// Every instruction of every vendored extended set, over operand counts and fills:
    /// where the fast layout answers, the walk agrees.
    #[test]
    fn ext_inst_matches_the_walk() {
        let registry = crate::walk::ExtInstRegistry::default();
        let ext_inst = spv::GRAMMAR.instruction(12).unwrap();
        let mut answered = 0;
        for set in crate::ext::VENDORED {
            let mut ids = Ids::new(0);
            let name = set.import_name.unwrap_or(set.name);
            if !registry
                .lookup(name.as_bytes())
                .is_some_and(|g| core::ptr::eq(g, *set))
            {
                continue;
            }
            let mut import = vec![1u32];
            crate::codec::encode_string(name.as_bytes(), &mut import);
            let summary = Summary {
                result_id: Some(1),
                ..Summary::default()
            };
            crate::walk::observe(&mut ids, &registry, 11, &import, &summary).unwrap();
            for inst in set.instructions {
                for extra in 0..6u32 {
                    for fill in [1u32, 2, 0, 0x7fff_ffff] {
                        let mut words = vec![5, 6, 1, inst.opcode];
                        words.extend((0..extra).map(|i| fill.wrapping_add(i % 2)));
                        let mut fast = Vec::new();
                        let Some(s) = super::ext_inst(ext_inst, &words, &ids, &mut |c, at| {
                            fast.push((c, at))
                        }) else {
                            continue;
                        };
                        answered += 1;
                        let mut walked = Vec::new();
                        let w = walk(ext_inst, &words, &ids, WalkOptions::default(), &mut |p| {
                            if p.kind.is_id() {
                                walked.push((p.kind.class, p.start));
                            }
                        })
                        .unwrap_or_else(|e| panic!("{} {words:?}: {e:?}", inst.opname));
                        assert_eq!(fast, walked, "{} {words:?}", inst.opname);
                        assert_eq!(s, w, "{} {words:?}", inst.opname);
                    }
                }
            }
        }
        assert!(answered > 1000, "{answered}");
    }
}
