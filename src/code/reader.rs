//! The walk both readers share: bindings from imports, each chain judged by the dialect's
//! table, tokens consumed by what was read, then the two safety nets (a reaching name used
//! other than by a read call makes the program unread; a path-shaped string no call read is
//! a file the program may open).

use super::chain::{self, Chain, Link, Toks};
use super::lex::Tok;
use super::meanings;
use super::{path_like, quote, Out, Reading, Val};
use std::collections::HashMap;
use std::ops::Range;

/// The commands that take an entry of a listing as an operand (`'data'/*`): those on files.
/// Running one (`node`), fetching one or changing into one (`cd`) is not followed.
const ENTRY_VERBS: [&str; 12] = [
    "cat", "tee", "rm", "rmdir", "cp", "mv", "ln", "mkdir", "ls", "chmod", "chown", "touch",
];

/// Parts of a risky method's name that run a program (`.system(`, `.execSync(`, `.popen(`,
/// `.subprocess_shell(`); the others open, change or delete files.
const RUNS: [&str; 6] = ["system", "exec", "popen", "spawn", "fork", "subprocess"];

/// The directories whose entries `verb` reads or writes: every operand of `cat` and `tee`,
/// the sources of `cp`, `mv` and `ln` (a copy's new files show nothing). Deleting, listing
/// and changing modes show no file's content.
fn read_entries(verb: &str, paths: &[Option<Val>]) -> Vec<Val> {
    let sources = match verb {
        "cat" | "tee" => paths,
        "cp" | "mv" | "ln" => &paths[..paths.len().saturating_sub(1)],
        _ => &[],
    };
    (sources.iter().flatten())
        .filter_map(Val::listed_dir)
        .collect()
}

/// What a dialect decides for one chain.
pub enum Step {
    /// Translated into `Reader::out`: the chain and its arguments are read.
    Done,
    /// Computes nothing outside (`os.path.join`, `path.basename`): its names are read, its
    /// arguments are read on their own.
    Pure,
    /// Could not be read: the program's effect is unknown.
    Unread(String),
    /// A read, write or listing of a path computed at run time: unread, but no call that runs
    /// a program, deletes, moves or opens a connection (`Reading::grave` leaves it out).
    Unknown(String),
    /// A deletion, move or mode change of a path computed at run time: grave, but runs
    /// nothing (`Reading::runs` leaves it out).
    Grave(String),
}

/// A language's tables.
pub trait Dialect {
    /// Imports and requires: fills `Reader::binds`, consumes their tokens.
    fn bind(&self, r: &mut Reader);
    /// What a head name stands for when it reaches outside (`open` → `builtins.open`).
    fn qualified(&self, r: &Reader, head: &str) -> Option<String>;
    /// The call `name(…)` at link `k` of `c`.
    fn call(&self, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step;
    /// `name` read without a call (`os.environ[…]`, `process.env.X`).
    fn attribute(&self, r: &mut Reader, name: &str, c: &Chain) -> Step;
    /// A chain's value when it is known without running (`os.path.join('a', 'b')`), and the
    /// token after what it covered.
    fn value_of(&self, r: &Reader, c: &Chain) -> Option<(Val, usize)>;
    /// A method that opens, changes or deletes files, or runs programs, whatever object it is
    /// called on (`p.unlink()` of a path from a listing).
    fn risky_method(&self, name: &str) -> bool;
    /// A name whose calls or members the reader takes at their word (`path` bound to the
    /// module, `process`): it must keep that meaning (`meanings`).
    fn trusted(&self, _r: &Reader, _name: &str) -> bool {
        false
    }
    /// Whether the program gives `name` another value than its import (or the builtin) gave
    /// it, outside the bindings the reader read.
    fn bound_again(&self, _r: &Reader, _name: &str) -> bool {
        false
    }
    /// Whether the member chain at `span` (`os.path.join`) is assigned there.
    fn assigned(&self, _r: &Reader, _span: &Range<usize>) -> bool {
        false
    }
    /// Whether the chain `c` (no call in it) hands a module, or a namespace of one, to other
    /// code as a value (`Object.assign(path, …)`), which could replace its members.
    fn handed_on(&self, _r: &Reader, _c: &Chain) -> bool {
        false
    }
}

pub struct Reader<'a> {
    pub t: &'a Toks,
    /// Local name → what it stands for (`s` → `shutil`, `rm` → `fs.rmSync`).
    pub binds: HashMap<String, String>,
    /// Tokens a translated call or an import consumed.
    pub used: Vec<bool>,
    pub out: Out,
    /// Names bound once, in the whole program, to a value known without running it (`let
    /// home = env::var("HOME")?`), which the compiled languages' readers find; and the tokens
    /// of each one's sole definition (a C array's `{…}`).
    pub vars: HashMap<String, Val>,
    pub defs: HashMap<String, Range<usize>>,
    /// Names bound to the entries of a directory listing (`Val::Entry`) or to paths built
    /// from one, each with the tokens where that binding is the one the name means
    /// (`js::listing`).
    pub entries: Vec<(String, Range<usize>, Val)>,
    /// The bracket each token sits in (`enclosing`), found once for the whole program.
    inside: Vec<Option<usize>>,
}

