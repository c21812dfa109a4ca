//! The other spellings the host's `read` tool opens when a path is missing. OpenClaw 2026.9.6
//! (`path-utils-*.mjs`, `getReadPathVariants`, used by `tools-*.mjs` on ENOENT) retries the
//! file name with Unicode spaces made ASCII, with ` AM`/` PM` given macOS's narrow no-break
//! space, with curly quotes made straight or straight ones curly, each in NFC and NFD. So
//! `Login\u{a0}Data` opens `Login Data`: a read is judged as every name it may open. NFC and
//! NFD need no variant here: resolved paths are compared in NFC already.

/// `\u00A0\u2000-\u200A\u202F\u205F\u3000`, the host's `UNICODE_SPACES`.
fn unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// The names besides `path` that the host's read tool may open for it (its file name
/// respelled; the directory part is kept as is, as the host keeps it).
pub fn read_variants(path: &str) -> Vec<String> {
    let cut = path.rfind('/').map_or(0, |i| i + 1);
    let (parent, name) = path.split_at(cut);
    let interesting = |c: char| unicode_space(c) || matches!(c, '\u{2018}' | '\u{2019}' | '\'');
    // Most names have nothing to respell (the screenshot form only adds a narrow no-break
    // space, which names no protected file).
    if !name.contains(interesting) {
        return Vec::new();
    }
    let ascii: String = name
        .chars()
        .map(|c| if unicode_space(c) { ' ' } else { c })
        .collect();
    let straight = ascii.replace(['\u{2018}', '\u{2019}'], "'");
    let curly = ascii.replace(['\'', '\u{2018}'], "\u{2019}");
    let mut out: Vec<String> = Vec::new();
    for spelled in [straight, curly] {
        let full = format!("{parent}{spelled}");
        if full != path && !out.contains(&full) {
            out.push(full);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_and_quotes_respelled_in_the_name_only() {
        assert_eq!(
            read_variants("/h/.config/google-chrome/Default/Login\u{a0}Data"),
            vec!["/h/.config/google-chrome/Default/Login Data".to_string()]
        );
        assert_eq!(read_variants("/h/it\u{2019}s"), vec!["/h/it's".to_string()]);
        assert!(read_variants("/h\u{a0}x/plain").is_empty());
        assert!(read_variants("/h/.env").is_empty());
    }
}
