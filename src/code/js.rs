//! JavaScript (Node, Deno, Bun) read into shell commands (see `code`): `fs`, `child_process`
//! and the network, by the names a program binds them to (`const fs = require('fs')`,
//! `import { rmSync as r } from 'node:fs'`, `require('fs').readFileSync(…)`), and
//! `process.env`.

mod bindings;
mod constants;
mod listing;

use super::chain::{self, Chain};
use super::lex::{Lang, Tok};
use super::reader::{self, Dialect, Reader, Step};
use super::{process, Reading, Val};

/// Modules whose use reaches outside plain computation; the last ones run shell command lines
/// (`` $`…` `` of Bun Shell, zx and execa; ShellJS).
const REACH: [&str; 20] = [
    "fs",
    "child_process",
    "net",
    "http",
    "https",
    "http2",
    "dgram",
    "tls",
    "vm",
    "worker_threads",
    "module",
    "inspector",
    "v8",
    "cluster",
    "repl",
    "process",
    "bun",
    "zx",
    "execa",
    "shelljs",
];

/// The global object or the Function constructor reached without naming them: `this.process`
/// or `this[…]` (a sloppy function's `this` is `globalThis`), `x.constructor` (`[].map
/// .constructor('…')()` is `Function`).
fn internals(r: &Reader) -> Option<String> {
    (0..r.t.len()).find_map(|j| {
        let n = r.name(j)?;
        let member = j > 0 && r.punct(j - 1, '.');
        let of_this = r.punct(j + 1, '[')
            || r.punct(j + 1, '.')
                && r.name(j + 2)
                    .is_some_and(|m| reaches(m) || m == "constructor");
        // `g.process.env`, `g.require(…)` of an object only known when it runs.
        let global = member
            && (matches!(
                n,
                "require" | "eval" | "Function" | "globalThis" | "global" | "Deno" | "Bun"
            ) || n == "process" && r.punct(j + 1, '.'));
        let reached =
            (n == "this" && !member && of_this) || (member && n == "constructor") || global;
        reached.then(|| format!("`{n}`"))
    })
}

/// Whether the program defines a function (`function`, `=>`, a class's methods).
fn functions(r: &Reader) -> bool {
    (0..r.t.len()).any(|j| {
        matches!(r.name(j), Some("function" | "class")) || r.punct(j, '=') && r.punct(j + 1, '>')
    })
}

/// A callback given last (`exec(cmd, (err, out) => …)`), not an options object.
fn callback(r: &Reader, a: &std::ops::Range<usize>) -> bool {
    let arrow = (a.start..a.end.saturating_sub(1)).any(|j| r.punct(j, '=') && r.punct(j + 1, '>'));
    arrow || r.name(a.start) == Some("function")
}

/// A quoted word as the shell would see its text when joined to a line unquoted.
fn unquoted(w: &str) -> String {
    w.strip_prefix('\'')
        .and_then(|x| x.strip_suffix('\''))
        .unwrap_or(w)
        .to_string()
}

/// Members of a module that are objects of members in turn: `path.posix` is `path` itself on
/// POSIX systems.
const NAMESPACES: [&str; 3] = ["posix", "win32", "promises"];

/// Modules whose calls the reader takes as values (`path.join`, `os.homedir`): handed on as a
/// whole (`Object.assign(require('path'), …)`), they may come back with other members.
const VALUED: [&str; 2] = ["path", "os"];

/// Globals that reach outside or run code they are given. `exec` is code mode's own exec
/// tool (a program's own `exec` function, unbound here, is read the same way: its string is
/// judged as the shell line it would be).
const GLOBALS: [&str; 14] = [
    // `module.require`, `module.constructor._load`; at a CommonJS file's top level
    // `arguments[1]` is `require`.
    "module",
    "arguments",
    "exec",
    "require",
    "process",
    "eval",
    "Function",
    "fetch",
    "globalThis",
    "global",
    "Deno",
    "Bun",
    "WebAssembly",
    "import",
];

pub fn read(code: &str) -> Reading {
    reader::read_text(code, Lang::Js, &Js)
}

struct Js;

impl Dialect for Js {
    fn bind(&self, r: &mut Reader) {
        let mut i = 0;
        while i < r.t.len() {
            let end = match r.name(i) {
                Some("const" | "let" | "var") => declaration(r, i + 1),
                Some("import") if !r.punct(i + 1, '(') && !r.punct(i + 1, '.') => import(r, i + 1),
                _ => None,
            };
            match end {
                Some(end) => {
                    r.consume(i..end);
                    i = end;
                }
                None => i += 1,
            }
        }
        constants::bind(r, self);
        listing::bind(r, self);
        if let Some(why) = internals(r) {
            r.out.unread(why);
        }
    }

