//! `--fix-storage-class` (spirv-opt's `FixStorageClass`,
//! `source/opt/fix_storage_class.cpp`), for HLSL legalization: from each variable,
//! pointers derived from it (access chains, copies, phis, selects) whose type names
//! another storage class take the variable's, and pointer and value types forced by
//! an operand (access chains walked, copies, phis, selects, loads) follow, a store of
//! a value of another type getting an element-by-element copy.
//!
//! spirv-opt's two walks are recursive over the uses; here each runs on an explicit
//! stack in the same order (the pointer types it makes and the copies come out in the
//! same order), phis marked while they are being walked as spirv-opt's `seen` set does.
//! A cycle of non-phi definitions (invalid SSA, reachable with `--skip-validation`),
//! where spirv-opt recurses until its stack overflows, ends the walk down that use
//! (`Active`).
//!
//! Both walks run again from every use of every variable, so pointers that many
//! variables reach (a chain of n selects each taking another variable) were walked
//! once per use, n² and more. [`Memo`] remembers walks that left nothing to change and
//! skips a walk that would repeat one while nothing has changed since: that walk would
//! change nothing and find nothing, so the output is spirv-opt's. Walks that do change
//! things cannot be skipped so: n variables of alternating classes each changing a
//! chain of n pointers that the next changes back take n² steps (spirv-opt's walk too).
//! The walks share a budget of steps proportional to the module ([`STEP_PER_INST`]),
//! far above what real modules take, past which the pass fails with a message.

use crate::analysis::Analyses;
use crate::analysis::constants::Const;
use crate::analysis::types::Ty;
use crate::analysis::{IdHashMap, IdHashSet};
use crate::context::Context;
use crate::ir::{Inst, Kind};
use crate::pass::{IrPass, PassError, Status};
use crate::passes::copy_prop_arrays::generate_copy;
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "fix-storage-class";

/// `--fix-storage-class`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FixStorageClass;