/// `code` in `lang` read by the dialect `d`: unread as a whole when too long to tokenise.
pub fn read_text(code: &str, lang: super::lex::Lang, d: &dyn Dialect) -> Reading {
    match super::lex::tokens(code, lang) {
        Ok(t) => read(&t, d),
        Err(why) => {
            let mut out = Out::default();
            out.unread(why);
            out.finish()
        }
    }
}

pub fn read(t: &Toks, d: &dyn Dialect) -> Reading {
    let mut r = Reader {
        t,
        binds: HashMap::new(),
        used: vec![false; t.len()],
        out: Out::default(),
        vars: HashMap::new(),
        defs: HashMap::new(),
        entries: Vec::new(),
        inside: brackets(t),
    };
    d.bind(&mut r);
    meanings::check(&mut r, d);
    r.walk(d);
    r.unconsumed(d);
    r.strings();
    r.out.finish()
}

/// For each token, the opening bracket it sits in (innermost, not yet closed), if any.
fn brackets(t: &Toks) -> Vec<Option<usize>> {
    let mut open: Vec<usize> = Vec::new();
    let mut out = Vec::with_capacity(t.len());
    for (j, (tok, _)) in t.iter().enumerate() {
        if let Tok::Punct(')' | ']' | '}') = tok {
            open.pop();
        }
        out.push(open.last().copied());
        if let Tok::Punct('(' | '[' | '{') = tok {
            open.push(j);
        }
    }
    out
}

