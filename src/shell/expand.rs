//! Word expansion in bash's order: braces, then tilde / parameters / substitutions, then field
//! splitting, then (noted, not performed) pathname expansion, then quote removal. What cannot be
//! known is left out of the text and flagged, never replaced by a guess.

use brush_parser::word::{
    self, BraceExpressionMember as Member, BraceExpressionOrText as Piece, ParameterExpr,
    ParameterTestType, TildeExpr, WordPiece,
};

use super::parse::{quiet_catch, OPTIONS};
use super::vars::Val;
use super::walk::Walker;
use super::{ansi, Arg};

/// More words than this from one brace expression is a flood, not a command line: the first
/// ones are kept and the rest reported (`{1..99999999}` must not allocate forever).
pub(super) const MAX_BRACE_WORDS: usize = 1024;

/// One field being built: `lit` is the text after quote removal; `pat` the same text with
/// quoted glob characters backslash-escaped, used when the field turns out to be a pattern.
#[derive(Default)]
struct Field {
    lit: String,
    pat: String,
    glob: bool,
    open_bracket: bool,
    quoted: bool,
    unresolved: bool,
}

/// The longest word kept (bytes).
const MAX_WORD: usize = 256 * 1024;

impl Field {
    fn push(&mut self, s: &str, quoted: bool) {
        self.quoted |= quoted;
        // A word built from many copies of a long value (`$a$a$a…`) stops growing: the rest is
        // unknown, and the work stays bounded.
        if self.lit.len() + s.len() > MAX_WORD {
            if !self.unresolved {
                self.unknown();
            }
            return;
        }
        let mut prev = self.lit.chars().next_back();
        self.lit.push_str(s);
        for c in s.chars() {
            if quoted {
                if matches!(c, '*' | '?' | '[' | ']' | '\\') {
                    self.pat.push('\\');
                }
            } else {
                match c {
                    '*' | '?' => self.glob = true,
                    '[' => self.open_bracket = true,
                    ']' if self.open_bracket => self.glob = true,
                    '(' if matches!(prev, Some('@' | '!' | '+')) => self.glob = true,
                    _ => {}
                }
            }
            self.pat.push(c);
            prev = Some(c);
        }
    }

    /// A part only known when the script runs: left out of the text, and a `*` in the pattern,
    /// so a path built around it (`/proc/$$/environ`) is judged by everything it could be.
    fn unknown(&mut self) {
        self.unresolved = true;
        self.glob = true;
        self.pat.push('*');
    }

    fn into_arg(self) -> Arg {
        Arg {
            text: if self.glob { self.pat } else { self.lit },
            pattern: self.glob,
            unresolved: self.unresolved,
        }
    }
}

/// The fields of one word. `split` is false where bash does not split (assignments, redirect
/// targets, here-docs).
struct Fields<'a> {
    done: Vec<Field>,
    cur: Field,
    split: bool,
    ifs: &'a str,
}

impl Fields<'_> {
    /// The value of an expansion: split on IFS when unquoted (IFS whitespace runs collapse, other
    /// IFS characters each end a field), glob characters in it stay active.
    fn expansion(&mut self, value: &str, quoted: bool) {
        if self.cur.lit.len() + value.len() > MAX_WORD {
            if !self.cur.unresolved {
                self.cur.unknown();
            }
            return;
        }
        if quoted || !self.split {
            self.cur.push(value, quoted);
            return;
        }
        let mut first = true;
        for part in value.split(|c| self.ifs.contains(c)) {
            if !first {
                self.break_field();
            }
            first = false;
            if !part.is_empty() {
                self.cur.push(part, false);
            }
        }
    }

    /// Ends the current field at an IFS character, unless nothing is in it yet.
    fn break_field(&mut self) {
        if !self.cur.lit.is_empty() || self.cur.quoted || self.cur.unresolved {
            self.done.push(std::mem::take(&mut self.cur));
        }
    }

    fn finish(mut self) -> Vec<Field> {
        let cur = std::mem::take(&mut self.cur);
        self.done.push(cur);
        self.done
    }
}

/// True when `text` has nothing a shell would change: it is its own single field.
fn is_plain(text: &str) -> bool {
    !text.is_empty()
        && !text.bytes().any(|b| {
            matches!(
                b,
                b'$' | b'\'' | b'"' | b'\\' | b'`' | b'~' | b'{' | b'*' | b'?' | b'[' | b'('
            )
        })
}

