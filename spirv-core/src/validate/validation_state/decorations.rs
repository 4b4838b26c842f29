//! spirv-val's decoration registry (`ValidationState_t::id_decorations_`): the
//! decorations each id carries, as its annotation pass registers them from
//! `OpDecorate`, `OpDecorateId`, `OpMemberDecorate`, `OpGroupDecorate` and
//! `OpGroupMemberDecorate` (not from `OpDecorateString` nor `OpMemberDecorateString`,
//! which it does not register), and answers the questions the rules ask of it.
//!
//! spirv-val keeps, for each id, a `std::set` of decorations ordered by member index
//! (none first), decoration and parameters; a group decoration copies the group's set,
//! as it stands at that instruction, into each target's. Here a target keeps only a
//! reference to the group and how far its set went, so that a group of k decorations
//! applied to n targets costs n + k, not n·k; questions about one decoration kind are
//! answered from the group's entries of that kind, which are indexed once.

use crate::__private::Vec;
use crate::module::Module;
use crate::spv::Opcode as O;
use alloc::collections::BTreeMap;
use core::cell::RefCell;
use core::cmp::Ordering;

/// The member index of a decoration of the id itself (spirv-val's `kInvalidMember`).
pub(crate) const NO_MEMBER: u32 = u32::MAX;

/// The order spirv-val's sets sort members in: no member (-1) first.
fn member_key(member: u32) -> u32 {
    member.wrapping_add(1)
}

/// The parameters of a decoration: after the decoration in its instruction.
fn entry_params<'m>(module: &'m Module, e: &Entry) -> &'m [u32] {
    module
        .instruction(e.inst as usize)
        .and_then(|x| {
            let at = if x.opcode() == O::MemberDecorate {
                4
            } else {
                3
            };
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
pub(crate) struct Dec<'m> {
    /// [`NO_MEMBER`] for the id itself.
    pub(crate) member: u32,
    pub(crate) kind: u32,
    pub(crate) params: &'m [u32],
}

impl Dec<'_> {
    /// spirv-val's set order.
    fn cmp_key(&self, other: &Self) -> Ordering {
        (member_key(self.member), self.kind, self.params).cmp(&(
            member_key(other.member),
            other.kind,
            other.params,
        ))
    }
}

/// The decorations of every id. Built in one pass over the module; each question costs
/// a binary search, plus the groups applied to the id.
#[derive(Debug)]
pub(crate) struct Decorations<'m> {
    module: &'m Module,
    /// Direct decorations, sorted by target, member, kind, parameters.
    direct: Vec<Entry>,
    /// Group applications, sorted by target and member; for one group, target and
    /// member only the last (whose set includes the earlier ones').
    apps: Vec<App>,
    sources: Vec<Source>,
    groups: BTreeMap<u32, Group>,
    /// Each (target, kind) of `direct`, with the first instruction registering it.
    kinds: Vec<(u32, u32, u32)>,
    /// Indices into `direct`, by target and kind (then member and parameters).
    by_kind: Vec<u32>,
    /// Answers of [`Decorations::first_registered`] for ids with many groups.
    memo: RefCell<BTreeMap<(u32, u32), u32>>,
}

