//! Generator names for the header comment, from Khronos' registry `spir-v.xml` (vendored
//! in `spirv-grammar-data`).

const XML: &str = spirv_grammar_data::GENERATORS_XML;

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')?;
    Some(&tag[start..start + end])
}

/// `(tool id, "vendor tool")` for every registered tool, parsed once.
fn table() -> &'static [(u32, String)] {
    static TABLE: std::sync::OnceLock<Vec<(u32, String)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let Some(start) = XML.find("<ids type=\"vendor\"") else {
            return Vec::new();
        };
        let section = &XML[start..];
        let section = &section[..section.find("</ids>").unwrap_or(section.len())];
        section
            .split("<id ")
            .skip(1)
            .filter_map(|tag| {
                let t = format!(" {tag}");
                let value = attr(&t, "value")?.trim().parse::<u32>().ok()?;
                let vendor = attr(&t, "vendor").unwrap_or("Unknown");
                let name = match attr(&t, "tool") {
                    Some(tool) => format!("{vendor} {tool}"),
                    None => vendor.to_owned(),
                };
                Some((value, name))
            })
            .collect()
    })
}

/// The tool name spirv-dis prints for a generator's tool id (the high 16 bits):
/// `"vendor tool"`, `"vendor"` when the registry lists no tool, or `Unknown(id)`.
pub fn generator_name(tool: u32) -> String {
    match table().iter().find(|(v, _)| *v == tool) {
        Some((_, name)) => name.clone(),
        None => format!("Unknown({tool})"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_and_unknown() {
        assert_eq!(
            super::generator_name(8),
            "Khronos Glslang Reference Front End"
        );
        assert_eq!(super::generator_name(0), "Khronos");
        assert_eq!(super::generator_name(65000), "Unknown(65000)");
    }
}