impl Walker {
    /// A command word: may become several arguments (braces, splitting) or none (an unquoted
    /// empty expansion).
    pub(super) fn words(&mut self, text: &str, depth: u32, inputs: &mut Vec<usize>) -> Vec<Arg> {
        if is_plain(text) {
            return vec![Arg::literal(text)];
        }
        let mut out = Vec::new();
        for braced in self.braces(text) {
            let fields = self.fields(&braced, depth, inputs, true, false);
            out.extend(fields.into_iter().filter(keep).map(Field::into_arg));
        }
        out
    }

    /// A word bash expands without braces or splitting: assignment values, redirect targets,
    /// here-strings.
    pub(super) fn single(&mut self, text: &str, depth: u32, inputs: &mut Vec<usize>) -> Arg {
        if is_plain(text) {
            return Arg::literal(text);
        }
        join(self.fields(text, depth, inputs, false, false))
    }

    /// A redirect target: one word, not split, whose parts only known at run time stand as
    /// `*` of a pattern, as in argv (`< /proc/$PPID/environ` is `/proc/*/environ`).
    pub(super) fn target(&mut self, text: &str, depth: u32, inputs: &mut Vec<usize>) -> Arg {
        if is_plain(text) {
            return Arg::literal(text);
        }
        let mut fields = self.fields(text, depth, inputs, false, false);
        match (fields.pop(), fields.is_empty()) {
            (Some(only), true) => only.into_arg(),
            (last, _) => join(fields.into_iter().chain(last).collect()),
        }
    }

    /// The body of an unquoted-delimiter here-doc: parameters and substitutions expand, quotes
    /// are literal.
    pub(super) fn heredoc(&mut self, body: &str, depth: u32, inputs: &mut Vec<usize>) -> Arg {
        join(self.fields(body, depth, inputs, false, true))
    }

    /// Brace expansion on the raw word (quotes still in place, so `"{a,b}"` stays one word).
    fn braces(&mut self, text: &str) -> Vec<String> {
        if !text.contains('{') || has_huge_number(text) {
            return vec![text.to_owned()];
        }
        let parsed = quiet_catch(|| word::parse_brace_expansions(text, &OPTIONS));
        let Some(Ok(Some(pieces))) = parsed else {
            return vec![text.to_owned()];
        };
        let mut out = vec![String::new()];
        if !expand_pieces(&pieces, &mut out) {
            self.opaque(
                super::OpaqueKind::TooDeep,
                &format!("brace expansion over {MAX_BRACE_WORDS} words: {text}"),
            );
        }
        out
    }

    fn fields(
        &mut self,
        text: &str,
        depth: u32,
        inputs: &mut Vec<usize>,
        split: bool,
        heredoc: bool,
    ) -> Vec<Field> {
        let parsed = if heredoc {
            quiet_catch(|| word::parse_heredoc(text, &OPTIONS))
        } else {
            quiet_catch(|| word::parse(text, &OPTIONS))
        };
        match parsed {
            Some(Ok(pieces)) => {
                let pieces: Vec<&WordPiece> = pieces.iter().map(|p| &p.piece).collect();
                self.expand_pieces(&pieces, depth, inputs, split)
            }
            // The word parser rejects what bash would reject at run time (`${`); nothing is
            // known of it.
            _ => vec![Field {
                unresolved: true,
                ..Field::default()
            }],
        }
    }

    fn expand_pieces(
        &mut self,
        pieces: &[&WordPiece],
        depth: u32,
        inputs: &mut Vec<usize>,
        split: bool,
    ) -> Vec<Field> {
        let ifs = self.vars.ifs();
        let mut fields = Fields {
            done: Vec::new(),
            cur: Field::default(),
            split,
            ifs: &ifs,
        };
        for p in pieces {
            self.piece(p, false, depth, inputs, &mut fields);
        }
        fields.finish()
    }

    /// A command word the fast path already cut into pieces (it has no braces).
    pub(super) fn piece_words(&mut self, pieces: &[WordPiece], depth: u32) -> Vec<Arg> {
        let refs: Vec<&WordPiece> = pieces.iter().collect();
        let mut inputs = Vec::new();
        let fields = self.expand_pieces(&refs, depth, &mut inputs, true);
        fields
            .into_iter()
            .filter(keep)
            .map(Field::into_arg)
            .collect()
    }

