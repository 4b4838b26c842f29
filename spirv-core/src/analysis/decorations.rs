//! The decorations of every id: one index over a borrowed [`Module`], built in one
//! pass, with the [`DecorationRules`] of the tool whose meaning is wanted (spirv-val
//! does not register `OpDecorateString` nor `OpMemberDecorateString`; the editor and
//! reflection take every decoration instruction). The validator asks it spirv-val's
//! questions (`HasDecoration`, `id_decorations`), the editor and spirv-opt's
//! structural passes which instructions decorate an id. Reflection folds each
//! instruction's [`registration`] into its decoded values as it reads the module,
//! without the sorted tables, which it would never ask.
//!
//! spirv-val keeps, for each id, a `std::set` of decorations ordered by member index
//! (none first), decoration and parameters; a group decoration copies the group's set,
//! as it stands at that instruction, into each target's. Here a target keeps only a
//! reference to the group and how far its set went, so that a group of k decorations
//! applied to n targets costs n + k, not n·k; questions about one decoration kind are
//! answered from the group's entries of that kind, which are indexed once.

use crate::__private::Vec;
use crate::module::{InstRef, Module, Section};
use crate::spv::{self, Opcode as O};
use crate::types::Id;
use alloc::collections::BTreeMap;
use core::cell::RefCell;

/// Which instructions register decorations, and under which ids, as one tool reads
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecorationRules {
    /// spirv-val's (`ValidationState_t::RegisterDecorationsForId`): `OpDecorate`,
    /// `OpDecorateId`, `OpMemberDecorate`, `OpGroupDecorate` and
    /// `OpGroupMemberDecorate` (each pair's member of its id), not the string forms; a
    /// group applies what it has at the applying instruction, and an id listed again
    /// by the same group keeps one application, the last (whose set includes the
    /// earlier ones').
    SpirvVal,
    /// spirv-opt's decoration manager's (`DecorationManager::AnalyzeDecorations`):
    /// `OpDecorate`, `OpDecorateId`, `OpDecorateString`, `OpMemberDecorate` (not
    /// `OpMemberDecorateString`), `OpGroupDecorate`, and `OpGroupMemberDecorate` filed
    /// under the ids equal to its member numbers, which it takes for targets; each
    /// listing counts.
    SpirvOpt,
    /// Every decoration instruction, the string forms included, and every listing of
    /// an id (each pair's member of its id) by a group decoration: the editor's and
    /// reflection's.
    All,
}

/// One instruction's registration, as [`DecorationRules`] read it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Registration<'m> {
    /// A decoration of `target` (or of its `member`); `string` for the string forms,
    /// whose parameters are literal strings.
    Direct {
        target: u32,
        member: Option<u32>,
        kind: u32,
        #[cfg_attr(not(feature = "reflect"), allow(dead_code))]
        params: &'m [u32],
        #[cfg_attr(not(feature = "reflect"), allow(dead_code))]
        string: bool,
    },
    /// A group's decorations applied to `targets`: ids (`OpGroupDecorate`), or id and
    /// member pairs (`OpGroupMemberDecorate`, `pairs`).
    Group {
        group: u32,
        targets: &'m [u32],
        pairs: bool,
    },
}

/// What `inst` registers under `rules`, if anything.
pub(crate) fn registration<'m>(
    rules: DecorationRules,
    inst: InstRef<'m>,
) -> Option<Registration<'m>> {
    let op = inst.opcode();
    match op {
        O::DecorateString | O::MemberDecorateString if rules == DecorationRules::SpirvVal => {
            return None;
        }
        O::MemberDecorateString if rules == DecorationRules::SpirvOpt => return None,
        O::Decorate
        | O::DecorateId
        | O::DecorateString
        | O::MemberDecorate
        | O::MemberDecorateString
        | O::GroupDecorate
        | O::GroupMemberDecorate => {}
        _ => return None,
    }
    // Only the registering instructions' words are read.
    let w = inst.words();
    let get = |k: usize| w.get(k).copied();
    match op {
        O::Decorate | O::DecorateId | O::DecorateString => Some(Registration::Direct {
            target: get(1)?,
            member: None,
            kind: get(2)?,
            params: w.get(3..).unwrap_or(&[]),
            string: op == O::DecorateString,
        }),
        O::MemberDecorate | O::MemberDecorateString => Some(Registration::Direct {
            target: get(1)?,
            member: Some(get(2)?),
            kind: get(3)?,
            params: w.get(4..).unwrap_or(&[]),
            string: op == O::MemberDecorateString,
        }),
        O::GroupDecorate | O::GroupMemberDecorate => Some(Registration::Group {
            group: get(1).unwrap_or(0),
            targets: w.get(2..).unwrap_or(&[]),
            pairs: op == O::GroupMemberDecorate,
        }),
        _ => None,
    }
}