    fn qualified(&self, r: &Reader, head: &str) -> Option<String> {
        match r.binds.get(head) {
            Some(q) if reaches(q) => Some(q.clone()),
            Some(_) => None,
            None if GLOBALS.contains(&head) => Some(head.to_string()),
            None => None,
        }
    }

    fn call(&self, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step {
        let link = &c.links[k];
        let args = link.args.clone().unwrap_or_default();
        let vals = r.values(self, link);
        let arg = |n: usize| vals.get(n).cloned().flatten();
        // `require('fs').rmSync(…)`, `(await import('fs')).rm(…)`: the module, then its member.
        if matches!(name, "require" | "import") {
            let module = match arg(0) {
                Some(Val::Lit(m)) => m,
                _ => return Step::Unread(format!("`{name}` of a module computed at run time")),
            };
            if local(&module) {
                let verb: &[&str] = if module.ends_with(".json") {
                    &["cat"]
                } else {
                    &["node"]
                };
                return r.emit(verb, &[Some(Val::Lit(module))]);
            }
            let module = module_name(&module);
            let Some(next) = c.links.get(k + 1) else {
                return if reaches(&module) || VALUED.contains(&module.as_str()) {
                    Step::Unread(format!(
                        "`{name}('{module}')` used other than by a call this reader knows"
                    ))
                } else {
                    Step::Pure
                };
            };
            let member = format!("{module}.{}", next.name);
            let tail = c.span.start + 1..c.span.end;
            if c.links[k + 1..].iter().all(|l| l.args.is_none()) && self.assigned(r, &tail) {
                return Step::Unread(format!("`{member}` replaced"));
            }
            return match next.args {
                Some(_) if reaches(&module) => {
                    let step = self.call(r, &member, c, k + 1);
                    if matches!(step, Step::Done) {
                        r.consume(c.span.start..next.end);
                    }
                    step
                }
                None if reaches(&module) => Step::Unread(format!("`{member}`")),
                _ => Step::Pure,
            };
        }
        let name = normal(name);
        let recursive = args.iter().any(|a| chain::flag_set(r.t, a, "recursive"));
        match name.as_str() {
            // `fs.open(p, 'w')` truncates; only `r`/`rs` flags (the default) just read.
            "fs.open" if !matches!(arg(1), None | Some(Val::Lit(_))) => r.emit(&["tee"], &[arg(0)]),
            "fs.open" if matches!(arg(1), Some(Val::Lit(f)) if !matches!(f.as_str(), "r" | "rs")) => {
                r.emit(&["tee"], &[arg(0)])
            }
            "fs.readFile" | "fs.createReadStream" | "fs.open" | "fs.readlink" => {
                r.emit(&["cat"], &[arg(0)])
            }
            "fs.writeFile" | "fs.createWriteStream" | "fs.truncate" => r.emit(&["tee"], &[arg(0)]),
            "fs.appendFile" => r.emit(&["tee", "-a"], &[arg(0)]),
            "fs.rm" | "fs.rmdir" if recursive => r.emit(&["rm", "-rf"], &[arg(0)]),
            "fs.rm" | "fs.unlink" => r.emit(&["rm", "-f"], &[arg(0)]),
            "fs.rmdir" => r.emit(&["rmdir"], &[arg(0)]),
            "fs.copyFile" | "fs.cp" if recursive => r.emit(&["cp", "-r"], &[arg(0), arg(1)]),
            "fs.copyFile" | "fs.cp" => r.emit(&["cp"], &[arg(0), arg(1)]),
            "fs.rename" => r.emit(&["mv"], &[arg(0), arg(1)]),
            "fs.mkdir" | "fs.mkdtemp" => r.emit(&["mkdir", "-p"], &[arg(0)]),
            "fs.chmod" | "fs.lchmod" => r.emit(&["chmod", "a+rwx"], &[arg(0)]),
            "fs.chown" | "fs.lchown" => r.emit(&["chown", "0"], &[arg(0)]),
            "fs.utimes" | "fs.lutimes" => r.emit(&["touch"], &[arg(0)]),
            "fs.symlink" => r.emit(&["ln", "-s"], &[arg(0), arg(1)]),
            "fs.link" => r.emit(&["ln"], &[arg(0), arg(1)]),
            "fs.readdir" | "fs.opendir" | "fs.exists" | "fs.stat" | "fs.lstat" | "fs.access"
            | "fs.realpath" | "fs.watch" | "fs.watchFile" => r.emit(&["ls", "-d"], &[arg(0)]),
            "child_process.exec"
            | "child_process.execSync"
            | "exec"
            | "bun.$"
            | "Bun.$"
            | "zx.$"
            | "execa.$"
            | "execa.execaCommand"
            | "shelljs.exec" => {
                let words = r.command(self, args.first(), true);
                let options = process::js(r, self, args.get(1).filter(|a| !callback(r, a)));
                r.emit_process(&name, words, options)
            }
            "child_process.spawn"
            | "child_process.execFile"
            | "child_process.spawnSync"
            | "child_process.execFileSync" => {
                let list = args.get(1).filter(|a| r.punct(a.start, '['));
                let at = 1 + usize::from(list.is_some());
                let options = process::js(r, self, args.get(at).filter(|a| !callback(r, a)));
                // `spawn(prog, [args], {shell: true})` runs the words through a shell.
                let shell = options.as_ref().is_ok_and(|o| o.shell);
                let mut words = r.command(self, args.first(), shell);
                if let (Some(w), Some(list)) = (words.as_mut(), list) {
                    match r.command(self, Some(list), false) {
                        Some(more) if !shell => w.extend(more),
                        // With a shell the arguments are joined to the line unquoted.
                        Some(more) => w.extend(more.iter().map(|m| unquoted(m))),
                        None => words = None,
                    }
                }
                r.emit_process(&name, words, options)
            }
            "child_process.fork" => r.emit(&["node"], &[arg(0)]),
            "fetch" | "http.get" | "https.get" | "http.request" | "https.request" => {
                let method = args.get(1).and_then(|a| method(r, a));
                match method {
                    Some(m) => r.emit(&["curl", "-s", "-X", &m], &[arg(0)]),
                    None => r.emit(&["curl", "-s"], &[arg(0)]),
                }
            }
            // The reader reads calls in the order they are written; a function (hoisted,
            // called later or earlier) runs them in another: with one, where each call runs
            // is only known when it runs.
            "process.chdir" if functions(r) => {
                Step::Unread("`process.chdir` in a program with functions".into())
            }
            "process.chdir" => r.emit(&["cd"], &[arg(0)]),
            n if pure(n) => Step::Pure,
            n => Step::Unread(format!("`{n}(…)`")),
        }
    }

    fn attribute(&self, r: &mut Reader, name: &str, c: &Chain) -> Step {
        if name == "process.env" || name.starts_with("process.env.") {
            let key = match name.strip_prefix("process.env.") {
                Some(k) => Some(Val::Lit(k.to_string())),
                None => chain::arguments(r.t, c.span.end)
                    .filter(|_| r.punct(c.span.end, '['))
                    .and_then(|(a, _)| r.value(self, a.first()?)),
            };
            return r.env_read(key);
        }
        match normal(name).as_str() {
            n if pure(n) => Step::Pure,
            n => Step::Unread(format!("`{n}`")),
        }
    }

    /// `path.join(…)`, `path.resolve(…)`, `os.homedir()`, `process.env.HOME`.
    fn value_of(&self, r: &Reader, c: &Chain) -> Option<(Val, usize)> {
        let head = &c.links[0].name;
        // `require('os').homedir()`: the module stands in for a bound name.
        let inline = match r.values(self, &c.links[0]).first() {
            Some(Some(Val::Lit(m))) if head == "require" && c.links.len() > 1 => {
                Some(module_name(m))
            }
            _ => None,
        };
        let q = match (r.binds.get(head), inline) {
            (_, Some(m)) => m,
            (Some(q), None) => q.clone(),
            (None, None) if head == "process" => "process".into(),
            (None, None) => return None,
        };
        let names: Vec<&str> = c.links[1..].iter().map(|l| l.name.as_str()).collect();
        if q == "process" && names == ["env", "HOME"] {
            return Some((Val::Home(String::new()), c.span.end));
        }
        let last = c.links.last()?;
        let args: Vec<Val> = r.values(self, last).into_iter().collect::<Option<_>>()?;
        // `homedir()` imported by name is its module's member already.
        let name = match names.is_empty() {
            true => q,
            false => format!("{q}.{}", names.join(".")),
        };
        let v = match (name.as_str(), args.as_slice()) {
            ("os.homedir", []) => Val::Home(String::new()),
            ("path.join" | "path.resolve" | "path.posix.join", [first, rest @ ..]) => {
                rest.iter().cloned().try_fold(first.clone(), Val::join)?
            }
            _ => return None,
        };
        Some((v, c.span.end))
    }

    /// Modules bound by name, and `process` (`process.env.HOME` is the home directory).
    fn trusted(&self, r: &Reader, name: &str) -> bool {
        let valued = |q: &str| VALUED.contains(&q.split('.').next().unwrap_or_default());
        name == "process" || r.binds.get(name).is_some_and(|q| reaches(q) || valued(q))
    }

    fn bound_again(&self, r: &Reader, name: &str) -> bool {
        bindings::bound_outside(r, name)
    }

    fn assigned(&self, r: &Reader, span: &std::ops::Range<usize>) -> bool {
        // Of `process`, only the home directory is taken at its word.
        let home = (span.start..span.end)
            .filter_map(|j| r.name(j))
            .collect::<Vec<_>>();
        if home.first() == Some(&"process") && home[1..] != ["env", "HOME"] {
            return false;
        }
        let delete = span.start > 0 && r.name(span.start - 1) == Some("delete");
        let loop_target = matches!(r.name(span.end), Some("of" | "in"));
        delete || loop_target || bindings::assigns(r, span.end) || bindings::in_pattern(r, span.end)
    }

    /// A module or one of its namespaces used as a value (`Object.assign(path, …)`,
    /// `Reflect.set(path.posix, …)`), or given a member by a computed name (`path['jo' +
    /// 'in'] = …`).
    fn handed_on(&self, r: &Reader, c: &Chain) -> bool {
        let last = c.links.last().map_or("", |l| l.name.as_str());
        let environment = c.links.len() == 2 && c.links[0].name == "process" && last == "env";
        if c.links.len() > 1 && !NAMESPACES.contains(&last) && !environment {
            return false;
        }
        if c.links[0].name == "process" && !environment {
            return false;
        }
        match chain::arguments(r.t, c.span.end).filter(|_| r.punct(c.span.end, '[')) {
            Some((_, after)) => bindings::assigns(r, after) || bindings::in_pattern(r, after),
            None => !r.punct(c.span.end, '(') && !environment,
        }
    }

    fn risky_method(&self, name: &str) -> bool {
        let base = name.strip_suffix("Sync").unwrap_or(name);
        const RISKY: [&str; 22] = [
            "readFile",
            "writeFile",
            "appendFile",
            "rm",
            "rmdir",
            "unlink",
            "rename",
            "copyFile",
            "cp",
            "symlink",
            "chmod",
            "chown",
            "truncate",
            "createReadStream",
            "createWriteStream",
            "exec",
            "execFile",
            "spawn",
            "fork",
            "readdir",
            "opendir",
            "readlink",
        ];
        // `re.exec(s)` is a regular expression's: only the child_process forms count.
        RISKY.contains(&base) && !(base == "exec" && name == "exec")
    }
}

/// `const fs = require('fs')`, `const { rmSync: r, execSync } = require('…')`, `let m = await
/// import('fs')`: bindings; the index after the declaration's value.
fn declaration(r: &mut Reader, i: usize) -> Option<usize> {
    let (targets, mut j) = targets(r, i)?;
    if !r.punct(j, '=') {
        return None;
    }
    j += 1;
    if r.name(j) == Some("await") {
        j += 1;
    }
    let (module, end) = required(r, j)?;
    bind_targets(r, &module, targets);
    Some(end)
}

/// `import fs from 'fs'`, `import * as fs from 'fs'`, `import { a, b as c } from 'fs'`,
/// `import x, { y } from 'm'`, `import 'm'`.
fn import(r: &mut Reader, mut i: usize) -> Option<usize> {
    if let Some(Tok::Str(Some(_))) = r.t.get(i).map(|x| &x.0) {
        return Some(i + 1);
    }
    let mut all = Vec::new();
    loop {
        if r.punct(i, '*') && r.name(i + 1) == Some("as") {
            all.push((String::new(), r.name(i + 2)?.to_string()));
            i += 3;
        } else if r.punct(i, '{') {
            let (mut t, next) = targets(r, i)?;
            all.append(&mut t);
            i = next;
        } else {
            all.push((String::new(), r.name(i)?.to_string()));
            i += 1;
        }
        if !r.punct(i, ',') {
            break;
        }
        i += 1;
    }
    if r.name(i) != Some("from") {
        return None;
    }
    let Some(Tok::Str(Some(m))) = r.t.get(i + 1).map(|x| &x.0) else {
        return None;
    };
    let module = module_name(m);
    bind_targets(r, &module, all);
    Some(i + 2)
}

/// Binding targets: a name, or `{ a, b: c, ...rest }` / `{ a, b as c }`, each as
/// (member, local); member "" binds the whole module.
fn targets(r: &Reader, i: usize) -> Option<(Vec<(String, String)>, usize)> {
    if let Some(n) = r.name(i) {
        return Some((vec![(String::new(), n.to_string())], i + 1));
    }
    if !r.punct(i, '{') {
        return None;
    }
    let mut out = Vec::new();
    let mut j = i + 1;
    while !r.punct(j, '}') {
        let rest = r.punct(j, '.') && r.punct(j + 1, '.') && r.punct(j + 2, '.');
        if rest {
            out.push((String::new(), r.name(j + 3)?.to_string()));
            j += 4;
        } else {
            let member = r.name(j)?.to_string();
            j += 1;
            let local = if r.punct(j, ':') || r.name(j) == Some("as") {
                j += 2;
                r.name(j - 1)?.to_string()
            } else {
                member.clone()
            };
            out.push((member, local));
        }
        if r.punct(j, ',') {
            j += 1;
        } else if !r.punct(j, '}') {
            return None;
        }
    }
    Some((out, j + 1))
}

fn bind_targets(r: &mut Reader, module: &str, targets: Vec<(String, String)>) {
    for (member, local) in targets {
        let q = if member.is_empty() {
            module.to_string()
        } else {
            format!("{module}.{member}")
        };
        r.bind(local, q);
    }
}

/// `require('m')` or `import('m')` at `i` (with `.promises` after it): the module and the
/// index after it.
fn required(r: &Reader, i: usize) -> Option<(String, usize)> {
    if !matches!(r.name(i), Some("require" | "import")) || !r.punct(i + 1, '(') {
        return None;
    }
    let Some(Tok::Str(Some(m))) = r.t.get(i + 2).map(|x| &x.0) else {
        return None;
    };
    if !r.punct(i + 3, ')') {
        return None;
    }
    let mut module = module_name(m);
    let mut end = i + 4;
    while r.punct(end, '.') {
        module.push('.');
        module.push_str(r.name(end + 1)?);
        end += 2;
    }
    Some((module, end))
}

/// `node:fs` is `fs`; `fs/promises` is `fs` (the same names, awaited).
fn module_name(m: &str) -> String {
    let m = m.strip_prefix("node:").unwrap_or(m);
    m.strip_suffix("/promises").unwrap_or(m).to_string()
}

/// `fs.promises.rmSync` → `fs.rm`: one name per operation.
fn normal(name: &str) -> String {
    let n = name.replace(".promises.", ".");
    let n = n.strip_suffix("Sync").unwrap_or(&n);
    n.to_string()
}

fn local(module: &str) -> bool {
    module.starts_with("./") || module.starts_with("../") || module.starts_with('/')
}

fn reaches(qualified: &str) -> bool {
    let top = qualified.split('.').next().unwrap_or_default();
    REACH.contains(&top) || GLOBALS.contains(&top)
}

/// `{ method: 'POST' }` among a request's options.
fn method(r: &Reader, a: &std::ops::Range<usize>) -> Option<String> {
    let t = &r.t[a.clone()];
    t.windows(3)
        .find_map(|w| match (&w[0].0, &w[1].0, &w[2].0) {
            (Tok::Name(k), Tok::Punct(':'), Tok::Str(Some(v))) if k == "method" => {
                Some(v.to_uppercase())
            }
            _ => None,
        })
}

/// What reaching modules and globals offer that computes without touching anything.
fn pure(name: &str) -> bool {
    const PURE: [&str; 28] = [
        // Named, not called (`exec` as a value).
        "exec",
        // A CommonJS module's own record (`module.exports = …`, `require.main === module`).
        "module",
        "module.id",
        "module.filename",
        "module.path",
        "module.loaded",
        "require.main",
        "process.version",
        "process.versions",
        "process.platform",
        "process.arch",
        "process.argv",
        "process.pid",
        "process.uptime",
        "process.hrtime",
        "process.exit",
        "process.exitCode",
        "process.memoryUsage",
        "process.stdout.write",
        "process.stderr.write",
        "process.cwd",
        "process.nextTick",
        "process.on",
        "process.stdout",
        "process.stdin",
        "fs.constants",
        "require.resolve",
        "import.meta",
    ];
    PURE.contains(&name)
        || [
            "process.hrtime",
            "process.stdin.",
            "import.meta.",
            "module.exports",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}
