//! Reading a module: the header, every instruction checked against the grammar tables
//! (a fast path for layouts of plain words), id facts recorded, and the layout followed.

use super::layout::Layout;
use super::{Module, ReadContext, ReadOptions};
use crate::__private::Vec;
use crate::binary::{self, RawInstructions};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::spv;
use crate::walk::{self, ExtInstRegistry, Ids, WalkOptions};

impl Module {
    /// Reads a module from bytes in either byte order, leniently with every vendored
    /// extended set known (see [`Module`] for what reading checks).
    ///
    /// ```
    /// use spirv_core::{spv, Module};
    /// // OpCapability Shader, then OpMemoryModel Logical GLSL450.
    /// let words = [0x0723_0203, 0x0001_0000, 0, 1, 0, 0x0002_0011, 1, 0x0003_000e, 0, 1];
    /// let bytes: Vec<u8> = words.iter().flat_map(|w: &u32| w.to_le_bytes()).collect();
    /// let module = Module::from_bytes(&bytes)?;
    /// assert_eq!(module.instruction(1).map(|i| i.opcode()), Some(spv::Opcode::MemoryModel));
    ///
    /// let err = Module::from_bytes(&bytes[..30]).unwrap_err();
    /// assert_eq!(err.to_string(), "byte length 30 is not a multiple of 4 at word 7");
    /// # Ok::<(), spirv_core::DecodeError>(())
    /// ```
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Module, DecodeError> {
        let (words, _) = binary::words_from_bytes(bytes)?;
        Self::read_owned(words, &ReadOptions::default())
    }

    /// Reads a module from words (host order; a byte-swapped magic is accepted and the
    /// words are swapped), leniently with every vendored extended set known.
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn from_words(words: &[u32]) -> Result<Module, DecodeError> {
        Self::read(words, &ReadOptions::default())
    }

    /// Reads with options.
    ///
    /// ```
    /// use spirv_core::{DecodeErrorKind, Module, ReadOptions};
    /// // OpCapability Shader; then an opcode no grammar has (4095).
    /// let words = [0x0723_0203, 0x0001_0000, 0, 1, 0, 0x0002_0011, 1, 0x0001_0fff];
    /// let lenient = Module::read(&words, &ReadOptions::default())?;
    /// assert_eq!(lenient.len(), 2, "kept as raw words");
    ///
    /// let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    /// let err = Module::read(&words, &strict).unwrap_err();
    /// assert_eq!(err.kind, DecodeErrorKind::UnknownOpcode { opcode: 4095 });
    /// assert_eq!((err.instruction, err.offset), (Some(1), 7));
    /// # Ok::<(), spirv_core::DecodeError>(())
    /// ```
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn read(words: &[u32], opts: &ReadOptions<'_>) -> Result<Module, DecodeError> {
        Self::read_owned(words.to_vec(), opts)
    }

    /// Reads, taking ownership of the words.
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn read_owned(words: Vec<u32>, opts: &ReadOptions<'_>) -> Result<Module, DecodeError> {
        let checks = Checks {
            walk_strict: opts.strict,
            zero_ids: opts.strict,
            bound: opts.strict,
            layout: opts.strict,
            keep_issues: true,
        };
        Self::read_checked(words, opts, checks, None)
    }

    /// Reads as spirv-val's parser does before it validates: strict about what the
    /// grammar and registry do not know and about ids of 0, lenient about the bound
    /// and the layout, which the validator checks itself with its own messages.
    /// The words are taken only when the read succeeds (in host order): a caller that
    /// reports the error still has them.
    #[cfg(feature = "validate")]
    pub(crate) fn read_for_validation(
        words: &mut Vec<u32>,
        registry: &ExtInstRegistry,
    ) -> Result<Module, DecodeError> {
        let opts = ReadOptions {
            strict: true,
            registry: Some(registry),
            globals_only: false,
        };
        let checks = Checks {
            walk_strict: true,
            zero_ids: true,
            bound: false,
            layout: false,
            // The validator follows the layout itself: a list of departures would cost
            // a record per instruction of a module made of them, and serve nothing.
            keep_issues: false,
        };
        Self::read_checked_in(words, &opts, checks, None)
    }

    /// [`Module::read_checked_in`] of words given up.
    fn read_checked(
        mut words: Vec<u32>,
        opts: &ReadOptions<'_>,
        checks: Checks,
        untrusted: Option<&[u32]>,
    ) -> Result<Module, DecodeError> {
        Self::read_checked_in(&mut words, opts, checks, untrusted)
    }

