//! Faults as data: the [`faults!`] macro that turns a family's table of faults into its
//! enum, its messages, the ids it names and the Vulkan rule (VUID) it breaks, and the
//! template language those messages are written in. Every fault enum of the validator
//! is declared with it, so that a fault's text, ids and VUID come from one row and the
//! check that finds the fault only builds the variant.
//!
//! # A row
//! ```text
//! /// `OpVariable` whose result type is not a pointer.      <- the variant's docs
//! #[vuid = "VUID-StandaloneSpirv-Foo-01234"]               <- optional: the VUID
//! VariableResultType {
//!     /// The result type.
//!     ty: Id,
//! } => "OpVariable Result Type <id> {ty} is not a pointer type.",
//! ```
//! The template is spirv-val's message with each value it prints as `{field}`. How a
//! field prints is up to its type ([`Arg`]): an [`Id`] as spirv-val's `'N[%name]'`, or
//! as the bare number with `{field:n}`; an opcode by its name without `Op`; an enumerant
//! (`spv::StorageClass`, `spv::Decoration`, …) by its grammar name, or its number with
//! `:n`; numbers in decimal. `{{` and `}}` are literal braces. A row with a VUID prints
//! `[VUID-…] ` before the message when validating for a Vulkan environment, as
//! spirv-val's `VkErrorID` does (it names VUIDs in Vulkan environments only). Where the
//! VUID differs from fault to fault (the built-in rules'), the row names the field that
//! holds it: `#[vuid = vuid]` with a field `vuid: Option<&'static str>`, or a field of
//! another table whose fault names it (`#[vuid = rule]`). A field may be another
//! table's enum: it prints as that enum's message. A field marked `#[role = context]`
//! (after its docs) names an id for context only, such as the entry point a fault was
//! found in: it is left out of the fault's ids, so it neither hides nor is hidden by
//! faults about that id.
//!
//! A template has no conditions and does no arithmetic: a message that reads
//! differently in two cases is two rows, and a value printed as `n - 1` is a field of
//! its own, filled in by the check.

use crate::__private::{String, Vec};
use crate::env::TargetEnv;
use crate::error::DecodeErrorKind;
use crate::grammar::Enum;
use crate::spv;
use crate::types::Id;
use core::fmt::{self, Write};

/// Names ids as spirv-val's `getIdName` does: `'N[%name]'`, with the caller's friendly
/// name where it has one and the number otherwise.
pub(crate) struct Namer<'n>(pub(crate) &'n dyn Fn(u32) -> Option<String>);

impl Namer<'_> {
    /// No friendly names: `'N[%N]'`.
    pub(crate) const NONE: Namer<'static> = Namer(&|_| None);

    /// Writes `'N[%name]'`.
    pub(crate) fn id(&self, out: &mut dyn Write, id: Id) -> fmt::Result {
        match (self.0)(id.0) {
            Some(n) => write!(out, "'{}[%{n}]'", id.0),
            None => write!(out, "'{0}[%{0}]'", id.0),
        }
    }

    /// Writes `%name`, as a disassembly names the id.
    pub(crate) fn asm(&self, out: &mut dyn Write, id: Id) -> fmt::Result {
        match (self.0)(id.0) {
            Some(n) => write!(out, "%{n}"),
            None => write!(out, "%{}", id.0),
        }
    }
}

/// A value a fault carries, as its message prints it.
pub(crate) trait Arg {
    /// The format specs the type takes after a `:` in a placeholder (`""` is none).
    // Read by the tables' template test alone.
    #[allow(dead_code)]
    fn specs() -> &'static [&'static str]
    where
        Self: Sized,
    {
        &[""]
    }

    /// Writes the value as `spec` asks.
    fn show(&self, spec: &str, out: &mut dyn Write, names: &Namer<'_>) -> fmt::Result;

    /// Adds the ids the value holds to `ids`.
    fn ids(&self, _ids: &mut Vec<Id>) {}
}

/// An id prints as `'N[%name]'`; with `:n` as its number; with `:asm` as a
/// disassembly names it (`%name`).
impl Arg for Id {
    fn specs() -> &'static [&'static str] {
        &["", "n", "asm"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, names: &Namer<'_>) -> fmt::Result {
        match spec {
            "n" => write!(out, "{}", self.0),
            "asm" => names.asm(out, *self),
            _ => names.id(out, *self),
        }
    }
    fn ids(&self, ids: &mut Vec<Id>) {
        ids.push(*self);
    }
}

