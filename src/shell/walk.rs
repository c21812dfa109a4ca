//! The walk over a parsed script: every simple command, wherever it sits (pipelines, lists,
//! subshells, groups, loop and branch bodies, function bodies, substitutions), in the order a
//! shell would reach it. Each walk function returns the commands whose output leaves the
//! construct, so a pipeline can say who feeds whom.

use brush_parser::ast;

use super::vars::{Val, Vars};
use super::MAX_DEPTH;
use super::{fast, parse, Arg, Command, Opaque, OpaqueKind, Redirect, RedirectKind, Script};

/// Work allowed for one `analyze` call, in bytes parsed plus words expanded: far above any real
/// command line (an 80 KB script spends ~100 000), it bounds hostile input whatever its shape.
const BUDGET: u64 = 4_000_000;

/// The path bash gives a `<(…)` word (the descriptor number is bash's usual one).
pub(super) const PROCESS_SUBSTITUTION: &str = "/dev/fd/63";

pub(super) struct Walker {
    out: Script,
    pub(super) vars: Vars,
    budget: u64,
    /// Wrappers of the nested script being walked (`sudo`, `bash -c`, …), given to each of its
    /// commands before their own.
    pub(super) prefix: Vec<String>,
    /// Whether plain scripts take the fast path (tests turn it off to compare both).
    pub(super) fast: bool,
    /// `for f in .e*; do cat "$f"; done`: inside the body, `$f` is each file the pattern
    /// matches, so it expands to the pattern (active even when quoted) and is only known when
    /// it runs.
    pub(super) loop_globs: Vec<(String, String)>,
    /// Files the script wrote with literal text (`echo 'rm -rf ~' > t.sh`), by base name, so a
    /// later `sh t.sh` or `./t.sh` is judged by what it runs.
    /// `None`: written with text only known when it runs.
    pub(super) written: Vec<(String, Option<String>)>,
    /// `alias ll='rm -rf ~'`: names defined with literal text, expanded where used later.
    pub(super) aliases: Vec<(String, String)>,
    /// Host environment variables expanded in the words of the command being built.
    pub(super) env_reads: Vec<String>,
    /// `K=$OPENAI_API_KEY`: the host variables each unknown variable was assigned from.
    pub(super) derived: Vec<(String, Vec<String>)>,
    /// `x=$(curl …)`: the commands whose output each unknown variable holds.
    pub(super) outputs: Vec<(String, Vec<usize>)>,
    /// `tee >(sh)`: the commands of an output process substitution, which read what the
    /// command it stands in writes; that command is the next one emitted.
    readers: Vec<usize>,
}

/// A simple command on its way to becoming a `Command`: what the words around argv said.
#[derive(Debug, Clone, Default)]
pub(super) struct Exec {
    pub depth: u32,
    /// The command as written, for opaque reasons.
    pub src: String,
    pub wrappers: Vec<String>,
    pub redirects: Vec<Redirect>,
    pub inputs: Vec<usize>,
    pub stdin_text: Option<String>,
    /// stdin is a here-doc whose text could not be known.
    pub stdin_dynamic: bool,
    /// `FOO=1 cmd`, `env FOO=1 cmd`: the command's own environment.
    pub env: Vec<(String, Val)>,
    /// `env -i`: the command sees only `env`.
    pub clear_env: bool,
    /// `env -C DIR cmd`: the directory a wrapper moved the command to, as written.
    pub chdir: Option<Arg>,
}

impl Exec {
    pub(super) fn new(depth: u32, src: String) -> Exec {
        Exec {
            depth,
            src,
            ..Exec::default()
        }
    }
}

impl Walker {
    pub(super) fn new(env: &[(String, String)], earlier: &[super::Written]) -> Walker {
        Walker {
            out: Script::default(),
            vars: Vars::from_env(env),
            budget: BUDGET,
            prefix: Vec::new(),
            fast: true,
            loop_globs: Vec::new(),
            written: earlier.to_vec(),
            aliases: Vec::new(),
            env_reads: Vec::new(),
            derived: Vec::new(),
            outputs: Vec::new(),
            readers: Vec::new(),
        }
    }