impl Reader<'_> {
    /// The bracket token `j` sits in: `f(x=1)`'s `(` for `x`.
    pub fn enclosing(&self, j: usize) -> Option<usize> {
        self.inside.get(j).copied().flatten()
    }

    pub fn name(&self, i: usize) -> Option<&str> {
        match self.t.get(i).map(|x| &x.0) {
            Some(Tok::Name(n)) => Some(n),
            _ => None,
        }
    }

    pub fn punct(&self, i: usize, c: char) -> bool {
        self.t.get(i).map(|x| &x.0) == Some(&Tok::Punct(c))
    }

    /// Binds `local` to `target` (an import); a name imported as two different things means
    /// each only in part of the program, which the one table of bindings cannot say: unread.
    pub fn bind(&mut self, local: String, target: String) {
        if self.binds.get(&local).is_some_and(|t| *t != target) {
            self.out.unread(format!("`{local}` imported as two things"));
        }
        self.binds.insert(local, target);
    }

    pub fn consume(&mut self, r: Range<usize>) {
        let end = r.end.min(self.used.len());
        self.used[r.start.min(end)..end]
            .iter_mut()
            .for_each(|u| *u = true);
    }

    /// Every chain in the program, in order; a translated call consumes its tokens, so the
    /// chains inside its arguments are not read again.
    fn walk(&mut self, d: &dyn Dialect) {
        for i in 0..self.t.len() {
            if self.used[i] {
                continue;
            }
            let Some(c) = chain::at(self.t, i) else {
                continue;
            };
            let Some(q) = d.qualified(self, &c.links[0].name) else {
                continue;
            };
            // The name up to the first call (or the whole chain when nothing is called).
            let k = c.links.iter().position(|l| l.args.is_some());
            let mut name = q;
            for l in &c.links[1..=k.unwrap_or(c.links.len() - 1)] {
                name.push('.');
                name.push_str(&l.name);
            }
            let step = match k {
                Some(k) => d.call(self, &name, &c, k),
                None => d.attribute(self, &name, &c),
            };
            match step {
                // What follows the translated call (`.then(eval)`) is read on its own.
                Step::Done if k.is_some_and(|k| k + 1 < c.links.len()) => {
                    let k = k.unwrap_or_default();
                    self.consume_translated(d, c.span.start..c.links[k].end);
                    self.consume_names(&c);
                }
                Step::Done => {
                    let end = self.subscripted(c.span.end);
                    self.consume_translated(d, c.span.start..end);
                }
                Step::Pure => self.consume_names(&c),
                Step::Unread(why) => self.out.unread(why),
                // The call is known; only its path is not: its names are read.
                Step::Unknown(why) => {
                    self.out.unknown(why);
                    self.consume_names(&c);
                }
                Step::Grave(why) => {
                    self.out.grave(why);
                    self.consume_names(&c);
                }
            }
        }
    }

    /// Consumes the tokens of a translated call, but not the calls inside its arguments that
    /// reach outside on their own (`fetch(u, {body: fs.readFileSync('.env')})`,
    /// `fs.writeFileSync(p, fs.readFileSync(q))`, a callback's body): those are read in
    /// turn. A call whose value the translation used (`path.join(…)`, `os.homedir()`) is
    /// part of it.
    fn consume_translated(&mut self, d: &dyn Dialect, r: Range<usize>) {
        let end = r.end.min(self.t.len());
        let mut j = r.start;
        while j < end {
            let nested = (j > r.start)
                .then(|| chain::at(self.t, j))
                .flatten()
                .filter(|c| c.span.end <= end && c.links.iter().any(|l| l.args.is_some()));
            let live = nested.filter(|c| {
                d.qualified(self, &c.links[0].name).is_some() && d.value_of(self, c).is_none()
            });
            match live {
                Some(c) => j = c.span.end,
                None => {
                    self.used[j] = true;
                    j += 1;
                }
            }
        }
    }

    /// The end of an expression starting at `from`: the `;`, closing bracket or end of the
    /// program where it stops at depth 0, or a name right after a value, which starts the
    /// next statement (after a line break: neither language puts two values side by side).
    /// `None` where a word that `goes_on` (an operator of the language) follows a value.
    /// `prefixes` are words that take the value after them (`await`, `not`).
    pub fn expression_end(
        &self,
        from: usize,
        goes_on: &dyn Fn(&Reader, usize) -> bool,
        prefixes: &[&str],
    ) -> Option<usize> {
        let mut depth = 0usize;
        let mut j = from;
        let mut after_value = false;
        while j < self.t.len() {
            let value = match &self.t[j].0 {
                Tok::Punct('(' | '[' | '{') => {
                    depth += 1;
                    false
                }
                Tok::Punct(')' | ']' | '}') if depth == 0 => return Some(j),
                Tok::Punct(c @ (')' | ']' | '}')) => {
                    depth -= 1;
                    *c != '}'
                }
                Tok::Punct(';') if depth == 0 => return Some(j),
                Tok::Name(_) if depth == 0 && after_value => {
                    return (!goes_on(self, j)).then_some(j);
                }
                // A template's placeholders follow it between `;`s of their own.
                Tok::Template(_) => {
                    j = self.template_end(j);
                    after_value = depth == 0;
                    continue;
                }
                Tok::Name(n) => !prefixes.contains(&n.as_str()),
                Tok::Str(_) | Tok::Num(_) => true,
                Tok::Punct(_) => false,
            };
            after_value = value && depth == 0;
            j += 1;
        }
        Some(self.t.len())
    }

    /// The index after a template literal (or f-string) at `j` and the code of its
    /// placeholders.
    fn template_end(&self, j: usize) -> usize {
        let holes = |k: usize| match &self.t[k].0 {
            Tok::Template(parts) => 2 * (parts.len() - 1),
            _ => 0,
        };
        let (mut need, mut k) = (holes(j), j + 1);
        while need > 0 && k < self.t.len() {
            need += holes(k);
            need -= usize::from(self.punct(k, ';'));
            k += 1;
        }
        k
    }

    /// The index after a subscript at `i` (`os.environ['X']`), or `i`.
    pub fn subscripted(&self, i: usize) -> usize {
        if !self.punct(i, '[') {
            return i;
        }
        chain::arguments(self.t, i).map_or(i, |(_, after)| after)
    }

    /// The names of a chain, not its arguments.
    fn consume_names(&mut self, c: &Chain) {
        let args: Vec<Range<usize>> = (c.links.iter())
            .flat_map(|l| l.args.iter().flatten().cloned())
            .collect();
        for i in c.span.clone() {
            if matches!(self.t[i].0, Tok::Name(_)) && !args.iter().any(|r| r.contains(&i)) {
                self.used[i] = true;
            }
        }
    }

    /// A name that reaches outside, used other than by a call read above, or a risky method
    /// called on an object the reader does not know.
    fn unconsumed(&mut self, d: &dyn Dialect) {
        for i in 0..self.t.len() {
            let Some(n) = self.name(i).filter(|_| !self.used[i]) else {
                continue;
            };
            if i > 0 && self.punct(i - 1, '.') {
                if self.punct(i + 1, '(') && d.risky_method(n) {
                    let why = format!("`.{n}(…)` on an object only known when it runs");
                    match RUNS.iter().any(|r| n.contains(r)) {
                        true => self.out.unread(why),
                        false => self.out.grave(why),
                    }
                    return;
                }
                continue;
            }
            if d.qualified(self, n).is_some() {
                let why = format!("`{n}` used other than by a call this reader knows");
                self.out.unread(why);
                return;
            }
        }
    }

    /// A string naming a path that no call above read: a file the program may open by a
    /// route the reader does not know (a third-party module, a variable).
    fn strings(&mut self) {
        for (i, (tok, _)) in self.t.iter().enumerate() {
            if let (Tok::Str(Some(s)), false) = (tok, self.used[i]) {
                if path_like(s) {
                    let v = Val::Lit(s.clone()).expand_user();
                    self.out.line(&["cat".into(), "--".into(), v.word()]);
                }
            }
        }
    }

    /// The value of an expression known without running the program: literals joined with
    /// `+` (or `/` of paths), parentheses, and the chains the dialect knows.
    pub fn value(&self, d: &dyn Dialect, r: &Range<usize>) -> Option<Val> {
        let mut i = r.start;
        let mut acc: Option<Val> = None;
        let mut joins = false;
        while i < r.end {
            let (term, next) = self.term(d, i, r.end)?;
            // A cast (`p as *const c_char`, `x as string`) keeps the value.
            let next = match self.name(next) {
                Some("as") if next < r.end => r.end,
                _ => next,
            };
            acc = Some(match acc {
                None => term,
                Some(a) if joins => a.join(term)?,
                Some(a) => a.plus(term)?,
            });
            i = next;
            if i < r.end {
                joins = self.punct(i, '/');
                if !(joins || self.punct(i, '+')) {
                    return None;
                }
                i += 1;
            }
        }
        acc
    }

    fn term(&self, d: &dyn Dialect, i: usize, end: usize) -> Option<(Val, usize)> {
        match &self.t.get(i)?.0 {
            Tok::Str(Some(s)) => {
                // Adjacent literals are one string in Python.
                let mut s = s.clone();
                let mut j = i + 1;
                while let Some(Tok::Str(Some(more))) =
                    self.t.get(j).filter(|_| j < end).map(|x| &x.0)
                {
                    s.push_str(more);
                    j += 1;
                }
                // A C string's terminator (`b"id\0"`) ends the text.
                let s = s.trim_end_matches('\0').to_string();
                Some((Val::Lit(s), self.literal_methods(j, end)))
            }
            Tok::Punct('(') => {
                let (args, after) = chain::arguments(self.t, i)?;
                (args.len() == 1).then_some(())?;
                Some((self.value(d, &args[0])?, after))
            }
            Tok::Name(n) => {
                let c = chain::at(self.t, i)?;
                if let Some((v, after)) = d.value_of(self, &c) {
                    return (after <= end).then_some((v, after));
                }
                // A name bound to a known value, used as it is.
                let plain = c.links.len() == 1 && c.links[0].args.is_none();
                if let Some(v) = self.entry_at(n, i).filter(|_| plain) {
                    return Some((v, c.span.end));
                }
                let v = self.vars.get(n).filter(|_| plain)?;
                Some((v.clone(), c.span.end))
            }
            Tok::Template(parts) => self.template(d, parts, i + 1, end),
            // Rust's borrow and C's address-of name the same text.
            Tok::Punct('&') if i + 1 < end => self.term(d, i + 1, end),
            _ => None,
        }
    }

    /// The listing's entry (or a path built from one) that the name `n` at token `i` is.
    fn entry_at(&self, n: &str, i: usize) -> Option<Val> {
        (self.entries.iter().rev())
            .find(|(name, within, _)| name == n && within.contains(&i))
            .map(|(_, _, v)| v.clone())
    }

    /// A template literal or f-string (`` `data/${f}` ``) whose placeholders' code follows it
    /// from `i`, each between two `;` (`lex`): its text when each placeholder's value is
    /// known, and the index after the last.
    fn template(
        &self,
        d: &dyn Dialect,
        parts: &[String],
        mut i: usize,
        end: usize,
    ) -> Option<(Val, usize)> {
        let mut pieces = vec![Val::Lit(parts.first()?.clone())];
        for text in &parts[1..] {
            if !self.punct(i, ';') {
                return None;
            }
            let close = (i + 1..end).find(|&j| self.punct(j, ';'))?;
            // A template inside a placeholder has `;`s of its own: not followed.
            let nested = (i + 1..close).any(|j| matches!(self.t[j].0, Tok::Template(_)));
            if nested || close == i + 1 {
                return None;
            }
            pieces.push(self.value(d, &(i + 1..close))?);
            pieces.push(Val::Lit(text.clone()));
            i = close + 1;
        }
        Some((super::native::concat(pieces)?, i))
    }

    /// The index after the methods that leave a literal as it is (`"x".to_string()`,
    /// `b"id\0".as_ptr()`), which no Python or JavaScript string has.
    fn literal_methods(&self, mut j: usize, end: usize) -> usize {
        const KEEP: [&str; 9] = [
            "to_string",
            "to_owned",
            "as_ptr",
            "as_bytes",
            "into",
            "as_str",
            "as_c_str",
            "to_vec",
            "into_bytes",
        ];
        while j + 3 < end
            && self.punct(j, '.')
            && self.name(j + 1).is_some_and(|m| KEEP.contains(&m))
            && self.punct(j + 2, '(')
            && self.punct(j + 3, ')')
        {
            j += 4;
        }
        j
    }

    /// The values of a call's arguments, each known or not.
    pub fn values(&self, d: &dyn Dialect, l: &Link) -> Vec<Option<Val>> {
        (l.args.iter().flatten())
            .map(|a| self.value(d, a))
            .collect()
    }

    /// A command line given as one string (run by a shell when `shell`) or as a list of
    /// words: the words, each known, or `None`.
    pub fn command(
        &self,
        d: &dyn Dialect,
        arg: Option<&Range<usize>>,
        shell: bool,
    ) -> Option<Vec<String>> {
        let r = arg?;
        if self.punct(r.start, '[') {
            let (items, _) = chain::arguments(self.t, r.start)?;
            // With a shell, the first item is the command line (the rest are its `$0`, `$1`…).
            if shell {
                return match self.value(d, items.first()?)? {
                    Val::Lit(s) => Some(vec![s]),
                    _ => None,
                };
            }
            return items
                .iter()
                .map(|i| self.value(d, i).filter(|v| !v.is_entry()).map(|v| v.word()))
                .collect();
        }
        // A listing's name in a command line is whatever the directory holds: unknown.
        match self.value(d, r).filter(|v| !v.is_entry())? {
            Val::Lit(s) if shell => Some(vec![s]),
            v => Some(vec![v.word()]),
        }
    }

    /// Writes `verb -- paths…` when every path is known. An entry of a listing is the
    /// pattern of every name in its directory (`cat -- 'data'/*`). The shell's `*` leaves
    /// out the dotfiles a listing gives, so a command that the credential guard judges by
    /// the files it names (a read, a write, the source of a copy) is also written as one
    /// reading the directory whole (`tree_read`), which the guard judges by all it holds.
    pub fn emit(&mut self, verb: &[&str], paths: &[Option<Val>]) -> Step {
        // A program removing the temporary directory it made (or what is in it) deletes
        // nothing that was there.
        let own = |p: &Option<Val>| match p {
            Some(Val::EntryOf(d)) => matches!(**d, Val::Temp(_)),
            p => matches!(p, Some(Val::Temp(_))),
        };
        if matches!(verb[0], "rm" | "rmdir") && !paths.is_empty() && paths.iter().all(own) {
            return Step::Done;
        }
        let mut words: Vec<String> = verb.iter().map(|s| s.to_string()).collect();
        words.push("--".into());
        for p in paths {
            match p {
                Some(v) if !v.is_entry() || ENTRY_VERBS.contains(&verb[0]) => words.push(v.word()),
                _ => {
                    let why = format!("`{}` of a path computed at run time", verb[0]);
                    // Reading, writing or listing a file it computes is what programs do; a
                    // deletion, a move or a permission change is not left to chance.
                    return match verb[0] {
                        "cat" | "tee" | "ls" | "mkdir" | "cd" => Step::Unknown(why),
                        _ => Step::Grave(why),
                    };
                }
            }
        }
        self.out.line(&words);
        for dir in read_entries(verb[0], paths) {
            self.tree_read(&dir);
        }
        Step::Done
    }

    /// A line that reads every file of `dir`, dotfiles included, and prints it: how the
    /// guards judge a directory read whole (`grep -r`, judged by what the tree holds).
    fn tree_read(&mut self, dir: &Val) {
        let words = ["grep", "-r", "-e", "''", "--"];
        let mut line: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        line.push(dir.word());
        // A loop reading and writing the same files needs the line once.
        if !self.out.lines.contains(&line.join(" ")) {
            self.out.line(&line);
        }
    }

    /// Writes a command line given as words, when known.
    /// A started program: its words as the options say they run, or unread.
    pub fn emit_process(
        &mut self,
        what: &str,
        words: Option<Vec<String>>,
        options: Result<super::process::Options, String>,
    ) -> Step {
        match options.and_then(|o| super::process::finish(self, words, &o)) {
            Ok(words) => self.emit_words(what, words),
            Err(why) => Step::Unread(format!("`{what}`: {why}")),
        }
    }

    pub fn emit_words(&mut self, what: &str, words: Option<Vec<String>>) -> Step {
        match words {
            Some(w) if !w.is_empty() => {
                self.out.line(&w);
                Step::Done
            }
            _ => Step::Unread(format!("`{what}` of a command computed at run time")),
        }
    }

    /// `printenv NAME` for a known name, `printenv` (every variable) otherwise.
    pub fn env_read(&mut self, key: Option<Val>) -> Step {
        match key {
            Some(Val::Lit(k)) => self.out.line(&["printenv".into(), quote(&k)]),
            _ => self.out.line(&["printenv".into()]),
        }
        Step::Done
    }
}
