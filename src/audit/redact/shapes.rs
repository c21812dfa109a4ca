//! Where secrets sit in free text (commands, messages, file contents), as classes of shapes
//! rather than one pattern per example:
//!
//! - private key blocks (PEM, OpenSSH, PGP, PuTTY);
//! - provider tokens, recognized by their documented prefixes (Stripe, GitHub, GitLab, npm,
//!   Slack, AWS, Google, OpenAI, Anthropic, Hugging Face, SendGrid, Twilio, …) and JWTs;
//! - secret-bearing URLs: userinfo in any scheme (`postgresql://user:pw@host`), DSNs without a
//!   scheme (`user:pw@tcp(host)`), webhook URLs whose path is the credential;
//! - `name=value`, `name: value`, `"name": "value"`, `--name value`, `set name value`, header
//!   lines and header objects written as text, wherever the name says secret (see `names`);
//! - password flags of programs that spell them with one letter (`mysql -pX`, `docker login
//!   -p X`, `curl -u user:X`, `sshpass -p X`, …), which only mean a password after that program.
//!
//! Everything is found in one pass of one automaton (`regex-automata`, linear in the text) that
//! reports byte ranges; the caller replaces them.

use super::{extract, names};
use once_cell::sync::Lazy;
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{hybrid, meta, Anchored, Input, PatternID};
use std::cell::RefCell;
use std::ops::Range;

/// ASCII word boundary: a Unicode one would stop the lazy DFA on non-ASCII text.
const B: &str = r"(?-u:\b)";
/// An optional quote after a name, a backslash-escaped one (JSON inside a string), or markdown
/// (`**Password**:`, `` `token`: ``).
const Q: &str = r#"(?:\\?["'`]|\*{1,2})?"#;
/// Between a name and its value; markdown may close after it (`**Password:** …`).
const SEP: &str = r"\s*(?:=>|:=|[:=]|%3[AaDd])\*{0,2}\s*";

/// A value after a sensitive name; its capture groups are the secret. Quoted values are taken
/// whole, unquoted ones end where shell, URL or JSON syntax would end them. An auth scheme
/// (`Bearer`, `Basic`, …) stays readable; a Python `("user", "pw")` tuple loses its second item.
fn value() -> String {
    [
        r#""([^"\r\n]*)""#,
        r"'([^'\r\n]*)'",
        r#"\\"((?:[^"\\\r\n]|\\[^"\r\n])*)\\""#,
        r#"\(\s*["'][^"'\r\n]*["']\s*,\s*["']([^"'\r\n]*)["']\s*\)"#,
        r#"(?i:bearer|basic|token|digest|negotiate|ntlm)[ \t]+([^\s"'\\,;]+)"#,
        r#"((?:[^\s"'\\&;,<>|(){}\[\]]|\\[^\s"'nrt])+)"#,
    ]
    .map(|v| format!("(?:{v})"))
    .join("|")
}

/// A flag's value: as [`value`], but never another flag.
fn flag_value() -> String {
    [
        r#""([^"\r\n]*)""#,
        r"'([^'\r\n]*)'",
        r#"([^\s"'\\&;|<>\-](?:[^\s"'\\&;|<>]|\\[^\s"'nrt])*)"#,
    ]
    .map(|v| format!("(?:{v})"))
    .join("|")
}

/// Provider tokens by documented prefix and shape; matched whole (prefix included).
const TOKENS: [&str; 38] = [
    r"(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}",
    r"whsec_[A-Za-z0-9+/=]{20,}",
    r"sk-[A-Za-z0-9_\-]{20,}",
    r"npm_[A-Za-z0-9]{30,}",
    r"gh[pousr]_[A-Za-z0-9]{30,}",
    r"github_pat_[A-Za-z0-9_]{30,}",
    r"gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|soat|agent|ffct)-[A-Za-z0-9_\-]{20,}",
    r"xox[abposre]-[A-Za-z0-9\-]{10,}",
    r"xapp-[0-9]-[A-Za-z0-9\-]{10,}",
    r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16,}",
    r"AIza[0-9A-Za-z_\-]{30,}",
    r"ya29\.[0-9A-Za-z_\-]{20,}",
    r"GOCSPX-[A-Za-z0-9_\-]{20,}",
    r"hf_[A-Za-z0-9]{30,}",
    r"api_org_[A-Za-z0-9]{30,}",
    r"SK[0-9a-fA-F]{32}",
    r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
    r"key-[0-9a-f]{32}",
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
    r"do[por]_v1_[a-f0-9]{64}",
    r"pypi-[A-Za-z0-9_\-]{50,}",
    r"dckr_pat_[A-Za-z0-9_\-]{20,}",
    r"hv[sbr]\.[A-Za-z0-9_\-]{20,}",
    r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{20,}",
    r"lin_api_[A-Za-z0-9]{30,}",
    r"ntn_[A-Za-z0-9]{30,}",
    r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
    r"gl(?:c|sa)_[A-Za-z0-9_+/=]{30,}",
    r"NRAK-[A-Z0-9]{20,}",
    r"AGE-SECRET-KEY-1[0-9A-Z]{50,}",
    r"sq0(?:atp|csp)-[0-9A-Za-z_\-]{20,}",
    r"ATATT3[A-Za-z0-9_\-=]{50,}",
    r"dapi[a-f0-9]{32}",
    r"sbp_[a-f0-9]{40}",
    r"(?:gsk_|xai-|pplx-|r8_)[A-Za-z0-9]{30,}",
    // Telegram bot tokens: `<bot id>:<35 characters>` (in URLs after `/bot`, see below).
    r"[0-9]{8,10}:AA[A-Za-z0-9_\-]{30,}",
    // Microsoft Entra client secrets carry `Q~` after their fourth character.
    r"[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{30,}",
    // JWT (and JWS): base64url JSON header and payload.
    r"ey[A-Za-z0-9_\-]{10,}\.ey[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*",
];