/// Numbers print in decimal.
macro_rules! decimal {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
                write!(out, "{self}")
            }
        }
    )*};
}
decimal!(u8, u16, u64, i32, i64);

/// A number: decimal; with `:id`, as spirv-val prints a literal it names with
/// `getIdName` (a struct member's number, say), `'N[%name]'`, though it is no id.
impl Arg for u32 {
    fn specs() -> &'static [&'static str] {
        &["", "id"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, names: &Namer<'_>) -> fmt::Result {
        match spec {
            "id" => names.id(out, Id(*self)),
            _ => write!(out, "{self}"),
        }
    }
}

/// A count or an operand number: decimal, or with `:ordinal` as `1st`, `2nd`, `3rd`,
/// `4th`, `11th`, ….
impl Arg for usize {
    fn specs() -> &'static [&'static str] {
        &["", "ordinal"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        let suffix = match (spec, self % 10, self % 100) {
            ("", ..) => "",
            (_, 1, m) if m != 11 => "st",
            (_, 2, m) if m != 12 => "nd",
            (_, 3, m) if m != 13 => "rd",
            _ => "th",
        };
        write!(out, "{self}{suffix}")
    }
}

impl Arg for &'static str {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        out.write_str(self)
    }
}

impl Arg for String {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        out.write_str(self)
    }
}

/// spirv-val's `spvOpcodeString`: the grammar's name without `Op`.
pub(crate) fn opcode_name(op: spv::Opcode) -> &'static str {
    match op.info() {
        Some(i) => i.opname.strip_prefix("Op").unwrap_or(i.opname),
        None => "unknown",
    }
}

impl Arg for spv::Opcode {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        out.write_str(opcode_name(*self))
    }
}

/// An enumerant prints by its grammar name (`Unknown` for a value the grammar does not
/// have), or as its number with `:n`.
impl<T: Enum> Arg for T {
    fn specs() -> &'static [&'static str] {
        &["", "n"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        match (spec, self.name()) {
            ("n", _) => write!(out, "{}", self.to_u32()),
            (_, Some(name)) => out.write_str(name),
            (_, None) => out.write_str("Unknown"),
        }
    }
}

/// Ids print named, one space between; with `:spaced_after_first`, as spirv-val lists
/// a function's undefined blocks: a space after each but the first; with `:asm`, as
/// a disassembly names them (`%a %b`).
impl Arg for Vec<Id> {
    fn specs() -> &'static [&'static str] {
        &["", "spaced_after_first", "asm"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, names: &Namer<'_>) -> fmt::Result {
        let after_first = spec == "spaced_after_first";
        for (i, id) in self.iter().enumerate() {
            if i > 0 && !after_first {
                out.write_str(" ")?;
            }
            if spec == "asm" {
                names.asm(out, *id)?;
            } else {
                names.id(out, *id)?;
            }
            if i > 0 && after_first {
                out.write_str(" ")?;
            }
        }
        Ok(())
    }
    fn ids(&self, ids: &mut Vec<Id>) {
        ids.extend_from_slice(self);
    }
}

/// Enumerants print as spirv-val lists them: each name (or, unnamed, its number)
/// followed by a space.
impl<T: Enum> Arg for Vec<T> {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        for e in self {
            match e.name() {
                Some(n) => write!(out, "{n} ")?,
                None => write!(out, "{} ", e.to_u32())?,
            }
        }
        Ok(())
    }
}

/// Names print as spirv-val lists extensions: each followed by a space.
impl Arg for Vec<&'static str> {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        for name in self {
            write!(out, "{name} ")?;
        }
        Ok(())
    }
}

/// A VUID a row takes from its fault (the built-in rules', which differ by built-in):
/// never printed by the template, which the VUID precedes.
impl Arg for Option<&'static str> {
    fn show(&self, _: &str, _: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        Ok(())
    }
}

/// What a row's `#[vuid = …]` may be: the VUID, or a field that holds it.
pub(crate) trait IntoVuid {
    /// The VUID, if any.
    fn into_vuid(self) -> Option<&'static str>;
}

impl IntoVuid for &'static str {
    fn into_vuid(self) -> Option<&'static str> {
        Some(self)
    }
}

impl IntoVuid for &Option<&'static str> {
    fn into_vuid(self) -> Option<&'static str> {
        *self
    }
}

/// A row's VUID may be another table's fault's (a rule that names its own VUID).
impl<T: Family> IntoVuid for &T {
    fn into_vuid(self) -> Option<&'static str> {
        self.vuid()
    }
}