    fn piece(
        &mut self,
        piece: &WordPiece,
        dq: bool,
        depth: u32,
        inputs: &mut Vec<usize>,
        f: &mut Fields,
    ) {
        match piece {
            WordPiece::Text(s) => f.cur.push(s, dq),
            WordPiece::SingleQuotedText(s) => f.cur.push(s, true),
            WordPiece::AnsiCQuotedText(s) => f.cur.push(&ansi::decode(s), true),
            WordPiece::DoubleQuotedSequence(seq) | WordPiece::GettextDoubleQuotedSequence(seq) => {
                f.cur.quoted = true;
                for p in seq {
                    self.piece(&p.piece, true, depth, inputs, f);
                }
            }
            WordPiece::TildeExpansion(t) => self.tilde(t, f),
            WordPiece::ParameterExpansion(expr) if self.loop_glob(expr).is_some() => {
                let glob = self.loop_glob(expr).unwrap_or_default();
                // Each value is a file the pattern matches: judged as the pattern itself.
                f.cur.push(&glob, false);
            }
            WordPiece::ParameterExpansion(expr) => match self.expansion(expr, depth, inputs) {
                Some(v) => f.expansion(&v, dq),
                None => {
                    self.note_env_read(expr);
                    f.cur.unknown()
                }
            },
            WordPiece::CommandSubstitution(s) => self.substitution_word(s, dq, depth, inputs, f),
            WordPiece::BackquotedCommandSubstitution(s) => {
                self.substitution_word(&unescape_backquoted(s), dq, depth, inputs, f)
            }
            WordPiece::EscapeSequence(s) => {
                let escaped = s.strip_prefix('\\').unwrap_or(s);
                if escaped != "\n" {
                    f.cur.push(escaped, true);
                }
            }
            WordPiece::ArithmeticExpression(e) => {
                self.arith(&e.value, depth, inputs);
                f.cur.unknown();
            }
        }
    }

    /// `~` becomes HOME when the script or the exec env says what it is; otherwise `~` stays in
    /// the text (not unresolved) for the path resolver, which knows the agent's home.
    fn tilde(&mut self, t: &TildeExpr, f: &mut Fields) {
        match t {
            TildeExpr::Home => match self.vars.get("HOME") {
                Val::Set(home) => f.cur.push(&home, true),
                _ => f.cur.push("~", true),
            },
            TildeExpr::UserHome(user) => f.cur.push(&format!("~{user}"), true),
            _ => f.cur.unknown(),
        }
    }

    /// `$(…)` in a word: its commands run one level down and feed the command. Its output is
    /// known when it is one literal printer (`$(printf '%s' 'x')`, `$(cat <<E …)`), less the
    /// trailing newlines the shell strips; anything else is only known when it runs.
    fn substitution_word(
        &mut self,
        script: &str,
        dq: bool,
        depth: u32,
        inputs: &mut Vec<usize>,
        f: &mut Fields,
    ) {
        let producers = self.substitution(script, depth);
        let text = match producers.as_slice() {
            [i] => self.get(*i).and_then(|c| c.printed()),
            _ => None,
        };
        inputs.extend(producers);
        match text {
            Some(t) => f.expansion(t.trim_end_matches('\n'), dq),
            None => f.cur.unknown(),
        }
    }

    /// A command substitution's script, run at the next depth in a subshell (its assignments
    /// do not leak); returns the commands whose output it yields.
    pub(super) fn substitution(&mut self, script: &str, depth: u32) -> Vec<usize> {
        let saved = self.vars.clone();
        let reads = std::mem::take(&mut self.env_reads);
        let out = self.script(script, depth + 1, &[]);
        self.vars = saved;
        self.env_reads = reads;
        out
    }

    /// `$OPENAI_API_KEY` with nothing in the script setting it: a value from the host's
    /// environment, named for the command being built (`Command::env_reads`).
    fn note_env_read(&mut self, expr: &ParameterExpr) {
        use ParameterExpr as P;
        // `${!v}` reads the variable whose name `v` holds: with that name unknown (`for v in
        // ${!AWS*}`), any variable at all.
        if let P::Parameter {
            parameter: word::Parameter::Named(n),
            indirect: true,
        } = expr
        {
            let target = match self.vars.get(n) {
                Val::Set(name) if self.vars.get(&name) == Val::Unknown => name,
                Val::Set(_) => return,
                _ => crate::shell::ANY_VARIABLE.to_owned(),
            };
            if !self.env_reads.contains(&target) && self.env_reads.len() < 16 {
                self.env_reads.push(target);
            }
            return;
        }
        // Every form that yields (part of) the value; not its length, nor variable names.
        if matches!(
            expr,
            P::ParameterLength { .. } | P::UseAlternativeValue { .. }
        ) {
            return;
        }
        let Some(word::Parameter::Named(n)) = parameter_of(expr) else {
            return;
        };
        if self.vars.get(n) != Val::Unknown {
            return;
        }
        let sources = match self.derived.iter().find(|(d, _)| d == n) {
            Some((_, from)) => from.clone(),
            None => vec![n.clone()],
        };
        for s in sources {
            if !self.env_reads.contains(&s) && self.env_reads.len() < 16 {
                self.env_reads.push(s);
            }
        }
    }

