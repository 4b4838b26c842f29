//! spirv-opt's passes on the optimizer IR, one file each; each has a row in the
//! [`registry`](crate::registry).

pub mod adce;
pub mod ccp;
pub mod cfg_cleanup;
pub mod combine_access_chains;
pub mod copy_prop_arrays;
pub mod dead_branch_elim;
pub mod dead_functions;
pub mod dead_inserts;
pub mod dead_members;
pub mod fix_storage_class;
pub mod if_conversion;
pub mod inline;
pub mod interlock_placement;
pub mod interp_fixup;
pub mod local_access_chain;
pub mod local_redundancy;
pub mod local_single_block;
pub mod local_single_store;
pub(crate) mod loop_unroll;
pub mod merge_blocks;
pub mod merge_return;
pub mod opextinst_forward_ref_fixup;
pub mod private_to_local;
pub mod reduce_load_size;
pub mod redundancy;
pub(crate) mod remove_unused_interface;
pub mod scalar_replacement;
pub mod simplification;
pub mod ssa_rewrite;
pub mod vector_dce;
pub mod wrap_opkill;
