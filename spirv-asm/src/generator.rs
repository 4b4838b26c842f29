//! Generator names for the header comment, from the vendored `grammar/spir-v.xml`.

const XML: &str = include_str!("../../grammar/spir-v.xml");

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')?;
    Some(&tag[start..start + end])
}

/// The tool name spirv-dis prints for a generator's tool id (the high 16 bits):
/// `"vendor tool"`, `"vendor"` when the registry lists no tool, or `Unknown(id)`.
pub fn generator_name(tool: u32) -> String {
    let Some(start) = XML.find("<ids type=\"vendor\"") else {
        return format!("Unknown({tool})");
    };
    let section = &XML[start..];
    let section = &section[..section.find("</ids>").unwrap_or(section.len())];
    for tag in section.split("<id ").skip(1) {
        let value = attr(&format!(" {tag}"), "value").and_then(|v| v.trim().parse::<u32>().ok());
        if value == Some(tool) {
            let t = format!(" {tag}");
            let vendor = attr(&t, "vendor").unwrap_or("Unknown");
            return match attr(&t, "tool") {
                Some(tool) => format!("{vendor} {tool}"),
                None => vendor.to_owned(),
            };
        }
    }
    format!("Unknown({tool})")
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
