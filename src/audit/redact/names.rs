//! Whether a name (an object key, a header, a flag, a variable) says its value is a secret.
//!
//! Names are read as words (`AWS_SECRET_ACCESS_KEY`, `x-api-key`, `_authToken`, `PGPASSWORD`),
//! not as substrings: `author`, `passenger`, `tokenizer` and `max_tokens` name no secret, and a
//! name that ends in a reference word (`PASSWORD_FILE`, `--password-stdin`, `token_type`) names
//! where or what the secret is, not the secret itself.

use once_cell::sync::Lazy;
use regex::Regex;

/// Letters every sensitive name contains somewhere; most names fail this one cheap test.
pub const TRIGGER: &str =
    r"(?i:pass|pw|secret|token|credential|creds|key|auth|cookie|sess|sig|bearer|otp|jwt)";

static HAS_TRIGGER: Lazy<Regex> = Lazy::new(|| Regex::new(TRIGGER).expect("static regex"));

/// Words that are sensitive wherever they appear inside a word (`PGPASSWORD`, `client_secret`).
const INSIDE: [&str; 7] = [
    "password",
    "passwort",
    "passwd",
    "passphrase",
    "passcode",
    "secret",
    "credential",
];

/// Words that are sensitive as a whole word.
const WHOLE: [&str; 24] = [
    "pass",
    "pw",
    "pwd",
    "auth",
    "oauth",
    "oauth2",
    "authorization",
    "cookie",
    "cookies",
    "sig",
    "signature",
    "bearer",
    "otp",
    "totp",
    "jwt",
    "creds",
    "sessid",
    "sessionid",
    "jsessionid",
    "phpsessid",
    "passin",
    "passout",
    "apikey",
    "tokens",
];

/// `keytool -storepass`, `ansible_ssh_pass` as one word, `dbpass`: a password by another name.
const PASS_ENDINGS: [&str; 14] = [
    "storepass",
    "keypass",
    "dbpass",
    "rootpass",
    "adminpass",
    "userpass",
    "sshpass",
    "becomepass",
    "sudopass",
    "vncpass",
    "rpcpass",
    "smtppass",
    "ftppass",
    "mailpass",
];

/// A `key` is a secret only with one of these before it (`api_key`, `AccountKey`, `x-api-key`);
/// `sort_key`, `hotkey` and `primary_key` are not.
const KEY_KINDS: [&str; 24] = [
    "api",
    "access",
    "secret",
    "private",
    "account",
    "master",
    "subscription",
    "signing",
    "encryption",
    "encrypt",
    "decrypt",
    "client",
    "app",
    "auth",
    "consumer",
    "admin",
    "service",
    "hmac",
    "webhook",
    "storage",
    "deploy",
    "session",
    "shared",
    "license",
];

/// A last word that makes the name a reference to a secret, or a fact about one.
const REFERENCE: [&str; 58] = [
    "file",
    "files",
    "path",
    "paths",
    "dir",
    "directory",
    "folder",
    "name",
    "names",
    "type",
    "kind",
    "mode",
    "method",
    "scheme",
    "provider",
    "url",
    "uri",
    "endpoint",
    "location",
    "env",
    "var",
    "stdin",
    "fd",
    "prompt",
    "policy",
    "required",
    "enabled",
    "enable",
    "disabled",
    "hint",
    "label",
    "field",
    "format",
    "version",
    "algorithm",
    "algo",
    "strength",
    "length",
    "len",
    "count",
    "size",
    "min",
    "max",
    "ttl",
    "expiry",
    "expires",
    "expiration",
    "lifetime",
    "reset",
    "rotation",
    "cmd",
    "command",
    "helper",
    "user",
    "username",
    "login",
    "status",
    "error",
];

/// With one of these, `tokens` counts tokens of a model (`max_tokens`, `input_tokens`).
const COUNTING: [&str; 17] = [
    "max",
    "min",
    "num",
    "total",
    "count",
    "input",
    "output",
    "prompt",
    "completion",
    "completions",
    "limit",
    "budget",
    "used",
    "remaining",
    "cached",
    "reasoning",
    "estimated",
];

/// The secret-bearing verdict for a name.
pub fn sensitive(name: &str) -> bool {
    if !HAS_TRIGGER.is_match(name) {
        return false;
    }
    let words = words(name);
    let mut strong = false;
    let mut tokenish = false;
    for (i, w) in words.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| words[p].as_str());
        match hit(w, prev) {
            Hit::None => {}
            Hit::Token => tokenish = true,
            Hit::Strong => strong = true,
        }
    }
    if !strong && !tokenish {
        return false;
    }
    if !strong && words.iter().any(|w| COUNTING.contains(&w.as_str())) {
        return false;
    }
    let last = words.last().map(String::as_str).unwrap_or_default();
    let prev = words.len().checked_sub(2).map(|p| words[p].as_str());
    hit(last, prev) != Hit::None || !REFERENCE.contains(&last)
}

