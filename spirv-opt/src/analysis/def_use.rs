//! Definitions and uses (spirv-opt's `DefUseManager`): each id's defining instruction,
//! and each id's users in spirv-opt's order (by creation number, each user once).
//!
//! spirv-opt keeps a global ordered set of (definition, user) pairs up to date on
//! every change, which is where much of its time goes on large modules. Here each id
//! has a list of users that only ever grows while the analysis is kept; a query drops
//! the users that were killed or no longer use the id, sorts what is left by creation
//! number and stores it back, so that upkeep is O(1) per change and a query is linear
//! in the users it returns (plus a sort when users were added out of order). A list
//! whose users were all checked (or recorded) since the last edit of the module (see
//! `Ir::edits`) skips the check: a user is recorded from its current operands, so
//! recording keeps a checked list checked. Lists fresh from [`DefUse::build`] are
//! checked, so the first query of each id does not walk every operand of its users
//! (an entry point listing thousands of variables, once per variable, was quadratic).

use super::{IdMap, id_cap};
use crate::ir::{Inst, Ir, Kind};

/// Definitions and uses.
#[derive(Debug, Clone)]
pub struct DefUse {
    defs: IdMap<Inst>,
    users: IdMap<Users>,
}

/// An id's users.
#[derive(Debug, Clone)]
struct Users {
    list: Vec<Inst>,
    /// The module's edit count when every user listed was last known to be live and
    /// to use the id ([`NEVER`]: not yet). Not an `Option`, which would make each of
    /// the table's entries a word longer.
    checked_at: u64,
    /// Whether the list is in creation order without repeats.
    tidy: bool,
}

/// No edit count: the module's stays far below it.
const NEVER: u64 = u64::MAX;

impl Default for Users {
    fn default() -> Self {
        Users {
            list: Vec::new(),
            checked_at: NEVER,
            tidy: true,
        }
    }
}

impl DefUse {
    /// The analysis of every instruction of `ir` (debug lines included): definitions
    /// first, then uses (`AnalyzeDefUse`).
    pub fn build(ir: &Ir) -> DefUse {
        let all = ir.all_insts_with_lines();
        let cap = id_cap(all.len());
        let mut d = DefUse {
            defs: IdMap::new(cap),
            users: IdMap::new(cap),
        };
        for &i in &all {
            d.analyze_def(ir, i);
        }
        for &i in &all {
            d.analyze_uses(ir, i);
        }
        d
    }

    /// The instruction defining `id` (`GetDef`).
    pub fn def(&self, id: u32) -> Option<Inst> {
        self.defs.get(id).copied()
    }

    /// Records `i` as the definition of its result (`AnalyzeInstDef`).
    pub fn analyze_def(&mut self, ir: &Ir, i: Inst) {
        let id = ir.result_id(i);
        if id != 0 {
            self.defs.insert(id, i);
        }
    }

    /// Records `i` as a user of each id it uses (`AnalyzeInstUse`): every id operand
    /// but its result, its result type included.
    pub fn analyze_uses(&mut self, ir: &Ir, i: Inst) {
        let data = ir.data(i);
        let users = &mut self.users;
        let (now, key) = (ir.edits(), order_key(ir, i));
        data.for_each_operand(|_, kind, words| {
            if kind.is_id() && kind != Kind::ResultId {
                let u = users.entry_or_insert_with(words[0], Users::default);
                match u.list.last() {
                    None => (u.checked_at, u.tidy) = (now, true),
                    Some(&last) => u.tidy &= order_key(ir, last) < key,
                }
                u.list.push(i);
            }
        });
    }

    /// Records `i` as a user of `id` alone: for an instruction whose one changed operand
    /// is `id` (its result type, say), already recorded as a user of the others. Recording
    /// it there again, as [`DefUse::analyze_uses`] would, changes no query's answer (a
    /// query drops the repeats) but grows those lists each time. For the same reason,
    /// `id`'s list, once full and out of order, is sorted and its repeats dropped as a
    /// query would (the same users in the same order), rather than only grown: a walk
    /// changing the types of n instructions back and forth records each in the same few
    /// lists again and again. Left over half full, it doubles, so that each sort of c
    /// users follows at least c/2 records.
    pub(crate) fn add_user(&mut self, ir: &Ir, id: u32, i: Inst) {
        let (now, key) = (ir.edits(), order_key(ir, i));
        let u = self.users.entry_or_insert_with(id, Users::default);
        match u.list.last() {
            None => (u.checked_at, u.tidy) = (now, true),
            Some(&last) => u.tidy &= order_key(ir, last) < key,
        }
        if !u.tidy && u.list.len() == u.list.capacity() {
            u.list.sort_by_key(|&v| order_key(ir, v));
            u.list.dedup();
            if u.list.len() > u.list.capacity() / 2 {
                u.list.reserve(u.list.len());
            }
            u.tidy = u.list.last().is_none_or(|&last| order_key(ir, last) < key);
        }
        u.list.push(i);
    }