    pub(super) fn finish(mut self) -> Script {
        self.out.written = self.written;
        self.out
    }

    /// Work spent so far, in budget units.
    #[cfg(test)]
    pub(super) fn spent(&self) -> u64 {
        BUDGET - self.budget
    }

    /// Spends `n` units of the budget; false (and a `TooDeep` once) when it is exhausted.
    pub(super) fn charge(&mut self, n: u64) -> bool {
        if self.budget >= n {
            self.budget -= n;
            return true;
        }
        if self.budget > 0 {
            self.budget = 0;
            self.opaque(OpaqueKind::TooDeep, "work budget exhausted");
        }
        false
    }

    pub(super) fn opaque(&mut self, kind: OpaqueKind, text: &str) {
        let text = shorten(text);
        if !self
            .out
            .opaque
            .iter()
            .any(|o| o.kind == kind && o.text == text)
        {
            self.out.opaque.push(Opaque { kind, text });
        }
    }

    /// Wildcards from here on match a leading dot (see `Script::dotglob`).
    pub(super) fn note_dotglob(&mut self) {
        self.out.dotglob = true;
    }

    pub(super) fn too_deep(&mut self, text: &str) {
        self.opaque(OpaqueKind::TooDeep, text);
    }

    pub(super) fn get(&self, i: usize) -> Option<&Command> {
        self.out.commands.get(i)
    }

    pub(super) fn get_mut(&mut self, i: usize) -> Option<&mut Command> {
        self.out.commands.get_mut(i)
    }

    pub(super) fn len(&self) -> usize {
        self.out.commands.len()
    }

    pub(super) fn push(&mut self, mut cmd: Command) -> usize {
        if !self.prefix.is_empty() {
            let mut wrappers = self.prefix.clone();
            wrappers.append(&mut cmd.wrappers);
            cmd.wrappers = wrappers;
        }
        self.out.commands.push(cmd);
        self.out.commands.len() - 1
    }

    /// Adds redirects written around a construct (`{ …; } > f`, `bash -c '…' > f`) to every
    /// command it emitted.
    pub(super) fn redirect_range(&mut self, from: usize, redirects: &[Redirect]) {
        for cmd in &mut self.out.commands[from..] {
            cmd.redirects.extend_from_slice(redirects);
        }
    }

    /// A script at `depth`, its first commands reading `stdin`.
    pub(super) fn script(&mut self, text: &str, depth: u32, stdin: &[usize]) -> Vec<usize> {
        if depth > MAX_DEPTH {
            self.too_deep(text);
            return Vec::new();
        }
        if !self.charge(text.len() as u64 + 1) {
            return Vec::new();
        }
        if let Some(list) = fast::parse(text).filter(|_| self.fast) {
            return self.fast_list(&list, depth, stdin);
        }
        if let Some(program) = parse::program(text) {
            return self.program(&program, depth, stdin);
        }
        self.opaque(OpaqueKind::Unparseable, text);
        let mut producers = Vec::new();
        for line in parse::fallback_lines(text) {
            match parse::program(line) {
                Some(p) => producers.extend(self.program(&p, depth, stdin)),
                None => {
                    let args: Vec<Arg> = parse::naive_words(line)
                        .iter()
                        .map(|w| Arg::literal(w))
                        .collect();
                    if !args.is_empty() {
                        producers.extend(self.exec(args, Exec::new(depth, line.to_owned())));
                    }
                }
            }
        }
        producers
    }