/// The member index of a decoration of the id itself (spirv-val's `kInvalidMember`).
pub(crate) const NO_MEMBER: u32 = u32::MAX;

/// `0..n` sorted by `key`, ties in index order. Every sort of [`DecorationIndex::build`]
/// goes through it, so that the standard library's sort is compiled once for this
/// module rather than once per key (about 3,000 lines of LLVM IR each); each key is
/// computed once.
fn sorted(n: usize, key: &dyn Fn(usize) -> u128) -> Vec<usize> {
    let mut keyed: Vec<(u128, usize)> = (0..n).map(|i| (key(i), i)).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Four words as one sort key, the first most significant.
fn key4(a: u32, b: u32, c: u32, d: u32) -> u128 {
    (u128::from(a) << 96) | (u128::from(b) << 64) | (u128::from(c) << 32) | u128::from(d)
}

/// The order spirv-val's sets sort members in: no member (-1) first.
fn member_key(member: u32) -> u32 {
    member.wrapping_add(1)
}

/// The parameters of a decoration: after the decoration in its instruction.
fn entry_params<'m>(module: &'m Module, e: &Entry) -> &'m [u32] {
    module
        .instruction(e.inst as usize)
        .and_then(|x| {
            let member = matches!(x.opcode(), O::MemberDecorate | O::MemberDecorateString);
            let at = if member { 4 } else { 3 };
            x.words().get(at..)
        })
        .unwrap_or(&[])
}

/// One decoration as an instruction registers it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    target: u32,
    /// [`NO_MEMBER`] for the id itself.
    member: u32,
    kind: u32,
    /// The registering instruction (its parameters follow the decoration).
    inst: u32,
}

/// Where group decorations come from: an `OpGroupDecorate` (no member), or one pair
/// of an `OpGroupMemberDecorate`; the group's decorations registered before `inst`.
#[derive(Debug, Clone, Copy)]
struct Source {
    group: u32,
    inst: u32,
    member: u32,
}

/// A group's decorations applied to a target (or a member of it): the target and its
/// [`Source`].
#[derive(Debug, Clone, Copy)]
struct App {
    target: u32,
    source: u32,
}

/// An application with its source, as the questions read it.
#[derive(Debug, Clone, Copy)]
struct Applied {
    #[cfg_attr(not(feature = "validate"), allow(dead_code))]
    member: u32,
    group: u32,
    inst: u32,
}

/// A group's own decorations, by kind then registration order, with the least and the
/// greatest parameters among each kind's entries so far.
#[derive(Debug, Default)]
struct Group {
    /// (kind, instruction, index into `direct` of the least so far, of the greatest).
    by_kind: Vec<(u32, u32, u32, u32)>,
}

/// One decoration as the rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(feature = "validate")]
pub(crate) struct Dec<'m> {
    /// [`NO_MEMBER`] for the id itself.
    pub(crate) member: u32,
    pub(crate) kind: u32,
    pub(crate) params: &'m [u32],
}

#[cfg(feature = "validate")]
impl Dec<'_> {
    /// spirv-val's set order.
    fn cmp_key(&self, other: &Self) -> core::cmp::Ordering {
        (member_key(self.member), self.kind, self.params).cmp(&(
            member_key(other.member),
            other.kind,
            other.params,
        ))
    }
}

