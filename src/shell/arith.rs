//! Arithmetic as bash evaluates it, for the code it can run: an expression is expanded
//! (`$(( $(rm …) ))`), then every name in it is looked up and a value that is not a number is
//! evaluated as an expression in turn; an array subscript met on the way is expanded again, so
//! `i='a[$(rm -rf ~)]'; echo $((i))` runs rm (Greg's wiki, "arithmetic expression
//! injection"). The same evaluation happens in `(( ))`, `for (( ))`, `let`, `[[ a -eq b ]]`,
//! assignments to `declare -i` names and indexed-array subscripts; builtins given a variable
//! name (`read`, `printf -v`, `test -v`, `unset`, `declare`) expand the subscript in it.
//!
//! A value assigned from something only known when it runs (`n=$(wc -l <f); echo $((n+1))`)
//! is not followed: counting with command output is everyday shell. Which commands' output
//! was evaluated is noted (`Script::evaluated`), so a download evaluated this way is judged
//! as one run (`guards::remote_code`).

use std::borrow::Cow;

use super::vars::Val;
use super::walk::Walker;
use super::{Arg, OpaqueKind};

/// Names evaluated within names (`i=j; j='a[…]'`): bash stops at 1024 levels with an error,
/// a real script needs one or two.
const MAX_LEVELS: u32 = 8;

impl Walker {
    /// Judges what evaluating `expr` as arithmetic runs; its value is never needed.
    pub(super) fn arith(&mut self, expr: &str, depth: u32, inputs: &mut Vec<usize>) {
        self.arith_at(expr, depth, inputs, 0);
    }

    /// The variables an operand only known when it runs names (`$v`): the output they hold
    /// is evaluated.
    pub(super) fn note_names(&mut self, raw: &str) {
        for name in identifiers(raw) {
            self.note_evaluated(name);
        }
    }

    fn arith_at(&mut self, expr: &str, depth: u32, inputs: &mut Vec<usize>, level: u32) {
        if level > MAX_LEVELS || !self.charge(expr.len() as u64 + 1) {
            return;
        }
        if level == 0 {
            // `$(( $x ))`: x's value is evaluated as much as `$(( x ))`'s is.
            self.note_names(expr);
        }
        // The expression is expanded first; in a value met on the way (level > 0), only a
        // subscript is (`i='$(rm …)'; $((i))` is a syntax error, `i='a[$(rm …)]'` runs rm).
        let expands = expr.contains(['$', '`']) && (level == 0 || expr.contains('['));
        let expanded = if expands {
            let from = inputs.len();
            let e = self.heredoc(expr, depth, inputs);
            if e.unresolved {
                // `$(( $(cmd) ))`: cmd's output is evaluated.
                self.evaluated_output(&inputs[from.min(inputs.len())..]);
            }
            // The expansion's text is evaluated, and a subscript in it expanded again.
            let again = e.text.contains('[') && e.text.contains(['$', '`']) && e.text != expr;
            if again && !e.unresolved {
                self.arith_at(&e.text, depth, inputs, level + 1);
            }
            Cow::Owned(e.text)
        } else {
            Cow::Borrowed(expr)
        };
        for name in identifiers(&expanded) {
            match self.vars.get(name) {
                // A number (or nothing) ends the chain; anything else is an expression.
                Val::Set(v) if v.bytes().any(|b| b.is_ascii_alphabetic() || b == b'_') => {
                    self.arith_at(&v, depth, inputs, level + 1);
                }
                Val::Unknown => self.note_evaluated(name),
                _ => {}
            }
        }
    }

    /// `NAME[SUBSCRIPT]` given to a builtin that assigns or tests a variable: the subscript is
    /// expanded (and, for an indexed array, evaluated). One only known when it runs may hold
    /// anything, a substitution included.
    pub(super) fn name_operand(&mut self, name: &Arg, depth: u32, src: &str) {
        let text = name
            .text
            .split_once('=')
            .map_or(name.text.as_str(), |(n, _)| n);
        let Some(open) = text.find('[') else { return };
        if name.unresolved {
            let what = format!("a variable subscript only known when it runs: {src}");
            self.opaque(OpaqueKind::DynamicScript, &what);
            return;
        }
        let sub = text[open + 1..]
            .strip_suffix(']')
            .unwrap_or(&text[open + 1..]);
        let mut scratch = Vec::new();
        self.arith(sub, depth, &mut scratch);
    }

    /// `let EXPR…`, `declare -i N=EXPR`, and the names builtins take, as above.
    pub(super) fn evaluated_words(&mut self, name: &str, args: &[Arg], depth: u32, src: &str) {
        let rest = &args[1..];
        let mut scratch = Vec::new();
        match name {
            "let" => {
                for a in rest.iter().filter(|a| !a.unresolved) {
                    self.arith(&a.text, depth, &mut scratch);
                }
            }
            "declare" | "typeset" | "local" | "readonly" | "export" => {
                let integer = rest
                    .iter()
                    .any(|a| a.text.starts_with('-') && a.text.contains('i'));
                for a in rest.iter().filter(|a| !a.text.starts_with(['-', '+'])) {
                    self.name_operand(a, depth, src);
                    if integer {
                        self.integer_operand(a, depth);
                    }
                }
            }
            "read" => {
                let names = super::builtins::read_names(rest);
                names.for_each(|a| self.name_operand(a, depth, src));
            }
            "printf" => {
                if let Some(a) = flag_value(rest, "-v") {
                    self.name_operand(a, depth, src);
                }
            }
            "test" | "[" => {
                if let Some(a) = flag_value(rest, "-v") {
                    self.name_operand(a, depth, src);
                }
            }
            "unset" | "wait" => {
                for a in rest.iter().filter(|a| !a.text.starts_with('-')) {
                    self.name_operand(a, depth, src);
                }
            }
            _ => {}
        }
    }

    /// `declare -i N=EXPR`: N gets the integer attribute, and EXPR is evaluated now.
    fn integer_operand(&mut self, a: &Arg, depth: u32) {
        let (name, value) = match a.text.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (a.text.as_str(), None),
        };
        let name = name.split('[').next().unwrap_or(name);
        self.vars.set_integer(name);
        if let Some(v) = value.filter(|_| !a.unresolved) {
            let mut scratch = Vec::new();
            self.arith(v, depth, &mut scratch);
        }
    }
}

/// The word after `flag` (`printf -v NAME`, `test -v NAME`).
fn flag_value<'a>(words: &'a [Arg], flag: &str) -> Option<&'a Arg> {
    let at = words.iter().position(|a| a.text == flag)?;
    words.get(at + 1)
}

/// The variable names an arithmetic expression mentions (not the letters of `0x1f` or
/// `16#ff`), each once.
fn identifiers(expr: &str) -> Vec<&str> {
    let bytes = expr.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !word(bytes[i]) {
            i += 1;
            continue;
        }
        // A whole run of word characters: a number (`0x1f`), a base's digits (`16#ff`, `@`
        // as a digit), or a name.
        let start = i;
        while i < bytes.len() && word(bytes[i]) {
            i += 1;
        }
        let digits =
            bytes[start].is_ascii_digit() || start > 0 && matches!(bytes[start - 1], b'#' | b'@');
        let name = &expr[start..i];
        if !digits && !out.contains(&name) && out.len() < 32 {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::identifiers;

    #[test]
    fn identifiers_skip_numbers_in_other_bases() {
        assert_eq!(identifiers("i + 0x1f * 16#ff - j_2"), vec!["i", "j_2"]);
        assert_eq!(identifiers("a[i] + a"), vec!["a", "i"]);
        assert!(identifiers("1+2").is_empty());
    }
}
