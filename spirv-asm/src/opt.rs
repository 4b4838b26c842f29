//! spirv-as's number parser for spirv-opt's passes (the `spirv-opt` crate), which
//! `--set-spec-const-default-value` reads its values with and which the `spirv-opt`
//! crate leaves to its caller, and spirv-val's text for the optimizer's messages.
//! The passes and the optimizer are `spirv-opt`'s, at their one path there.
//!
//! ```
//! use spirv_asm::{assemble_str, AsmOptions};
//! use spirv_asm::opt::SpirvAsNumbers;
//! use spirv_opt::structural::{run, StructuralPass};
//! let words = assemble_str(
//!     "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\nOpDecorate %c SpecId 7\n%int = OpTypeInt 32 1\n%c = OpSpecConstant %int 1\n",
//!     &AsmOptions::default(),
//! ).unwrap();
//! let module = spirv_core::Module::from_words(&words).unwrap();
//! let pass = StructuralPass::from_flag("set-spec-const-default-value", Some("7:0x10")).unwrap();
//! let (_, changed) = run(&module, &[pass], Some(&SpirvAsNumbers)).unwrap();
//! assert!(changed);
//! ```

use crate::number::{self, FloatFormat};
use spirv_core::walk::NumberType;
use spirv_opt::Optimizer;
use spirv_opt::structural::NumberParser;

/// spirv-as's number parser, as spirv-opt reads `--set-spec-const-default-value`'s
/// values with it (`utils::ParseAndEncodeNumber`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SpirvAsNumbers;

impl NumberParser for SpirvAsNumbers {
    fn encode(&self, text: &str, ty: NumberType) -> Option<Vec<u32>> {
        let bits = match ty {
            NumberType::Int { width, signed } if width <= 64 => {
                number::parse_int(text, width, signed).ok()?
            }
            NumberType::Float { width, encoding } => {
                let fmt =
                    FloatFormat::of(width, encoding).or_else(|| FloatFormat::of(width, None))?;
                number::parse_float(text, width, fmt).ok()?
            }
            _ => return None,
        };
        let mut words = vec![bits as u32];
        if ty.width() > 32 {
            words.push((bits >> 32) as u32);
        }
        Some(words)
    }
}

/// An [`Optimizer`] that reads number values with spirv-as's parser and words the
/// validator's faults as spirv-val does ([`fault_text`]), for its messages.
pub fn optimizer() -> Optimizer {
    let mut o = Optimizer::new();
    o.number_parser(std::sync::Arc::new(SpirvAsNumbers))
        .fault_text(std::sync::Arc::new(fault_text));
    o
}

/// A validator fault's text as spirv-opt hands it to its message consumer: spirv-val's
/// message, then (when it names one) the instruction, disassembled on its own line,
/// indented by two spaces, with a newline after it.
pub fn fault_text(
    words: &[u32],
    fault: &spirv_core::validate::ValidationError,
    options: &spirv_core::validate::Options<'static>,
) -> String {
    let parts = crate::val::render_each(words, std::slice::from_ref(fault), options);
    match parts.into_iter().next() {
        Some(p) => match p.instruction {
            Some(i) => format!("{}\n  {i}\n", p.message),
            None => p.message,
        },
        None => fault.to_string(),
    }
}