/// The decorations of every id, under one tool's [`DecorationRules`]. Built in one
/// pass over the module (then sorted); each question costs a binary search, plus the
/// groups applied to the id.
///
/// ```
/// use spirv_core::analysis::{DecorationIndex, DecorationRules};
/// use spirv_core::{spv, spv::inst, Builder, Id};
/// let mut b = Builder::new((1, 0));
/// let ty = b.id()?;
/// b.push(inst::Decorate { target: ty, decoration: spv::DecorationData::Block })?;
/// b.push(inst::TypeStruct { result_id: ty, member_types: Default::default() })?;
/// let m = b.build()?;
/// let index = DecorationIndex::new(&m, DecorationRules::SpirvVal);
/// assert!(index.has_decoration(ty, spv::Decoration::Block));
/// assert_eq!(index.decorated_ids().collect::<Vec<_>>(), [ty]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct DecorationIndex<'m> {
    #[cfg_attr(not(feature = "validate"), allow(dead_code))]
    module: &'m Module,
    /// Direct decorations, sorted by target, member, kind, parameters.
    direct: Vec<Entry>,
    /// Group applications, sorted by target and member; under
    /// [`DecorationRules::SpirvVal`], for one group, target and member only the last.
    apps: Vec<App>,
    sources: Vec<Source>,
    /// Each id some application names as a group, sorted by id (see [`Self::group`]).
    groups: Vec<(u32, Group)>,
    /// Each (target, kind) of `direct`, with the first instruction registering it.
    kinds: Vec<(u32, u32, u32)>,
    /// Indices into `direct`, by target and kind (then member and parameters).
    #[cfg_attr(not(feature = "validate"), allow(dead_code))]
    by_kind: Vec<u32>,
    /// (group, instruction) of each group decoration, by group then module order.
    #[cfg_attr(not(feature = "edit"), allow(dead_code))]
    applications: Vec<(u32, u32)>,
    /// Answers of [`DecorationIndex::first_registered`] for ids with many groups.
    memo: RefCell<BTreeMap<(u32, u32), u32>>,
}

impl<'m> DecorationIndex<'m> {
    /// Registers the decorations of all `module`'s instructions as `rules` say (the
    /// validator's and reflection's reading: a lenient read may keep annotations out of
    /// their section).
    pub fn new(module: &'m Module, rules: DecorationRules) -> Self {
        Self::build(module, rules, 0..module.len())
    }

    /// Registers the decorations of `module`'s annotation section only, as `rules` say
    /// (what an optimizer keeps as annotations, and edits).
    pub fn of_annotations(module: &'m Module, rules: DecorationRules) -> Self {
        Self::build(module, rules, module.section_range(Section::Annotation))
    }