/// One rule: how the scan finds it, and how its secret is then located in what it found.
struct Pattern {
    find: String,
    extract: Extract,
}

enum Extract {
    /// The whole match is the secret.
    Whole,
    /// A pattern run on the match only, so it may be looser (and cheaper) than `find`.
    Regex(String),
    /// Read by [`extract::assignment`] or [`extract::flag`].
    Assignment,
    Flag,
}

impl Pattern {
    fn same(p: String) -> Pattern {
        Pattern {
            extract: Extract::Regex(p.clone()),
            find: p,
        }
    }

    /// A rule around a name: the scan wants a trigger word in it, the extraction only needs
    /// to know where the name ends (the scan already found the trigger).
    fn named(chars: &str, rule: impl Fn(&str) -> String) -> Pattern {
        Pattern {
            find: rule(&with_trigger(chars)),
            extract: Extract::Regex(rule(&format!("(?P<name>{chars}+)"))),
        }
    }
}

fn with_trigger(chars: &str) -> String {
    format!("(?P<name>{chars}*{}{chars}*)", names::TRIGGER)
}

/// The shapes that need no program context, in priority order. A group named `name` holds a
/// name that must pass [`names::sensitive`] for the match to count; every other group is a secret.
fn free_text() -> Vec<Pattern> {
    let v = value();
    let fv = flag_value();
    let same = |p: &str| Pattern::same(p.to_string());
    vec![
        // Private key blocks: the body goes, up to the end marker or the end of the text.
        same(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----([\s\S]*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
        ),
        same(r"Private-Lines:[ \t]*[0-9]+([\s\S]*?)(?:Private-(?:MAC|Hash):|\z)"),
        Pattern {
            find: format!("{B}(?:{})", TOKENS.join("|")),
            extract: Extract::Whole,
        },
        same(r"/bot([0-9]{8,10}:[A-Za-z0-9_\-]{30,})"),
        // Webhook URLs whose path is the credential.
        same(r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_\-]+)"),
        same(r"discord(?:app)?\.com/api/webhooks/[0-9]+/([A-Za-z0-9_\-]+)"),
        same(r#"webhook\.office\.com/webhookb2/([^\s"'<>]+)"#),
        // Userinfo in any URL: the password up to the last `@` of the authority, or a user
        // long enough to be a token (`https://<token>@github.com`).
        same(r#"://[^\s/?#@:"'<>]*:([^\s/?#"'<>]*)@"#),
        same(r"://([A-Za-z0-9_\-.~%]{24,})@"),
        // DSNs without a scheme: Go's `user:pw@tcp(host)`, Oracle's `thin:user/pw@host`.
        same(&format!(
            r#"{B}[A-Za-z0-9_.\-]+:([^\s@/"']+)@(?:tcp|unix|udp)\("#
        )),
        same(r#"thin:[^\s/@:"']+/([^\s@"']+)@"#),
        // Header objects written as text: `{name: "x-api-key", value: "…"}`, either order, and
        // XML attributes (`<add key="ApiKey" value="…"/>`).
        same(&format!(
            r#"{B}(?i:name|key|header){Q}{SEP}{Q}(?P<name>[A-Za-z0-9_.\-/:]+){Q}(?:\s*[,;]\s*|\s+){Q}(?i:value){Q}{SEP}(?:{v})"#
        )),
        same(&format!(
            r#"{B}(?i:value){Q}{SEP}(?:{v})(?:\s*[,;]\s*|\s+){Q}(?i:name|key|header){Q}{SEP}{Q}(?P<name>[A-Za-z0-9_.\-/:]+){Q}"#
        )),
        // XML elements: `<password>…</password>`.
        Pattern::named(r"[A-Za-z0-9_.:\-]", |name| {
            format!(r"<{name}(?:\s[^<>]*)?>([^<]+)<")
        }),
        // Markdown table rows: `| password | … |`.
        Pattern::named(r"[A-Za-z0-9_.\- ]", |name| {
            format!(r"\|[ \t]*{name}[ \t]*\|[ \t]*([^|\r\n]*[^|\s])[ \t]*\|")
        }),
        // Prose: `the password is Tr0ub4dor&3`; the value must look like one (a digit or a
        // symbol), so that `the token is valid` stays.
        same(&format!(
            r#"{B}(?i:password|passwd|passphrase|passcode|pin|pw|secret|token|api[ _-]?key)\s+(?i:is|was|will be|would be|remains|(?:is |was |has been |have been )?(?:changed|set|reset|updated) to)(?:\s*[:=]\s*|\s+)(?:"([^"\r\n]+)"|'([^'\r\n]+)'|`([^`\r\n]+)`|([^\s"'`]*[0-9!#$%&*+/=?@^_~][^\s"'`]*))"#
        )),
        // Credential headers as lines: everything to the end of the header.
        same(&format!(
            r#"{B}(?i:(?:proxy-)?authorization|(?:set-)?cookie)(?:\\?["'])?[ \t]*:[ \t]*(?:(?i:bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256)[ \t]+)?([^"'\r\n\\]+)"#
        )),
        // .netrc lines.
        same(&format!(
            r#"{B}machine\s+\S+\s+(?:login\s+\S+\s+)?password\s+([^\s"']+)"#
        )),
        // `aws configure set aws_secret_access_key X`, `npm config set //host/:_authToken X`.
        Pattern::named(r"[A-Za-z0-9_.:/@\-]", |name| {
            format!(
                r#"{B}(?i:set|config|configure)(?:\s+-{{1,2}}[A-Za-z0-9\-]+)*\s+["']?{name}["']?[ \t]+(?:{v})"#
            )
        }),
        same(&format!(
            r"{B}(?i:bearer)[ \t]+([A-Za-z0-9._~+/\-]{{12,}}=*)"
        )),
        // `--password X`, `-storepass X`.
        Pattern {
            find: format!(
                r"(?:^|\s)-{{1,2}}{}[ \t]+(?:{fv})",
                with_trigger(r"[A-Za-z0-9_\-]")
            ),
            extract: Extract::Flag,
        },
        // `NAME=value`, `"name": "value"`, `name: value`, `?name=value&`, `'name' => 'value'`.
        // One word may come first: `API key: …`, `Your password: …`.
        Pattern {
            find: format!(
                r"(?:[A-Za-z]+ )?{}{Q}{SEP}(?:{v})",
                with_trigger(r"[A-Za-z0-9_.\-]")
            ),
            extract: Extract::Assignment,
        },
    ]
}

/// Password flags that mean a password only after a certain program, as (program context,
/// flag): the scan finds both; the flag alone then locates the secret, from the end of the
/// match back (a context spans up to the first such flag after the program's name).
fn program_flags() -> Vec<Pattern> {
    // Up to the end of this command: not across a newline, `;`, `|` or `&&`.
    let g = r"(?:[^\n;|&]|&[^&\n])*?";
    let val = r#"(?:'([^'\n]*)'|"([^"\n]*)"|([^\s'"`;|&<>]+))"#;
    let userpass = |sep: &str| {
        format!(
            r#"(?:'[^'{sep}\n]*{sep}([^'\n]*)'|"[^"{sep}\n]*{sep}([^"\n]*)"|[^\s{sep}'"]*{sep}([^\s'"]+))"#
        )
    };
    let colon = userpass(":");
    let flag = |context: String, flag: String| Pattern {
        find: format!("{context}{g}{flag}"),
        extract: Extract::Regex(format!(r"[\s\S]*{flag}")),
    };
    let same = |p: String| Pattern::same(p);
    vec![
        flag(
            format!(r"{B}(?:mysql[a-z]*|mariadb[a-z\-]*){B}"),
            format!(r"\s-p{val}"),
        ),
        flag(
            format!(r"{B}(?:7z|7za|7zr|rar|unrar){B}"),
            format!(r"\s-p{val}"),
        ),
        flag(
            format!(
                r"{B}(?:docker|podman|buildah|skopeo|nerdctl|oras|crane|regctl|helm|cf|oc|az){B}{g}{B}login{B}"
            ),
            format!(r"\s-p\s*{val}"),
        ),
        flag(
            format!(
                r"{B}(?:sshpass|twine|psexec|psexec64|rdesktop|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport){B}"
            ),
            format!(r"\s-p\s*{val}"),
        ),
        flag(format!(r"{B}redis-cli{B}"), format!(r"\s-a\s*{val}")),
        flag(
            format!(r"{B}redis-cli{B}"),
            format!(r#"\s(?i:auth)\s+(?:[^\s'"]+\s+)?{val}"#),
        ),
        flag(
            format!(r"{B}ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop){B}"),
            format!(r"\s-w\s*{val}"),
        ),
        flag(
            format!(r"{B}(?:zip|unzip|sqlcmd|bcp|ipmitool){B}"),
            format!(r"\s-P\s*{val}"),
        ),
        flag(format!(r"{B}ssh-keygen{B}"), format!(r"\s-[NP]\s*{val}")),
        flag(format!(r"{B}openssl{B}"), format!(r"\s-k\s+{val}")),
        flag(
            format!(r"{B}(?:smbclient|rpcclient|smbmap){B}"),
            r#"\s-U\s*["']?[^\s%'"]*%([^\s'"]+)"#.to_string(),
        ),
        flag(
            format!(r"{B}curl{B}"),
            format!(r"\s(?:-u|--user|-U|--proxy-user)(?:\s*|=){colon}"),
        ),
        flag(
            format!(r"{B}curl{B}"),
            r#"\s-b\s*(?:'([^'\n]*=[^'\n]*)'|"([^"\n]*=[^"\n]*)"|([^\s'"=]*=[^\s'"]*))"#
                .to_string(),
        ),
        flag(
            format!(r"{B}(?:http|https|xh|xhs){B}"),
            format!(r"\s(?:-a|--auth)(?:[ \t]*|=){colon}"),
        ),
        flag(format!(r"{B}lftp{B}"), format!(r"\s-u\s*{}", userpass(","))),
        same(format!(
            r#"{B}(?:sqlplus|sqlldr|expdp|impdp|rman)(?:\s+-\S+)*\s+["']?[^\s/@'"]+/([^\s@'"]+)"#
        )),
        // htpasswd -b[c] file user PASSWORD; with -n there is no file.
        same(format!(
            r"{B}htpasswd(?:\s+-[A-Za-z]+)*\s+-(?:[A-Za-z]*n[A-Za-z]*b|[A-Za-z]*b[A-Za-z]*n)[A-Za-z]*(?:\s+-[A-Za-z]+)*\s+[^\s\-]\S*\s+{val}"
        )),
        same(format!(
            r"{B}htpasswd(?:\s+-[A-Za-z]+)*\s+-[A-Za-z]*b[A-Za-z]*(?:\s+-[A-Za-z]+)*\s+[^\s\-]\S*\s+\S+\s+{val}"
        )),
        flag(
            format!(r"{B}(?:xfreerdp|wlfreerdp|sdl-freerdp){B}"),
            format!(r"\s/p:{val}"),
        ),
        same(format!(
            r"{B}rabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+{val}"
        )),
        // A .pgpass line written to the file: host:port:db:user:password.
        same(r#"(?:[^\s:'"]*:){4}([^\s:'"]+)["']?\s*>{1,2}\s*\S*\.pgpass"#.to_string()),
        // A password piped into a program that reads it from stdin.
        same(format!(
            r#"{B}(?:echo|printf)\s+(?:-[a-z]+\s+)*(?:'%s(?:\\n)?'\s+|"%s(?:\\n)?"\s+)?{val}\s*\|\s*(?:sudo\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*S|(?:sudo\s+)?(?:\S*chpasswd|passwd\s+--stdin|[^\n;|]*--password-stdin))"#
        )),
    ]
}

/// All shapes, compiled: one lazy DFA finds the next match of any rule and says which; only
/// then does that rule's own pattern (small, with its groups) run on the matched span. Capture
/// groups over the whole set would make every match pay for all of them, and one pass instead of
/// one per kind of shape halves the cost of the common case, text with no secret at all.
struct Shapes {
    scan: hybrid::regex::Regex,
    rules: Vec<Rule>,
}

struct Rule {
    /// The rule as written, when the scan runs a looser form of it (see [`loosen`]).
    exact: Option<meta::Regex>,
    extract: Extractor,
    /// A program rule spans the command up to the flag: the search goes on from just after its
    /// start, so that what sits in between is searched too.
    spans_command: bool,
}

enum Extractor {
    Whole,
    /// Every group is a secret but `name`, a name to check.
    Regex {
        re: meta::Regex,
        name: Option<usize>,
    },
    Assignment,
    Flag,
}

static SHAPES: Lazy<Shapes> = Lazy::new(Shapes::new);

thread_local! {
    /// The scan's DFA states, built as text needs them; per thread, as the writer thread does
    /// nearly all the redacting.
    static SCAN_CACHE: RefCell<Option<hybrid::regex::Cache>> = const { RefCell::new(None) };
}

/// Bytes, ASCII classes: commands, URLs and names are ASCII, and Unicode classes would multiply
/// the automaton's states for nothing. Matches still start and end on character boundaries:
/// every rule starts and ends at an ASCII byte or runs through whole non-ASCII characters.
fn syntax() -> regex_automata::util::syntax::Config {
    regex_automata::util::syntax::Config::new()
        .unicode(false)
        .utf8(false)
}

impl Shapes {
    fn new() -> Shapes {
        let free = free_text();
        let programs = program_flags();
        let all: Vec<&Pattern> = free.iter().chain(&programs).collect();
        let finds: Vec<String> = all.iter().map(|p| loosen(&p.find)).collect();
        let scan = hybrid::regex::Regex::builder()
            .syntax(syntax())
            .thompson(thompson::Config::new().which_captures(WhichCaptures::None))
            .dfa(
                hybrid::dfa::Config::new()
                    .starts_for_each_pattern(true)
                    // Measured: the whole corpus needs ~2 MB of states; a smaller cache was
                    // cleared and rebuilt on every secret-bearing text.
                    .cache_capacity(8 << 20),
            )
            .build_many(&finds)
            .expect("static regex");
        let rules = all
            .iter()
            .enumerate()
            .map(|(i, p)| Rule {
                exact: (finds[i] != p.find).then(|| {
                    meta::Regex::builder()
                        .configure(meta::Config::new().which_captures(WhichCaptures::Implicit))
                        .syntax(syntax())
                        .build(&p.find)
                        .expect("static regex")
                }),
                extract: match &p.extract {
                    Extract::Whole => Extractor::Whole,
                    Extract::Assignment => Extractor::Assignment,
                    Extract::Flag => Extractor::Flag,
                    Extract::Regex(e) => {
                        let re = meta::Regex::builder()
                            .syntax(syntax())
                            .build(e)
                            .expect("static regex");
                        let name = re
                            .group_info()
                            .pattern_names(PatternID::ZERO)
                            .position(|n| n == Some("name"));
                        Extractor::Regex { re, name }
                    }
                },
                spans_command: i >= free.len(),
            })
            .collect();
        Shapes { scan, rules }
    }

    /// The next match at or after `at`: its rule and range. Forward for the end and the rule,
    /// then backward for that rule only: the set's own search runs every rule backwards, and
    /// rules that may reach far back (a key body, a command) made it rescan the text for every
    /// match.
    fn next(&self, cache: &mut hybrid::regex::Cache, text: &str, at: usize) -> Next {
        let fwd = Input::new(text).range(at..);
        let end = match self
            .scan
            .forward()
            .try_search_fwd(cache.forward_mut(), &fwd)
        {
            Ok(Some(end)) => end,
            Ok(None) => return Next::Done,
            Err(_) => return Next::Failed,
        };
        let rev = Input::new(text)
            .range(at..end.offset())
            .anchored(Anchored::Pattern(end.pattern()))
            .earliest(false);
        match self
            .scan
            .reverse()
            .try_search_rev(cache.reverse_mut(), &rev)
        {
            Ok(Some(start)) => Next::Match(end.pattern().as_usize(), start.offset()..end.offset()),
            _ => Next::Failed,
        }
    }

    /// Appends the secret ranges of `text`, left to right (program rules may add ranges
    /// before ones already found: the caller sorts).
    fn find(&self, text: &str, out: &mut Vec<Range<usize>>) {
        SCAN_CACHE.with(|slot| {
            let mut slot = slot.borrow_mut();
            let cache = slot.get_or_insert_with(|| self.scan.create_cache());
            self.find_with(cache, text, out);
        })
    }

    fn find_with(&self, cache: &mut hybrid::regex::Cache, text: &str, out: &mut Vec<Range<usize>>) {
        let mut at = 0;
        while at < text.len() {
            let (rule, m) = match self.next(cache, text, at) {
                Next::Match(rule, m) => (&self.rules[rule], m),
                Next::Done => break,
                Next::Failed => {
                    // The DFA gave up (it does not on this configuration): nothing after
                    // this point is trusted to be free of secrets.
                    out.push(at..text.len());
                    break;
                }
            };
            at = rule.record(text, m, out);
        }
    }
}

impl Rule {
    /// Records the secrets of a match of this rule; returns where the search goes on.
    fn record(&self, text: &str, m: Range<usize>, out: &mut Vec<Range<usize>>) -> usize {
        let after_start = next_char(text, m.start);
        let Some(m) = self.exact(text, m) else {
            return after_start; // only the looser form matched (`npm_config`)
        };
        let before = out.len();
        let name = match &self.extract {
            Extractor::Whole => {
                out.push(m.clone());
                None
            }
            Extractor::Assignment => Some(push(out, extract::assignment(text, m.clone()))),
            Extractor::Flag => Some(push(out, extract::flag(text, m.clone()))),
            Extractor::Regex { re, name } => groups(re, *name, text, m.clone(), out),
        };
        if let Some(n) = name {
            let value = out.get(before).and_then(|r| text.get(r.clone()));
            let name = text.get(n.clone()).unwrap_or_default();
            let value = value.unwrap_or_default();
            if !names::sensitive(name) || names::is_working_dir(name, value) {
                // Not a secret after all; its value may still hold one of another shape,
                // and a name after a leading word (`add key="ApiKey" …`) may start one.
                out.truncate(before);
                let resume = name.find(' ').map_or(n.end, |sp| n.start + sp + 1);
                return resume.max(after_start);
            }
        }
        if self.spans_command {
            after_start
        } else {
            m.end.max(after_start)
        }
    }

    /// The match of the rule as written, where the scan found its looser form.
    fn exact(&self, text: &str, m: Range<usize>) -> Option<Range<usize>> {
        match &self.exact {
            None => Some(m),
            Some(exact) => {
                let from = Input::new(text).range(m.start..).anchored(Anchored::Yes);
                exact.search(&from).map(|e| e.range())
            }
        }
    }
}

/// The scan's form of a rule: long counted repetitions (`[A-Za-z0-9]{36}`) made plain (`+`).
/// Counting makes the automaton track a position for every token it might be inside, which
/// multiplied its states (and the memory each byte of a token touches) for no gain: the rule
/// as written then checks the few places the scan stops at.
fn loosen(pattern: &str) -> String {
    static COUNTED: Lazy<regex::Regex> =
        Lazy::new(|| regex::Regex::new(r"\{([0-9]+)(?:,[0-9]*)?\}").expect("static regex"));
    COUNTED
        .replace_all(pattern, |c: &regex::Captures| {
            let n: usize = c[1].parse().unwrap_or(0);
            if n >= 8 {
                "+".to_string()
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

/// Records a secret unless empty; returns the name.
fn push(out: &mut Vec<Range<usize>>, (name, secret): extract::Parts) -> Range<usize> {
    if secret.end > secret.start {
        out.push(secret);
    }
    name
}

/// Runs a rule's own pattern on its match: records its secret groups, returns its name group.
fn groups(
    re: &meta::Regex,
    name: Option<usize>,
    text: &str,
    m: Range<usize>,
    out: &mut Vec<Range<usize>>,
) -> Option<Range<usize>> {
    let mut caps = re.create_captures();
    re.search_captures(
        &Input::new(text).range(m).anchored(Anchored::Yes),
        &mut caps,
    );
    let mut found = None;
    for g in 1..caps.group_len() {
        match caps.get_group(g) {
            Some(n) if Some(g) == name => found = Some(n.range()),
            Some(v) if v.end > v.start => out.push(v.range()),
            _ => {}
        }
    }
    found
}

enum Next {
    Match(usize, Range<usize>),
    Done,
    Failed,
}

fn next_char(text: &str, i: usize) -> usize {
    text[i..].chars().next().map_or(i + 1, |c| i + c.len_utf8())
}

/// The byte ranges of `text` to replace, sorted and merged.
pub fn secrets(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    SHAPES.find(text, &mut out);
    // Rules start and end at ASCII bytes or run through whole characters; should one ever cut
    // a character, the cut widens rather than splitting it.
    for r in &mut out {
        while !text.is_char_boundary(r.start) {
            r.start -= 1;
        }
        while !text.is_char_boundary(r.end) {
            r.end += 1;
        }
    }
    if out.windows(2).any(|w| w[1].start < w[0].end) {
        out.sort_by_key(|r| r.start);
        out.dedup_by(|next, prev| {
            if next.start <= prev.end {
                prev.end = prev.end.max(next.end);
                true
            } else {
                false
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with its secrets replaced by `*`.
    fn masked(text: &str) -> String {
        let mut out = String::new();
        let mut last = 0;
        for r in secrets(text) {
            out.push_str(&text[last..r.start]);
            out.push('*');
            last = r.end;
        }
        out.push_str(&text[last..]);
        out
    }

    fn check(cases: &[(&str, &str)]) {
        for (text, expected) in cases {
            assert_eq!(&masked(text), expected, "{text}");
        }
    }

    #[test]
    fn private_key_blocks() {
        check(&[
            (
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----\nok",
                "-----BEGIN RSA PRIVATE KEY-----*-----END RSA PRIVATE KEY-----\nok",
            ),
            (
                r#"{\"k\": \"-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----\n\"}"#,
                r#"{\"k\": \"-----BEGIN PRIVATE KEY-----*-----END PRIVATE KEY-----\n\"}"#,
            ),
            (
                "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE cut off here",
                "-----BEGIN EC PRIVATE KEY-----*",
            ),
            (
                "Public-Lines: 1\nAAAA\nPrivate-Lines: 1\nAAAAIsecret\nPrivate-MAC: 00ff",
                "Public-Lines: 1\nAAAA\nPrivate-Lines: 1*Private-MAC: 00ff",
            ),
            (
                "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
                "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
            ),
        ]);
    }

    #[test]
    fn provider_tokens_by_prefix() {
        check(&[
            (
                "curl https://x/pay?key=sk_live_4eC39HqLyjWDarjtT1zdp7dc&n=1",
                "curl https://x/pay?key=*&n=1",
            ),
            (
                "publish with npm_abcdefghijklmnopqrstuvwxyz0123456789 now",
                "publish with * now",
            ),
            (
                "git remote add o https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/a/b",
                "git remote add o https://*@github.com/a/b",
            ),
            ("key AKIAIOSFODNN7EXAMPLE here", "key * here"),
            (
                "curl https://api.telegram.org/bot123456789:AAbcdefghijklmnopqrstuvwxyz0123456/getMe",
                "curl https://api.telegram.org/bot*/getMe",
            ),
            (
                "id token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc_def",
                "id token *",
            ),
            (
                "my key is sk-proj-abcdefghijklmnopqrstuvwxyz",
                "my key is *",
            ),
            // Prefixes alone, inside words, or too short are not tokens.
            ("tokens start with ghp_ and npm_", "tokens start with ghp_ and npm_"),
            ("task-abcdefghijklmnopqrstuvwxyz", "task-abcdefghijklmnopqrstuvwxyz"),
            ("sk-learn is a nickname", "sk-learn is a nickname"),
        ]);
    }

    #[test]
    fn userinfo_in_urls_and_dsns() {
        check(&[
            (
                "git clone https://deploy:hunter2hunter@git.example.com/a.git",
                "git clone https://deploy:*@git.example.com/a.git",
            ),
            (
                "psql postgresql://app:p@ss@word@db/app",
                "psql postgresql://app:*@db/app",
            ),
            ("redis://:s3cret@cache:6379/0", "redis://:*@cache:6379/0"),
            (
                "mongodb+srv://admin:pw123456@cluster0.x.net/test",
                "mongodb+srv://admin:*@cluster0.x.net/test",
            ),
            (
                r#"DSN="app:pw123456@tcp(db:3306)/shop""#,
                r#"DSN="app:*@tcp(db:3306)/shop""#,
            ),
            (
                "jdbc:oracle:thin:scott/tiger99@db:1521:orcl",
                "jdbc:oracle:thin:scott/*@db:1521:orcl",
            ),
            (
                "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
                "https://hooks.slack.com/services/*",
            ),
            // No password: kept.
            (
                "curl https://jane@example.com/",
                "curl https://jane@example.com/",
            ),
            (
                "psql postgres://db.internal:5432/app",
                "psql postgres://db.internal:5432/app",
            ),
            ("http://[::1]:8080/health", "http://[::1]:8080/health"),
        ]);
    }

    #[test]
    fn sensitive_names_with_values() {
        check(&[
            ("export FOO_TOKEN=abc123def", "export FOO_TOKEN=*"),
            ("PGPASSWORD=x1y2z3 psql -h db", "PGPASSWORD=* psql -h db"),
            (
                r#"{"password": "hunter2", "user": "a"}"#,
                r#"{"password": "*", "user": "a"}"#,
            ),
            (
                r#"curl -d "{\"api_key\": \"k123\"}""#,
                r#"curl -d "{\"api_key\": \"*\"}""#,
            ),
            (
                "?access_token=aaa&api_key=bbb&f=json",
                "?access_token=*&api_key=*&f=json",
            ),
            (
                "Server=db;User ID=sa;Password=pw1;Encrypt=true",
                "Server=db;User ID=sa;Password=*;Encrypt=true",
            ),
            (
                "AccountName=a;AccountKey=ab+c/d==;x=y",
                "AccountName=a;AccountKey=*;x=y",
            ),
            ("UID=sa;PWD=pw1;", "UID=sa;PWD=*;"),
            (
                "redirect=https%3A%2F%2Fa%2Fcb%3Ftoken%3Dabcdef",
                "redirect=https%3A%2F%2Fa%2Fcb%3Ftoken%3D*",
            ),
            ("auth=('admin', 'pw123')", "auth=('admin', '*')"),
            ("'password' => 'pw123'", "'password' => '*'"),
            ("password: hunter2\nhost: db", "password: *\nhost: db"),
            (
                r"printf 'key_id = A1\nsecret_key = S2\n'",
                r"printf 'key_id = A1\nsecret_key = *\n'",
            ),
            ("$env:API_TOKEN = \"t0k\"", "$env:API_TOKEN = \"*\""),
            ("**Password:** hunter2 and", "**Password:** * and"),
            ("Your API key: abc123 ok", "Your API key: * ok"),
            (
                "<password>pw1</password> <user>u</user>",
                "<password>*</password> <user>u</user>",
            ),
            (
                r#"<add key="ApiKey" value="k1"/>"#,
                r#"<add key="ApiKey" value="*"/>"#,
            ),
            ("your password is Tr0ub4dor&3.", "your password is *"),
            ("the token is valid", "the token is valid"),
            (
                "Your new password is: Jk9lZx1Cv3Bn",
                "Your new password is: *",
            ),
            (
                "the password was changed to Ws2eDc4r yesterday",
                "the password was changed to * yesterday",
            ),
            (
                "| user | admin |\n| password | Rf4t Gb6 |",
                "| user | admin |\n| password | * |",
            ),
            ("export PWD=/home/u", "export PWD=/home/u"),
            // Names that are not secrets, and the working directory.
            (
                "python t.py --max_tokens=512",
                "python t.py --max_tokens=512",
            ),
            ("the author: Jane", "the author: Jane"),
            (
                "PASSWORD_FILE=/run/secrets/db",
                "PASSWORD_FILE=/run/secrets/db",
            ),
            ("PWD=/home/u/project make", "PWD=/home/u/project make"),
            ("for k in keys: print(k)", "for k in keys: print(k)"),
            (
                "Open the password reset page",
                "Open the password reset page",
            ),
        ]);
    }

    #[test]
    fn headers_as_text() {
        check(&[
            (
                "curl -H \"X-Api-Key: k123\" https://x",
                "curl -H \"X-Api-Key: *\" https://x",
            ),
            (
                "curl -H 'Authorization: Basic YWRtaW46cHc=' https://x",
                "curl -H 'Authorization: Basic *' https://x",
            ),
            (
                "Authorization: token ghx123\r\nAccept: */*",
                "Authorization: token *\r\nAccept: */*",
            ),
            ("Cookie: sid=a1; csrftoken=b2", "Cookie: *"),
            (
                r#"fetch(u, {headers: [{name:"x-api-key", value:"k123"}]})"#,
                r#"fetch(u, {headers: [{name:"x-api-key", value:"*"}]})"#,
            ),
            (
                r#"{"value": "t0k", "name": "X-Auth-Token"}"#,
                r#"{"value": "*", "name": "X-Auth-Token"}"#,
            ),
            ("use Bearer abcdefghijklmnop0123 now", "use Bearer * now"),
            (
                r#"{name:"Accept", value:"application/json"}"#,
                r#"{name:"Accept", value:"application/json"}"#,
            ),
            (
                "the Authorization header is missing",
                "the Authorization header is missing",
            ),
            (
                "Bearer tokens expire after an hour",
                "Bearer tokens expire after an hour",
            ),
        ]);
    }

    #[test]
    fn cli_flags_with_sensitive_names() {
        check(&[
            (
                "docker login --username me --password pw1 ghcr.io",
                "docker login --username me --password * ghcr.io",
            ),
            ("mysql --pass=pw1 -u root", "mysql --pass=* -u root"),
            (
                "keytool -srcstorepass pw1 -deststorepass pw2",
                "keytool -srcstorepass * -deststorepass *",
            ),
            (
                "openssl rsa -passin pass:pw1 -out k",
                "openssl rsa -passin * -out k",
            ),
            (
                "aws configure set aws_secret_access_key abc/def+1",
                "aws configure set aws_secret_access_key *",
            ),
            (
                "npm config set //r.example/:_authToken t0k",
                "npm config set //r.example/:_authToken *",
            ),
            (
                "echo 'machine h login me password pw1' >> ~/.netrc",
                "echo 'machine h login me password *' >> ~/.netrc",
            ),
            // A flag that names where the secret is, or takes no value.
            (
                "docker login -u me --password-stdin r.example",
                "docker login -u me --password-stdin r.example",
            ),
            (
                "kubectl --token-file /var/run/t get pods",
                "kubectl --token-file /var/run/t get pods",
            ),
            (
                "git config --global user.name Jane",
                "git config --global user.name Jane",
            ),
            (
                "aws configure set region eu-central-1",
                "aws configure set region eu-central-1",
            ),
        ]);
    }

    #[test]
    fn password_flags_of_programs() {
        check(&[
            (
                "mysql -h db -u root -ppw123 shop",
                "mysql -h db -u root -p* shop",
            ),
            (
                "mysqldump -u root -p'p w' shop > d.sql",
                "mysqldump -u root -p'*' shop > d.sql",
            ),
            (
                "docker login -u me -p pw123 r.example",
                "docker login -u me -p * r.example",
            ),
            ("sshpass -p 'pw123' ssh h", "sshpass -p '*' ssh h"),
            ("curl -u admin:pw123 https://x", "curl -u admin:* https://x"),
            (
                "curl \"https://x?a=1&b=2\" --user 'admin:pw 1'",
                "curl \"https://x?a=1&b=2\" --user 'admin:*'",
            ),
            ("redis-cli -h c -a pw123 ping", "redis-cli -h c -a * ping"),
            (
                "htpasswd -bc /etc/.htpasswd admin pw123",
                "htpasswd -bc /etc/.htpasswd admin *",
            ),
            ("htpasswd -nb admin pw123 > f", "htpasswd -nb admin * > f"),
            (
                "sqlplus scott/tiger99@//db:1521/ORCL",
                "sqlplus scott/*@//db:1521/ORCL",
            ),
            (
                "smbclient //fs/s -U alice%pw123",
                "smbclient //fs/s -U alice%*",
            ),
            ("7z a -ppw123 b.7z d/", "7z a -p* b.7z d/"),
            (
                "echo pw123 | docker login --password-stdin r",
                "echo * | docker login --password-stdin r",
            ),
            (
                "echo \"alice:pw123\" | sudo chpasswd",
                "echo \"*\" | sudo chpasswd",
            ),
            (
                "echo pw123 | sudo -S apt update",
                "echo * | sudo -S apt update",
            ),
            ("redis-cli -h c AUTH pw123", "redis-cli -h c AUTH *"),
            (
                "echo 'db:5432:app:app:pw123' >> ~/.pgpass",
                "echo 'db:5432:app:app:*' >> ~/.pgpass",
            ),
            // The same letters elsewhere mean something else.
            ("mysql -h db -u app -p shop", "mysql -h db -u app -p shop"),
            (
                "mkdir -p build && cp -pr src b",
                "mkdir -p build && cp -pr src b",
            ),
            (
                "docker run -p 8080:80 -u 1000:1000 nginx",
                "docker run -p 8080:80 -u 1000:1000 nginx",
            ),
            ("ssh -p 2222 deploy@host", "ssh -p 2222 deploy@host"),
            (
                "ssh-keygen -t ed25519 -N \"\"",
                "ssh-keygen -t ed25519 -N \"\"",
            ),
            ("mysql -h db; mkdir -pv out", "mysql -h db; mkdir -pv out"),
        ]);
    }

    #[test]
    fn non_ascii_text_around_secrets() {
        check(&[
            ("Passwort: geheimÜber123 und mehr", "Passwort: * und mehr"),
            ("Schlüssel token=ÄÖÜ€ ende", "Schlüssel token=* ende"),
            (
                "🔑 postgres://app:pä55wörd@db/app",
                "🔑 postgres://app:*@db/app",
            ),
            // Found by the property below: an escaped first character is no `\"…\"` value.
            ("password=\\Σ￼ x", "password=* x"),
        ]);
    }

    use proptest::prelude::*;

    proptest::proptest! {
        /// Whatever the text, the ranges can be cut out: sorted, disjoint, on characters.
        #[test]
        fn ranges_are_sorted_disjoint_and_on_characters(
            parts in proptest::collection::vec(proptest::prop_oneof![
                proptest::string::string_regex("[ -~]{0,12}").expect("regex"),
                proptest::string::string_regex("\\PC{0,6}").expect("regex"),
                proptest::sample::select(vec![
                    "password=", "--token ", "mysql -p", "://u:", "@", "\"", "'", "\\\"", " ",
                    "-----BEGIN RSA PRIVATE KEY-----", "ghp_", "Authorization: Bearer ", "|",
                    "curl -u a:", "name: \"x-api-key\", value: ", "<password>", "é", "€",
                ]).prop_map(String::from),
            ], 0..24)
        ) {
            let text: String = parts.concat();
            let ranges = secrets(&text);
            for r in &ranges {
                proptest::prop_assert!(r.start < r.end && r.end <= text.len());
                proptest::prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            }
            for w in ranges.windows(2) {
                proptest::prop_assert!(w[0].end <= w[1].start);
            }
        }
    }

    #[test]
    fn ordinary_text_has_no_secrets() {
        for text in [
            "git push origin main",
            "The build finished at 2026-11-18T12:00:00.000Z",
            "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "request 550e8400-e29b-41d4-a716-446655440000 done",
            "cat /home/u/.env && cat ~/.aws/credentials",
            "Grüße aus München: überall Schnee",
        ] {
            assert!(secrets(text).is_empty(), "{text}: {:?}", secrets(text));
        }
    }
}