/// A struct member, if the fault is about one: with `:member`, as spirv-val adds it
/// after an id (`, member 'N'`); with `:member_index`, ` (member index N)`; nothing
/// when there is none.
impl Arg for Option<u32> {
    fn specs() -> &'static [&'static str] {
        &["member", "member_index"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        match (self, spec) {
            (None, _) => Ok(()),
            (Some(m), "member_index") => write!(out, " (member index {m})"),
            (Some(m), _) => write!(out, ", member '{m}'"),
        }
    }
}

/// A SPIR-V version prints as `major.minor`.
impl Arg for (u8, u8) {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        write!(out, "{}.{}", self.0, self.1)
    }
}

/// An environment prints as SPIRV-Tools describes it (`spvTargetEnvDescription`); as
/// `validate_capability.cpp` names its specification with `:spec` (`Vulkan 1.1`,
/// `OpenCL 1.2 Full Profile`), and with `:needs` what else than the specification may
/// allow a capability there (`extension`, or in OpenCL `extension or capability`).
impl Arg for TargetEnv {
    fn specs() -> &'static [&'static str] {
        &["", "spec", "needs"]
    }
    fn show(&self, spec: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        use TargetEnv as E;
        let (name, needs) = match self {
            E::Vulkan1_0 => ("Vulkan 1.0", "extension"),
            E::Vulkan1_1 => ("Vulkan 1.1", "extension"),
            E::Vulkan1_2 => ("Vulkan 1.2", "extension"),
            E::Vulkan1_3 => ("Vulkan 1.3", "extension"),
            E::Vulkan1_4 => ("Vulkan 1.4", "extension"),
            E::OpenCl1_2 => ("OpenCL 1.2 Full Profile", "extension or capability"),
            E::OpenClEmbedded1_2 => ("OpenCL 1.2 Embedded Profile", "extension or capability"),
            E::OpenCl2_0 | E::OpenCl2_1 => {
                ("OpenCL 2.0/2.1 Full Profile", "extension or capability")
            }
            E::OpenClEmbedded2_0 | E::OpenClEmbedded2_1 => {
                ("OpenCL 2.0/2.1 Embedded Profile", "extension or capability")
            }
            E::OpenCl2_2 => ("OpenCL 2.2 Full Profile", "extension or capability"),
            E::OpenClEmbedded2_2 => ("OpenCL 2.2 Embedded Profile", "extension or capability"),
            _ => ("this environment's", "extension"),
        };
        match spec {
            "spec" => out.write_str(name),
            "needs" => out.write_str(needs),
            _ => write!(out, "{self}"),
        }
    }
}

/// The binary parser's fault prints as the parser's message.
impl Arg for DecodeErrorKind {
    fn show(&self, _: &str, out: &mut dyn Write, _: &Namer<'_>) -> fmt::Result {
        write!(out, "{self}")
    }
}

/// Writes a message: `[vuid] ` when there is one, then `template` with each
/// placeholder replaced by its field.
pub(crate) fn render(
    out: &mut dyn Write,
    names: &Namer<'_>,
    vuid: Option<&str>,
    template: &str,
    fields: &[(&str, &dyn Arg)],
) -> fmt::Result {
    if let Some(v) = vuid {
        write!(out, "[{v}] ")?;
    }
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.write_str(&rest[..at])?;
        let brace = &rest[at..at + 1];
        let after = &rest[at + 1..];
        if after.starts_with(brace) {
            out.write_str(brace)?;
            rest = &after[1..];
            continue;
        }
        let (inner, tail) = after.split_once('}').unwrap_or((after, ""));
        let (name, spec) = inner.split_once(':').unwrap_or((inner, ""));
        match fields.iter().find(|(n, _)| *n == name) {
            Some((_, arg)) => arg.show(spec, out, names)?,
            // The table's test refuses such a template.
            None => write!(out, "{{{inner}}}")?,
        }
        rest = tail;
    }
    out.write_str(rest)
}

/// What [`ValidationErrorKind`](super::ValidationErrorKind) asks of each family's enum.
pub(crate) trait Family {
    /// spirv-val's message; `vulkan`: validating for a Vulkan environment, where the
    /// message begins with the fault's VUID.
    fn write(&self, out: &mut dyn Write, names: &Namer<'_>, vulkan: bool) -> fmt::Result;
    /// The ids the fault names.
    fn ids(&self, ids: &mut Vec<Id>);
    /// The VUID of the rule broken, if it has one.
    fn vuid(&self) -> Option<&'static str>;
}

/// The binary parser's faults: its message, no ids, no VUID.
impl Family for DecodeErrorKind {
    fn write(&self, out: &mut dyn Write, _: &Namer<'_>, _: bool) -> fmt::Result {
        write!(out, "{self}")
    }
    fn ids(&self, _: &mut Vec<Id>) {}
    fn vuid(&self) -> Option<&'static str> {
        None
    }
}