    fn fast_list(&mut self, list: &[Vec<fast::Simple>], depth: u32, stdin: &[usize]) -> Vec<usize> {
        let mut producers = Vec::new();
        for pipeline in list {
            let mut prev = stdin.to_vec();
            for simple in pipeline {
                let mut cx = Exec::new(depth, simple.source());
                cx.inputs = prev;
                cx.redirects = simple
                    .redirects
                    .iter()
                    .map(|&(fd, kind, target)| Redirect {
                        fd,
                        kind,
                        target: Arg::literal(target),
                    })
                    .collect();
                let mut args = Vec::with_capacity(simple.words.len());
                for w in &simple.words {
                    match &w.pieces {
                        None => args.push(Arg::literal(w.text)),
                        Some(p) => args.extend(self.piece_words(p, depth)),
                    }
                }
                prev = self.simple_done(args, Vec::new(), cx);
            }
            producers.extend(prev);
        }
        producers
    }

    fn program(&mut self, p: &ast::Program, depth: u32, stdin: &[usize]) -> Vec<usize> {
        let mut producers = Vec::new();
        for list in &p.complete_commands {
            producers.extend(self.list(list, depth, stdin));
        }
        producers
    }

    pub(super) fn list(
        &mut self,
        l: &ast::CompoundList,
        depth: u32,
        stdin: &[usize],
    ) -> Vec<usize> {
        let mut producers = Vec::new();
        for item in &l.0 {
            let and_or = &item.0;
            producers.extend(self.pipeline(&and_or.first, depth, stdin));
            for next in &and_or.additional {
                let (ast::AndOr::And(p) | ast::AndOr::Or(p)) = next;
                producers.extend(self.pipeline(p, depth, stdin));
            }
        }
        producers
    }

    fn pipeline(&mut self, p: &ast::Pipeline, depth: u32, stdin: &[usize]) -> Vec<usize> {
        let mut prev = stdin.to_vec();
        for cmd in &p.seq {
            prev = self.command(cmd, depth, &prev);
        }
        prev
    }

    fn command(&mut self, c: &ast::Command, depth: u32, stdin: &[usize]) -> Vec<usize> {
        if !self.charge(1) {
            return Vec::new();
        }
        match c {
            ast::Command::Simple(s) => self.simple(s, depth, stdin),
            ast::Command::Compound(cc, redirects) => {
                let from = self.len();
                let mut inputs = Vec::new();
                let mut cx = Exec::new(depth, String::new());
                if let Some(list) = redirects {
                    for r in &list.0 {
                        self.redirect(r, &mut cx, &mut inputs);
                    }
                }
                let mut stdin = stdin.to_vec();
                stdin.extend(inputs);
                let producers = self.compound(cc, depth, &stdin);
                self.redirect_range(from, &cx.redirects);
                producers
            }
            // A function body is judged where it is defined, as if called: what it would run
            // does not depend on the call.
            ast::Command::Function(f) => {
                self.compound(&f.body.0, depth, &[]);
                Vec::new()
            }
            ast::Command::ExtendedTest(t, _) => {
                let mut inputs = Vec::new();
                self.extended_test(&t.expr, depth, &mut inputs);
                Vec::new()
            }
        }
    }