    /// `${…}`: the arithmetic it evaluates on the way (an indexed subscript `${a[i]}`, the
    /// offset and length of `${x:o:l}`), then its value when the script makes it known.
    fn expansion(
        &mut self,
        expr: &ParameterExpr,
        depth: u32,
        inputs: &mut Vec<usize>,
    ) -> Option<String> {
        if let Some(word::Parameter::NamedWithIndex { index, .. }) = parameter_of(expr) {
            self.arith(index, depth, inputs);
        }
        if let ParameterExpr::Substring { offset, length, .. } = expr {
            self.arith(&offset.value, depth, inputs);
            if let Some(l) = length {
                self.arith(&l.value, depth, inputs);
            }
        }
        self.parameter(expr, depth, inputs)
    }

    /// The value of `${…}`, when the script makes it known.
    fn parameter(
        &mut self,
        expr: &ParameterExpr,
        depth: u32,
        inputs: &mut Vec<usize>,
    ) -> Option<String> {
        use ParameterExpr as P;
        match expr {
            P::Parameter {
                parameter,
                indirect: false,
            } => known(self.lookup(parameter)),
            P::UseDefaultValues {
                parameter,
                indirect: false,
                test_type,
                default_value,
            }
            | P::AssignDefaultValues {
                parameter,
                indirect: false,
                test_type,
                default_value,
            } => {
                let current = self.lookup(parameter);
                if let Some(v) = present(&current, test_type) {
                    return Some(v);
                }
                let default = default_value.as_deref().unwrap_or("");
                let value = self.single(default, depth, inputs);
                if current == Val::Unknown || value.unresolved {
                    return None;
                }
                if let (P::AssignDefaultValues { .. }, word::Parameter::Named(n)) =
                    (expr, parameter)
                {
                    self.vars.set(n, Val::Set(value.text.clone()), false);
                }
                Some(value.text)
            }
            P::UseAlternativeValue {
                parameter,
                indirect: false,
                test_type,
                alternative_value,
            } => {
                let current = self.lookup(parameter);
                let alt = alternative_value.as_deref().unwrap_or("");
                let value = self.single(alt, depth, inputs);
                match current {
                    Val::Unknown => None,
                    _ if present(&current, test_type).is_none() => Some(String::new()),
                    _ if value.unresolved => None,
                    _ => Some(value.text),
                }
            }
            P::ParameterLength {
                parameter,
                indirect: false,
            } => known(self.lookup(parameter)).map(|v| v.chars().count().to_string()),
            P::Transform {
                parameter,
                indirect,
                op: word::ParameterTransformOp::PromptExpand,
            } => self.prompt_expand(parameter, *indirect, depth, inputs),
            _ => None,
        }
    }

    /// The pattern a `for` variable ranges over, when `expr` is just that variable.
    fn loop_glob(&self, expr: &ParameterExpr) -> Option<String> {
        let ParameterExpr::Parameter {
            parameter: word::Parameter::Named(n),
            indirect: false,
        } = expr
        else {
            return None;
        };
        let (_, glob) = self.loop_globs.iter().rev().find(|(v, _)| v == n)?;
        Some(glob.clone())
    }

    pub(super) fn lookup(&self, parameter: &word::Parameter) -> Val {
        match parameter {
            // An unknown HOME is the agent's home: `~` tells the path resolver, which knows it.
            word::Parameter::Named(n) if n == "HOME" => match self.vars.get(n) {
                Val::Unknown => Val::Set("~".to_owned()),
                v => v,
            },
            word::Parameter::Named(n) => self.vars.get(n),
            word::Parameter::Positional(i) => self.vars.get(&i.to_string()),
            word::Parameter::Special(word::SpecialParameter::ShellName) => self.vars.get("0"),
            _ => Val::Unknown,
        }
    }
}

