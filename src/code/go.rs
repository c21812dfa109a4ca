//! Go read into shell commands (see `code`): `os`, `os/exec`, `io/ioutil`, `net`, `net/http`
//! and `syscall`, by the names its imports bind (`import x "os/exec"`, a dot import); cgo's
//! `C.` calls as C's, and the C of its preamble (the comment just before `import "C"`), which
//! is compiled into the program.

use super::chain::Chain;
use super::lex::{Lang, Tok};
use super::native::{self, Occurrence};
use super::reader::{self, Dialect, Reader, Step};
use super::{Reading, Val};

pub fn read(code: &str) -> Reading {
    let mut reading = reader::read_text(code, Lang::Go, &Go);
    if let Some(preamble) = cgo_preamble(code) {
        let c = super::c::read(&preamble);
        if !c.script.is_empty() {
            let sep = if reading.script.is_empty() { "" } else { "\n" };
            reading.script = format!("{}{sep}{}", reading.script, c.script);
        }
        reading.unread = reading.unread.or(c.unread);
        reading.grave = reading.grave.or(c.grave);
        reading.runs = reading.runs.or(c.runs);
    }
    reading
}

struct Go;

/// Packages whose use reaches outside plain computation.
const REACH: [&str; 11] = [
    "os",
    "os/exec",
    "io/ioutil",
    "net",
    "net/http",
    "net/smtp",
    "crypto/tls",
    "syscall",
    "golang.org/x/sys/unix",
    "plugin",
    "C",
];

impl Dialect for Go {
    fn bind(&self, r: &mut Reader) {
        let mut i = 0;
        while i < r.t.len() {
            match r.name(i) {
                Some("import") => {
                    let end = imports(r, i + 1);
                    r.consume(i..end);
                    i = end;
                }
                _ => i += 1,
            }
        }
        native::bind_values(r, self, &occurrence);
    }

    fn qualified(&self, r: &Reader, head: &str) -> Option<String> {
        if let Some(q) = r.binds.get(head) {
            return REACH.contains(&q.as_str()).then(|| q.clone());
        }
        // `import . "os"`: the package's names, unqualified.
        let glob = r
            .binds
            .iter()
            .find(|(k, v)| k.starts_with('*') && REACH.contains(&v.as_str()));
        glob.map(|(_, package)| format!("{package}.{head}"))
    }

