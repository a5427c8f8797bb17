//! JSON written as Python's `json.dumps` writes it by default, which is how Zulip writes the
//! submessage a widget command makes: `", "` between items, `": "` after keys, and every
//! character outside printable ASCII escaped (`ensure_ascii`), non-ASCII as UTF-16 units.

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, Serializer};

/// `value` as Python's `json.dumps(value)` text. Structs keep their field order.
pub(super) fn dumps(value: &impl Serialize) -> String {
    let mut out = Vec::new();
    let mut serializer = Serializer::with_formatter(&mut out, PythonFormatter);
    // Serializing plain data into a Vec cannot fail, and what is written is UTF-8 (ASCII, even).
    match value.serialize(&mut serializer) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

struct PythonFormatter;

impl Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // serde_json escapes quotes, backslashes and control characters itself; the rest of
        // what `ensure_ascii` escapes (DEL and everything non-ASCII) arrives here.
        for c in fragment.chars() {
            if (' '..='~').contains(&c) {
                writer.write_all(&[c as u8])?;
            } else {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    write!(writer, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let text: &[u8] = match escape {
            CharEscape::Quote => b"\\\"",
            CharEscape::ReverseSolidus => b"\\\\",
            CharEscape::Solidus => b"\\/",
            CharEscape::Backspace => b"\\b",
            CharEscape::FormFeed => b"\\f",
            CharEscape::LineFeed => b"\\n",
            CharEscape::CarriageReturn => b"\\r",
            CharEscape::Tab => b"\\t",
            CharEscape::AsciiControl(byte) => return write!(writer, "\\u{byte:04x}"),
        };
        writer.write_all(text)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::dumps;

    #[test]
    fn writes_as_python_json_dumps() {
        let cases = [
            (json!({"a": [1, "x"], "b": {}}), r#"{"a": [1, "x"], "b": {}}"#),
            (json!("café ☕ 𝄞"), r#""caf\u00e9 \u2615 \ud834\udd1e""#),
            (json!("tab\tquote\"nl\nbell\u{7}del\u{7f}"), r#""tab\tquote\"nl\nbell\u0007del\u007f""#),
            (json!([]), "[]"),
            (json!([null, true, -1.5]), "[null, true, -1.5]"),
        ];
        for (value, python) in cases {
            assert_eq!(dumps(&value), python);
        }
    }
}