/// `PWD=/home/u/project` is the shell's working directory (paths are kept, N6), while
/// `PWD=…;` in an ODBC connection string is a password.
pub fn is_working_dir(name: &str, value: &str) -> bool {
    let last = name.rsplit(' ').next().unwrap_or(name);
    let n = last.trim_start_matches(['$', '-']);
    (n.eq_ignore_ascii_case("pwd") || n.eq_ignore_ascii_case("oldpwd"))
        && (value.starts_with('/') || value.starts_with('~'))
}

#[derive(PartialEq)]
enum Hit {
    None,
    /// Only a token word: `max_tokens` may still turn out to be a count.
    Token,
    Strong,
}

fn hit(w: &str, prev: Option<&str>) -> Hit {
    let strong = INSIDE.iter().any(|s| w.contains(s))
        || WHOLE.contains(&w)
        || (w.len() >= 4 && "password".starts_with(w)) // mysql accepts `--pass`, `--passw`…
        || w.ends_with("pwd")
        || w.ends_with("cookie")
        || PASS_ENDINGS.iter().any(|p| w.ends_with(p))
        || is_key(w, prev)
        || (w == "id" && prev == Some("session"));
    if strong && w != "tokens" {
        Hit::Strong
    } else if strong || w.ends_with("token") {
        Hit::Token
    } else {
        Hit::None
    }
}

fn is_key(w: &str, prev: Option<&str>) -> bool {
    match w.strip_suffix("key") {
        Some("") => prev.is_some_and(|p| KEY_KINDS.iter().any(|k| p.ends_with(k))),
        Some(kind) => KEY_KINDS.iter().any(|k| kind.ends_with(k)),
        None => false,
    }
}

/// Lowercase words: split at anything not a letter or digit and at camel-case humps
/// (`secretAccessKey`, `APIKey` → api, key).
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            flush(&mut cur, &mut out);
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let hump = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if hump {
            flush(&mut cur, &mut out);
        }
        cur.push(c.to_ascii_lowercase());
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_secrets() {
        for n in [
            "password",
            "PGPASSWORD",
            "MYSQL_PWD",
            "DB_PASSWORD",
            "pass",
            "--pass",
            "--passw",
            "ANSIBLE_BECOME_PASS",
            "-srcstorepass",
            "-passin",
            "secret",
            "client_secret",
            "SECRET_KEY_BASE",
            "JWT_SECRET",
            "AWS_SECRET_ACCESS_KEY",
            "secretAccessKey",
            "api_key",
            "apiKey",
            "APIKEY",
            "x-api-key",
            "Ocp-Apim-Subscription-Key",
            "AccountKey",
            "SharedAccessKey",
            "private_key",
            "private_key_id",
            "token",
            "GITHUB_TOKEN",
            "_authToken",
            "PRIVATE-TOKEN",
            "X-Amz-Security-Token",
            "csrftoken",
            "3Ftoken",
            "tokens",
            "auth",
            "Authorization",
            "Proxy-Authorization",
            "Cookie",
            "Set-Cookie",
            "sessionid",
            "session_id",
            "sessionId",
            "PHPSESSID",
            "sig",
            "X-Amz-Signature",
            "X-Amz-Credential",
            "credentials",
            "/prod/db/password",
            "password_hash",
            "pw",
            "DB_PW",
            "Passwort",
            "API key",
            "Your password",
            "export FOO_TOKEN",
        ] {
            assert!(sensitive(n), "{n}");
        }
    }

    #[test]
    fn names_of_ordinary_things() {
        for n in [
            "command",
            "author",
            "--author",
            "authority",
            "XAUTHORITY",
            "passenger",
            "bypass",
            "compass",
            "tokenizer",
            "max_tokens",
            "input_tokens",
            "tokens_used",
            "key",
            "keys",
            "sort_key",
            "hotkey",
            "monkey",
            "primary_key",
            "signal",
            "X-Amz-SignedHeaders",
            "session_start",
            "secret_name",
            "SharedAccessKeyName",
            "token_type",
            "PASSWORD_FILE",
            "--password-stdin",
            "--passphrase-fd",
            "--token-file",
            "--token-ttl",
            "auth_method",
            "User-Agent",
            "Content-Type",
            "max tokens",
            "my key",
        ] {
            assert!(!sensitive(n), "{n}");
        }
    }

    #[test]
    fn the_working_directory_is_not_a_password() {
        assert!(is_working_dir("PWD", "/home/u/project"));
        assert!(is_working_dir("OLDPWD", "~/src"));
        assert!(!is_working_dir("PWD", "Tr0ub4dor"));
        assert!(!is_working_dir("DB_PWD", "/x"));
        assert!(is_working_dir("export PWD", "/x"));
    }
}