/// A boxed family is its family.
impl<T: Family> Family for alloc::boxed::Box<T> {
    fn write(&self, out: &mut dyn Write, names: &Namer<'_>, vulkan: bool) -> fmt::Result {
        (**self).write(out, names, vulkan)
    }
    fn ids(&self, ids: &mut Vec<Id>) {
        (**self).ids(ids)
    }
    fn vuid(&self) -> Option<&'static str> {
        (**self).vuid()
    }
}

/// One row of a table, for the test that checks every template against its fields:
/// the variant, its template, and each field with the specs its type takes.
#[cfg(test)]
pub(crate) type TemplateRow = (
    &'static str,
    &'static str,
    &'static [(&'static str, fn() -> &'static [&'static str])],
);

/// Checks a table's templates: every placeholder names a field of its row, with a spec
/// that field's type takes, and every brace is closed or doubled. The errors, one a row.
#[cfg(test)]
pub(crate) fn check_templates(table: &str, rows: &[TemplateRow]) -> Vec<String> {
    use alloc::format;
    let mut errors = Vec::new();
    for (variant, template, fields) in rows {
        let mut rest: &str = template;
        while let Some(at) = rest.find(['{', '}']) {
            let brace = &rest[at..at + 1];
            let after = &rest[at + 1..];
            if after.starts_with(brace) {
                rest = &after[1..];
                continue;
            }
            if brace == "}" {
                errors.push(format!("{table}::{variant}: a lone `}}`"));
                break;
            }
            let Some((inner, tail)) = after.split_once('}') else {
                errors.push(format!("{table}::{variant}: an unclosed `{{`"));
                break;
            };
            let (name, spec) = inner.split_once(':').unwrap_or((inner, ""));
            match fields.iter().find(|(n, _)| *n == name) {
                None => errors.push(format!("{table}::{variant}: no field `{name}`")),
                Some((_, specs)) if !specs().contains(&spec) => errors.push(format!(
                    "{table}::{variant}: `{name}` does not print as `:{spec}`"
                )),
                Some(_) => {}
            }
            rest = tail;
        }
    }
    errors
}