    /// [`DefUse::analyze_def`] and [`DefUse::analyze_uses`] of `i` and of its debug
    /// lines (`AnalyzeInstDefUse`).
    pub fn analyze_def_use(&mut self, ir: &Ir, i: Inst) {
        self.analyze_def(ir, i);
        self.analyze_uses(ir, i);
        for &l in ir.lines(i) {
            self.analyze_def(ir, l);
            self.analyze_uses(ir, l);
        }
    }

    /// `UpdateDefUse`: the definition if its id has none, and the uses.
    pub fn update_def_use(&mut self, ir: &Ir, i: Inst) {
        let id = ir.result_id(i);
        if id != 0 && self.def(id).is_none() {
            self.analyze_def(ir, i);
        }
        self.analyze_uses(ir, i);
    }

    /// Forgets `i` as a definition (`ClearInst`); its uses are dropped lazily.
    pub fn clear_inst(&mut self, ir: &Ir, i: Inst) {
        let id = ir.result_id(i);
        if id != 0 && self.def(id) == Some(i) {
            self.defs.remove(id);
        }
    }

    /// Forgets `id`'s definition, whatever defined it.
    pub fn clear_id(&mut self, id: u32) {
        self.defs.remove(id);
    }

    /// The users of `id`, each once, in creation order (`ForEachUser`): instructions
    /// still in the module that use `id` in an operand other than their result.
    pub fn users(&mut self, ir: &Ir, id: u32) -> Vec<Inst> {
        let Some(users) = self.users.get_mut(id) else {
            return Vec::new();
        };
        let now = ir.edits();
        if users.checked_at != now {
            users.list.retain(|&u| ir.is_live(u) && uses(ir, u, id));
            users.checked_at = now;
        }
        if !users.tidy {
            let list = &mut users.list;
            if !list.is_sorted_by_key(|&u| order_key(ir, u)) {
                list.sort_by_key(|&u| order_key(ir, u));
            }
            list.dedup();
            users.tidy = true;
        }
        users.list.clone()
    }

    /// Whether some user of `id` (as [`DefUse::users`] lists them) passes `pred`. The
    /// users are looked at from the last recorded, and each found killed or no longer
    /// using `id` is dropped on the way (swapped out, so the list is sorted again by the
    /// next full query): killing an id's users one by one and asking after each whether
    /// another use is left (`DCEInst`) costs O(1) a question, where listing the users
    /// left made it quadratic (16,000 stores through one access chain: 3.4 s).
    pub(crate) fn any_user(
        &mut self,
        ir: &Ir,
        id: u32,
        mut pred: impl FnMut(Inst) -> bool,
    ) -> bool {
        let Some(users) = self.users.get_mut(id) else {
            return false;
        };
        let now = ir.edits();
        if users.checked_at == now {
            return users.list.iter().rev().any(|&u| pred(u));
        }
        let mut k = users.list.len();
        while k > 0 {
            k -= 1;
            let u = users.list[k];
            if !(ir.is_live(u) && uses(ir, u, id)) {
                // The last user, looked at already, takes its place.
                users.list.swap_remove(k);
                users.tidy &= k == users.list.len();
                continue;
            }
            if pred(u) {
                return true;
            }
        }
        // Every user was looked at, and those left are live users.
        users.checked_at = now;
        false
    }

    /// Each use of `id`: the user and the operand index, users in creation order and
    /// each user's operands in order (`ForEachUse`).
    pub fn uses(&mut self, ir: &Ir, id: u32) -> Vec<(Inst, usize)> {
        let mut out = Vec::new();
        for u in self.users(ir, id) {
            ir.data(u).for_each_operand(|k, kind, words| {
                if kind.is_id() && kind != Kind::ResultId && words[0] == id {
                    out.push((u, k));
                }
            });
        }
        out
    }

    /// The number of users of `id` (`NumUsers`).
    pub fn num_users(&mut self, ir: &Ir, id: u32) -> usize {
        self.users(ir, id).len()
    }

    /// The number of uses of `id` (`NumUses`).
    pub fn num_uses(&mut self, ir: &Ir, id: u32) -> usize {
        self.uses(ir, id).len()
    }
}

/// The order users are listed in: creation number, then the node (a copy keeps its
/// original's number).
fn order_key(ir: &Ir, u: Inst) -> (u32, usize) {
    (ir.uid(u), u.index())
}

/// Whether `u` uses `id` in an operand other than its result.
fn uses(ir: &Ir, u: Inst, id: u32) -> bool {
    let mut found = false;
    ir.data(u).for_each_operand(|_, kind, words| {
        found |= kind.is_id() && kind != Kind::ResultId && words[0] == id;
    });
    found
}
