//! The one piece of JSON the engine writes itself: a string literal, escaped the way
//! Kafka's tools (and serde_json) print it. Keeping it here spares the page a JSON
//! library.

/// `s` as a JSON string literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_serde_json() {
        for s in ["u12-txn", "a\"b\\c", "line\nbreak\t\u{1}", "é가", ""] {
            assert_eq!(quote(s), serde_json::to_string(s).unwrap());
        }
    }
}
