//! Decoding of ANSI-C quoted text (`$'…'`): the parser hands it over raw, and `.en$'\x76'` must
//! read as `.env`.

/// The bytes `$'raw'` stands for, as bash decodes them. bash stops at a NUL (`\0`, `\x00`): a C
/// string ends there. Bytes that are not UTF-8 become U+FFFD.
pub(super) fn decode(raw: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some(e) = chars.next() else {
            out.push(b'\\');
            break;
        };
        let byte = match e {
            'a' => 7,
            'b' => 8,
            'e' | 'E' => 0x1b,
            'f' => 0x0c,
            'n' => b'\n',
            'r' => b'\r',
            't' => b'\t',
            'v' => 0x0b,
            '\\' | '\'' | '"' | '?' => e as u8,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                take_digits(&mut chars, 8, 2, &mut v);
                (v & 0xff) as u8
            }
            'x' => {
                let mut v = 0;
                if take_digits(&mut chars, 16, 2, &mut v) == 0 {
                    out.extend_from_slice(b"\\x");
                    continue;
                }
                v as u8
            }
            'u' | 'U' => {
                let mut v = 0;
                let max = if e == 'u' { 4 } else { 8 };
                if take_digits(&mut chars, 16, max, &mut v) == 0 {
                    out.push(b'\\');
                    out.push(e as u8);
                    continue;
                }
                let ch = char::from_u32(v).unwrap_or('\u{fffd}');
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            'c' => match chars.next() {
                Some(k) => (k as u32 & 0x1f) as u8,
                None => {
                    out.extend_from_slice(b"\\c");
                    break;
                }
            },
            other => {
                // Unknown escapes stay as written, backslash included.
                out.push(b'\\');
                let mut buf = [0u8; 4];
                out.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
                continue;
            }
        };
        if byte == 0 {
            break;
        }
        out.push(byte);
    }
    if let Some(nul) = out.iter().position(|&b| b == 0) {
        out.truncate(nul);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads up to `max` digits of `radix` into `v`; returns how many were read.
fn take_digits(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    radix: u32,
    max: usize,
    v: &mut u32,
) -> usize {
    let mut n = 0;
    while n < max {
        let Some(d) = chars.peek().and_then(|c| c.to_digit(radix)) else {
            break;
        };
        *v = v.wrapping_mul(radix).wrapping_add(d);
        chars.next();
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn shell_ansi_escapes_decode_as_bash_does() {
        assert_eq!(decode(r"\x76"), "v");
        assert_eq!(decode(r"a\nb\tc"), "a\nb\tc");
        assert_eq!(decode(r"\162\155"), "rm");
        assert_eq!(decode(r"\u0072m"), "rm");
        assert_eq!(decode(r"it\'s \\"), "it's \\");
        assert_eq!(decode(r"\e[0m"), "\u{1b}[0m");
        assert_eq!(decode(r"ab\0cd"), "ab");
        assert_eq!(decode(r"\q"), "\\q");
        assert_eq!(decode(r"\cA"), "\u{1}");
    }
}
