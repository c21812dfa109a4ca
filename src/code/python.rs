//! Python read into shell commands (see `code`): the standard library's file, process,
//! environment and network calls, by the names a program binds them to (`import shutil as s`,
//! `from os import remove`).

mod bindings;
mod constants;
mod listing;

use super::chain::{self, Chain};
use super::lex::{Lang, Tok};
use super::reader::{self, Dialect, Reader, Step};
use super::{process, Reading, Val};

/// Modules whose use reaches outside plain computation: each use must be a call this reader
/// knows.
const REACH: [&str; 50] = [
    "os",
    "shutil",
    "subprocess",
    "pathlib",
    "glob",
    "io",
    "codecs",
    "socket",
    "urllib",
    "requests",
    "http",
    "httpx",
    "aiohttp",
    "ftplib",
    "smtplib",
    "telnetlib",
    "ctypes",
    "cffi",
    "importlib",
    "pty",
    "zipfile",
    "tarfile",
    "sqlite3",
    "pickle",
    "marshal",
    "shelve",
    "dill",
    "runpy",
    "code",
    "multiprocessing",
    "signal",
    "webbrowser",
    "fileinput",
    "asyncio",
    // The same calls under other names (`posix.system`, `posixpath.os`), and modules that
    // load or run code by name (`pkgutil.resolve_name('shutil:rmtree')`, `_pickle.loads`,
    // `codeop.compile_command`, `doctest.testmod()`, `trace.Trace().run(s)`, `bdb.Bdb().run(s)`).
    "posix",
    "nt",
    "posixpath",
    "ntpath",
    "_posixsubprocess",
    "pkgutil",
    "_pickle",
    "cPickle",
    "copyreg",
    "trace",
    "bdb",
    "codeop",
    "doctest",
    "_io",
    "imp",
    "zipimport",
];

/// Standard-library modules with a few calls that read, write or run something (`pydoc.
/// pipepager` runs a shell command, `logging.FileHandler(p, 'w')` truncates p, `netrc.netrc()`
/// reads ~/.netrc, `timeit.timeit(code)` runs code); the rest of each only computes.
const PARTLY: [&str; 14] = [
    "pydoc",
    "logging",
    "linecache",
    "tokenize",
    "netrc",
    "mimetypes",
    "filecmp",
    "gzip",
    "bz2",
    "lzma",
    "timeit",
    "cProfile",
    "profile",
    "pdb",
];

/// Builtins that reach outside or run code they are given.
const BUILTINS: [&str; 13] = [
    "open",
    "eval",
    "exec",
    "compile",
    "__import__",
    "getattr",
    "setattr",
    "delattr",
    "globals",
    "locals",
    "vars",
    "__builtins__",
    "breakpoint",
];

/// Attributes through which a program reaches the interpreter's internals: any function's
/// globals (`().__class__.__base__.__subclasses__()[…].__init__.__globals__['system']`), code
/// objects, frames and their variables.
const GADGETS: [&str; 21] = [
    "__subclasses__",
    "__globals__",
    "__code__",
    "__closure__",
    "__reduce__",
    "__reduce_ex__",
    "__getattribute__",
    "__mro__",
    "__bases__",
    "__base__",
    "__loader__",
    "__spec__",
    "__func__",
    "f_globals",
    "f_locals",
    "f_back",
    "f_builtins",
    "gi_frame",
    "tb_frame",
    "cr_frame",
    "_getframe",
];

/// Modules of `PARTLY` whose other calls run code they are given (`cProfile.Profile().run(s)`,
/// `pydoc.importfile(p)`, `timeit.main([...])`): a call not read above is unread.
const CODE_RUNNERS: [&str; 5] = ["cProfile", "profile", "pdb", "timeit", "pydoc"];

/// A name that reaches another module through an attribute of this one (`logging.os.system`,
/// `gzip.builtins.open`, `tokenize._builtin_open`): what it calls is not what its first
/// module's table says.
fn detour(name: &str) -> Option<String> {
    let parts: Vec<&str> = name.split('.').collect();
    let module = |p: &&str| REACH.contains(p) || PARTLY.contains(p) || *p == "builtins";
    // The last part names what is called or read, which may share a module's name
    // (`glob.glob`, `socket.socket`, `signal.signal`).
    let between = parts
        .get(1..parts.len().saturating_sub(1))
        .unwrap_or_default();
    let hidden = parts[1..].iter().any(|p| p.starts_with('_'));
    (between.iter().any(module) || hidden).then(|| format!("`{name}` reaches another module"))
}