/// The parameter a `${…}` form reads (every form but `${!prefix*}` and `${!a[@]}`).
fn parameter_of(expr: &ParameterExpr) -> Option<&word::Parameter> {
    use ParameterExpr as P;
    match expr {
        P::Parameter { parameter, .. }
        | P::UseDefaultValues { parameter, .. }
        | P::AssignDefaultValues { parameter, .. }
        | P::UseAlternativeValue { parameter, .. }
        | P::IndicateErrorIfNullOrUnset { parameter, .. }
        | P::ParameterLength { parameter, .. }
        | P::RemoveSmallestSuffixPattern { parameter, .. }
        | P::RemoveLargestSuffixPattern { parameter, .. }
        | P::RemoveSmallestPrefixPattern { parameter, .. }
        | P::RemoveLargestPrefixPattern { parameter, .. }
        | P::Substring { parameter, .. }
        | P::Transform { parameter, .. }
        | P::UppercaseFirstChar { parameter, .. }
        | P::UppercasePattern { parameter, .. }
        | P::LowercaseFirstChar { parameter, .. }
        | P::LowercasePattern { parameter, .. }
        | P::ReplaceSubstring { parameter, .. } => Some(parameter),
        _ => None,
    }
}

/// An unquoted empty expansion is no word at all; a quoted or unknown one is.
fn keep(field: &Field) -> bool {
    !field.lit.is_empty() || field.quoted || field.unresolved
}

fn join(fields: Vec<Field>) -> Arg {
    let mut arg = Arg::default();
    for f in fields {
        arg.unresolved |= f.unresolved;
        arg.text.push_str(&f.lit);
    }
    arg
}

fn known(v: Val) -> Option<String> {
    match v {
        Val::Set(s) => Some(s),
        Val::Unset => Some(String::new()),
        Val::Unknown => None,
    }
}

/// The value when the `${X:-…}` test says the parameter is there (`:` also rejects empty).
fn present(v: &Val, test: &ParameterTestType) -> Option<String> {
    match (v, test) {
        (Val::Set(s), ParameterTestType::Unset) => Some(s.clone()),
        (Val::Set(s), ParameterTestType::UnsetOrNull) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// Inside backquotes `\$`, `` \` `` and `\\` stand for the character itself.
fn unescape_backquoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if matches!(n, '$' | '`' | '\\') {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// The brace grammar parses numbers with `unwrap`; a run of digits that overflows i64 is left
/// unexpanded (bash would treat it as text too).
fn has_huge_number(text: &str) -> bool {
    let mut run = 0;
    for b in text.bytes() {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        if run > 17 {
            return true;
        }
    }
    false
}

/// Appends the expansion of `pieces` to every prefix in `out`; false when the result was cut at
/// `MAX_BRACE_WORDS`.
fn expand_pieces(pieces: &[Piece], out: &mut Vec<String>) -> bool {
    let mut whole = true;
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.iter_mut().for_each(|o| o.push_str(t)),
            Piece::Expr(members) => {
                let mut alts = Vec::new();
                for m in members {
                    whole &= member(m, &mut alts);
                }
                let mut next = Vec::with_capacity(out.len() * alts.len());
                'outer: for o in out.iter() {
                    for a in &alts {
                        if next.len() >= MAX_BRACE_WORDS {
                            whole = false;
                            break 'outer;
                        }
                        next.push(format!("{o}{a}"));
                    }
                }
                *out = next;
            }
        }
    }
    whole
}

fn member(m: &Member, alts: &mut Vec<String>) -> bool {
    match m {
        Member::NumberSequence {
            start,
            end,
            increment,
        } => sequence(*start, *end, *increment, alts, |n| Some(n.to_string())),
        Member::CharSequence {
            start,
            end,
            increment,
        } => sequence(
            i64::from(u32::from(*start)),
            i64::from(u32::from(*end)),
            *increment,
            alts,
            |n| {
                u32::try_from(n)
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from)
            },
        ),
        Member::Child(pieces) => {
            let mut sub = vec![String::new()];
            let whole = expand_pieces(pieces, &mut sub);
            alts.extend(sub);
            whole
        }
    }
}

fn sequence(
    start: i64,
    end: i64,
    increment: i64,
    alts: &mut Vec<String>,
    show: impl Fn(i64) -> Option<String>,
) -> bool {
    let step = increment.checked_abs().unwrap_or(1).max(1);
    let mut n = start;
    loop {
        if alts.len() >= MAX_BRACE_WORDS {
            return false;
        }
        if let Some(s) = show(n) {
            alts.push(s);
        }
        if n == end {
            return true;
        }
        let next = if start <= end {
            n.checked_add(step)
        } else {
            n.checked_sub(step)
        };
        match next {
            Some(v) if (start <= end && v <= end) || (start > end && v >= end) => n = v,
            _ => return true,
        }
    }
}