/// Declares a family's faults from its table (see the [module docs](self)): the enum,
/// its variants documented by their templates (a field without docs of its own gets a
/// default: `opcode` is the instruction's, `index` an operand's),
/// with `write` (the message), `ids` (the ids its fields hold, in order) and `vuid`,
/// and under `cfg(test)` the table's templates for [`check_templates`]. A table may end
/// with `families { … }`: variants that each wrap another family's enum, whose message,
/// ids and VUID are that enum's ([`Family`]). A table that begins `@description`
/// describes part of another's fault (a field of its rows) and has no public `vuid`.
macro_rules! faults {
    (
        $(@$description:ident)?
        $(#[doc = $doc:literal])*
        pub enum $name:ident {
            $(
                $(#[doc = $vdoc:literal])*
                $(#[vuid = $vuid:expr])?
                $variant:ident $({
                    $( $(#[doc = $fdoc:literal])* $(#[role = $role:ident])? $field:ident : $fty:ty ),* $(,)?
                })? => $template:literal
            ),* $(,)?
        }
        $(families {
            $(
                $(#[doc = $famdoc:literal])*
                $family:ident($famty:ty)
            ),* $(,)?
        })?
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum $name {
            $(
                $(#[doc = $vdoc])*
                #[doc = ""]
                #[doc = concat!("spirv-val: `", $template, "`")]
                $variant $({ $(
                    #[doc = $crate::validate::faults::faults!(@fdoc [$($fdoc)*] $field)]
                    $field: $fty
                ),* })?,
            )*
            $($(
                $(#[doc = $famdoc])*
                $family($famty),
            )*)?
        }

        impl $name {
            /// spirv-val's message, ids named by `names`; under Vulkan (`vulkan`) the
            /// VUID first.
            #[allow(unused_variables)]
            pub(crate) fn write(
                &self,
                out: &mut dyn core::fmt::Write,
                names: &$crate::validate::faults::Namer<'_>,
                vulkan: bool,
            ) -> core::fmt::Result {
                match self {
                    $(
                        Self::$variant $({ $($field),* })? => {
                            let vuid: Option<&'static str> = $crate::validate::faults::faults!(@vuid $($vuid)?);
                            $crate::validate::faults::render(
                                out,
                                names,
                                vuid.filter(|_| vulkan),
                                $template,
                                &[$($( (stringify!($field), $field as &dyn $crate::validate::faults::Arg) ),*)?],
                            )
                        }
                    )*
                    $($(
                        Self::$family(e) => $crate::validate::faults::Family::write(e, out, names, vulkan),
                    )*)?
                }
            }

            /// The ids the fault names (every `Id` it holds, in the order of its fields).
            #[allow(unused_variables, clippy::ptr_arg)]
            pub(crate) fn collect_ids(&self, ids: &mut $crate::__private::Vec<$crate::types::Id>) {
                match self {
                    $(
                        Self::$variant $({ $($field),* })? => {
                            $($( $crate::validate::faults::faults!(@ids ids $field $($role)?); )*)?
                        }
                    )*
                    $($(
                        Self::$family(e) => $crate::validate::faults::Family::ids(e, ids),
                    )*)?
                }
            }

            /// Each row's variant, template and fields, for the template check.
            #[cfg(test)]
            pub(crate) const TEMPLATES: &'static [$crate::validate::faults::TemplateRow] = &[
                $((
                    stringify!($variant),
                    $template,
                    &[$($( (stringify!($field), <$fty as $crate::validate::faults::Arg>::specs as fn() -> &'static [&'static str]) ),*)?],
                ),)*
            ];
        }

        $($(
            impl From<$famty> for $name {
                fn from(e: $famty) -> Self {
                    Self::$family(e)
                }
            }
        )*)?

        /// A fault of this table inside another's message: its text, its ids.
        impl $crate::validate::faults::Arg for $name {
            fn show(
                &self,
                _: &str,
                out: &mut dyn core::fmt::Write,
                names: &$crate::validate::faults::Namer<'_>,
            ) -> core::fmt::Result {
                $name::write(self, out, names, false)
            }
            fn ids(&self, ids: &mut $crate::__private::Vec<$crate::types::Id>) {
                self.collect_ids(ids)
            }
        }

        impl $crate::validate::faults::Family for $name {
            fn write(
                &self,
                out: &mut dyn core::fmt::Write,
                names: &$crate::validate::faults::Namer<'_>,
                vulkan: bool,
            ) -> core::fmt::Result {
                $name::write(self, out, names, vulkan)
            }
            fn ids(&self, ids: &mut $crate::__private::Vec<$crate::types::Id>) {
                self.collect_ids(ids)
            }
            #[allow(unused_variables)]
            fn vuid(&self) -> Option<&'static str> {
                match self {
                    $(
                        Self::$variant $({ $($field),* })? => $crate::validate::faults::faults!(@vuid $($vuid)?),
                    )*
                    $($(
                        Self::$family(e) => $crate::validate::faults::Family::vuid(e),
                    )*)?
                }
            }
        }

        $crate::validate::faults::faults!(@public_vuid [$($description)?] $name);
    };
    // A table of faults answers for its VUID; a table that only describes part of
    // another's fault (`@description`) has none of its own to tell.
    (@public_vuid [] $name:ident) => {
        impl $name {
            /// The VUID of the Vulkan rule the fault breaks, if spirv-val names one
            /// (it prints it only when validating for a Vulkan environment).
            pub fn vuid(&self) -> Option<&'static str> {
                $crate::validate::faults::Family::vuid(self)
            }
        }
    };
    (@public_vuid [description] $name:ident) => {};
    // A field's ids: all of them, but none of a `#[role = context]` field's.
    (@ids $ids:ident $field:ident) => { $crate::validate::faults::Arg::ids($field, $ids) };
    (@ids $ids:ident $field:ident context) => { let _ = $field; };
    (@vuid $vuid:expr) => { $crate::validate::faults::IntoVuid::into_vuid($vuid) };
    (@vuid) => { None };
    // A field's docs: its own, or for the usual fields of rule rows, a default.
    (@fdoc [$($doc:literal)+] $field:ident) => { concat!($($doc, "\n"),+) };
    (@fdoc [] opcode) => { "The instruction's opcode." };
    (@fdoc [] index) => { "The operand's index, counting the result type and id as 0 and 1." };
    (@fdoc [] $field:ident) => { concat!("The message's `", stringify!($field), "`.") };
}
pub(crate) use faults;