impl IrPass for FixStorageClass {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::INSTR_TO_BLOCK
            | Analyses::COMBINATORS
            | Analyses::CFG
            | Analyses::DOMINATORS
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut vars = Vec::new();
        for i in cx.ir.all_insts() {
            if cx.ir.opcode(i) == O::Variable {
                vars.push(i);
            }
        }
        // Copies of stored values are bounded by the module (spirv-opt's grow with
        // the array lengths the types claim).
        let mut budget = (1usize << 20) + 16 * cx.ir.instruction_count();
        let mut steps = Steps::new(cx.ir.instruction_count());
        let mut modified = false;
        let mut seen: IdHashSet<u32> = IdHashSet::default();
        let mut memo = Memo::default();
        for var in vars {
            let id = cx.ir.result_id(var);
            let storage = cx.ir.data(var).in_word(0);
            let var_type = cx.ir.type_id(var);
            // The uses as `cx.uses` lists them, less an entry point's (neither walk
            // changes anything there): finding a variable's place in an interface of
            // thousands walked the whole list once per variable in it.
            let mut uses = Vec::new();
            for user in cx.users(id) {
                if cx.ir.opcode(user) == O::EntryPoint {
                    continue;
                }
                cx.ir.data(user).for_each_operand(|k, kind, words| {
                    if kind.is_id() && kind != Kind::ResultId && words.first() == Some(&id) {
                        uses.push((user, k));
                    }
                });
            }
            for (user, index) in uses {
                modified |=
                    propagate_storage_class(cx, user, storage, &mut seen, &mut memo, &mut steps);
                modified |= propagate_type(
                    cx,
                    user,
                    var_type,
                    index,
                    &mut seen,
                    (&mut budget, &mut steps),
                    &mut memo,
                )
                .ok_or(PassError {
                    pass: FLAG,
                    message: "ids ran out".into(),
                })?;
                if steps.out {
                    return Err(steps.error());
                }
            }
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// The steps (a user or use looked at) the walks of one run may take: [`STEP_BASE`]
/// plus this many per instruction. n variables each walking, and really changing, a
/// chain of n pointers that the others reach is n² steps by spirv-opt's own rules (each
/// walk changes back the pointers the one before changed, and the pointer types each
/// asks for decide the new ids, so none can be skipped); past the budget the pass fails
/// rather than run for minutes. Real modules take far fewer: the corpus's most, under
/// `--legalize-hlsl`, is 1.8 per instruction (docs/robustness.md).
const STEP_PER_INST: usize = 64;
/// The steps any module may take, however small.
const STEP_BASE: usize = 1 << 16;

/// The walks' step budget.
struct Steps {
    /// The budget.
    budget: usize,
    /// The steps left.
    left: usize,
    /// Whether a walk wanted a step when none was left (it stopped there).
    out: bool,
}

impl Steps {
    /// The budget of a module of `insts` instructions.
    fn new(insts: usize) -> Steps {
        let budget = STEP_BASE.saturating_add(STEP_PER_INST.saturating_mul(insts));
        Steps {
            budget,
            left: budget,
            out: false,
        }
    }

    /// Takes a step; false (and `out` set) when none is left: the walk then returns at
    /// once, its work unfinished, and the pass fails.
    #[inline(always)]
    fn take(&mut self) -> bool {
        if self.left == 0 {
            self.out = true;
            return false;
        }
        self.left -= 1;
        true
    }

    /// The pass's error once `out`.
    fn error(&self) -> PassError {
        PassError {
            pass: FLAG,
            message: format!(
                "the walks from the variables' uses took over {} steps ({STEP_BASE} plus \
                 {STEP_PER_INST} per instruction): the variables' walks keep changing \
                 pointers that others change back",
                self.budget
            ),
        }
    }
}

/// Walks known to change nothing if run again now.
///
/// A storage-class walk for class S, once finished, has left every pointer it can reach
/// in S or out of its reach (not a pointer, or not an instruction it fixes): walked
/// again from any instruction it walked, while nothing has changed but other pointers
/// taking S, it fixes nothing and returns false. A type walk that changed nothing and
/// met no phi already on its stack with another type than the phi's (nor a cycle of
/// non-phi definitions) would, from any instruction and type it walked, make the same
/// calls again: it changes nothing while nothing has changed. Any other change forgets
/// both.
#[derive(Default)]
struct Memo {
    /// The storage class of the walks in `storage_done`.
    storage: u32,
    /// Instructions a storage-class walk for `storage` has walked.
    storage_done: IdHashSet<Inst>,
    /// Instructions and the result types type walks that changed nothing walked them with.
    type_done: IdHashSet<(Inst, u32)>,
    /// The same for the type walk under way, its frames that have finished while the
    /// walk has changed nothing (its instructions' walks need not repeat within it, as
    /// in [`propagate_storage_class`]).
    type_walk: IdHashSet<(Inst, u32)>,
}

impl Memo {
    /// Forgets every walk: something other than a pointer taking `storage` changed.
    fn clear(&mut self) {
        self.storage_done.clear();
        self.type_done.clear();
    }
}

/// The pointer type instruction of `i`'s result, if its result is a pointer.
fn pointer_type(cx: &mut Context, i: Inst) -> Option<Inst> {
    let ty = cx.ir.type_id(i);
    if ty == 0 {
        return None;
    }
    let t = cx.get_def(ty)?;
    (cx.ir.opcode(t) == O::TypePointer).then_some(t)
}

/// The instructions whose frames are on a walk's stack. A non-phi instruction met again
/// with no phi frame pushed since its own frame closes a cycle of non-phi definitions,
/// which valid SSA cannot hold (each definition dominates its uses); the walk skips
/// that use. Every other walk, and so every output, is spirv-opt's.
#[derive(Default)]
struct Active {
    /// Phi frames on the stack.
    phis: u32,
    /// For each non-phi instruction on the stack, the phi count below each of its frames.
    at: IdHashMap<Inst, Vec<u32>>,
}

impl Active {
    fn push(&mut self, cx: &Context, i: Inst) {
        if cx.ir.opcode(i) == O::Phi {
            self.phis += 1;
        } else {
            self.at.entry(i).or_default().push(self.phis);
        }
    }

    fn pop(&mut self, cx: &Context, i: Inst) {
        if cx.ir.opcode(i) == O::Phi {
            self.phis -= 1;
        } else if let Some(depths) = self.at.get_mut(&i) {
            depths.pop();
        }
    }

    fn closes_cycle(&self, cx: &Context, i: Inst) -> bool {
        cx.ir.opcode(i) != O::Phi && self.at.get(&i).and_then(|d| d.last()) == Some(&self.phis)
    }
}

/// A frame of [`propagate_storage_class`]: the users of a pointer already in the
/// storage class (whose result is whether any changed), or those of one just fixed.
enum ScFrame {
    Walk {
        phi: Option<u32>,
        users: Vec<Inst>,
        next: usize,
        modified: bool,
    },
    Fix {
        users: Vec<Inst>,
        next: usize,
    },
}

/// What one `PropagateStorageClass` call does before its uses.
enum ScCall {
    Done(bool),
    Frame(ScFrame, bool),
}

fn sc_call(
    cx: &mut Context,
    i: Inst,
    storage: u32,
    seen: &mut IdHashSet<u32>,
    memo: &mut Memo,
) -> ScCall {
    if memo.storage == storage && memo.storage_done.contains(&i) {
        return ScCall::Done(false);
    }
    let Some(pt) = pointer_type(cx, i) else {
        return ScCall::Done(false);
    };
    let id = cx.ir.result_id(i);
    if cx.ir.data(pt).in_word(0) == storage {
        let mut phi = None;
        if cx.ir.opcode(i) == O::Phi {
            if !seen.insert(id) {
                return ScCall::Done(false);
            }
            phi = Some(id);
        }
        let users = cx.users(id);
        return ScCall::Frame(
            ScFrame::Walk {
                phi,
                users,
                next: 0,
                modified: false,
            },
            false,
        );
    }
    match cx.ir.opcode(i) {
        O::AccessChain
        | O::PtrAccessChain
        | O::InBoundsAccessChain
        | O::CopyObject
        | O::Phi
        | O::Select => {
            // FixInstructionStorageClass.
            if storage != memo.storage {
                memo.storage_done.clear();
            }
            memo.type_done.clear();
            let pointee = cx.ir.data(pt).in_word(1);
            let new_type = cx.find_pointer_to_type(pointee, storage);
            cx.ir.data_mut(i).set_type_id(new_type);
            // Only the type changed: `i` is recorded as a user of its other operands
            // already, and recording it there again at each change (`UpdateDefUse`)
            // grew their lists with every step of a walk.
            if cx.are_valid(Analyses::DEF_USE) {
                let (du, ir) = cx.def_use_ir();
                du.add_user(ir, new_type, i);
            }
            let users = cx.users(id);
            ScCall::Frame(ScFrame::Fix { users, next: 0 }, true)
        }
        _ => ScCall::Done(false),
    }
}

/// `PropagateStorageClass(inst, storage, seen)`.
fn propagate_storage_class(
    cx: &mut Context,
    inst: Inst,
    storage: u32,
    seen: &mut IdHashSet<u32>,
    memo: &mut Memo,
    steps: &mut Steps,
) -> bool {
    if !steps.take() {
        return false;
    }
    let (first, result) = match sc_call(cx, inst, storage, seen, memo) {
        ScCall::Done(r) => return r,
        ScCall::Frame(f, r) => (f, r),
    };
    let mut walked = vec![inst];
    // While the walk has fixed nothing (nor met a cycle of non-phi definitions), an
    // instruction whose walk has finished would be walked again to no effect: every
    // pointer it reaches was reached then, or through a phi whose walk has finished
    // since or is still under way. Without this, each use of the last of a chain that
    // n phis use went round them all (n² steps, spirv-opt's too).
    let mut pure = !result;
    let mut finished: IdHashSet<Inst> = IdHashSet::default();
    let mut stack = vec![first];
    let mut path = vec![inst];
    let mut active = Active::default();
    active.push(cx, inst);
    let mut result = result;
    while let Some(top) = stack.last_mut() {
        let (users, next) = match top {
            ScFrame::Walk { users, next, .. } | ScFrame::Fix { users, next } => (users, next),
        };
        let Some(&user) = users.get(*next) else {
            let done = stack.pop().expect("a frame");
            if let Some(i) = path.pop() {
                active.pop(cx, i);
                if pure {
                    finished.insert(i);
                }
            }
            if let ScFrame::Walk { phi, modified, .. } = done {
                if let Some(p) = phi {
                    seen.remove(&p);
                }
                match stack.last_mut() {
                    Some(ScFrame::Walk { modified: m, .. }) => *m |= modified,
                    Some(ScFrame::Fix { .. }) => {}
                    None => result = modified,
                }
            }
            continue;
        };
        *next += 1;
        if !steps.take() {
            return false;
        }
        if active.closes_cycle(cx, user) {
            pure = false;
            continue;
        }
        if pure && finished.contains(&user) {
            continue;
        }
        match sc_call(cx, user, storage, seen, memo) {
            ScCall::Done(r) => {
                if let Some(ScFrame::Walk { modified, .. }) = stack.last_mut() {
                    *modified |= r;
                }
            }
            ScCall::Frame(f, r) => {
                if let Some(ScFrame::Walk { modified, .. }) = stack.last_mut() {
                    *modified |= r;
                }
                pure &= !r;
                stack.push(f);
                path.push(user);
                active.push(cx, user);
                walked.push(user);
            }
        }
    }
    if memo.storage != storage {
        memo.storage_done.clear();
        memo.storage = storage;
    }
    memo.storage_done.extend(walked);
    result
}

/// A frame of [`propagate_type`]: the uses of an instruction whose type was forced.
struct TyFrame {
    phi: Option<u32>,
    new_type: u32,
    uses: Vec<(Inst, usize)>,
    next: usize,
}

/// What one `PropagateType` call does before its uses: whether it changed the
/// instruction, and its uses' frame when its type was forced. `None` when ids ran out.
/// `clean` turns false when the walk stops being one [`Memo`] may remember.
#[allow(clippy::too_many_arguments)] // The walk's state, passed as the recursion did.
fn ty_call(
    cx: &mut Context,
    i: Inst,
    type_id: u32,
    index: usize,
    seen: &mut IdHashSet<u32>,
    budget: &mut usize,
    memo: &mut Memo,
    clean: &mut bool,
) -> Option<(bool, Option<TyFrame>)> {
    let id = cx.ir.result_id(i);
    let mut new_type = 0;
    if cx.ir.opcode(i) == O::Phi && seen.contains(&id) && cx.ir.type_id(i) != type_id {
        // Walked from here again, the phi would take `type_id`.
        *clean = false;
    }
    match cx.ir.opcode(i) {
        O::AccessChain | O::PtrAccessChain | O::InBoundsAccessChain | O::InBoundsPtrAccessChain
            if index == 2 =>
        {
            new_type = walk_access_chain_type(cx, i, type_id);
        }
        O::CopyObject => new_type = type_id,
        O::Phi if seen.insert(id) => new_type = type_id,
        O::Select if index > 2 => new_type = type_id,
        O::FunctionCall | O::ImageTexelPointer | O::Bitcast => return Some((false, None)),
        O::Load => {
            new_type = cx.get_def(type_id).map_or(0, |t| cx.ir.data(t).in_word(1));
        }
        O::Store => {
            let d = cx.ir.data(i).clone();
            let Some(obj) = cx.get_def(d.in_word(1)) else {
                return Some((false, None));
            };
            let obj_type = cx.ir.type_id(obj);
            let pointee = cx
                .get_def(d.in_word(0))
                .and_then(|p| cx.get_def(cx.ir.type_id(p)))
                .map_or(0, |t| cx.ir.data(t).in_word(1));
            if obj_type != pointee {
                let is_image = |cx: &mut Context, t: u32| {
                    cx.types()
                        .get(t)
                        .is_some_and(|r| matches!(cx.types().ty(r), Ty::Image { .. }))
                };
                if is_image(cx, obj_type) && is_image(cx, pointee) {
                    // An image stored to a variable of another image type is left
                    // for later legalization passes.
                    return Some((false, None));
                }
                *clean = false;
                memo.clear();
                let Some(copy) = generate_copy(cx, budget, obj, pointee, i)? else {
                    return Some((false, None));
                };
                cx.ir.data_mut(i).set_in_operand(1, &[copy]);
                cx.update_def_use(i);
            }
        }
        _ => {}
    }
    if new_type == 0 {
        return Some((false, None));
    }
    let phi = (cx.ir.opcode(i) == O::Phi).then_some(id);
    // ChangeResultType.
    let changed = cx.ir.type_id(i) != new_type;
    let key = (i, new_type);
    if !changed && (memo.type_done.contains(&key) || *clean && memo.type_walk.contains(&key)) {
        if let Some(p) = phi {
            seen.remove(&p);
        }
        return Some((false, None));
    }
    if changed {
        *clean = false;
        memo.clear();
        cx.forget_uses(i);
        cx.ir.data_mut(i).set_type_id(new_type);
        cx.analyze_uses(i);
    }
    let uses = cx.uses(id);
    Some((
        changed,
        Some(TyFrame {
            phi,
            new_type,
            uses,
            next: 0,
        }),
    ))
}

/// `PropagateType(inst, type_id, index, seen)`, with the copies' budget and the
/// steps'; `None` when ids ran out.
fn propagate_type(
    cx: &mut Context,
    inst: Inst,
    type_id: u32,
    index: usize,
    seen: &mut IdHashSet<u32>,
    (budget, steps): (&mut usize, &mut Steps),
    memo: &mut Memo,
) -> Option<bool> {
    if !steps.take() {
        return Some(false);
    }
    let mut clean = true;
    memo.type_walk.clear();
    let (modified, first) = ty_call(cx, inst, type_id, index, seen, budget, memo, &mut clean)?;
    let Some(first) = first else {
        return Some(modified);
    };
    let mut walked = vec![(inst, first.new_type)];
    let mut stack = vec![first];
    let mut path = vec![inst];
    let mut active = Active::default();
    active.push(cx, inst);
    while let Some(top) = stack.last_mut() {
        let Some(&(user, k)) = top.uses.get(top.next) else {
            let Some(f) = stack.pop() else { break };
            if let Some(p) = f.phi {
                seen.remove(&p);
            }
            if let Some(i) = path.pop() {
                active.pop(cx, i);
                if clean {
                    memo.type_walk.insert((i, f.new_type));
                }
            }
            continue;
        };
        top.next += 1;
        if !steps.take() {
            return Some(false);
        }
        let t = top.new_type;
        if active.closes_cycle(cx, user) {
            clean = false;
            continue;
        }
        if let (_, Some(f)) = ty_call(cx, user, t, k, seen, budget, memo, &mut clean)? {
            walked.push((user, f.new_type));
            stack.push(f);
            path.push(user);
            active.push(cx, user);
        }
    }
    if clean {
        memo.type_done.extend(walked);
    }
    Some(modified)
}

/// `WalkAccessChainType(inst, id)`: the pointer type the access chain `inst` has
/// when its base has pointer type `id` (its own type when that already fits); 0 when
/// the types do not allow the walk.
fn walk_access_chain_type(cx: &mut Context, inst: Inst, id: u32) -> u32 {
    let start = match cx.ir.opcode(inst) {
        O::AccessChain | O::InBoundsAccessChain => 1,
        _ => 2,
    };
    let Some(base_type) = cx.get_def(id) else {
        return 0;
    };
    if cx.ir.opcode(base_type) != O::TypePointer {
        return 0;
    }
    let mut id = cx.ir.data(base_type).in_word(1);
    let storage = cx.ir.data(base_type).in_word(0);
    let d = cx.ir.data(inst).clone();
    for k in start..d.num_in_operands() {
        let Some(t) = cx.get_def(id) else {
            return 0;
        };
        let td = cx.ir.data(t);
        match td.opcode() {
            O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX
            | O::TypeMatrix
            | O::TypeVector
            | O::TypeCooperativeMatrixKHR => id = td.in_word(0),
            O::TypeStruct => {
                let n = td.num_in_operands();
                let Some(c) = cx.constants().find_declared(d.in_word(k)) else {
                    return 0;
                };
                // GetSignExtendedValue, cut to 32 bits: the first word.
                let index = match cx.constants().value(c) {
                    Const::Scalar(_, w) => w.first().copied(),
                    Const::Null(_) => Some(0),
                    _ => None,
                };
                match index {
                    Some(x) if (x as usize) < n => id = cx.ir.data(t).in_word(x as usize),
                    _ => return 0,
                }
            }
            _ => {}
        }
    }
    let own = cx.ir.type_id(inst);
    if let Some(o) = cx.get_def(own)
        && cx.ir.opcode(o) == O::TypePointer
        && cx.ir.data(o).in_word(1) == id
        && cx.ir.data(o).in_word(0) == storage
    {
        return own;
    }
    cx.find_pointer_to_type(id, storage)
}
