//! `--cfg-cleanup` (spirv-opt's `CFGCleanupPass`, `source/opt/cfg_cleanup_pass.cpp`): in
//! each function reachable from an entry point or an export, the blocks unreachable
//! from the entry go (`MemPass::CFGCleanup`, which in spirv-opt 2025.5 only removes
//! unreachable blocks), the phis of the blocks left losing their incoming values from
//! them.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::mem_pass::MemPass;
use crate::pass::{IrPass, PassError, Status};

/// The pass's flag.
pub const FLAG: &str = "cfg-cleanup";

/// `--cfg-cleanup`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CfgCleanup;

impl IrPass for CfgCleanup {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut mem = MemPass::new();
        let modified = cx.process_reachable_call_tree(&mut |cx, f| mem.cfg_cleanup(cx, f));
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}