    /// Not generic (a range rather than an iterator): its sorts, each a copy of the
    /// standard library's for its key, are compiled once, not once per caller.
    fn build(module: &'m Module, rules: DecorationRules, range: core::ops::Range<usize>) -> Self {
        let insts = || range.clone().filter_map(|i| module.instruction(i));
        // The sizes first, so that the tables are allocated once.
        let (mut n_direct, mut n_apps) = (0, 0);
        for inst in insts() {
            match registration(rules, inst) {
                Some(Registration::Direct { .. }) => n_direct += 1,
                Some(Registration::Group { targets, pairs, .. }) => {
                    n_apps += if pairs {
                        targets.len() / 2
                    } else {
                        targets.len()
                    }
                }
                None => {}
            }
        }
        let mut direct = Vec::with_capacity(n_direct);
        let mut apps = Vec::with_capacity(n_apps);
        let mut sources: Vec<Source> = Vec::new();
        let mut applications: Vec<(u32, u32)> = Vec::new();
        for inst in insts() {
            let Some(reg) = registration(rules, inst) else {
                continue;
            };
            let i = inst.index() as u32;
            match reg {
                Registration::Direct {
                    target,
                    member,
                    kind,
                    ..
                } => direct.push(Entry {
                    target,
                    member: member.unwrap_or(NO_MEMBER),
                    kind,
                    inst: i,
                }),
                Registration::Group {
                    group,
                    targets,
                    pairs,
                } if !pairs || rules == DecorationRules::SpirvOpt => {
                    applications.push((group, i));
                    let source = sources.len() as u32;
                    sources.push(Source {
                        group,
                        inst: i,
                        member: NO_MEMBER,
                    });
                    // spirv-opt files a member decoration under each member number.
                    let skip = usize::from(pairs);
                    let step = 1 + usize::from(pairs);
                    for &target in targets.iter().skip(skip).step_by(step) {
                        apps.push(App { target, source });
                    }
                }
                Registration::Group { group, targets, .. } => {
                    applications.push((group, i));
                    for pair in targets.chunks_exact(2) {
                        apps.push(App {
                            target: pair[0],
                            source: sources.len() as u32,
                        });
                        sources.push(Source {
                            group,
                            inst: i,
                            member: pair[1],
                        });
                    }
                }
            }
        }
        // Group, then module order (pushed in it).
        let order = sorted(applications.len(), &|i| {
            let (group, inst) = applications[i];
            key4(0, 0, group, inst)
        });
        let applications: Vec<(u32, u32)> = order.iter().map(|&i| applications[i]).collect();
        let params = |e: &Entry| entry_params(module, e);
        direct.sort_unstable_by(|a, b| {
            (a.target, member_key(a.member), a.kind)
                .cmp(&(b.target, member_key(b.member), b.kind))
                .then_with(|| params(a).cmp(params(b)))
                .then(a.inst.cmp(&b.inst))
        });
        // The groups: each id some application names as one.
        let mut ids: Vec<u32> = sources.iter().map(|a| a.group).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut groups: Vec<(u32, Group)> =
            ids.into_iter().map(|id| (id, Group::default())).collect();
        for (id, group) in groups.iter_mut() {
            let id = *id;
            let lo = direct.partition_point(|e| (e.target, member_key(e.member)) < (id, 0));
            let hi = direct.partition_point(|e| (e.target, member_key(e.member)) <= (id, 0));
            // By kind, then registration order (one entry per instruction).
            let own = sorted(hi - lo, &|i| {
                let e = &direct[lo + i];
                key4(0, 0, e.kind, e.inst)
            });
            let mut run: Option<(u32, u32, u32)> = None;
            for k in own.into_iter().map(|i| (lo + i) as u32) {
                let e = direct[k as usize];
                let (least, most) = match run {
                    Some((kind, least, most)) if kind == e.kind => {
                        let l = if params(&e) < params(&direct[least as usize]) {
                            k
                        } else {
                            least
                        };
                        let m = if params(&e) >= params(&direct[most as usize]) {
                            k
                        } else {
                            most
                        };
                        (l, m)
                    }
                    _ => (k, k),
                };
                run = Some((e.kind, least, most));
                group.by_kind.push((e.kind, e.inst, least, most));
            }
        }
        // Under spirv-val's rules, one application per target, member and group: the
        // last.
        // By target, member and group, the latest instruction first.
        let key = |a: &App| {
            let src = sources[a.source as usize];
            key4(
                a.target,
                member_key(src.member),
                src.group,
                u32::MAX - src.inst,
            )
        };
        let order = sorted(apps.len(), &|i| key(&apps[i]));
        let mut apps: Vec<App> = order.iter().map(|&i| apps[i]).collect();
        if rules == DecorationRules::SpirvVal {
            apps.dedup_by_key(|a| key(a) >> 32);
        }
        // Within a target and kind, in `direct`'s order (member, parameters).
        let by_kind: Vec<u32> = sorted(direct.len(), &|k| {
            key4(0, direct[k].target, direct[k].kind, k as u32)
        })
        .into_iter()
        .map(|k| k as u32)
        .collect();
        let mut kinds: Vec<(u32, u32, u32)> = Vec::new();
        for &k in &by_kind {
            let e = &direct[k as usize];
            match kinds.last_mut() {
                Some(last) if (last.0, last.1) == (e.target, e.kind) => last.2 = last.2.min(e.inst),
                _ => kinds.push((e.target, e.kind, e.inst)),
            }
        }
        DecorationIndex {
            module,
            direct,
            apps,
            sources,
            groups,
            kinds,
            by_kind,
            applications,
            memo: RefCell::new(BTreeMap::new()),
        }
    }