    /// `untrusted`: with `Some`, every instruction but those listed (ascending indices)
    /// is known to have passed this read's checks already (it is an instruction of a
    /// module read with the same options, its ids unchanged), so its operands are not
    /// walked again: its result type and result are where the grammar puts them.
    /// The words are swapped to host order in place, and taken only when the read
    /// succeeds.
    fn read_checked_in(
        words: &mut Vec<u32>,
        opts: &ReadOptions<'_>,
        checks: Checks,
        untrusted: Option<&[u32]>,
    ) -> Result<Module, DecodeError> {
        if words.first() == Some(&binary::MAGIC.swap_bytes()) {
            binary::swap_words(words);
        }
        let context = ReadContext {
            strict: opts.strict,
            globals_only: opts.globals_only,
            registry: opts.registry.cloned(),
        };
        let default_registry;
        let registry = match opts.registry {
            Some(r) => r,
            None => {
                default_registry = ExtInstRegistry::default();
                &default_registry
            }
        };
        let (header, iter) = RawInstructions::module(words)?;
        let mut offsets = Vec::with_capacity(words.len() / 4);
        let mut ids = Ids::new(words.len());
        let mut layout = Layout::new();
        let wopts = WalkOptions {
            strict: checks.walk_strict,
            ..WalkOptions::default()
        };
        let mut untrusted = untrusted.map(|u| u.iter().copied().peekable());
        for raw in iter {
            let raw = raw?;
            let index = offsets.len() as u32;
            let opcode = spv::Opcode(raw.opcode);
            let info = spv::GRAMMAR.instruction(u32::from(raw.opcode));
            let err = |kind, at: usize| DecodeError::new(kind, raw.offset + 1 + at, raw.index);
            let unchecked =
                opts.globals_only && layout.in_function() && opcode != spv::Opcode::FunctionEnd;
            let trusted = untrusted
                .as_mut()
                .is_some_and(|u| u.next_if_eq(&index).is_none());
            match info {
                _ if unchecked => {}
                Some(info) if trusted => {
                    let summary = walk::grammar_summary(info, raw.operands);
                    if let Err(kind) =
                        walk::observe(&mut ids, registry, raw.opcode, raw.operands, &summary)
                    {
                        return Err(err(kind, 1));
                    }
                }
                Some(info) if !checks.walk_strict && !checks.zero_ids => {
                    if let Err((kind, at)) =
                        observe_lenient(&mut ids, registry, info, raw.opcode, raw.operands)
                    {
                        return Err(err(kind, at));
                    }
                }
                Some(info) => {
                    let bound = header.bound;
                    let mut bad_id = None;
                    let mut unknown = false;
                    let mut check_id = |at: usize| {
                        if checks.zero_ids && bad_id.is_none() {
                            let id = raw.operands[at];
                            if id == 0 || (checks.bound && id >= bound) {
                                bad_id = Some((id, at));
                            }
                        }
                    };
                    // A layout of plain words whose enumerants are all known takes no
                    // walk: its ids and result are where its shape puts them, and the
                    // walk would find nothing else to refuse.
                    let res = match info.shape {
                        Some(shape)
                            if walk::shaped_ids(info, raw.operands, &mut |_, at| check_id(at)) =>
                        {
                            let at = |i: u8| (i != u8::MAX).then(|| raw.operands[usize::from(i)]);
                            Ok(walk::Summary {
                                result_type: at(shape.result_type),
                                result_id: at(shape.result),
                                saw_unknown: false,
                            })
                        }
                        _ => walk::walk(info, raw.operands, &ids, wopts, &mut |p| {
                            unknown |= p.unknown;
                            if p.kind.is_id() {
                                check_id(p.start);
                            }
                        }),
                    };
                    match res {
                        Ok(summary) => {
                            if let Some((id, at)) = bad_id {
                                let kind = match id {
                                    0 => DecodeErrorKind::ZeroId,
                                    _ => DecodeErrorKind::IdOutOfBounds { id, bound },
                                };
                                return Err(err(kind, at));
                            }
                            if let Err(kind) = walk::observe(
                                &mut ids,
                                registry,
                                raw.opcode,
                                raw.operands,
                                &summary,
                            ) {
                                return Err(err(kind, 1));
                            }
                            if checks.walk_strict && walk::unknown_import(&ids, raw.opcode) {
                                return Err(err(DecodeErrorKind::UnknownExtInstImport, 1));
                            }
                        }
                        // An unknown enumerant may have taken parameters we cannot see:
                        // keep the instruction as it is.
                        Err(_) if unknown && !checks.walk_strict => {}
                        Err((kind, at)) => return Err(err(kind, at)),
                    }
                }
                None if checks.walk_strict => {
                    return Err(DecodeError::new(
                        DecodeErrorKind::UnknownOpcode {
                            opcode: u32::from(raw.opcode),
                        },
                        raw.offset,
                        raw.index,
                    ));
                }
                None => {}
            }
            let issues = layout.issues.len();
            layout.step(index, raw.offset, opcode, info);
            if checks.layout {
                if let Some(issue) = layout.issues.get(issues) {
                    return Err(issue.into());
                }
            }
            if !checks.keep_issues {
                layout.issues.truncate(issues);
            }
            offsets.push(raw.offset as u32);
        }
        let issues = layout.issues.len();
        layout.finish(offsets.len() as u32);
        if checks.layout {
            if let Some(issue) = layout.issues.get(issues) {
                return Err(issue.into());
            }
        }
        Ok(Module {
            header,
            words: core::mem::take(words),
            offsets,
            sections: layout.sections,
            functions: layout.functions,
            blocks: layout.blocks,
            issues: layout.issues,
            // A strict read checks every id against the bound; a lenient one does
            // not look at every id (the first edit that needs to know does).
            id_ceiling: checks.bound.then_some(header.bound),
            written: false,
            ids,
            context,
        })
    }

