//! C and C++ read into shell commands (see `code`): the C library's and POSIX's process, file,
//! environment and network calls (`system`, `execvp`, `unlink`, `fopen`, `getenv`,
//! `connect`), C++'s `std::system`, `std::filesystem` and file streams. C has no imports: a
//! library name is the library's wherever it is called, and one used other than by a call
//! (`#define RUN system`, a function pointer) leaves the program unread. The calls are shared
//! with Rust's `libc::` and Go's cgo `C.` (`call`).

use super::chain::{self, Chain};
use super::lex::{Lang, Tok};
use super::native::{self, Occurrence};
use super::reader::{self, Dialect, Reader, Step};
use super::{Reading, Val};

pub fn read(code: &str) -> Reading {
    reader::read_text(code, Lang::C, &C)
}

pub struct C;

/// Library functions (and `environ`) that reach outside plain computation.
const LIBC: [&str; 70] = [
    "system",
    "popen",
    "execl",
    "execlp",
    "execle",
    "execv",
    "execvp",
    "execvpe",
    "execve",
    "execveat",
    "fexecve",
    "posix_spawn",
    "posix_spawnp",
    "unlink",
    "unlinkat",
    "remove",
    "rmdir",
    "rename",
    "renameat",
    "renameat2",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmodat",
    "chown",
    "lchown",
    "fchownat",
    "truncate",
    "mkdir",
    "mkdirat",
    "mkfifo",
    "fopen",
    "fopen64",
    "freopen",
    "open",
    "open64",
    "openat",
    "creat",
    "opendir",
    "scandir",
    "nftw",
    "ftw",
    "stat",
    "lstat",
    "access",
    "realpath",
    "readlink",
    "getenv",
    "secure_getenv",
    "environ",
    "chdir",
    "chroot",
    "dlopen",
    "syscall",
    "ptrace",
    "asm",
    "__asm__",
    "__asm",
    "socket",
    "connect",
    "getaddrinfo",
    "gethostbyname",
    "kill",
    "killpg",
    "mount",
    "umount",
    "umount2",
    "curl_easy_setopt",
];

/// Functions that only read the strings they are given (a variable passed to any other may
/// be changed or kept, so its value is no longer known).
const READS_ONLY: [&str; 24] = [
    "printf",
    "fprintf",
    "dprintf",
    "puts",
    "fputs",
    "perror",
    "strlen",
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strstr",
    "strchr",
    "strrchr",
    "atoi",
    "atol",
    "strtol",
    "strdup",
    "if",
    "while",
    "switch",
    "sizeof",
    "assert",
    "CString",
    "c_str",
];

/// Functions that write their first argument: a definition of it (`sprintf(buf, …)`,
/// `strcpy(buf, "…")`) or a change (`strcat`, `memcpy`).
const WRITES_FIRST: [&str; 14] = [
    "sprintf",
    "snprintf",
    "strcpy",
    "strncpy",
    "stpcpy",
    "strcat",
    "strncat",
    "memcpy",
    "memmove",
    "memset",
    "vsprintf",
    "vsnprintf",
    "gets",
    "fgets",
];

impl Dialect for C {
    fn bind(&self, r: &mut Reader) {
        bind_namespaces(r);
        native::bind_values(r, self, &occurrence);
    }

    fn qualified(&self, r: &Reader, head: &str) -> Option<String> {
        match r.binds.get(head) {
            Some(q) => Some(q.clone()),
            None if head == "std" || LIBC.contains(&head) => Some(head.to_string()),
            None => None,
        }
    }

