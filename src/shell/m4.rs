//! m4 input read as what it makes m4 do (GNU m4 manual): `include(F)` and `sinclude(F)` copy a
//! file into the output (9.1), `undivert(F)` copies one verbatim (10.2), `syscmd(CMD)` and
//! `esyscmd(CMD)` run CMD through `/bin/sh` (13.2–13.3). Each becomes a shell line (`cat 'F'`,
//! or CMD itself) for the guards to judge. Arguments are collected as m4 collects them: quotes
//! (`` ` `` and `'`, or what `changequote` set) nest and the outermost pair is removed; a name
//! set with `define` stands for its value. `indir(`include', F)` and `builtin(`syscmd', C)`
//! call the named builtin. What m4 only computes while it runs (a `$1` in a macro body, a
//! builtin passed around with `defn`, a name built by another call) is a word only known when
//! it runs, which the guards treat as opaque.

/// What a read or a command computed inside m4 stands for: an unresolved word.
const COMPUTED: &str = "\"$M4_COMPUTED\"";

/// Macros that read a file or run a command, and those that can call them by another name.
const READS: [&str; 3] = ["include", "sinclude", "undivert"];
const RUNS: [&str; 2] = ["syscmd", "esyscmd"];

/// Builtins that neither read files nor run commands, which `indir` may name.
const HARMLESS: [&str; 24] = [
    "define", "undefine", "pushdef", "popdef", "dnl", "len", "index", "substr", "translit", "incr",
    "decr", "eval", "ifelse", "ifdef", "shift", "format", "divert", "divnum", "errprint",
    "patsubst", "regexp", "upcase", "downcase", "m4exit",
];

/// m4's state while the text is scanned.
struct Scan {
    open: String,
    close: String,
    defines: Vec<(String, String)>,
    out: Vec<String>,
}

/// The shell lines standing for what m4 reads and runs while it processes `text`.
pub fn commands(text: &str) -> String {
    let mut scan = Scan {
        open: "`".into(),
        close: "'".into(),
        defines: Vec::new(),
        out: Vec::new(),
    };
    scan.text(text, 0);
    scan.out.join("\n")
}

impl Scan {
    /// Scans `text` at macro-nesting `depth` (bodies of defined macros are scanned too, so
    /// `define(`f', `include($1)')` is seen).
    fn text(&mut self, text: &str, depth: u32) {
        if depth > 4 || self.out.len() > 64 {
            return;
        }
        let mut i = 0;
        while i < text.len() {
            let rest = &text[i..];
            if rest.starts_with(self.open.as_str()) {
                i += self.quoted_len(rest);
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            if !(c.is_ascii_alphabetic() || c == '_') {
                i += c.len_utf8();
                continue;
            }
            let word_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..word_len];
            let after = &rest[word_len..];
            i += word_len;
            if !after.starts_with('(') {
                continue;
            }
            let (args, used) = self.arguments(&after[1..]);
            i += 1 + used;
            self.call(word.strip_prefix("m4_").unwrap_or(word), &args, depth);
        }
    }

    /// The length of the quoted string `rest` starts with, nested quotes included.
    fn quoted_len(&self, rest: &str) -> usize {
        let mut level = 0usize;
        let mut i = 0;
        while i < rest.len() {
            let r = &rest[i..];
            if r.starts_with(self.open.as_str()) {
                level += 1;
                i += self.open.len();
            } else if r.starts_with(self.close.as_str()) {
                level = level.saturating_sub(1);
                i += self.close.len();
                if level == 0 {
                    return i;
                }
            } else {
                i += r.chars().next().map_or(1, char::len_utf8);
            }
        }
        rest.len()
    }

    /// A call's arguments after its `(`, each with its outermost quotes removed and its
    /// leading unquoted blanks dropped (as m4 collects them), and the bytes up to the `)`.
    fn arguments(&self, text: &str) -> (Vec<String>, usize) {
        let mut args = vec![String::new()];
        let (mut parens, mut quotes) = (0usize, 0usize);
        let mut i = 0;
        while i < text.len() {
            let r = &text[i..];
            let current = args.last_mut().expect("one argument at least");
            if r.starts_with(self.open.as_str()) {
                if quotes > 0 {
                    current.push_str(&self.open);
                }
                quotes += 1;
                i += self.open.len();
                continue;
            }
            if quotes > 0 && r.starts_with(self.close.as_str()) {
                quotes -= 1;
                if quotes > 0 {
                    current.push_str(&self.close);
                }
                i += self.close.len();
                continue;
            }
            let c = r.chars().next().unwrap_or(' ');
            i += c.len_utf8();
            match c {
                _ if quotes > 0 => current.push(c),
                '(' => {
                    parens += 1;
                    current.push(c);
                }
                ')' if parens == 0 => return (args, i),
                ')' => {
                    parens -= 1;
                    current.push(c);
                }
                ',' if parens == 0 => args.push(String::new()),
                c if c.is_whitespace() && current.is_empty() => {}
                c => current.push(c),
            }
        }
        (args, text.len())
    }