    #[cfg(feature = "validate")]
    fn params(&self, e: &Entry) -> &'m [u32] {
        entry_params(self.module, e)
    }

    #[cfg(feature = "validate")]
    fn dec(&self, e: &Entry) -> Dec<'m> {
        Dec {
            member: e.member,
            kind: e.kind,
            params: self.params(e),
        }
    }

    /// The direct decorations of `id`'s `member` of `kind`, least parameters first.
    #[cfg(feature = "validate")]
    fn direct_kind(&self, id: u32, member: u32, kind: u32) -> &[Entry] {
        let key = (id, member_key(member), kind);
        let lo = self
            .direct
            .partition_point(|e| (e.target, member_key(e.member), e.kind) < key);
        let hi = self
            .direct
            .partition_point(|e| (e.target, member_key(e.member), e.kind) <= key);
        &self.direct[lo..hi]
    }

    fn applied(&self, a: &App) -> Applied {
        let src = self.sources[a.source as usize];
        Applied {
            member: src.member,
            group: src.group,
            inst: src.inst,
        }
    }

    /// The group applications of `id`.
    fn apps_of(&self, id: u32) -> impl ExactSizeIterator<Item = Applied> + '_ {
        let lo = self.apps.partition_point(|a| a.target < id);
        let hi = self.apps.partition_point(|a| a.target <= id);
        self.apps[lo..hi].iter().map(|a| self.applied(a))
    }

    /// The group applications of `id`'s `member`.
    #[cfg(feature = "validate")]
    fn apps_at(&self, id: u32, member: u32) -> impl Iterator<Item = Applied> + '_ {
        let key = (id, member_key(member));
        let at = |a: &App| (a.target, member_key(self.sources[a.source as usize].member));
        let lo = self.apps.partition_point(|a| at(a) < key);
        let hi = self.apps.partition_point(|a| at(a) <= key);
        self.apps[lo..hi].iter().map(|a| self.applied(a))
    }

    /// The group `id`, if some application names it.
    fn group(&self, id: u32) -> Option<&Group> {
        let at = self.groups.binary_search_by_key(&id, |g| g.0).ok()?;
        Some(&self.groups[at].1)
    }

    /// The group's decorations of `kind` registered before instruction `before`: the
    /// least and the greatest, as indices into `direct`.
    fn group_kind(&self, group: u32, kind: u32, before: u32) -> Option<(u32, u32)> {
        let g = self.group(group)?;
        let end = g
            .by_kind
            .partition_point(|&(k, i, _, _)| (k, i) < (kind, before));
        let &(k, _, least, most) = g.by_kind.get(end.checked_sub(1)?)?;
        (k == kind).then_some((least, most))
    }

    /// The first instruction that registered a decoration of `kind` on `id` (or a
    /// member), `u32::MAX` for none.
    fn first_registered(&self, id: u32, kind: u32) -> u32 {
        let at = self.kinds.partition_point(|&(t, k, _)| (t, k) < (id, kind));
        let direct = match self.kinds.get(at) {
            Some(&(t, k, inst)) if (t, k) == (id, kind) => inst,
            _ => u32::MAX,
        };
        let from_groups = || {
            self.apps_of(id)
                .filter(|a| self.group_kind(a.group, kind, a.inst).is_some())
                .map(|a| a.inst)
                .min()
                .unwrap_or(u32::MAX)
        };
        if self.apps_of(id).len() <= 8 {
            return direct.min(from_groups());
        }
        if let Some(&v) = self.memo.borrow().get(&(id, kind)) {
            return direct.min(v);
        }
        let v = from_groups();
        self.memo.borrow_mut().insert((id, kind), v);
        direct.min(v)
    }

    /// Whether any id has a decoration of `kind`, itself or by a group (a group's own
    /// decorations are direct entries on the group).
    #[cfg(feature = "validate")]
    pub(crate) fn any(&self, kind: u32) -> bool {
        self.direct.iter().any(|e| e.kind == kind)
    }

    /// `HasDecoration(id, kind)`: on the id or any member.
    pub(crate) fn has(&self, id: u32, kind: u32) -> bool {
        self.first_registered(id, kind) != u32::MAX
    }

    /// Whether `id` had a decoration of `kind` registered before instruction `before`
    /// (what spirv-val's annotation pass sees at that instruction).
    #[cfg(feature = "validate")]
    pub(crate) fn has_before(&self, id: u32, kind: u32, before: usize) -> bool {
        (self.first_registered(id, kind) as usize) < before
    }

    /// Whether `id`'s `member` ([`NO_MEMBER`] for the id) has a decoration of `kind`.
    #[cfg(feature = "validate")]
    pub(crate) fn has_at(&self, id: u32, member: u32, kind: u32) -> bool {
        self.first(id, member, kind).is_some()
    }

    /// The parameters of the first decoration of `kind` on `id`'s `member` in
    /// spirv-val's set order (the least).
    #[cfg(feature = "validate")]
    pub(crate) fn first(&self, id: u32, member: u32, kind: u32) -> Option<&'m [u32]> {
        let mut best = self
            .direct_kind(id, member, kind)
            .first()
            .map(|e| self.params(e));
        for a in self.apps_at(id, member) {
            if let Some((least, _)) = self.group_kind(a.group, kind, a.inst) {
                let p = self.params(&self.direct[least as usize]);
                if best.is_none_or(|b| p < b) {
                    best = Some(p);
                }
            }
        }
        best
    }

    /// The parameters of the last decoration of `kind` on `id`'s `member` in
    /// spirv-val's set order (the greatest).
    #[cfg(feature = "validate")]
    pub(crate) fn last(&self, id: u32, member: u32, kind: u32) -> Option<&'m [u32]> {
        let mut best = self
            .direct_kind(id, member, kind)
            .last()
            .map(|e| self.params(e));
        for a in self.apps_at(id, member) {
            if let Some((_, most)) = self.group_kind(a.group, kind, a.inst) {
                let p = self.params(&self.direct[most as usize]);
                if best.is_none_or(|b| p > b) {
                    best = Some(p);
                }
            }
        }
        best
    }

    /// The decorations of `id` of the given kinds, in spirv-val's set order, each
    /// once, into `out` (cleared first). A group contributes its first decoration of
    /// each kind: more than one of a kind on a group is a fault spirv-val reports
    /// before any rule that iterates (`CheckDecorationsCompatibility`). The cost is
    /// that of the decorations returned and of the groups applied to the id.
    #[cfg(feature = "validate")]
    pub(crate) fn collect(&self, id: u32, kinds: &[u32], out: &mut Vec<Dec<'m>>) {
        out.clear();
        for &kind in kinds {
            let lo = self.by_kind.partition_point(|&k| {
                let e = &self.direct[k as usize];
                (e.target, e.kind) < (id, kind)
            });
            let hi = self.by_kind.partition_point(|&k| {
                let e = &self.direct[k as usize];
                (e.target, e.kind) <= (id, kind)
            });
            // In set order already: skip repeats as they come.
            let start = out.len();
            for &k in &self.by_kind[lo..hi] {
                let d = self.dec(&self.direct[k as usize]);
                if out.len() == start || out.last() != Some(&d) {
                    out.push(d);
                }
            }
        }
        for a in self.apps_of(id) {
            for &kind in kinds {
                if let Some((least, _)) = self.group_kind(a.group, kind, a.inst) {
                    let e = self.direct[least as usize];
                    out.push(Dec {
                        member: a.member,
                        kind,
                        params: self.params(&e),
                    });
                }
            }
        }
        out.sort_by(Dec::cmp_key);
        out.dedup();
    }

    /// Every decoration of `id` (spirv-val's `id_decorations`), as [`Self::collect`]
    /// gives them, into `out`.
    #[cfg(feature = "validate")]
    pub(crate) fn all(&self, id: u32, out: &mut Vec<Dec<'m>>) {
        let lo = self.kinds.partition_point(|&(t, _, _)| t < id);
        let hi = self.kinds.partition_point(|&(t, _, _)| t <= id);
        let mut kinds: Vec<u32> = self.kinds[lo..hi].iter().map(|&(_, k, _)| k).collect();
        for a in self.apps_of(id) {
            if let Some(g) = self.group(a.group) {
                let before = g.by_kind.iter().filter(|&&(_, i, _, _)| i < a.inst);
                kinds.extend(before.map(|&(k, ..)| k));
            }
        }
        kinds.sort_unstable();
        kinds.dedup();
        self.collect(id, &kinds, out);
    }

    /// Every id with a decoration, ascending (the keys of spirv-val's map, but for the
    /// ids it only looked up).
    pub(crate) fn targets(&self) -> impl Iterator<Item = u32> + '_ {
        let mut d = self.direct.iter().map(|e| e.target).peekable();
        let mut a = self.apps.iter().map(|x| x.target).peekable();
        core::iter::from_fn(move || {
            let next = match (d.peek(), a.peek()) {
                (Some(&x), Some(&y)) => x.min(y),
                (Some(&x), None) => x,
                (None, Some(&y)) => y,
                (None, None) => return None,
            };
            while d.peek() == Some(&next) {
                d.next();
            }
            while a.peek() == Some(&next) {
                a.next();
            }
            Some(next)
        })
    }

    /// Whether `id` (itself or a member) has decoration `kind`, directly or by a group.
    pub fn has_decoration(&self, id: Id, kind: spv::Decoration) -> bool {
        self.has(id.0, kind.0)
    }

    /// Every id with a decoration, ascending.
    pub fn decorated_ids(&self) -> impl Iterator<Item = Id> + '_ {
        self.targets().map(Id)
    }

    /// The decoration instructions that bear on `id` (spirv-opt's
    /// `GetDecorationsFor(id, true)`): those whose target is `id`, then, for each
    /// group decoration listing `id` in module order (once per listing; under
    /// [`DecorationRules::SpirvVal`], once per group and member), every decoration
    /// instruction of the group; instruction indices.
    pub fn decoration_instructions(&self, id: Id) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        let mut groups: Vec<(u32, u32)> = self.apps_of(id.0).map(|a| (a.inst, a.group)).collect();
        groups.sort_unstable();
        for target in core::iter::once(id.0).chain(groups.into_iter().map(|(_, g)| g)) {
            out.extend(
                self.direct_instructions(target)
                    .into_iter()
                    .map(|i| i as usize),
            );
        }
        out
    }

    /// The instructions that decorate `id` (or a member) directly, in module order.
    pub(crate) fn direct_instructions(&self, id: u32) -> Vec<u32> {
        let lo = self.direct.partition_point(|e| e.target < id);
        let hi = self.direct.partition_point(|e| e.target <= id);
        let mut out: Vec<u32> = self.direct[lo..hi].iter().map(|e| e.inst).collect();
        out.sort_unstable();
        out
    }

    /// The group decorations that list `id` among their targets, in module order, each
    /// once.
    #[cfg(feature = "edit")]
    pub(crate) fn listing_instructions(&self, id: u32) -> Vec<u32> {
        let mut out: Vec<u32> = self.apps_of(id).map(|a| a.inst).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The group decorations that apply `group`, in module order.
    #[cfg(feature = "edit")]
    pub(crate) fn applying_instructions(&self, group: u32) -> Vec<u32> {
        let lo = self.applications.partition_point(|&(g, _)| g < group);
        let hi = self.applications.partition_point(|&(g, _)| g <= group);
        self.applications[lo..hi].iter().map(|&(_, i)| i).collect()
    }
}