    /// The options this module was read with, for a re-read.
    pub(crate) fn reread(&self, words: Vec<u32>) -> Result<Module, DecodeError> {
        let opts = ReadOptions {
            strict: self.context.strict,
            globals_only: self.context.globals_only,
            registry: self.context.registry.as_ref(),
        };
        Module::read_owned(words, &opts)
    }

    /// [`Module::reread`] of words made from this module's instructions: all but those
    /// at the indices `untrusted` lists (ascending) are instructions of this module,
    /// their ids unchanged, and are not checked again.
    #[cfg(feature = "edit")]
    pub(crate) fn reread_trusted(
        &self,
        words: Vec<u32>,
        untrusted: &[u32],
    ) -> Result<Module, DecodeError> {
        let opts = ReadOptions {
            strict: self.context.strict,
            globals_only: self.context.globals_only,
            registry: self.context.registry.as_ref(),
        };
        let checks = Checks {
            walk_strict: opts.strict,
            zero_ids: opts.strict,
            bound: opts.strict,
            layout: opts.strict,
            keep_issues: true,
        };
        Self::read_checked(words, &opts, checks, Some(untrusted))
    }
}

/// What a lenient read does with an instruction the grammar knows: a layout of plain
/// words needs only a length check, others are walked, and what it defines is recorded.
/// An unknown enumerant may have taken parameters the walk cannot see: such an
/// instruction is kept as it is. The error names the operand it is about.
#[inline]
pub fn observe_lenient(
    ids: &mut Ids,
    registry: &ExtInstRegistry,
    info: &'static crate::grammar::InstructionInfo,
    opcode: u16,
    operands: &[u32],
) -> Result<(), (DecodeErrorKind, usize)> {
    match summarize_lenient(ids, info, operands)? {
        Some(summary) => {
            walk::observe(ids, registry, opcode, operands, &summary).map_err(|kind| (kind, 1))
        }
        None => Ok(()),
    }
}

/// The result type and result a lenient read finds in an instruction the grammar
/// knows ([`observe_lenient`] without recording them); `None` for an instruction kept
/// as it is.
#[inline]
pub(crate) fn summarize_lenient(
    ids: &Ids,
    info: &'static crate::grammar::InstructionInfo,
    operands: &[u32],
) -> Result<Option<walk::Summary>, (DecodeErrorKind, usize)> {
    if let Some(shape) = info.shape.filter(|s| s.accepts(operands.len())) {
        let at = |i: u8| (i != u8::MAX).then(|| operands[usize::from(i)]);
        return Ok(Some(walk::Summary {
            result_type: at(shape.result_type),
            result_id: at(shape.result),
            saw_unknown: false,
        }));
    }
    let fast = walk::trailing(info, operands, &mut |_, _| {})
        .or_else(|| walk::ext_inst(info, operands, ids, &mut |_, _| {}));
    if let Some(summary) = fast {
        return Ok(Some(summary));
    }
    let mut unknown = false;
    match walk::walk(info, operands, ids, WalkOptions::default(), &mut |p| {
        unknown |= p.unknown;
    }) {
        Ok(summary) => Ok(Some(summary)),
        Err(_) if unknown => Ok(None),
        Err(e) => Err(e),
    }
}

/// What a read refuses beyond the binary form (see [`ReadOptions`]).
#[derive(Debug, Clone, Copy)]
struct Checks {
    /// Unknown opcodes, enumerants, extended sets and extended instructions.
    walk_strict: bool,
    /// Id operands of 0 (and, with `bound`, ids not below the bound).
    zero_ids: bool,
    /// Id operands not below the header's bound.
    bound: bool,
    /// Departures from the logical layout.
    layout: bool,
    /// Keep the departures a lenient read records ([`Module::layout_issues`]).
    keep_issues: bool,
}
