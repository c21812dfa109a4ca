//! `file://` URLs as the host turns them into paths: Node's `fileURLToPath` (WHATWG URL parsing,
//! then `decodeURIComponent` of the pathname), called from `expandPath` in the host's
//! `src/agents/sessions/tools/path-utils.ts`. When Node throws, the host keeps the text as a
//! (relative) path; `None` here means the same.

/// The path a `file://` URL names, or `None` where `fileURLToPath` throws.
pub(crate) fn file_url_path(url: &str) -> Option<String> {
    // The WHATWG parser drops leading/trailing C0 controls and spaces and every tab/newline.
    let cleaned: String = url
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    // Backslashes are slashes in special URLs such as `file:`.
    let rest = cleaned.strip_prefix("file://")?.replace('\\', "/");
    // The host part ends at the first slash. Node throws for any host but `localhost`; we take
    // the path whatever the host says (fail closed: a host Node accepts through IDNA mapping,
    // e.g. full-width letters, is still judged by its path).
    let path = match rest.find('/') {
        Some(slash) => &rest[slash..],
        None => "/",
    };
    // The query and fragment are not part of the path: `/.env?x` opens `/.env`.
    let path = path.split(['?', '#']).next().unwrap_or("/");
    if path.to_ascii_lowercase().contains("%2f") {
        return None; // ERR_INVALID_FILE_URL_PATH: an encoded separator.
    }
    percent_decode(path)
}

/// The path of a `file://` URL as curl reads it (any case of the scheme, the host part
/// dropped, the query and fragment cut off, every `%XX` decoded, an encoded `/` too); `None`
/// for no `file:` URL.
pub fn url_file_path(url: &str) -> Option<String> {
    let scheme = url.get(..7).filter(|s| s.eq_ignore_ascii_case("file://"))?;
    let rest = &url[scheme.len()..];
    let path = match rest.find('/') {
        Some(slash) => &rest[slash..],
        None => "/",
    };
    let path = path.split(['?', '#']).next().unwrap_or("/");
    Some(percent_decode(path).unwrap_or_else(|| path.to_string()))
}

/// `decodeURIComponent`: every `%` must start two hex digits and the bytes must be UTF-8, or
/// it throws (None).
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            // `from_str_radix` would accept a sign (`%+f`); decodeURIComponent does not.
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_node_reads_them() {
        // Each line checked against `url.fileURLToPath` of Node 20.
        let p = |u: &str| file_url_path(u);
        assert_eq!(
            p("file:///srv/app/%2Eenv").as_deref(),
            Some("/srv/app/.env")
        );
        assert_eq!(p("file://localhost/srv/.env").as_deref(), Some("/srv/.env"));
        assert_eq!(
            p("file:///srv\\app\\.env").as_deref(),
            Some("/srv/app/.env")
        );
        assert_eq!(
            p("file:///srv/app/.env?x#y").as_deref(),
            Some("/srv/app/.env")
        );
        assert_eq!(p("file:///a/\tb").as_deref(), Some("/a/b"));
        assert_eq!(p("file:///a/.env ").as_deref(), Some("/a/.env"));
        assert_eq!(p("file://\\srv\\.env").as_deref(), Some("/srv/.env"));
        assert_eq!(p("file:///a/%C3%A9").as_deref(), Some("/a/é"));
        assert_eq!(p("file:///a/%2fb"), None);
        assert_eq!(
            url_file_path("FILE:///a/%2eenv").as_deref(),
            Some("/a/.env")
        );
        assert_eq!(
            url_file_path("file://h/a/id_%72sa?x").as_deref(),
            Some("/a/id_rsa")
        );
        assert_eq!(p("file:///a/%ZZ"), None);
        assert_eq!(p("file:///a/%FF"), None);
        assert_eq!(p("file:/a"), None);
        assert_eq!(p("file:///a/%+f"), None);
    }
}