    fn call(&self, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step {
        call(self, r, name, c, k)
    }

    fn attribute(&self, r: &mut Reader, name: &str, c: &Chain) -> Step {
        let name = name.strip_prefix("std.").unwrap_or(name);
        let after_struct = c.span.start > 0 && r.name(c.span.start - 1) == Some("struct");
        match name {
            // `struct stat st;` names the type, not the function.
            _ if after_struct => Step::Pure,
            "environ" => r.env_read(None),
            "ofstream" | "ifstream" | "fstream" => stream(self, r, name, c),
            n if LIBC.contains(&n) => Step::Unread(format!("`{n}` used other than by a call")),
            _ => Step::Pure,
        }
    }

    fn value_of(&self, r: &Reader, c: &Chain) -> Option<(Val, usize)> {
        if let Some(v) = native::var_through(r, self, &c.links) {
            return Some((v, c.span.end));
        }
        let k = c.links.iter().position(|l| l.args.is_some())?;
        let mut name = match r.binds.get(&c.links[0].name) {
            Some(q) => q.clone(),
            None => c.links[0].name.clone(),
        };
        for l in &c.links[1..=k] {
            name.push('.');
            name.push_str(&l.name);
        }
        let args: Vec<Option<Val>> = r.values(self, &c.links[k]);
        let v = value(name.strip_prefix("std.").unwrap_or(&name), &args)?;
        Some((native::through(r, self, v, &c.links[k + 1..])?, c.span.end))
    }

    fn risky_method(&self, _name: &str) -> bool {
        false
    }
}

/// The value of a library call, when it is a path or text known without running.
pub fn value(name: &str, args: &[Option<Val>]) -> Option<Val> {
    let first = || args.first().cloned().flatten();
    match name {
        "getenv" | "secure_getenv" => match first()? {
            Val::Lit(k) if k == "HOME" => Some(Val::Home(String::new())),
            _ => None,
        },
        "string" | "string_view" | "filesystem.path" | "experimental.filesystem.path" => first(),
        "filesystem.temp_directory_path" => Some(Val::Lit("/tmp".into())),
        _ => None,
    }
}

/// `namespace fs = std::filesystem;`, `using namespace std::filesystem;`, `using std::system;`:
/// the names they bind.
fn bind_namespaces(r: &mut Reader) {
    for i in 0..r.t.len() {
        match (r.name(i), r.name(i + 1)) {
            (Some("namespace"), Some(alias)) if r.punct(i + 2, '=') => {
                let (path, _) = dotted(r, i + 3);
                let path = path.strip_prefix("std.").unwrap_or(&path).to_string();
                r.binds.insert(alias.to_string(), format!("std.{path}"));
            }
            (Some("using"), Some("namespace")) => {
                let (path, _) = dotted(r, i + 2);
                if path.ends_with("filesystem") {
                    for f in FILESYSTEM {
                        r.binds.insert(f.to_string(), format!("std.filesystem.{f}"));
                    }
                }
                if path == "std" {
                    r.binds.insert("filesystem".into(), "std.filesystem".into());
                }
            }
            _ => {}
        }
    }
}

/// A dotted name at `i` (`std.filesystem`) and the index after it.
fn dotted(r: &Reader, mut i: usize) -> (String, usize) {
    let mut out = String::new();
    while let Some(n) = r.name(i) {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(n);
        i += 1;
        if !r.punct(i, '.') {
            break;
        }
        i += 1;
    }
    (out, i)
}

/// How the occurrence of a name at `i` binds it. A value is trusted only while every other
/// use reads it: an argument of a function that may change or keep it, an assignment of it
/// elsewhere (aliasing), a change through a subscript or pointer, all make it unknown.
fn occurrence(r: &Reader, i: usize) -> Occurrence {
    // `#define NAME VALUE`, to the directive's end.
    if i > 0 && r.name(i - 1) == Some("define") {
        return Occurrence::Def(native::initializer(r, i + 1));
    }
    let after = r.subscripted(i + 1);
    let declared = declares(r, i);
    let deref = i > 0 && r.punct(i - 1, '*') && !declared;
    match native::assigned_at(r, after) {
        Some(true) if !deref && (after == i + 1 || declared) => {
            return Occurrence::Def(native::initializer(r, after + 1))
        }
        Some(_) => return Occurrence::Poison,
        None => {}
    }
    if declared {
        // A parameter (`char *p)`) binds a value the reader does not know.
        return match r.punct(after, ';') {
            true => Occurrence::Bare,
            false => Occurrence::Poison,
        };
    }
    match native::enclosing_call(r, i) {
        Some((f, 0)) if WRITES_FIRST.contains(&f) => written_first(r, i, f),
        Some((f, _)) if LIBC.contains(&f) || READS_ONLY.contains(&f) => Occurrence::Use,
        Some(("sprintf" | "snprintf", _)) => Occurrence::Use,
        _ if whole_statement_use(r, i) => Occurrence::Use,
        _ => Occurrence::Poison,
    }
}

/// `sprintf(buf, FMT, …)`, `snprintf(buf, n, FMT, …)`, `strcpy(buf, S)`: defines `buf`;
/// anything else writing it changes it.
fn written_first(r: &Reader, i: usize, f: &str) -> Occurrence {
    let Some((args, _)) = i
        .checked_sub(1)
        .and_then(|open| chain::arguments(r.t, open))
    else {
        return Occurrence::Poison;
    };
    match (f, args.as_slice()) {
        ("sprintf", [_, format, rest @ ..]) | ("snprintf", [_, _, format, rest @ ..]) => {
            Occurrence::Printf(format.clone(), rest.to_vec())
        }
        ("strcpy" | "stpcpy", [_, from]) => Occurrence::Def(from.clone()),
        _ => Occurrence::Poison,
    }
}

/// A name alone as a condition or a `return`'s value, or compared (`if (!p)`, `p == NULL`).
fn whole_statement_use(r: &Reader, i: usize) -> bool {
    let before = i.checked_sub(1).map(|k| &r.t[k].0);
    let after = r.t.get(i + 1).map(|x| &x.0);
    let compared = |t: Option<&Tok>| matches!(t, Some(Tok::Punct('!' | '=' | '<' | '>')));
    compared(after) || before == Some(&Tok::Punct('!'))
}

/// Whether the name at `i` is declared there: a type before it (`char *p`, `const char
/// p[]`, `std::string s`, `std::string &s`).
fn declares(r: &Reader, i: usize) -> bool {
    const NOT_TYPES: [&str; 9] = [
        "return", "case", "sizeof", "else", "do", "goto", "throw", "delete", "new",
    ];
    let typed = |k: usize| match r.t.get(k).map(|x| &x.0) {
        Some(Tok::Name(n)) => !NOT_TYPES.contains(&n.as_str()),
        Some(Tok::Punct('>')) => true,
        _ => false,
    };
    let Some(prev) = i.checked_sub(1) else {
        return false;
    };
    if typed(prev) {
        return true;
    }
    // `char *p`, `char **p`, `std::string &p`.
    let mut k = prev;
    while k > 0 && (r.punct(k, '*') || r.punct(k, '&')) {
        k -= 1;
    }
    k != prev && typed(k)
}

/// `std::ofstream out("x")`, `std::ifstream in{p}`, then `out.open("y")`: the files a stream
/// opens, for writing (`ofstream`, `fstream`) or reading.
fn stream(d: &dyn Dialect, r: &mut Reader, kind: &str, c: &Chain) -> Step {
    let verb: &[&str] = if kind == "ifstream" {
        &["cat"]
    } else {
        &["tee"]
    };
    let Some(var) = r.name(c.span.end).map(str::to_string) else {
        return Step::Pure;
    };
    let mut opened = Vec::new();
    if r.punct(c.span.end + 1, '(') || r.punct(c.span.end + 1, '{') {
        if let Some((args, _)) = chain::arguments(r.t, c.span.end + 1) {
            opened.push(args.first().and_then(|a| r.value(d, a)));
        }
    }
    for i in c.span.end + 1..r.t.len() {
        let open = r.name(i) == Some(var.as_str())
            && r.punct(i + 1, '.')
            && r.name(i + 2) == Some("open")
            && r.punct(i + 3, '(');
        if let Some((args, _)) = open.then(|| chain::arguments(r.t, i + 3)).flatten() {
            opened.push(args.first().and_then(|a| r.value(d, a)));
        }
    }
    for path in opened {
        if let Step::Unread(why) | Step::Unknown(why) | Step::Grave(why) = r.emit(verb, &[path]) {
            return Step::Unknown(why);
        }
    }
    Step::Pure
}

/// The library call `name(…)` at link `k` of `c`, its arguments valued by `d` (C itself,
/// Rust's `libc::`, Go's `C.`).
pub fn call(d: &dyn Dialect, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step {
    let link = &c.links[k];
    let args = link.args.clone().unwrap_or_default();
    let vals = r.values(d, link);
    let arg = |n: usize| vals.get(n).cloned().flatten();
    let name = name.strip_prefix("std.").unwrap_or(name);
    if let Some(f) = name
        .strip_prefix("filesystem.")
        .or(name.strip_prefix("experimental.filesystem."))
    {
        return filesystem(r, f, &vals, &args);
    }
    match name {
        "system" | "popen" => {
            let words = r.command(d, args.first(), true);
            r.emit_words(name, words)
        }
        "execl" | "execlp" | "execle" => {
            // The path, then argv from its second word (the first is the name it sees).
            let rest = native::words(r, d, args.get(2..).unwrap_or_default());
            let words = arg(0).map(|p| p.word()).zip(rest).map(|(p, mut rest)| {
                rest.insert(0, p);
                rest
            });
            native::run(r, name, words)
        }
        "execv" | "execvp" | "execve" | "execvpe" => exec_vector(d, r, name, &args, 0, 1),
        "posix_spawn" | "posix_spawnp" => exec_vector(d, r, name, &args, 1, 4),
        // `std::remove(first, last, value)` is the algorithm, not the file call.
        "remove" if args.len() > 1 => Step::Pure,
        "unlink" | "remove" => r.emit(&["rm", "-f"], &[arg(0)]),
        "unlinkat" => {
            let dir = args.get(2).is_some_and(|a| named(r, a, "AT_REMOVEDIR"));
            let verb: &[&str] = if dir { &["rmdir"] } else { &["rm", "-f"] };
            r.emit(verb, &[arg(1)])
        }
        "rmdir" => r.emit(&["rmdir"], &[arg(0)]),
        "rename" => r.emit(&["mv"], &[arg(0), arg(1)]),
        "renameat" | "renameat2" => r.emit(&["mv"], &[arg(1), arg(3)]),
        "link" => r.emit(&["ln"], &[arg(0), arg(1)]),
        "linkat" => r.emit(&["ln"], &[arg(1), arg(3)]),
        "symlink" => r.emit(&["ln", "-s"], &[arg(0), arg(1)]),
        "symlinkat" => r.emit(&["ln", "-s"], &[arg(0), arg(2)]),
        "chmod" => {
            let mode = native::mode(r, args.get(1));
            r.emit(&["chmod", &mode], &[arg(0)])
        }
        "fchmodat" => {
            let mode = native::mode(r, args.get(2));
            r.emit(&["chmod", &mode], &[arg(1)])
        }
        "chown" | "lchown" => r.emit(&["chown", "0"], &[arg(0)]),
        "fchownat" => r.emit(&["chown", "0"], &[arg(1)]),
        "truncate" => r.emit(&["truncate", "-s", "0"], &[arg(0)]),
        "mkdir" | "mkfifo" => r.emit(&["mkdir", "-p"], &[arg(0)]),
        "mkdirat" => r.emit(&["mkdir", "-p"], &[arg(1)]),
        "fopen" | "fopen64" | "freopen" => r.emit(native::fopen_verb(arg(1)), &[arg(0)]),
        "open" | "open64" => r.emit(native::open_verb(r, args.get(1)), &[arg(0)]),
        "openat" => r.emit(native::open_verb(r, args.get(2)), &[arg(1)]),
        "creat" => r.emit(&["tee"], &[arg(0)]),
        "opendir" | "scandir" | "nftw" | "ftw" | "stat" | "lstat" | "access" | "realpath"
        | "readlink" => r.emit(&["ls", "-d"], &[arg(0)]),
        "getenv" | "secure_getenv" => r.env_read(arg(0)),
        "chdir" => r.emit(&["cd"], &[arg(0)]),
        "curl_easy_setopt" if args.get(1).is_some_and(|a| named(r, a, "CURLOPT_URL")) => {
            r.emit(&["curl", "-s"], &[arg(2)])
        }
        "curl_easy_setopt" => Step::Pure,
        "dlopen" => Step::Unread("`dlopen` loads a library".into()),
        "syscall" | "ptrace" | "asm" | "__asm__" | "__asm" => {
            Step::Unread(format!("`{name}` acts below the library"))
        }
        "socket" | "connect" | "getaddrinfo" | "gethostbyname" => {
            Step::Unread(format!("`{name}` opens a network connection"))
        }
        n if LIBC.contains(&n) => Step::Unread(format!("`{n}(…)`")),
        _ => Step::Pure,
    }
}

/// `execv(path, argv)`, `posix_spawn(&pid, path, …, argv, envp)`: the path, then the argv
/// list (a literal, or an array bound once) from its second word.
fn exec_vector(
    d: &dyn Dialect,
    r: &mut Reader,
    name: &str,
    args: &[std::ops::Range<usize>],
    path: usize,
    argv: usize,
) -> Step {
    let program = args.get(path).and_then(|a| r.value(d, a));
    let items = args.get(argv).and_then(|a| native::list_items(r, a));
    let rest = items.and_then(|items| native::words(r, d, items.get(1..).unwrap_or_default()));
    let words = program.zip(rest).map(|(p, mut rest)| {
        rest.insert(0, p.word());
        rest
    });
    native::run(r, name, words)
}

/// Whether `range` names the constant `flag` (`AT_REMOVEDIR`, `CURLOPT_URL`).
fn named(r: &Reader, range: &std::ops::Range<usize>, flag: &str) -> bool {
    range.clone().any(|k| r.name(k) == Some(flag))
}

/// `std::filesystem`'s functions that the reader translates or knows to compute nothing.
const FILESYSTEM: [&str; 20] = [
    "remove",
    "remove_all",
    "rename",
    "copy",
    "copy_file",
    "copy_symlink",
    "create_directory",
    "create_directories",
    "create_symlink",
    "create_directory_symlink",
    "create_hard_link",
    "permissions",
    "resize_file",
    "exists",
    "directory_iterator",
    "recursive_directory_iterator",
    "current_path",
    "temp_directory_path",
    "path",
    "is_directory",
];

/// `std::filesystem::remove_all(p)` and its siblings.
fn filesystem(
    r: &mut Reader,
    f: &str,
    vals: &[Option<Val>],
    args: &[std::ops::Range<usize>],
) -> Step {
    let arg = |n: usize| vals.get(n).cloned().flatten();
    let recursive = args.iter().any(|a| named(r, a, "recursive"));
    match f {
        "remove" => r.emit(&["rm", "-f"], &[arg(0)]),
        "remove_all" => r.emit(&["rm", "-rf"], &[arg(0)]),
        "rename" => r.emit(&["mv"], &[arg(0), arg(1)]),
        "copy" if recursive => r.emit(&["cp", "-r"], &[arg(0), arg(1)]),
        "copy" | "copy_file" | "copy_symlink" => r.emit(&["cp"], &[arg(0), arg(1)]),
        "create_directory" | "create_directories" => r.emit(&["mkdir", "-p"], &[arg(0)]),
        "create_symlink" | "create_directory_symlink" => r.emit(&["ln", "-s"], &[arg(0), arg(1)]),
        "create_hard_link" => r.emit(&["ln"], &[arg(0), arg(1)]),
        "permissions" => r.emit(&["chmod", "a+rwx"], &[arg(0)]),
        "resize_file" => r.emit(&["truncate", "-s", "0"], &[arg(0)]),
        "current_path" if !vals.is_empty() => r.emit(&["cd"], &[arg(0)]),
        "exists"
        | "is_directory"
        | "is_regular_file"
        | "is_symlink"
        | "is_empty"
        | "status"
        | "symlink_status"
        | "file_size"
        | "last_write_time"
        | "directory_iterator"
        | "recursive_directory_iterator"
        | "canonical"
        | "weakly_canonical"
        | "read_symlink"
        | "space"
        | "hard_link_count"
        | "equivalent" => r.emit(&["ls", "-d"], &[arg(0)]),
        "path"
        | "current_path"
        | "temp_directory_path"
        | "absolute"
        | "relative"
        | "proximate"
        | "u8path"
        | "perms"
        | "copy_options"
        | "file_type"
        | "directory_options"
        | "filesystem_error"
        | "directory_entry"
        | "file_status"
        | "perm_options"
        | "space_info" => Step::Pure,
        _ => Step::Unread(format!("`std::filesystem::{f}(…)`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_calls_become_commands() {
        let r = read("#include <stdlib.h>\nint main(){ return system(\"rm -rf ~/docs\"); }\n");
        assert_eq!(r.script, "rm -rf ~/docs");
        assert_eq!(r.unread, None);
        let r = read(
            "int main(){ char *a[] = {\"sh\", \"-c\", \"id\", NULL}; execv(\"/bin/sh\", a); }",
        );
        assert_eq!(r.script, "'/bin/sh' '-c' 'id'");
        let r = read("int main(){ execlp(\"rm\", \"rm\", \"-rf\", \"/x\", (char *)NULL); }");
        assert_eq!(r.script, "'rm' '-rf' '/x'");
        // The literals of a definition are also files the program may open.
        let r = read("#define DIR \"/srv\" \"/x\"\nint main(){ unlink(DIR); FILE *f = fopen(\"/etc/hosts\", \"r\"); }");
        assert_eq!(
            r.script,
            "rm -f -- '/srv/x'\ncat -- '/etc/hosts'\ncat -- '/srv'\ncat -- '/x'"
        );
        let r = read("int main(){ char cmd[256]; snprintf(cmd, sizeof cmd, \"rm -rf %s/docs\", \"/home/a\"); system(cmd); }");
        assert_eq!(r.script, "rm -rf /home/a/docs\ncat -- '/home/a'");
        let r = read("#include <filesystem>\nnamespace fs = std::filesystem;\nint main(){ fs::remove_all(fs::path(std::getenv(\"HOME\")) / \"docs\"); std::system(\"ls\"); }");
        assert_eq!(r.script, "rm -rf -- ~'/docs'\nls");
    }

    #[test]
    fn plain_programs_read_as_nothing() {
        let hello = "#include <stdio.h>\n#include <sys/stat.h>\nint add(int a, int b){ return a + b; }\nint main(void){ struct stat st; char c = '/'; printf(\"%d\\n\", add(1, 2)); return 0; }\n";
        assert_eq!(read(hello), Reading::default());
    }

    #[test]
    fn what_cannot_be_read_is_named() {
        for code in [
            "int main(int c, char **v){ return system(v[1]); }",
            "#define RUN system\nint main(){ RUN(\"id\"); }",
            "int main(){ char cmd[] = \"xm -rf /\"; cmd[0] = 'r'; system(cmd); }",
            "static const char *p = \"/tmp/a\";\nvoid f(const char *p){ unlink(p); }",
            "int main(){ char b[8]; strcpy(b, \"ls\"); strcat(b, \" /\"); system(b); }",
            "int main(){ int s = socket(2, 1, 0); }",
            "int main(){ __asm__(\"syscall\"); }",
            "int main(){ char *a[] = {\"sh\", NULL}; execv(\"/bin/sh\", a); }",
        ] {
            assert!(read(code).grave.is_some(), "{code}: {:?}", read(code));
        }
        // A file it writes at a path computed when it runs: unread, but not grave.
        let r = read("int main(int c, char **v){ FILE *f = fopen(v[1], \"w\"); }");
        assert!(r.unread.is_some() && r.grave.is_none(), "{r:?}");
    }
}