    /// One macro call.
    fn call(&mut self, name: &str, args: &[String], depth: u32) {
        let arg = |n: usize| args.get(n).map(String::as_str).unwrap_or("");
        match name {
            "define" | "pushdef" => {
                self.defines.push((arg(0).to_owned(), arg(1).to_owned()));
                self.text(arg(1), depth + 1);
            }
            "changequote" => {
                self.open = Some(arg(0)).filter(|o| !o.is_empty()).unwrap_or("`").into();
                self.close = Some(arg(1)).filter(|c| !c.is_empty()).unwrap_or("'").into();
            }
            "indir" | "builtin" => {
                let named = self.substituted(arg(0));
                let inner = named.strip_prefix("m4_").unwrap_or(&named).to_owned();
                let known = READS.contains(&inner.as_str())
                    || RUNS.contains(&inner.as_str())
                    || HARMLESS.contains(&inner.as_str())
                    || self.defines.iter().any(|(n, _)| *n == inner);
                match known {
                    true => self.call(&inner, args.get(1..).unwrap_or(&[]), depth),
                    // A name pasted together while the arguments were collected
                    // (`indir(X`'ude, …)` with X defined as `incl`): any builtin.
                    false => self.out.push(COMPUTED.to_owned()),
                }
            }
            // A builtin handed around by its definition may be called by any name.
            "defn"
                if args.iter().any(|a| {
                    let a = a.strip_prefix("m4_").unwrap_or(a);
                    READS.contains(&a) || RUNS.contains(&a)
                }) =>
            {
                self.out.push(COMPUTED.to_owned())
            }
            "include" | "sinclude" => self.read(arg(0)),
            // `undivert(1)` brings back a diversion; a name that is not a number is a file.
            "undivert" => (args
                .iter()
                .filter(|a| !a.trim().chars().all(|c| c.is_ascii_digit())))
            .for_each(|a| self.read(a)),
            "syscmd" | "esyscmd" => {
                let command = self.substituted(arg(0));
                match computed(&command) {
                    true => self.out.push(COMPUTED.to_owned()),
                    false => self.out.push(command),
                }
            }
            _ => {
                // Arguments are expanded before the call: `x(include(.env))`.
                for a in args {
                    self.text(a, depth + 1);
                }
            }
        }
    }

    fn read(&mut self, file: &str) {
        let file = self.substituted(file);
        let line = match computed(&file) || file.contains(['(', '`']) {
            true => format!("cat {COMPUTED}"),
            false => format!("cat {}", super::documents::quote(file.trim())),
        };
        self.out.push(line);
    }

    /// `text` with each name set by `define` replaced by its value (the newest definition).
    fn substituted(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (name, value) in self.defines.iter().rev() {
            if !name.is_empty() && out.contains(name.as_str()) {
                out = replace_word(&out, name, value);
            }
        }
        out
    }
}

/// A `$1`, `$#`, `$*` or `$@` of a macro body: the argument m4 will paste there.
fn computed(text: &str) -> bool {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(1)).any(|i| {
        bytes[i] == b'$' && (bytes[i + 1].is_ascii_digit() || b"#*@".contains(&bytes[i + 1]))
    })
}

/// `text` with whole-word `name` replaced by `value`.
fn replace_word(text: &str, name: &str, value: &str) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + name.len()..].chars().next();
        out.push_str(&rest[..at]);
        match before.is_some_and(ident) || after.is_some_and(ident) {
            true => out.push_str(name),
            false => out.push_str(value),
        }
        rest = &rest[at + name.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_commands_of_m4_input() {
        assert_eq!(commands("include(`.env')"), "cat '.env'");
        assert_eq!(commands("x sinclude(/h/.netrc) y"), "cat '/h/.netrc'");
        assert_eq!(commands("undivert(1, `id_rsa')"), "cat 'id_rsa'");
        assert_eq!(commands("m4_include(`k')"), "cat 'k'");
        assert_eq!(commands("syscmd(`rm -rf ~/d')"), "rm -rf ~/d");
        assert_eq!(commands("esyscmd(`echo a, b')"), "echo a, b");
        assert_eq!(commands("define(`F', `.env')include(F)"), "cat '.env'");
        assert_eq!(commands("indir(`include', `.env')"), "cat '.env'");
        assert_eq!(commands("changequote([,])include([.env])"), "cat '.env'");
        assert_eq!(
            commands("define(`X', `incl')indir(X`'ude, `.env')"),
            "\"$M4_COMPUTED\""
        );
        assert_eq!(
            commands("define(`r', `syscmd($1)')r(`rm x')"),
            "\"$M4_COMPUTED\""
        );
        assert_eq!(
            commands("define(`i', defn(`include'))i(.env)"),
            "\"$M4_COMPUTED\""
        );
        assert_eq!(commands("`include(.env)' dnl quoted: not called"), "");
        assert_eq!(commands("define(`VERSION', `1.2')VERSION"), "");
    }
}