    fn call(&self, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step {
        if let Some(f) = name.strip_prefix("C.") {
            return super::c::call(self, r, f, c, k);
        }
        let link = &c.links[k];
        let args = link.args.clone().unwrap_or_default();
        let vals = r.values(self, link);
        let arg = |n: usize| vals.get(n).cloned().flatten();
        let name = name
            .strip_prefix("io/ioutil.")
            .map_or(name.to_string(), |f| format!("os.{f}"))
            .replace("golang.org/x/sys/unix.", "syscall.");
        match name.as_str() {
            "os.Remove" | "syscall.Unlink" => r.emit(&["rm", "-f"], &[arg(0)]),
            "os.RemoveAll" => r.emit(&["rm", "-rf"], &[arg(0)]),
            "syscall.Rmdir" => r.emit(&["rmdir"], &[arg(0)]),
            "os.Rename" | "syscall.Rename" => r.emit(&["mv"], &[arg(0), arg(1)]),
            "os.WriteFile" | "os.Create" => r.emit(&["tee"], &[arg(0)]),
            "os.OpenFile" | "syscall.Open" => r.emit(native::open_verb(r, args.get(1)), &[arg(0)]),
            "os.Open" | "os.ReadFile" => r.emit(&["cat"], &[arg(0)]),
            "os.ReadDir" | "os.Stat" | "os.Lstat" | "os.Readlink" | "os.DirFS" => {
                r.emit(&["ls", "-d"], &[arg(0)])
            }
            "os.Mkdir" | "os.MkdirAll" | "syscall.Mkdir" => r.emit(&["mkdir", "-p"], &[arg(0)]),
            "os.Chmod" | "syscall.Chmod" => {
                let mode = native::mode(r, args.get(1));
                r.emit(&["chmod", &mode], &[arg(0)])
            }
            "os.Chown" | "os.Lchown" | "syscall.Chown" => r.emit(&["chown", "0"], &[arg(0)]),
            "os.Symlink" | "syscall.Symlink" => r.emit(&["ln", "-s"], &[arg(0), arg(1)]),
            "os.Link" | "syscall.Link" => r.emit(&["ln"], &[arg(0), arg(1)]),
            "os.Truncate" | "syscall.Truncate" => r.emit(&["truncate", "-s", "0"], &[arg(0)]),
            "os.Chdir" | "syscall.Chdir" => r.emit(&["cd"], &[arg(0)]),
            "os.Getenv" | "os.LookupEnv" | "syscall.Getenv" => r.env_read(arg(0)),
            "os.Environ" | "syscall.Environ" => r.env_read(None),
            "os/exec.Command" => {
                let words = native::words(r, self, &args);
                native::run(r, "exec.Command", words)
            }
            "os/exec.CommandContext" => {
                let words = native::words(r, self, args.get(1..).unwrap_or_default());
                native::run(r, "exec.CommandContext", words)
            }
            "os.StartProcess" | "syscall.Exec" | "syscall.ForkExec" => {
                let items = args.get(1).and_then(|a| native::list_items(r, a));
                let rest =
                    items.and_then(|i| native::words(r, self, i.get(1..).unwrap_or_default()));
                let words = arg(0).zip(rest).map(|(p, mut rest)| {
                    rest.insert(0, p.word());
                    rest
                });
                native::run(r, &name, words)
            }
            "net/http.Get" | "net/http.Head" => r.emit(&["curl", "-s"], &[arg(0)]),
            "net/http.Post" | "net/http.PostForm" => {
                r.emit(&["curl", "-s", "-X", "POST"], &[arg(0)])
            }
            "net/http.NewRequest" | "net/http.NewRequestWithContext" => {
                let at = usize::from(name.ends_with("Context"));
                match arg(at) {
                    Some(Val::Lit(m)) => {
                        r.emit(&["curl", "-s", "-X", &m.to_uppercase()], &[arg(at + 1)])
                    }
                    _ => r.emit(&["curl", "-s", "-X", "POST"], &[arg(at + 1)]),
                }
            }
            n if n.starts_with("net/http.ListenAndServe") || n.starts_with("net/http.Serve") => {
                Step::Unread(format!("`{n}` listens for connections"))
            }
            n if n.starts_with("net.Dial") || n.starts_with("net.Listen") => {
                Step::Unread(format!("`{n}` opens a connection"))
            }
            "crypto/tls.Dial" | "crypto/tls.Listen" | "net/smtp.SendMail" | "plugin.Open" => {
                Step::Unread(format!("`{name}`"))
            }
            n if pure(n) => Step::Pure,
            n => Step::Unread(format!("`{n}(…)`")),
        }
    }

    fn attribute(&self, _r: &mut Reader, name: &str, _c: &Chain) -> Step {
        match name {
            "os.Environ" => Step::Unread("`os.Environ` used other than by a call".into()),
            // Types and constants (`os.File`, `os.O_WRONLY`, `exec.Cmd`, `http.StatusOK`).
            _ => Step::Pure,
        }
    }

    fn value_of(&self, r: &Reader, c: &Chain) -> Option<(Val, usize)> {
        if let Some(v) = native::var_through(r, self, &c.links) {
            return Some((v, c.span.end));
        }
        let k = c.links.iter().position(|l| l.args.is_some())?;
        let head = &c.links[0].name;
        let q = r.binds.get(head).cloned().unwrap_or_else(|| head.clone());
        let name = (c.links[1..=k].iter()).fold(q, |n, l| format!("{n}.{}", l.name));
        let args = r.values(self, &c.links[k]);
        let first = || args.first().cloned().flatten();
        let v = match name.as_str() {
            "os.Getenv" => match first()? {
                Val::Lit(k) if k == "HOME" => Val::Home(String::new()),
                _ => return None,
            },
            "os.UserHomeDir" => Val::Home(String::new()),
            "os.TempDir" => Val::Lit("/tmp".into()),
            "os.MkdirTemp" | "io/ioutil.TempDir" => Val::Temp("/tmp/tmp".into()),
            "os.Getwd" => Val::Lit(".".into()),
            "os.ExpandEnv" => match first()? {
                Val::Lit(s) => {
                    let rest = s.strip_prefix("$HOME").or(s.strip_prefix("${HOME}"))?;
                    Val::Home(rest.to_string())
                }
                home => home,
            },
            "path/filepath.Join" | "path.Join" => {
                let parts: Vec<Val> = args.into_iter().collect::<Option<_>>()?;
                let mut parts = parts.into_iter();
                parts.next().map(|f| parts.try_fold(f, Val::join))??
            }
            "path/filepath.Abs"
            | "path/filepath.Clean"
            | "path.Clean"
            | "string"
            | "C.CString"
            | "path/filepath.FromSlash" => first()?,
            "fmt.Sprintf" => match first()? {
                Val::Lit(f) => native::printf(&f, &args[1..])?,
                _ => return None,
            },
            "strings.Join" => join_list(self, r, c, k)?,
            // `t.TempDir()` of a test: a fresh directory under the system's temp.
            n if n.ends_with(".TempDir") && args.is_empty() => Val::Temp("/tmp/test".into()),
            _ => return None,
        };
        Some((native::through(r, self, v, &c.links[k + 1..])?, c.span.end))
    }

    fn risky_method(&self, _name: &str) -> bool {
        false
    }
}

/// `strings.Join([]string{"a", "b"}, " ")`.
fn join_list(d: &dyn Dialect, r: &Reader, c: &Chain, k: usize) -> Option<Val> {
    let args = c.links[k].args.as_ref()?;
    let items = native::list_items(r, args.first()?)?;
    let Val::Lit(sep) = r.value(d, args.get(1)?)? else {
        return None;
    };
    let mut out = String::new();
    for (n, item) in items.iter().enumerate() {
        let Val::Lit(s) = r.value(d, item)? else {
            return None;
        };
        if n > 0 {
            out.push_str(&sep);
        }
        out.push_str(&s);
    }
    Some(Val::Lit(out))
}

/// `import "os"`, `import x "os/exec"`, `import ( "os"; . "net/http"; _ "embed" )`: the
/// bindings; the index after the declaration.
fn imports(r: &mut Reader, i: usize) -> usize {
    let grouped = r.punct(i, '(');
    let mut j = i + usize::from(grouped);
    loop {
        while r.punct(j, ';') {
            j += 1;
        }
        if grouped && r.punct(j, ')') {
            return j + 1;
        }
        let alias = match (r.name(j), r.punct(j, '.')) {
            (Some(a), _) => Some(a.to_string()),
            (None, true) => Some("*".to_string()),
            _ => None,
        };
        j += usize::from(alias.is_some());
        let Some(Tok::Str(Some(path))) = r.t.get(j).map(|x| &x.0) else {
            return j;
        };
        let path = path.clone();
        j += 1;
        let local = match alias {
            Some(a) if a == "*" => format!("*{path}"),
            Some(a) => a,
            None => package_name(&path),
        };
        if local != "_" {
            r.binds.insert(local, path);
        }
        if !grouped {
            return j;
        }
    }
}

/// The name a package is used by: its path's last element, without a major version
/// (`gopkg.in/yaml.v3` is `yaml`).
fn package_name(path: &str) -> String {
    let leaf = path.rsplit('/').next().unwrap_or(path);
    let leaf = match leaf.rsplit_once(".v") {
        Some((name, v)) if v.chars().all(|c| c.is_ascii_digit()) => name,
        _ => leaf,
    };
    leaf.to_string()
}

/// What packages that reach offer that computes, names or waits without touching anything.
fn pure(name: &str) -> bool {
    const PURE: [&str; 28] = [
        "os.Exit",
        "os.Getpid",
        "os.Getppid",
        "os.Getuid",
        "os.Geteuid",
        "os.Getgid",
        "os.Hostname",
        "os.Getwd",
        "os.Executable",
        "os.TempDir",
        "os.UserHomeDir",
        "os.UserConfigDir",
        "os.UserCacheDir",
        "os.IsNotExist",
        "os.IsExist",
        "os.IsPermission",
        "os.Setenv",
        "os.Unsetenv",
        "os.ExpandEnv",
        "os.Expand",
        "os.NewFile",
        "os.MkdirTemp",
        "os.CreateTemp",
        "os.TempFile",
        "os.TempDir",
        "os.ReadAll",
        "os.NopCloser",
        "os/exec.LookPath",
    ];
    PURE.contains(&name)
        || (name.starts_with("net/http.") || name.starts_with("net.")) // requests are named above
        || name.starts_with("os.File")
        || name.starts_with("os/exec.") && !name.contains("Command")
        || matches!(name, "syscall.Getpid" | "syscall.Getuid" | "syscall.Getpagesize")
}

/// How the occurrence of a name at `i` binds it: `var`/`const`, `:=` and `=` (a place in a
/// list of names, matched with the values), a parameter or field (a type follows), an
/// in-place change.
fn occurrence(r: &Reader, i: usize) -> Occurrence {
    if matches!(
        i.checked_sub(1).and_then(|k| r.name(k)),
        Some("var" | "const")
    ) {
        let mut after = i + 1;
        while after < r.t.len()
            && !r.punct(after, '=')
            && !r.punct(after, ';')
            && !r.punct(after, ')')
        {
            after += 1;
        }
        return match native::assigned_at(r, after) {
            Some(true) => Occurrence::Def(native::initializer(r, after + 1)),
            _ if after == i + 1 => Occurrence::Bare,
            _ if r.punct(after, ';') => Occurrence::Bare,
            _ => Occurrence::Poison,
        };
    }
    let mut pos = 0;
    let mut k = i;
    while k >= 2 && r.punct(k - 1, ',') && r.name(k - 2).is_some() {
        pos += 1;
        k -= 2;
    }
    let mut j = i + 1;
    let mut count = pos + 1;
    while r.punct(j, ',') && r.name(j + 1).is_some() {
        count += 1;
        j += 2;
    }
    let rhs = if r.punct(j, ':') && r.punct(j + 1, '=') {
        Some(j + 2)
    } else if native::assigned_at(r, j) == Some(true) {
        Some(j + 1)
    } else {
        None
    };
    if let Some(rhs) = rhs {
        let items = initializers(r, rhs);
        return match (items.len() == count, pos, items.first()) {
            (true, _, _) => Occurrence::Def(items[pos].clone()),
            // `home, err := os.UserHomeDir()`: the first of the values one call returns.
            (false, 0, Some(first)) if items.len() == 1 => Occurrence::Def(first.clone()),
            _ => Occurrence::Poison,
        };
    }
    let after = r.subscripted(i + 1);
    if native::assigned_at(r, after).is_some() || type_follows(r, j) {
        return Occurrence::Poison;
    }
    Occurrence::Use
}

/// The values after `=` or `:=`, to the statement's end.
fn initializers(r: &Reader, mut from: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    loop {
        let item = native::initializer(r, from);
        let end = item.end;
        out.push(item);
        if !r.punct(end, ',') {
            return out;
        }
        from = end + 1;
    }
}

/// A type starting at `j`, after a parameter's or field's name (`p string`, `p *T`, `p
/// []byte`, `p ...string`, `p func()`).
fn type_follows(r: &Reader, j: usize) -> bool {
    let t = |k: usize| r.t.get(k).map(|x| &x.0);
    match t(j) {
        Some(Tok::Name(_)) => true,
        Some(Tok::Punct('[')) => r.punct(j + 1, ']') || r.punct(j + 2, ']'),
        Some(Tok::Punct('.')) => r.punct(j + 1, '.') && r.punct(j + 2, '.'),
        Some(Tok::Punct('*')) => {
            matches!(t(j + 1), Some(Tok::Name(_)))
                && matches!(t(j + 2), Some(Tok::Punct(',' | ')' | '.')))
                && (j >= 2 && matches!(t(j - 2), Some(Tok::Punct('(' | ','))))
        }
        _ => false,
    }
}

/// The C before `import "C"`: the comment lines just above it (`// #include …`) or the block
/// comment that ends there.
fn cgo_preamble(code: &str) -> Option<String> {
    let at = code.find("import \"C\"")?;
    let before = code[..at].trim_end();
    if let Some(body) = before.strip_suffix("*/") {
        let open = body.rfind("/*")?;
        return Some(body[open + 2..].to_string());
    }
    let lines: Vec<&str> = before
        .lines()
        .rev()
        .map(str::trim_start)
        .take_while(|l| l.starts_with("//"))
        .collect();
    let text: Vec<&str> = lines.iter().rev().map(|l| &l[2..]).collect();
    (!text.is_empty()).then(|| text.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_library_calls_become_commands() {
        let r = read("package main\nimport (\"os\";\"testing\")\nfunc TestX(t *testing.T){ os.RemoveAll(\"/home/agent/docs\") }\n");
        assert_eq!(r.script, "rm -rf -- '/home/agent/docs'");
        assert_eq!(r.unread, None);
        let r = read("package main\n\nimport (\n\t\"os/exec\"\n)\n\nfunc main() {\n\texec.Command(\"sh\", \"-c\", \"rm -rf ~/docs\").Run()\n}\n");
        assert_eq!(r.script, "'sh' '-c' 'rm -rf ~/docs'");
        let r = read("package main\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\nfunc main() {\n\thome, _ := os.UserHomeDir()\n\tp := filepath.Join(home, \".aws\", \"credentials\")\n\tb, _ := os.ReadFile(p)\n\t_ = b\n}\n");
        assert!(r.script.starts_with("cat -- ~'/.aws/credentials'"), "{r:?}");
        let r = read("package main\n// #include <stdlib.h>\n// static void f(){ system(\"rm -rf ~/docs\"); }\nimport \"C\"\nfunc main(){ C.f() }\n");
        assert_eq!(r.script, "rm -rf ~/docs");
        let r = read("package main\nimport x \"os/exec\"\nimport \"fmt\"\nfunc main(){ x.Command(\"bash\", \"-c\", fmt.Sprintf(\"rm -rf %s\", \"/srv/x\")).Run() }");
        assert_eq!(r.script, "'bash' '-c' 'rm -rf /srv/x'");
    }

    #[test]
    fn ordinary_tests_read_as_nothing_grave() {
        let t = "package calc\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n\t\"testing\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tdir := t.TempDir()\n\tp := filepath.Join(dir, \"out.txt\")\n\tif err := os.WriteFile(p, []byte(\"3\"), 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tdefer os.RemoveAll(dir)\n\tif Add(1, 2) != 3 {\n\t\tt.Errorf(\"want 3\")\n\t}\n}\n";
        let r = read(t);
        assert_eq!(r.grave, None, "{r:?}");
        // Its own temporary directory, removed: nothing that was there.
        assert!(!r.script.contains("rm "), "{r:?}");
        assert!(r.script.contains("tee -- '/tmp/test/out.txt'"), "{r:?}");
    }

    #[test]
    fn what_cannot_be_read_is_named() {
        for code in [
            "package main\nimport \"os\"\nfunc main(){ os.RemoveAll(os.Args[1]) }",
            "package main\nimport \"os/exec\"\nfunc main(){ c := exec.Command(\"sh\"); c.Run() }",
            "package main\nimport \"net\"\nfunc main(){ net.Dial(\"tcp\", \"h:1\") }",
            "package main\nimport \"os\"\nvar p = \"/tmp/x\"\nfunc f(p string){ os.Remove(p) }",
            "package main\nimport \"os\"\nfunc f(p, q string){ os.Remove(p) }\nvar p = \"/tmp/x\"",
            "package main\nimport . \"os\"\nfunc main(){ RemoveAll(Args[1]) }",
            "package main\nimport \"os/exec\"\nfunc main(){ a := []string{\"-c\", \"id\"}; exec.Command(\"sh\", a...).Run() }",
        ] {
            assert!(read(code).grave.is_some(), "{code}: {:?}", read(code));
        }
        let plain =
            "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\", 1+2)\n}\n";
        assert_eq!(read(plain), Reading::default());
    }
}