    fn compound(&mut self, c: &ast::CompoundCommand, depth: u32, stdin: &[usize]) -> Vec<usize> {
        use ast::CompoundCommand as C;
        let mut scratch = Vec::new();
        match c {
            C::Arithmetic(a) => {
                self.arith(&a.expr.value, depth, &mut scratch);
                Vec::new()
            }
            C::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arith(&e.value, depth, &mut scratch);
                }
                self.list(&f.body.list, depth, stdin)
            }
            C::BraceGroup(g) => self.list(&g.list, depth, stdin),
            C::Subshell(s) => {
                let saved = self.vars.clone();
                let out = self.list(&s.list, depth, stdin);
                self.vars = saved;
                out
            }
            C::ForClause(f) => {
                let mut values = Vec::new();
                for w in f.values.iter().flatten() {
                    values.extend(self.words(&w.value, depth, &mut scratch));
                }
                // `for f; do …` goes over the positional parameters.
                if f.values.is_none() {
                    values = self.vars.positional();
                }
                // One known value is the variable's value in the body; several are unknown.
                let val = match values.as_slice() {
                    [only] if !only.pattern && !only.unresolved => Val::Set(only.text.clone()),
                    _ => Val::Unknown,
                };
                self.vars.set(&f.variable_name, val, false);
                let glob = match values.as_slice() {
                    [only] if only.pattern => Some(only.text.clone()),
                    _ => None,
                };
                let bound = glob.is_some();
                if let Some(g) = glob {
                    self.loop_globs.push((f.variable_name.clone(), g));
                }
                let out = self.list(&f.body.list, depth, stdin);
                if bound {
                    self.loop_globs.pop();
                }
                out
            }
            C::CaseClause(c) => {
                self.words(&c.value.value, depth, &mut scratch);
                let mut out = Vec::new();
                for item in &c.cases {
                    for p in &item.patterns {
                        self.words(&p.value, depth, &mut scratch);
                    }
                    if let Some(body) = &item.cmd {
                        out.extend(self.list(body, depth, stdin));
                    }
                }
                out
            }
            C::IfClause(i) => {
                let mut out = self.list(&i.condition, depth, stdin);
                out.extend(self.list(&i.then, depth, stdin));
                for e in i.elses.iter().flatten() {
                    if let Some(cond) = &e.condition {
                        out.extend(self.list(cond, depth, stdin));
                    }
                    out.extend(self.list(&e.body, depth, stdin));
                }
                out
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                let mut out = self.list(&w.0, depth, stdin);
                out.extend(self.list(&w.1.list, depth, stdin));
                out
            }
            C::Coprocess(c) => self.command(&c.body, depth, &[]),
        }
    }

    fn extended_test(&mut self, e: &ast::ExtendedTestExpr, depth: u32, inputs: &mut Vec<usize>) {
        use ast::ExtendedTestExpr as E;
        match e {
            E::And(a, b) | E::Or(a, b) => {
                self.extended_test(a, depth, inputs);
                self.extended_test(b, depth, inputs);
            }
            E::Not(a) | E::Parenthesized(a) => self.extended_test(a, depth, inputs),
            E::UnaryTest(op, w) => {
                let name = self.single(&w.value, depth, inputs);
                if matches!(op, ast::UnaryPredicate::ShellVariableIsSetAndAssigned) {
                    self.name_operand(&name, depth, &w.value);
                }
            }
            E::BinaryTest(op, a, b) => {
                let from = inputs.len();
                let sides = [
                    (self.single(&a.value, depth, inputs), &a.value),
                    (self.single(&b.value, depth, inputs), &b.value),
                ];
                // `-eq` and its kin evaluate both sides as arithmetic: a side only known when
                // it runs evaluates the output it was made of (`$(cmd)`, `$v` holding one).
                if arithmetic(op) {
                    if sides.iter().any(|(s, _)| s.unresolved) {
                        self.evaluated_output(&inputs[from.min(inputs.len())..]);
                    }
                    for (side, raw) in sides {
                        match side.unresolved {
                            true => self.note_names(raw),
                            false => self.arith(&side.text, depth, inputs),
                        }
                    }
                }
            }
        }
    }

    fn simple(&mut self, s: &ast::SimpleCommand, depth: u32, stdin: &[usize]) -> Vec<usize> {
        use ast::CommandPrefixOrSuffixItem as Item;
        let mut cx = Exec::new(depth, String::new());
        let mut inputs = stdin.to_vec();
        let mut args: Vec<Arg> = Vec::new();
        let mut assigns = Vec::new();
        let mut src: Vec<&str> = Vec::new();
        let prefix = s.prefix.iter().flat_map(|p| p.0.iter());
        let suffix = s.suffix.iter().flat_map(|p| p.0.iter());
        let name = s.word_or_name.iter();
        for item in prefix {
            match item {
                Item::AssignmentWord(a, w) => {
                    src.push(&w.value);
                    let val = self.assignment(a, depth, &mut inputs);
                    assigns.push((name_of(a), val));
                }
                other => self.item(other, &mut cx, &mut inputs, &mut args, &mut src),
            }
        }
        for w in name {
            src.push(&w.value);
            args.extend(self.words(&w.value, depth, &mut inputs));
        }
        for item in suffix {
            self.item(item, &mut cx, &mut inputs, &mut args, &mut src);
        }
        cx.src = src.join(" ");
        cx.inputs = inputs;
        self.simple_done(args, assigns, cx)
    }

    /// Shared by the parsed and the fast path: assignments alone persist; otherwise the
    /// command runs with them in its environment.
    fn simple_done(
        &mut self,
        args: Vec<Arg>,
        assigns: Vec<(String, Val)>,
        mut cx: Exec,
    ) -> Vec<usize> {
        self.shell_hooks(&assigns, &cx);
        if args.is_empty() {
            // `X=$TOKEN` alone prints nothing: the names read are not a command's, but X
            // now stands for them.
            if cx.redirects.is_empty() {
                let reads = std::mem::take(&mut self.env_reads);
                for (name, _) in assigns.iter().filter(|_| !reads.is_empty()).take(16) {
                    self.derived.retain(|(n, _)| n != name);
                    self.derived.push((name.clone(), reads.clone()));
                }
            }
            self.note_outputs(&assigns, &cx.inputs);
            for (name, val) in assigns {
                self.vars.set(&name, val, false);
            }
            if cx.redirects.is_empty() {
                return Vec::new();
            }
            // `> file` alone still creates or truncates the file.
            return vec![self.emit(args, cx)];
        }
        cx.env = assigns;
        self.exec(args, cx)
    }

    /// `x=$(cmd)` alone: x now holds cmd's output (all the statement's substitutions), which
    /// arithmetic may evaluate later (`arith`); any other assignment forgets it.
    fn note_outputs(&mut self, assigns: &[(String, Val)], inputs: &[usize]) {
        for (name, val) in assigns.iter().take(16) {
            self.outputs.retain(|(n, _)| n != name);
            if *val == Val::Unknown && !inputs.is_empty() && self.outputs.len() < 64 {
                self.outputs.push((name.clone(), inputs.to_vec()));
            }
        }
    }

    /// Arithmetic evaluates `name`, whose value is only known when it runs: the commands
    /// whose output it holds are noted (`Script::evaluated`).
    pub(super) fn note_evaluated(&mut self, name: &str) {
        if let Some((_, from)) = self.outputs.iter().find(|(n, _)| n == name) {
            self.evaluated_output(&from.clone());
        }
    }

    /// Arithmetic evaluates the output of the commands `from`.
    pub(super) fn evaluated_output(&mut self, from: &[usize]) {
        for &i in from {
            if !self.out.evaluated.contains(&i) && self.out.evaluated.len() < 64 {
                self.out.evaluated.push(i);
            }
        }
    }

    fn item<'a>(
        &mut self,
        item: &'a ast::CommandPrefixOrSuffixItem,
        cx: &mut Exec,
        inputs: &mut Vec<usize>,
        args: &mut Vec<Arg>,
        src: &mut Vec<&'a str>,
    ) {
        use ast::CommandPrefixOrSuffixItem as Item;
        let depth = cx.depth;
        match item {
            Item::Word(w) => {
                src.push(&w.value);
                args.extend(self.words(&w.value, depth, inputs));
            }
            // `export X=$Y` is expanded without splitting; for any other command (`echo X=$Y`)
            // it is an ordinary word, whatever the parser calls it.
            Item::AssignmentWord(_, w) => {
                src.push(&w.value);
                let declares = args.first().is_some_and(|a| {
                    matches!(
                        a.text.as_str(),
                        "export" | "declare" | "typeset" | "readonly" | "local"
                    )
                });
                if declares {
                    args.push(self.single(&w.value, depth, inputs));
                } else {
                    args.extend(self.words(&w.value, depth, inputs));
                }
            }
            Item::IoRedirect(r) => self.redirect(r, cx, inputs),
            Item::ProcessSubstitution(kind, sub) => {
                src.push(match kind {
                    ast::ProcessSubstitutionKind::Read => "<(…)",
                    ast::ProcessSubstitutionKind::Write => ">(…)",
                });
                args.push(self.process_substitution(kind, sub, depth, inputs));
            }
        }
    }

    /// `<(…)` / `>(…)`: the inner list runs at the next depth; the word is a `/dev/fd` path
    /// the script cannot name in advance.
    pub(super) fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        sub: &ast::SubshellCommand,
        depth: u32,
        inputs: &mut Vec<usize>,
    ) -> Arg {
        if depth + 1 > MAX_DEPTH {
            self.too_deep("process substitution");
        } else {
            let saved = self.vars.clone();
            let first = self.out.commands.len();
            let producers = self.list(&sub.list, depth + 1, &[]);
            self.vars = saved;
            match kind {
                ast::ProcessSubstitutionKind::Read => inputs.extend(producers),
                // Every command of the list shares its stdin: each may read the writer's
                // output (an over-approximation for later pipeline stages, fed anyway).
                ast::ProcessSubstitutionKind::Write => {
                    self.readers.extend(first..self.out.commands.len())
                }
            }
        }
        Arg {
            text: PROCESS_SUBSTITUTION.to_owned(),
            pattern: false,
            unresolved: true,
        }
    }

    fn assignment(&mut self, a: &ast::Assignment, depth: u32, inputs: &mut Vec<usize>) -> Val {
        // `a[i]=…` evaluates the subscript (arithmetic for an indexed array).
        if let ast::AssignmentName::ArrayElementName(_, sub) = &a.name {
            self.arith(sub, depth, inputs);
        }
        let ast::AssignmentValue::Scalar(w) = &a.value else {
            if let ast::AssignmentValue::Array(items) = &a.value {
                for (key, w) in items {
                    // `x=([i]=1)`: each key is a subscript, evaluated as one.
                    if let Some(k) = key {
                        self.arith(&k.value, depth, inputs);
                    }
                    self.single(&w.value, depth, inputs);
                }
            }
            return Val::Unknown;
        };
        let before = inputs.len();
        let value = self.single(&w.value, depth, inputs);
        // `declare -i n; n=v`: the value is evaluated as arithmetic, so v's value runs too.
        if self.vars.integer(name_str(a)) {
            if !value.unresolved {
                self.arith(&value.text, depth, inputs);
            }
            let from = inputs[before.min(inputs.len())..].to_vec();
            self.evaluated_output(&from);
            let number = !value.text.is_empty() && value.text.bytes().all(|b| b.is_ascii_digit());
            if !number || a.append {
                return Val::Unknown;
            }
        }
        if value.unresolved || !matches!(a.name, ast::AssignmentName::VariableName(_)) {
            return Val::Unknown;
        }
        if !a.append {
            return Val::Set(value.text);
        }
        match self.vars.get(&name_of(a)) {
            Val::Set(old) => Val::Set(old + &value.text),
            Val::Unset => Val::Set(value.text),
            Val::Unknown => Val::Unknown,
        }
    }

    fn redirect(&mut self, r: &ast::IoRedirect, cx: &mut Exec, inputs: &mut Vec<usize>) {
        use ast::IoFileRedirectKind as K;
        use ast::IoFileRedirectTarget as T;
        let depth = cx.depth;
        let fd_of = |fd: &Option<i32>| fd.and_then(|n| u32::try_from(n).ok());
        match r {
            ast::IoRedirect::File(fd, kind, target) => {
                let (target, is_fd) = match target {
                    T::Filename(w) => (self.target(&w.value, depth, inputs), false),
                    T::Fd(n) => (Arg::literal(&n.to_string()), true),
                    T::Duplicate(w) => (self.target(&w.value, depth, inputs), true),
                    T::ProcessSubstitution(k, sub) => {
                        (self.process_substitution(k, sub, depth, inputs), false)
                    }
                };
                let numeric = !target.text.is_empty()
                    && target.text.bytes().all(|b| b.is_ascii_digit() || b == b'-');
                let kind = match kind {
                    K::Read => RedirectKind::Read,
                    K::Write | K::Clobber => RedirectKind::Write,
                    K::Append => RedirectKind::Append,
                    K::ReadAndWrite => RedirectKind::ReadWrite,
                    K::DuplicateInput | K::DuplicateOutput if is_fd && numeric => {
                        RedirectKind::Duplicate
                    }
                    K::DuplicateInput => RedirectKind::Read,
                    // `>&file` is `&>file`.
                    K::DuplicateOutput => RedirectKind::Write,
                };
                cx.redirects.push(Redirect {
                    fd: fd_of(fd),
                    kind,
                    target,
                });
            }
            ast::IoRedirect::HereDocument(_, h) => {
                let body = if h.requires_expansion {
                    self.heredoc(&h.doc.value, depth, inputs)
                } else {
                    Arg::literal(&h.doc.value)
                };
                self.stdin(cx, body);
            }
            ast::IoRedirect::HereString(_, w) => {
                let mut body = self.single(&w.value, depth, inputs);
                body.text.push('\n');
                self.stdin(cx, body);
            }
            ast::IoRedirect::OutputAndError(w, append) => {
                let target = self.target(&w.value, depth, inputs);
                let kind = if *append {
                    RedirectKind::Append
                } else {
                    RedirectKind::Write
                };
                cx.redirects.push(Redirect {
                    fd: None,
                    kind,
                    target,
                });
            }
        }
    }

    fn stdin(&mut self, cx: &mut Exec, body: Arg) {
        if body.unresolved {
            cx.stdin_dynamic = true;
            cx.stdin_text = None;
        } else {
            cx.stdin_dynamic = false;
            cx.stdin_text = Some(body.text);
        }
    }

    /// Pushes the command itself; a program that cannot be known is named.
    pub(super) fn emit(&mut self, args: Vec<Arg>, cx: Exec) -> usize {
        if args.first().is_some_and(|a| a.unresolved) {
            self.opaque(OpaqueKind::DynamicCommand, &cx.src);
        }
        let mut inputs = cx.inputs;
        inputs.sort_unstable();
        inputs.dedup();
        let env_reads = std::mem::take(&mut self.env_reads);
        let readers = std::mem::take(&mut self.readers);
        let at = self.push(Command {
            argv: args,
            wrappers: cx.wrappers,
            redirects: cx.redirects,
            inputs,
            stdin_text: cx.stdin_text,
            depth: cx.depth,
            env_reads,
            cwd: cx
                .chdir
                .map(|d| if d.unresolved { "/".to_owned() } else { d.text }),
            program_text: None,
            discovered: Vec::new(),
            code_read: false,
        });
        for r in readers {
            if let Some(c) = self.out.commands.get_mut(r) {
                c.inputs.push(at);
            }
        }
        at
    }
}

/// The `[[ ]]` operators that evaluate their operands as arithmetic.
fn arithmetic(op: &ast::BinaryPredicate) -> bool {
    use ast::BinaryPredicate as B;
    matches!(
        op,
        B::ArithmeticEqualTo
            | B::ArithmeticNotEqualTo
            | B::ArithmeticLessThan
            | B::ArithmeticLessThanOrEqualTo
            | B::ArithmeticGreaterThan
            | B::ArithmeticGreaterThanOrEqualTo
    )
}

fn name_of(a: &ast::Assignment) -> String {
    name_str(a).to_owned()
}

fn name_str(a: &ast::Assignment) -> &str {
    match &a.name {
        ast::AssignmentName::VariableName(n) => n,
        ast::AssignmentName::ArrayElementName(n, _) => n,
    }
}

/// Opaque texts are for a verdict's reason: a line's worth is enough.
fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
