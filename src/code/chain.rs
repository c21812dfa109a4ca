//! Name chains as both languages write them: `os.path.join(…)`, `Path('x').unlink()`,
//! `require('fs').rmSync(…)`, `fs.promises.rm(…)`. A chain is a head name followed by member
//! names and call argument lists; the readers decide what a chain does from its qualified name.

use super::lex::Tok;
use std::ops::Range;

pub type Toks = [(Tok, Range<usize>)];

/// One link of a chain: a member name, then the arguments when it is called.
#[derive(Debug, Clone)]
pub struct Link {
    pub name: String,
    /// Token ranges of each argument, when the link is called.
    pub args: Option<Vec<Range<usize>>>,
    /// The token index after the link (after its `)` when called).
    pub end: usize,
}

#[derive(Debug, Clone)]
pub struct Chain {
    pub links: Vec<Link>,
    /// Token indices the chain covers.
    pub span: Range<usize>,
}

/// The chain starting at token `i` (a name not preceded by `.`), or `None`.
pub fn at(t: &Toks, i: usize) -> Option<Chain> {
    let Tok::Name(first) = &t.get(i)?.0 else {
        return None;
    };
    if i > 0 && t[i - 1].0 == Tok::Punct('.') {
        return None;
    }
    let mut links = vec![Link {
        name: first.clone(),
        args: None,
        end: i + 1,
    }];
    let mut j = i + 1;
    loop {
        match t.get(j).map(|x| &x.0) {
            Some(Tok::Punct('(')) => {
                let (args, end) = arguments(t, j)?;
                if let Some(last) = links.last_mut().filter(|l| l.args.is_none()) {
                    last.args = Some(args);
                    last.end = end;
                } else {
                    // `f()()`: a call of a call's result: a link with no name.
                    links.push(Link {
                        name: String::new(),
                        args: Some(args),
                        end,
                    });
                }
                j = end;
            }
            Some(Tok::Punct('.')) | Some(Tok::Punct('?')) => {
                // `a?.b` is a member too.
                let k = if t.get(j + 1).map(|x| &x.0) == Some(&Tok::Punct('.')) {
                    j + 2
                } else {
                    j + 1
                };
                match t.get(k).map(|x| &x.0) {
                    Some(Tok::Name(n)) => {
                        links.push(Link {
                            name: n.clone(),
                            args: None,
                            end: k + 1,
                        });
                        j = k + 1;
                    }
                    _ => break,
                }
            }
            _ => break,
        }
    }
    Some(Chain { links, span: i..j })
}

/// The arguments of the call whose `(` is at `open`: each one's token range, and the index
/// after the `)`. `None` when unbalanced.
pub fn arguments(t: &Toks, open: usize) -> Option<(Vec<Range<usize>>, usize)> {
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = open + 1;
    for (k, (tok, _)) in t.iter().enumerate().skip(open) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    if k > start {
                        args.push(start..k);
                    }
                    return Some((args, k + 1));
                }
            }
            Tok::Punct(',') if depth == 1 => {
                args.push(start..k);
                start = k + 1;
            }
            _ => {}
        }
    }
    None
}

/// A keyword argument `name=…` (Python) among `args`: the value's token range.
pub fn keyword(t: &Toks, args: &[Range<usize>], name: &str) -> Option<Range<usize>> {
    args.iter().find_map(|r| {
        let named = matches!(&t.get(r.start)?.0, Tok::Name(n) if n == name);
        let eq = t.get(r.start + 1).map(|x| &x.0) == Some(&Tok::Punct('='));
        (named && eq).then(|| r.start + 2..r.end)
    })
}

/// The positional arguments (those that are not `name=…`).
pub fn positional(t: &Toks, args: &[Range<usize>]) -> Vec<Range<usize>> {
    args.iter()
        .filter(|r| {
            let named = matches!(t.get(r.start).map(|x| &x.0), Some(Tok::Name(_)));
            let eq = t.get(r.start + 1).map(|x| &x.0) == Some(&Tok::Punct('='))
                && t.get(r.start + 2).map(|x| &x.0) != Some(&Tok::Punct('='));
            !(named && eq)
        })
        .cloned()
        .collect()
}

/// Whether the tokens in `r` hold `key: true` or `key=True` (an options object or keyword).
pub fn flag_set(t: &Toks, r: &Range<usize>, key: &str) -> bool {
    let toks = &t[r.clone()];
    toks.windows(3).any(|w| {
        matches!(&w[0].0, Tok::Name(n) if n == key)
            && matches!(w[1].0, Tok::Punct(':') | Tok::Punct('='))
            && matches!(&w[2].0, Tok::Name(v) if v == "true" || v == "True")
    })
}