/// The interpreter's internals reached by name anywhere in the program (`GADGETS`, the
/// module table `sys.modules`).
fn internals(r: &Reader) -> Option<String> {
    (0..r.t.len()).find_map(|j| {
        let n = r.name(j)?;
        let member = j >= 2 && r.punct(j - 1, '.');
        let sys = member
            && r.name(j - 2)
                .is_some_and(|m| r.binds.get(m).is_some_and(|q| q == "sys"));
        (GADGETS.contains(&n) || (sys && n == "modules")).then(|| format!("`{n}`"))
    })
}

pub fn read(code: &str) -> Reading {
    reader::read_text(code, Lang::Python, &Python)
}

struct Python;

impl Dialect for Python {
    fn bind(&self, r: &mut Reader) {
        let mut i = 0;
        while i < r.t.len() {
            let end = match r.name(i) {
                Some("import") => import(r, i + 1),
                Some("from") => from(r, i + 1),
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
            None if BUILTINS.contains(&head) => Some(format!("builtins.{head}")),
            None => None,
        }
    }

    fn call(&self, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step {
        if let Some(why) = detour(name) {
            return Step::Unread(why);
        }
        let link = &c.links[k];
        let args = link.args.clone().unwrap_or_default();
        let pos = chain::positional(r.t, &args);
        let vals: Vec<Option<Val>> = pos.iter().map(|a| r.value(self, a)).collect();
        let arg = |n: usize| vals.get(n).cloned().flatten();
        match name {
            "builtins.open" | "io.open" | "codecs.open" => {
                let mode = chain::keyword(r.t, &args, "mode")
                    .or_else(|| pos.get(1).cloned())
                    .map(|m| r.value(self, &m));
                r.emit(open_verb(mode), &[arg(0)])
            }
            "os.remove" | "os.unlink" => r.emit(&["rm", "-f"], &[arg(0)]),
            "os.rmdir" => r.emit(&["rmdir"], &[arg(0)]),
            "os.removedirs" => r.emit(&["rmdir", "-p"], &[arg(0)]),
            "shutil.rmtree" => r.emit(&["rm", "-rf"], &[arg(0)]),
            "os.rename" | "os.replace" | "os.renames" | "shutil.move" => {
                r.emit(&["mv"], &[arg(0), arg(1)])
            }
            "shutil.copy" | "shutil.copy2" | "shutil.copyfile" => {
                r.emit(&["cp"], &[arg(0), arg(1)])
            }
            "shutil.copytree" => r.emit(&["cp", "-r"], &[arg(0), arg(1)]),
            "os.makedirs" | "os.mkdir" => r.emit(&["mkdir", "-p"], &[arg(0)]),
            "os.chmod" => {
                let mode = octal(r, pos.get(1));
                r.emit(&["chmod", &mode], &[arg(0)])
            }
            "os.chown" | "os.lchown" | "shutil.chown" => r.emit(&["chown", "0"], &[arg(0)]),
            "os.symlink" => r.emit(&["ln", "-s"], &[arg(0), arg(1)]),
            "os.link" => r.emit(&["ln"], &[arg(0), arg(1)]),
            "os.truncate" => r.emit(&["truncate", "-s", "0"], &[arg(0)]),
            "os.listdir" | "os.scandir" | "os.walk" | "glob.glob" | "glob.iglob" | "os.stat"
            | "os.lstat" | "os.access" => match pos.first() {
                None => r.emit(&["ls"], &[]),
                Some(_) => r.emit(&["ls", "-d"], &[arg(0)]),
            },
            // Calls are read in the order written; a function may run them in another.
            "os.chdir" if (0..r.t.len()).any(|j| matches!(r.name(j), Some("def" | "lambda"))) => {
                Step::Unread("`os.chdir` in a program with functions".into())
            }
            "os.chdir" => r.emit(&["cd"], &[arg(0)]),
            // A database file, opened to read and write (created when missing).
            "sqlite3.connect" => match r.emit(&["cat"], &[arg(0)]) {
                Step::Done => r.emit(&["tee", "-a"], &[arg(0)]),
                other => other,
            },
            "os.getenv" | "os.environ.get" | "os.getenvb" => r.env_read(arg(0)),
            // `os.popen(cmd, 'w')` feeds the command what the program writes.
            "os.popen"
                if vals
                    .get(1)
                    .is_some_and(|m| m != &Some(Val::Lit("r".into()))) =>
            {
                let words = r.command(self, pos.first(), true);
                r.emit_process(name, words, Ok(process::fed()))
            }
            "os.system"
            | "os.popen"
            | "subprocess.getoutput"
            | "subprocess.getstatusoutput"
            | "asyncio.create_subprocess_shell" => {
                let words = r.command(self, pos.first(), true);
                r.emit_words(name, words)
            }
            "subprocess.run"
            | "subprocess.call"
            | "subprocess.check_call"
            | "subprocess.check_output"
            | "subprocess.Popen" => {
                let options = process::python(r, self, &args, pos.len());
                let shell = options.as_ref().is_ok_and(|o| o.shell);
                let words = r.command(self, pos.first(), shell);
                r.emit_process(name, words, options)
            }
            "asyncio.create_subprocess_exec"
            | "os.execvp"
            | "os.execv"
            | "os.execl"
            | "os.execlp"
            | "os.execle"
            | "os.execlpe"
            | "os.execve"
            | "os.execvpe"
            | "os.spawnl"
            | "os.spawnlp"
            | "os.spawnv"
            | "os.spawnvp"
            | "os.posix_spawn"
            | "os.posix_spawnp" => {
                let words = exec_words(r, self, name, &pos);
                let options = process::python(r, self, &args[..0], 0);
                r.emit_process(name, words, options)
            }
            "requests.get" | "requests.head" | "httpx.get" | "urllib.request.urlopen" => {
                r.emit(&["curl", "-s"], &[arg(0)])
            }
            "requests.post" | "requests.put" | "requests.patch" | "requests.delete"
            | "httpx.post" | "httpx.put" | "httpx.delete" => {
                let verb = name.rsplit('.').next().unwrap_or("post").to_uppercase();
                r.emit(&["curl", "-s", "-X", &verb], &[arg(0)])
            }
            // `curl -o FILE URL` saves what it fetched, as urlretrieve does.
            "urllib.request.urlretrieve" => match (arg(0), arg(1)) {
                (Some(url), Some(file)) if !url.is_entry() && !file.is_entry() => {
                    r.out.line(&[
                        "curl".into(),
                        "-s".into(),
                        "-o".into(),
                        file.word(),
                        "--".into(),
                        url.word(),
                    ]);
                    Step::Done
                }
                (url, None) if pos.len() == 1 => r.emit(&["curl", "-s", "-O"], &[url]),
                _ => Step::Unread(format!("`{name}` of a value computed at run time")),
            },
            n if PARTLY.contains(&n.split('.').next().unwrap_or_default()) => {
                stdlib_call(r, self, n, &args, &pos)
            }
            n if path_ctor(n) || n == "pathlib.Path.home" || n == "pathlib.Path.cwd" => {
                // The path, through the arithmetic after it (`.joinpath('x')`), then the method.
                let mut j = k;
                let arithmetic = |l: Option<&chain::Link>| {
                    matches!(
                        l.map(|l| l.name.as_str()),
                        Some("joinpath" | "expanduser" | "resolve" | "absolute")
                    )
                };
                while arithmetic(c.links.get(j + 1)) {
                    j += 1;
                }
                let upto = Chain {
                    links: c.links[..=j].to_vec(),
                    span: c.span.clone(),
                };
                let path = self.value_of(r, &upto).map(|(v, _)| v);
                path_method(r, path, c.links.get(j + 1), self)
            }
            n if pure(n) => Step::Pure,
            n => Step::Unread(format!("`{}(…)`", n.trim_start_matches("builtins."))),
        }
    }

    fn attribute(&self, r: &mut Reader, name: &str, c: &Chain) -> Step {
        if let Some(why) = detour(name) {
            return Step::Unread(why);
        }
        match name {
            "os.environ" => {
                let key = chain::arguments(r.t, c.span.end)
                    .filter(|_| r.punct(c.span.end, '['))
                    .and_then(|(a, _)| a.first().and_then(|k| r.value(self, k)));
                // `~` and `Path.home()` are read as the home directory.
                let subscript = c.span.start..r.subscripted(c.span.end);
                // …and a variable that steers what the programs it starts run (`os.environ[
                // 'BASH_FUNC_ls%%'] = …`, `LD_PRELOAD`), inherited by each.
                let steers = match &key {
                    Some(Val::Lit(k)) => process::steers(k),
                    _ => true,
                };
                if steers && bindings::binds_at(r, &subscript) {
                    return Step::Unread(
                        "the environment of the programs it starts changed".into(),
                    );
                }
                r.env_read(key)
            }
            n if pure(n) => Step::Pure,
            n => Step::Unread(format!("`{}`", n.trim_start_matches("builtins."))),
        }
    }

    /// `Path(a, b).expanduser()`, `Path.home()`, `os.path.join(…)`, `os.path.expanduser(…)`,
    /// `os.environ['HOME']`, `os.getenv('HOME')`.
    fn value_of(&self, r: &Reader, c: &Chain) -> Option<(Val, usize)> {
        let q = r.binds.get(&c.links[0].name)?;
        let k = c.links.iter().position(|l| l.args.is_some());
        let Some(k) = k else {
            // `os.environ['HOME']`.
            let home = q == "os" && c.links.len() == 2 && c.links[1].name == "environ";
            let after = r.subscripted(c.span.end);
            let key = chain::arguments(r.t, c.span.end).filter(|_| r.punct(c.span.end, '['));
            let key = key.and_then(|(a, _)| r.value(self, a.first()?));
            return (home && key == Some(Val::Lit("HOME".into())))
                .then_some((Val::Home(String::new()), after));
        };
        let mut name = q.clone();
        for l in &c.links[1..=k] {
            name.push('.');
            name.push_str(&l.name);
        }
        // A new directory of its own under the temporary one, whatever its name's affixes
        // (not with `dir=`, nor `gettempdir()`: TMPDIR may name any directory).
        if name == "tempfile.mkdtemp" && c.links.len() == k + 1 && !elsewhere(r, &c.links[k]) {
            return Some((Val::Temp("/tmp/tmp".into()), c.span.end));
        }
        let args: Vec<Val> = r
            .values(self, &c.links[k])
            .into_iter()
            .collect::<Option<_>>()?;
        let mut val = match (name.as_str(), args.as_slice()) {
            ("os.path.expanduser", [v]) => v.clone().expand_user(),
            ("os.path.join", [first, rest @ ..]) => {
                rest.iter().cloned().try_fold(first.clone(), Val::join)?
            }
            (n, [first, rest @ ..]) if path_ctor(n) => {
                rest.iter().cloned().try_fold(first.clone(), Val::join)?
            }
            ("pathlib.Path.home", []) => Val::Home(String::new()),
            // A new directory of its own under the temporary directory (unless `dir=` puts
            // it elsewhere).
            // (`gettempdir()` is no directory of its own: TMPDIR may name any.)
            ("pathlib.Path.cwd", []) => Val::Lit(".".into()),
            (n, []) if path_ctor(n) => Val::Lit(".".into()),
            ("os.getenv" | "os.environ.get", [Val::Lit(k), ..]) if k == "HOME" => {
                Val::Home(String::new())
            }
            _ => return None,
        };
        // Methods of the path: `.expanduser()`, `.joinpath(…)`, `.resolve()`.
        for l in &c.links[k + 1..] {
            let args: Vec<Val> = r.values(self, l).into_iter().collect::<Option<_>>()?;
            val = match (l.name.as_str(), args.as_slice()) {
                ("expanduser", []) => val.expand_user(),
                ("joinpath", parts) => parts.iter().cloned().try_fold(val, Val::join)?,
                ("resolve" | "absolute", []) => val,
                _ => return None,
            };
        }
        Some((val, c.span.end))
    }

    fn trusted(&self, r: &Reader, name: &str) -> bool {
        r.binds.get(name).is_some_and(|q| reaches(q))
    }

    fn bound_again(&self, r: &Reader, name: &str) -> bool {
        (0..r.t.len()).any(|j| {
            let named = r.name(j) == Some(name) && !(j > 0 && r.punct(j - 1, '.'));
            named && !r.used[j] && bindings::binds_at(r, &(j..j + 1))
        })
    }

    fn assigned(&self, r: &Reader, span: &std::ops::Range<usize>) -> bool {
        bindings::binds_at(r, span)
    }

    fn risky_method(&self, name: &str) -> bool {
        const RISKY: [&str; 22] = [
            // sqlite3's: a shared library's code runs.
            "load_extension",
            "enable_load_extension",
            "subprocess_shell",
            "subprocess_exec",
            "link_to",
            "unlink",
            "rmdir",
            "rmtree",
            "remove",
            "write_text",
            "write_bytes",
            "read_text",
            "read_bytes",
            "rename",
            "replace_file",
            "chmod",
            "lchmod",
            "symlink_to",
            "hardlink_to",
            "system",
            "popen",
            "extractall",
        ];
        RISKY.contains(&name)
    }
}

/// `import a.b as c, d`: bindings; the index after the statement.
fn import(r: &mut Reader, mut i: usize) -> Option<usize> {
    loop {
        let (module, next) = dotted(r, i)?;
        i = next;
        if r.name(i) == Some("as") {
            let alias = r.name(i + 1)?.to_string();
            r.bind(alias, module);
            i += 2;
        } else {
            let top = module.split('.').next().unwrap_or_default().to_string();
            r.bind(top.clone(), top);
        }
        if !r.punct(i, ',') {
            return Some(i);
        }
        i += 1;
    }
}

/// `from a.b import x as y, (z)`; `import *` of a module that reaches outside is unread.
fn from(r: &mut Reader, mut i: usize) -> Option<usize> {
    // `from . import x`, `from ..pkg import y`: the project's own modules.
    let mut dots = String::new();
    while r.punct(i, '.') {
        dots.push('.');
        i += 1;
    }
    let (module, mut i) = match dotted(r, i) {
        Some((m, next)) => (format!("{dots}{m}"), next),
        None if !dots.is_empty() => (dots, i),
        None => return None,
    };
    if r.name(i) != Some("import") {
        return None;
    }
    i += 1;
    let paren = r.punct(i, '(');
    i += usize::from(paren);
    loop {
        if r.punct(i, '*') {
            if reaches(&module) {
                r.out.unread(format!("`from {module} import *`"));
            }
            return Some(i + 1);
        }
        let name = r.name(i)?.to_string();
        i += 1;
        let local = if r.name(i) == Some("as") {
            i += 2;
            r.name(i - 1)?.to_string()
        } else {
            name.clone()
        };
        r.bind(local, format!("{module}.{name}"));
        if r.punct(i, ',') {
            i += 1;
            continue;
        }
        i += usize::from(paren && r.punct(i, ')'));
        return Some(i);
    }
}

/// A dotted name at `i` and the index after it.
fn dotted(r: &Reader, mut i: usize) -> Option<(String, usize)> {
    let mut name = r.name(i)?.to_string();
    i += 1;
    while r.punct(i, '.') {
        let Some(n) = r.name(i + 1) else { break };
        name.push('.');
        name.push_str(n);
        i += 2;
    }
    Some((name, i))
}

/// `Path(p).read_text()`, `.unlink()`, `.write_text(…)`: what the method does to `p`.
fn path_method(
    r: &mut Reader,
    path: Option<Val>,
    method: Option<&chain::Link>,
    d: &Python,
) -> Step {
    let Some(m) = method else {
        return Step::Pure;
    };
    let other = r.values(d, m).into_iter().next().flatten();
    let verb: &[&str] = match m.name.as_str() {
        // `Path.open(mode='r')` like `open(p, mode)`.
        "open" => {
            let mode = chain::keyword(r.t, m.args.as_deref().unwrap_or_default(), "mode");
            let mode = mode.map(|a| r.value(d, &a)).or_else(|| Some(other.clone()));
            match (m.args.as_deref().unwrap_or_default().is_empty(), mode) {
                (true, _) => &["cat"],
                (false, mode) => open_verb(mode),
            }
        }
        "read_text" | "read_bytes" => &["cat"],
        // `p.link_to(target)`: `target` becomes a hard link to `p` (Python < 3.12).
        "link_to" => return r.emit(&["ln"], &[path, other]),
        "write_text" | "write_bytes" => &["tee"],
        "touch" => &["touch"],
        "unlink" => &["rm", "-f"],
        "rmdir" => &["rmdir"],
        "mkdir" => &["mkdir", "-p"],
        "iterdir" | "glob" | "rglob" | "exists" | "is_file" | "is_dir" | "stat" => &["ls", "-d"],
        "chmod" => &["chmod", "0"],
        "rename" | "replace" => return r.emit(&["mv"], &[path, other]),
        "symlink_to" => return r.emit(&["ln", "-s"], &[other, path]),
        "hardlink_to" => return r.emit(&["ln"], &[other, path]),
        // Pure path arithmetic (`name`, `suffix`, `parent`, `joinpath`…).
        _ => return Step::Pure,
    };
    r.emit(verb, &[path])
}

/// A call of a `PARTLY` module: the few that read, write or run are translated, the rest
/// compute.
fn stdlib_call(
    r: &mut Reader,
    d: &Python,
    name: &str,
    args: &[std::ops::Range<usize>],
    pos: &[std::ops::Range<usize>],
) -> Step {
    let val = |r: &Reader, a: Option<&std::ops::Range<usize>>| a.and_then(|a| r.value(d, a));
    let t = r.t;
    let keyword = |k: &str| chain::keyword(t, args, k);
    let arg = |r: &Reader, n: usize, k: &str| val(r, keyword(k).as_ref().or(pos.get(n)));
    match name {
        // Both run their command through the shell (`os.popen`, `os.system`).
        "pydoc.pipepager" | "pydoc.tempfilepager" => {
            let words = r.command(d, keyword("cmd").as_ref().or(pos.get(1)), true);
            r.emit_words(name, words)
        }
        "pydoc.pager" | "pydoc.getpager" | "pydoc.browse" | "pydoc.cli" => {
            Step::Unread(format!("`{name}` runs the program $PAGER names"))
        }
        "logging.FileHandler"
        | "logging.handlers.RotatingFileHandler"
        | "logging.handlers.WatchedFileHandler"
        | "logging.handlers.TimedRotatingFileHandler" => {
            // Appends unless told otherwise (TimedRotating's second argument is `when`).
            let mode = match name.ends_with("TimedRotatingFileHandler") {
                true => val(r, keyword("mode").as_ref()),
                false => arg(r, 1, "mode"),
            };
            let mode = mode.or(Some(Val::Lit("a".into())));
            let file = arg(r, 0, "filename");
            r.emit(open_verb(Some(mode)), &[file])
        }
        "logging.basicConfig" => match keyword("filename") {
            Some(f) => {
                let mode = val(r, keyword("filemode").as_ref()).or(Some(Val::Lit("a".into())));
                let file = r.value(d, &f);
                r.emit(open_verb(Some(mode)), &[file])
            }
            None => Step::Pure,
        },
        // A config file's handler arguments are evaluated as Python; `listen` takes configs
        // from the network.
        "logging.config.fileConfig" | "logging.config.listen" => {
            Step::Unread(format!("`{name}` runs what a configuration holds"))
        }
        "linecache.getline"
        | "linecache.getlines"
        | "linecache.updatecache"
        | "linecache.lazycache"
        | "tokenize.open"
        | "mimetypes.read_mime_types" => {
            let file = arg(r, 0, "filename");
            r.emit(&["cat"], &[file])
        }
        "netrc.netrc" => {
            let file = arg(r, 0, "file").or(Some(Val::Home("/.netrc".into())));
            r.emit(&["cat"], &[file])
        }
        "filecmp.cmp" => {
            let (a, b) = (arg(r, 0, "f1"), arg(r, 1, "f2"));
            r.emit(&["cat"], &[a, b])
        }
        "gzip.open" | "bz2.open" | "lzma.open" => {
            let mode = arg(r, 1, "mode").or(Some(Val::Lit("rb".into())));
            let file = arg(r, 0, "filename");
            r.emit(open_verb(Some(mode)), &[file])
        }
        // Code given as text: run as a program of its own (`python3 -c`), read in turn.
        "timeit.timeit" | "timeit.repeat" | "timeit.Timer" => {
            let stmt = keyword("stmt").or(pos.first().cloned());
            let setup = keyword("setup").or(pos.get(1).cloned());
            // A function (`timeit(f)`, `timeit(lambda: …)`) is code the program holds.
            let function =
                |a: &std::ops::Range<usize>| matches!(t.get(a.start), Some((Tok::Name(_), _)));
            let texts: Vec<std::ops::Range<usize>> = [setup, stmt]
                .into_iter()
                .flatten()
                .filter(|a| !function(a))
                .collect();
            run_code(r, d, name, &texts)
        }
        "cProfile.run" | "profile.run" | "pdb.run" | "cProfile.runctx" | "profile.runctx"
        | "pdb.runeval" => run_code(r, d, name, &pos[..pos.len().min(1)]),
        "doctest.testfile" => Step::Unread(format!("`{name}` runs the examples of a file")),
        // Handlers and filters named by dotted strings (`'()': 'os.system'`) are imported
        // and called.
        "logging.config.dictConfig" => {
            Step::Unread(format!("`{name}` calls what its config names"))
        }
        n if CODE_RUNNERS.contains(&n.split('.').next().unwrap_or_default()) => {
            Step::Unread(format!("`{n}(…)` runs code it is given"))
        }
        _ => Step::Pure,
    }
}

/// The `PARTLY` calls `stdlib_call` translates: named other than by a call, unread.
const PARTLY_REACHING: [&str; 10] = [
    "pydoc.pipepager",
    "pydoc.tempfilepager",
    "pydoc.pager",
    "logging.FileHandler",
    "logging.handlers",
    "logging.config",
    "linecache",
    "tokenize.open",
    "netrc.netrc",
    "timeit",
];

/// A member of a `PARTLY` module that only computes.
fn partly_pure(name: &str) -> bool {
    let top = name.split('.').next().unwrap_or_default();
    PARTLY.contains(&top) && !PARTLY_REACHING.iter().any(|r| name.starts_with(r))
}

/// `python3 -c CODE` for code given as literal text; unread when computed.
fn run_code(r: &mut Reader, d: &Python, name: &str, texts: &[std::ops::Range<usize>]) -> Step {
    let mut code = Vec::new();
    for t in texts {
        match r.value(d, t) {
            Some(Val::Lit(s)) => code.push(s),
            _ => return Step::Unread(format!("`{name}` of code computed at run time")),
        }
    }
    if !code.is_empty() {
        let words = [
            "python3".into(),
            "-c".into(),
            super::quote(&code.join("\n")),
        ];
        r.out.line(&words);
    }
    Step::Done
}

/// `open(path, mode)`: a read, or a write (`w`, `+`: truncating; `a`, `x`: appending; a mode
/// computed at run time may write).
fn open_verb(mode: Option<Option<Val>>) -> &'static [&'static str] {
    let mode = match mode {
        None => "r".to_string(),
        Some(Some(Val::Lit(m))) => m,
        Some(_) => "w".to_string(),
    };
    if mode.contains('w') || mode.contains('+') {
        &["tee"]
    } else if mode.contains('a') || mode.contains('x') {
        &["tee", "-a"]
    } else {
        &["cat"]
    }
}

fn octal(r: &Reader, arg: Option<&std::ops::Range<usize>>) -> String {
    match arg.and_then(|a| r.t.get(a.start)).map(|x| &x.0) {
        Some(Tok::Num(n)) => n.trim_start_matches("0o").to_string(),
        _ => "a+rwx".into(),
    }
}

fn reaches(qualified: &str) -> bool {
    let top = qualified.split('.').next().unwrap_or_default();
    REACH.contains(&top) || PARTLY.contains(&top) || top == "builtins"
}

fn path_ctor(name: &str) -> bool {
    matches!(
        name,
        "pathlib.Path" | "pathlib.PosixPath" | "pathlib.PurePath" | "pathlib.PurePosixPath"
    )
}

/// `tempfile.mkdtemp(dir=…)` (or given anything but its name's affixes): made somewhere else
/// than a directory of its own under the temporary one.
fn elsewhere(r: &Reader, l: &chain::Link) -> bool {
    let args = l.args.as_deref().unwrap_or_default();
    let affix = |a: &std::ops::Range<usize>| {
        matches!(r.name(a.start), Some("prefix" | "suffix")) && r.punct(a.start + 1, '=')
    };
    !args.iter().all(affix)
}

/// The command an `exec*`/`spawn*` call runs: the file, then the argument vector after its
/// `argv[0]` (`os.execlp('sh', 'sh', '-c', …)` runs `sh -c …`); `spawn*` take a mode first.
fn exec_words(
    r: &Reader,
    d: &Python,
    name: &str,
    pos: &[std::ops::Range<usize>],
) -> Option<Vec<String>> {
    let word =
        |a: &std::ops::Range<usize>| r.value(d, a).filter(|v| !v.is_entry()).map(|v| v.word());
    if name == "asyncio.create_subprocess_exec" {
        return pos.iter().map(word).collect();
    }
    let pos = match name.starts_with("os.spawn") {
        true => pos.get(1..)?,
        false => pos,
    };
    let file = word(pos.first()?)?;
    // `execv(file, argv)`, `posix_spawn(path, argv, env)`: the vector is a list.
    let vector = name.contains('v') || name.contains("posix_spawn");
    let argv: Vec<String> = match vector {
        true => {
            let list = pos.get(1).filter(|a| r.punct(a.start, '['))?;
            let (items, _) = chain::arguments(r.t, list.start)?;
            items.iter().skip(1).map(word).collect::<Option<_>>()?
        }
        // `execle`/`execlpe` end with the environment.
        false => {
            let env = usize::from(name.ends_with('e'));
            let args = pos
                .get(2..pos.len().saturating_sub(env))
                .unwrap_or_default();
            args.iter().map(word).collect::<Option<_>>()?
        }
    };
    Some(std::iter::once(file).chain(argv).collect())
}

/// Calls and attributes of reaching modules that compute without touching anything.
fn pure(name: &str) -> bool {
    const PURE: [&str; 64] = [
        "os.path.join",
        "os.path.basename",
        "os.path.dirname",
        "os.path.splitext",
        "os.path.split",
        "os.path.abspath",
        "os.path.normpath",
        "os.path.realpath",
        "os.path.relpath",
        "os.path.expanduser",
        "os.path.exists",
        "os.path.isfile",
        "os.path.isdir",
        "os.path.islink",
        "os.path.getsize",
        "os.path.getmtime",
        "os.path.getctime",
        "os.path.getatime",
        "os.path.commonpath",
        "os.path.commonprefix",
        "os.path.lexists",
        "os.path.samefile",
        "os.getuid",
        "os.getgid",
        "os.geteuid",
        "os.getegid",
        "os.getppid",
        "socket.gethostname",
        "signal.signal",
        // Wraps a stream the program has; writing a pickle runs nothing (loading one does).
        "io.TextIOWrapper",
        "pickle.dump",
        "pickle.dumps",
        // Workers running the program's own functions, whose bodies are read as the rest is.
        "multiprocessing.Pool",
        "multiprocessing.Process",
        "multiprocessing.Queue",
        "multiprocessing.Lock",
        "multiprocessing.Value",
        "multiprocessing.Array",
        "multiprocessing.cpu_count",
        "multiprocessing.current_process",
        "multiprocessing.set_start_method",
        "os.sep",
        "os.path.sep",
        "os.path.isabs",
        "os.name",
        "os.linesep",
        "os.getcwd",
        "os.getpid",
        "os.cpu_count",
        "os.urandom",
        "os.devnull",
        "os.curdir",
        "os.pardir",
        "os.pathsep",
        "os.fspath",
        "shutil.which",
        "shutil.get_terminal_size",
        "shutil.disk_usage",
        "subprocess.PIPE",
        "subprocess.DEVNULL",
        "subprocess.STDOUT",
        "subprocess.CalledProcessError",
        "pathlib.Path.home",
        "pathlib.Path.cwd",
    ];
    PURE.contains(&name)
        || partly_pure(name)
        || ["io.StringIO", "io.BytesIO", "signal.SIG"]
            .iter()
            .any(|p| name.starts_with(p))
        || name.starts_with("asyncio.") && !name.starts_with("asyncio.create_subprocess")
}