impl<'m> Decorations<'m> {
    /// Registers the module's decorations in spirv-val's way.
    pub(crate) fn new(module: &'m Module) -> Self {
        // The sizes first, so that the tables are allocated once.
        let (mut n_direct, mut n_apps) = (0, 0);
        for inst in module.instructions() {
            let len = inst.words().len();
            match inst.opcode() {
                O::Decorate | O::DecorateId | O::MemberDecorate => n_direct += 1,
                O::GroupDecorate => n_apps += len.saturating_sub(2),
                O::GroupMemberDecorate => n_apps += len.saturating_sub(2) / 2,
                _ => {}
            }
        }
        let mut direct = Vec::with_capacity(n_direct);
        let mut apps = Vec::with_capacity(n_apps);
        let mut sources: Vec<Source> = Vec::new();
        for (i, inst) in module.instructions().enumerate() {
            let w = inst.words();
            let get = |k: usize| w.get(k).copied();
            let i = i as u32;
            match inst.opcode() {
                O::Decorate | O::DecorateId => {
                    if let (Some(target), Some(kind)) = (get(1), get(2)) {
                        direct.push(Entry {
                            target,
                            member: NO_MEMBER,
                            kind,
                            inst: i,
                        });
                    }
                }
                O::MemberDecorate => {
                    if let (Some(target), Some(member), Some(kind)) = (get(1), get(2), get(3)) {
                        direct.push(Entry {
                            target,
                            member,
                            kind,
                            inst: i,
                        });
                    }
                }
                O::GroupDecorate => {
                    let source = sources.len() as u32;
                    sources.push(Source {
                        group: get(1).unwrap_or(0),
                        inst: i,
                        member: NO_MEMBER,
                    });
                    for &target in w.get(2..).unwrap_or(&[]) {
                        apps.push(App { target, source });
                    }
                }
                O::GroupMemberDecorate => {
                    let group = get(1).unwrap_or(0);
                    for pair in w.get(2..).unwrap_or(&[]).chunks_exact(2) {
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
                _ => {}
            }
        }
        let params = |e: &Entry| entry_params(module, e);
        direct.sort_unstable_by(|a, b| {
            (a.target, member_key(a.member), a.kind)
                .cmp(&(b.target, member_key(b.member), b.kind))
                .then_with(|| params(a).cmp(params(b)))
                .then(a.inst.cmp(&b.inst))
        });
        // The groups: each id some application names as one.
        let mut groups: BTreeMap<u32, Group> = sources
            .iter()
            .map(|a| (a.group, Group::default()))
            .collect();
        for (&id, group) in groups.iter_mut() {
            let lo = direct.partition_point(|e| (e.target, member_key(e.member)) < (id, 0));
            let hi = direct.partition_point(|e| (e.target, member_key(e.member)) <= (id, 0));
            let mut own: Vec<u32> = (lo as u32..hi as u32).collect();
            own.sort_by_key(|&k| (direct[k as usize].kind, direct[k as usize].inst));
            let mut run: Option<(u32, u32, u32)> = None;
            for k in own {
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
        // One application per target, member and group: the last.
        let key = |a: &App| {
            let src = sources[a.source as usize];
            (
                a.target,
                member_key(src.member),
                src.group,
                core::cmp::Reverse(src.inst),
            )
        };
        apps.sort_unstable_by_key(key);
        apps.dedup_by_key(|a| {
            let k = key(a);
            (k.0, k.1, k.2)
        });
        let mut by_kind: Vec<u32> = (0..direct.len() as u32).collect();
        // Within a target and kind, in `direct`'s order (member, parameters).
        by_kind.sort_unstable_by_key(|&k| (direct[k as usize].target, direct[k as usize].kind, k));
        let mut kinds: Vec<(u32, u32, u32)> = Vec::new();
        for &k in &by_kind {
            let e = &direct[k as usize];
            match kinds.last_mut() {
                Some(last) if (last.0, last.1) == (e.target, e.kind) => last.2 = last.2.min(e.inst),
                _ => kinds.push((e.target, e.kind, e.inst)),
            }
        }
        Decorations {
            module,
            direct,
            apps,
            sources,
            groups,
            kinds,
            by_kind,
            memo: RefCell::new(BTreeMap::new()),
        }
    }

    fn params(&self, e: &Entry) -> &'m [u32] {
        entry_params(self.module, e)
    }

    fn dec(&self, e: &Entry) -> Dec<'m> {
        Dec {
            member: e.member,
            kind: e.kind,
            params: self.params(e),
        }
    }

    /// The direct decorations of `id`'s `member` of `kind`, least parameters first.
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
    fn apps_at(&self, id: u32, member: u32) -> impl Iterator<Item = Applied> + '_ {
        let key = (id, member_key(member));
        let at = |a: &App| (a.target, member_key(self.sources[a.source as usize].member));
        let lo = self.apps.partition_point(|a| at(a) < key);
        let hi = self.apps.partition_point(|a| at(a) <= key);
        self.apps[lo..hi].iter().map(|a| self.applied(a))
    }

    /// The group's decorations of `kind` registered before instruction `before`: the
    /// least and the greatest, as indices into `direct`.
    fn group_kind(&self, group: u32, kind: u32, before: u32) -> Option<(u32, u32)> {
        let g = self.groups.get(&group)?;
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
    pub(crate) fn any(&self, kind: u32) -> bool {
        self.direct.iter().any(|e| e.kind == kind)
    }

    /// `HasDecoration(id, kind)`: on the id or any member.
    pub(crate) fn has(&self, id: u32, kind: u32) -> bool {
        self.first_registered(id, kind) != u32::MAX
    }

    /// Whether `id` had a decoration of `kind` registered before instruction `before`
    /// (what spirv-val's annotation pass sees at that instruction).
    pub(crate) fn has_before(&self, id: u32, kind: u32, before: usize) -> bool {
        (self.first_registered(id, kind) as usize) < before
    }

    /// Whether `id`'s `member` ([`NO_MEMBER`] for the id) has a decoration of `kind`.
    pub(crate) fn has_at(&self, id: u32, member: u32, kind: u32) -> bool {
        self.first(id, member, kind).is_some()
    }

    /// The parameters of the first decoration of `kind` on `id`'s `member` in
    /// spirv-val's set order (the least).
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
    pub(crate) fn all(&self, id: u32, out: &mut Vec<Dec<'m>>) {
        let lo = self.kinds.partition_point(|&(t, _, _)| t < id);
        let hi = self.kinds.partition_point(|&(t, _, _)| t <= id);
        let mut kinds: Vec<u32> = self.kinds[lo..hi].iter().map(|&(_, k, _)| k).collect();
        for a in self.apps_of(id) {
            if let Some(g) = self.groups.get(&a.group) {
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
}
