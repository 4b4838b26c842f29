//! The assembler and disassembler, as `spirv-tools`' `assembler` module: [`create`],
//! the [`Assembler`] trait, [`AssemblerOptions`] and [`DisassembleOptions`], over
//! `spirv_asm` (spirv-as's and spirv-dis's outputs, byte for byte).

use crate::TargetEnv;
use crate::binary::Binary;
use crate::error::{Diagnostic, Error, SpirvResult};

/// `CompiledAssembler` (with `use-compiled-tools`).
#[cfg(feature = "use-compiled-tools")]
pub mod compiled {
    crate::assembler::assembler_type!(
        CompiledAssembler,
        "`spirv-tools`' assembler over SPIRV-Tools' C++ library; here, `spirv_asm`."
    );
}

/// `ToolAssembler` (with `use-installed-tools`).
#[cfg(feature = "use-installed-tools")]
pub mod tool {
    crate::assembler::assembler_type!(
        ToolAssembler,
        "`spirv-tools`' assembler over installed spirv-as and spirv-dis; here, `spirv_asm`."
    );
}

/// Defines an assembler type: `spirv-tools` has one per back end, this crate runs the
/// same code for both.
macro_rules! assembler_type {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Default)]
        pub struct $name {
            target_env: crate::TargetEnv,
        }

        impl crate::assembler::Assembler for $name {
            fn with_env(target_env: crate::TargetEnv) -> Self {
                $name { target_env }
            }

            fn assemble(
                &self,
                text: &str,
                options: crate::assembler::AssemblerOptions,
            ) -> Result<crate::binary::Binary, crate::Error> {
                crate::assembler::assemble(self.target_env, text, options)
            }

            fn disassemble(
                &self,
                binary: impl AsRef<[u32]>,
                options: crate::assembler::DisassembleOptions,
            ) -> Result<Option<String>, crate::Error> {
                crate::assembler::disassemble(binary.as_ref(), options)
            }
        }
    };
}
pub(crate) use assembler_type;

/// The assembler's options.
#[derive(Copy, Clone, Default)]
pub struct AssemblerOptions {
    /// `%N` ids keep the number N; named ids fill the gaps from 1.
    pub preserve_numeric_ids: bool,
}

/// The disassembler's options; the defaults indent, use friendly names and comment.
#[derive(Copy, Clone)]
pub struct DisassembleOptions {
    /// Print the text to standard output instead of returning it.
    pub print: bool,
    /// ANSI colours.
    pub color: bool,
    /// Align the instructions past their result ids.
    pub indent: bool,
    /// Each instruction's byte offset.
    pub show_byte_offset: bool,
    /// Leave out the header comment.
    pub no_header: bool,
    /// Names from `OpName` and for common types instead of `%N`.
    pub use_friendly_names: bool,
    /// Comments: sections, names and decorations.
    pub comment: bool,
}

impl Default for DisassembleOptions {
    fn default() -> Self {
        DisassembleOptions {
            print: false,
            color: false,
            indent: true,
            show_byte_offset: false,
            no_header: false,
            use_friendly_names: true,
            comment: true,
        }
    }
}

/// Assembles and disassembles for one environment.
pub trait Assembler: Default {
    /// An assembler for `target_env` (which sets the header's SPIR-V version and the
    /// instructions allowed).
    fn with_env(target_env: TargetEnv) -> Self;

    /// Assembles `text`.
    ///
    /// # Errors
    /// `InvalidText`, with spirv-as's message and the line and column.
    fn assemble(&self, text: &str, options: AssemblerOptions) -> Result<Binary, Error>;

    /// Disassembles `binary`: the text, or `None` when `options.print` printed it.
    ///
    /// # Errors
    /// `InvalidBinary`, with spirv-dis's message.
    fn disassemble(
        &self,
        binary: impl AsRef<[u32]>,
        options: DisassembleOptions,
    ) -> Result<Option<String>, Error>;
}

/// An assembler for `te` (`None`: `TargetEnv::default()`, SPIR-V 1.5).
pub fn create(te: Option<TargetEnv>) -> impl Assembler {
    let env = te.unwrap_or_default();
    #[cfg(feature = "use-compiled-tools")]
    {
        compiled::CompiledAssembler::with_env(env)
    }
    #[cfg(not(feature = "use-compiled-tools"))]
    {
        Plain::with_env(env)
    }
}

#[cfg(not(feature = "use-compiled-tools"))]
assembler_type!(
    Plain,
    "The assembler [`create`] returns without `use-compiled-tools`."
);

/// Assembles `text` for `env`.
pub(crate) fn assemble(
    env: TargetEnv,
    text: &str,
    options: AssemblerOptions,
) -> Result<Binary, Error> {
    env.core()?;
    let opts = spirv_asm::AsmOptions {
        version: Some(env.spirv_version()),
        preserve_numeric_ids: options.preserve_numeric_ids,
        // SPIRV-Tools' assembler's generator word, as spirv-as writes it.
        generator: spirv_asm::SPIRV_TOOLS_GENERATOR,
        ..spirv_asm::AsmOptions::default()
    };
    match spirv_asm::assemble_str(text, &opts) {
        Ok(words) => Ok(Binary::from_tool(words)),
        Err(e) => Err(Error {
            inner: SpirvResult::InvalidText,
            diagnostic: Some(Diagnostic {
                line: e.line.saturating_sub(1),
                column: e.column.saturating_sub(1),
                index: e.span.start,
                message: e.message,
                notes: String::new(),
                is_text: true,
            }),
        }),
    }
}

/// Disassembles `words`.
pub(crate) fn disassemble(
    words: &[u32],
    options: DisassembleOptions,
) -> Result<Option<String>, Error> {
    let opts = spirv_asm::DisOptions {
        raw_id: !options.use_friendly_names,
        header: !options.no_header,
        indent: options.indent,
        comment: options.comment,
        offsets: options.show_byte_offset,
        color: options.color,
        ..spirv_asm::DisOptions::default()
    };
    match spirv_asm::disassemble_to_string(words, &opts) {
        Ok(text) if options.print => {
            print!("{text}");
            Ok(None)
        }
        Ok(text) => Ok(Some(text)),
        Err(e) => Err(Error {
            inner: SpirvResult::InvalidBinary,
            diagnostic: Some(Diagnostic {
                line: 0,
                column: 0,
                index: e.instruction.map_or(0, |i| i + 1),
                message: e.message,
                notes: String::new(),
                is_text: false,
            }),
        }),
    }
}
