//! The part of YAML a compose file is written in: block maps and lists by indentation, list
//! items that are maps (`- type: bind`), flow lists (`['a:b', "c"]`), quoted and plain scalars,
//! block scalars (`|`, `>`), comments. Anchors, tags and flow maps are read as plain text: a
//! file that leans on them is judged by what is plainly visible, as the other project readers
//! are (`call::startup::project`).

/// A node of the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar(String),
    List(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The value under `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn text(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

/// Lines past this many are not read: a compose file is a page or two.
const MAX_LINES: usize = 4096;

/// Lines indented deeper are not read: each level of nesting is a call of the reader, and a
/// compose file nests a handful of levels.
const MAX_INDENT: usize = 128;

/// One line: its indentation and its text without a trailing comment.
struct Line {
    indent: usize,
    text: String,
}

pub fn parse(text: &str) -> Node {
    let mut lines: Vec<Line> = (text.lines().take(MAX_LINES))
        .filter_map(|l| {
            let body = strip_comment(l);
            let t = body.trim();
            let indent = body.len() - body.trim_start().len();
            let skip = t.is_empty() || t == "---" || t == "..." || indent > MAX_INDENT;
            (!skip).then(|| Line {
                indent,
                text: t.to_string(),
            })
        })
        .collect();
    let mut pos = 0;
    let indent = lines.first().map_or(0, |l| l.indent);
    block(&mut lines, &mut pos, indent)
}

/// The node whose lines start at `pos` with `indent`.
fn block(lines: &mut [Line], pos: &mut usize, indent: usize) -> Node {
    match lines.get(*pos) {
        Some(l) if is_item(&l.text) => list(lines, pos, indent),
        Some(_) => map(lines, pos, indent),
        None => Node::Scalar(String::new()),
    }
}

fn is_item(t: &str) -> bool {
    t == "-" || t.starts_with("- ")
}

fn list(lines: &mut [Line], pos: &mut usize, indent: usize) -> Node {
    let mut items = Vec::new();
    while let Some(l) = lines.get(*pos) {
        if l.indent != indent || !is_item(&l.text) {
            break;
        }
        let rest = l.text[1..].trim_start().to_string();
        if rest.is_empty() {
            *pos += 1;
            items.push(child(lines, pos, indent));
        } else if key_value(&rest).is_some() {
            // `- type: bind` starts a map whose keys stand where `type` does.
            let at = indent + (l.text.len() - rest.len());
            lines[*pos] = Line {
                indent: at,
                text: rest,
            };
            items.push(map(lines, pos, at));
        } else {
            *pos += 1;
            items.push(value(&rest, lines, pos, indent));
        }
    }
    Node::List(items)
}

fn map(lines: &mut [Line], pos: &mut usize, indent: usize) -> Node {
    let mut entries = Vec::new();
    while let Some(l) = lines.get(*pos) {
        if l.indent != indent || is_item(&l.text) {
            break;
        }
        let Some((k, v)) = key_value(&l.text) else {
            // Not a key: a continuation of a plain scalar, not read.
            *pos += 1;
            continue;
        };
        let (k, v) = (unquote(k), v.to_string());
        *pos += 1;
        let node = match v.is_empty() {
            // `volumes:` with its items at the key's own indentation is YAML too.
            true if lines
                .get(*pos)
                .is_some_and(|n| n.indent == indent && is_item(&n.text)) =>
            {
                list(lines, pos, indent)
            }
            true => child(lines, pos, indent),
            false => value(&v, lines, pos, indent),
        };
        entries.push((k, node));
    }
    Node::Map(entries)
}

/// The block under a line at `indent`, if the next line is deeper.
fn child(lines: &mut [Line], pos: &mut usize, indent: usize) -> Node {
    match lines.get(*pos) {
        Some(n) if n.indent > indent => {
            let at = n.indent;
            block(lines, pos, at)
        }
        _ => Node::Scalar(String::new()),
    }
}

/// A value written after `key:` or `- `: a flow list, a block scalar, or a scalar.
fn value(v: &str, lines: &mut [Line], pos: &mut usize, indent: usize) -> Node {
    if v.starts_with('[') {
        let mut flow = v.to_string();
        // A flow list may go on over the next lines until it closes.
        while !flow.trim_end().ends_with(']') {
            match lines.get(*pos) {
                Some(n) if n.indent > indent => {
                    flow.push(' ');
                    flow.push_str(&n.text);
                    *pos += 1;
                }
                _ => break,
            }
        }
        return Node::List(flow_items(&flow));
    }
    if v.starts_with(['|', '>']) {
        let folded = v.starts_with('>');
        let mut parts = Vec::new();
        while let Some(n) = lines.get(*pos).filter(|n| n.indent > indent) {
            parts.push(n.text.clone());
            *pos += 1;
        }
        return Node::Scalar(parts.join(if folded { " " } else { "\n" }));
    }
    Node::Scalar(unquote(v))
}

/// `key: value` or `key:`: the key and the value's text.
fn key_value(t: &str) -> Option<(&str, &str)> {
    let quoted = t.starts_with(['"', '\'']);
    let from = match quoted {
        true => t[1..].find(&t[..1]).map_or(0, |k| k + 2),
        false => 0,
    };
    let rest = &t[from..];
    let at = rest
        .match_indices(':')
        .map(|(k, _)| k)
        .find(|&k| rest[k + 1..].is_empty() || rest[k + 1..].starts_with(' '))?;
    let key = &t[..from + at];
    (!key.is_empty() && !key.starts_with(['[', '{'])).then(|| (key, t[from + at + 1..].trim()))
}

/// `['a:b', "c", d]`: the items, unquoted.
fn flow_items(flow: &str) -> Vec<Node> {
    let inner = flow.trim().trim_start_matches('[').trim_end_matches(']');
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for ch in inner.chars() {
        match (ch, quote) {
            ('"' | '\'', None) => quote = Some(ch),
            (q, Some(open)) if q == open => quote = None,
            (',', None) => items.push(std::mem::take(&mut cur)),
            (ch, _) => cur.push(ch),
        }
    }
    items.push(cur);
    (items.into_iter())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .map(Node::Scalar)
        .collect()
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    let quoted = v.len() >= 2
        && (v.starts_with('"') && v.ends_with('"') || v.starts_with('\'') && v.ends_with('\''));
    match quoted {
        true => v[1..v.len() - 1].to_string(),
        false => v.to_string(),
    }
}

/// The line without a `#` comment (one after a blank, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (k, ch) in line.char_indices() {
        match (ch, quote) {
            ('"' | '\'', None) => quote = Some(ch),
            (q, Some(open)) if q == open => quote = None,
            ('#', None) if prev.is_whitespace() => return &line[..k],
            _ => {}
        }
        prev = ch;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Node {
        Node::Scalar(t.to_string())
    }

    #[test]
    fn compose_shapes() {
        let doc = "services:\n  x:\n    image: alpine # base\n    volumes: ['/home/agent:/h', \"./d:/d\"]\n    command: rm -rf /h/docs\n  y:\n    volumes:\n      - type: bind\n        source: ~/.ssh\n        target: /k\n      - data:/var/lib\n    command:\n      - sh\n      - -c\n      - 'cat /k/id_rsa'\n    entrypoint: >\n      sh -c\n      'x'\n";
        let root = parse(doc);
        let services = root.get("services").expect("services");
        let x = services.get("x").expect("x");
        assert_eq!(x.get("image"), Some(&s("alpine")));
        assert_eq!(
            x.get("volumes"),
            Some(&Node::List(vec![s("/home/agent:/h"), s("./d:/d")]))
        );
        assert_eq!(x.get("command"), Some(&s("rm -rf /h/docs")));
        let y = services.get("y").expect("y");
        let Some(Node::List(vols)) = y.get("volumes") else {
            panic!("volumes")
        };
        assert_eq!(vols[0].get("source"), Some(&s("~/.ssh")));
        assert_eq!(vols[0].get("target"), Some(&s("/k")));
        assert_eq!(vols[1], s("data:/var/lib"));
        assert_eq!(
            y.get("command"),
            Some(&Node::List(vec![s("sh"), s("-c"), s("cat /k/id_rsa")]))
        );
        assert_eq!(y.get("entrypoint"), Some(&s("sh -c 'x'")));
    }

    #[test]
    fn items_at_the_keys_indentation() {
        let doc = "services:\n  x:\n    volumes:\n    - /:/host\n    privileged: true\n";
        let x = parse(doc);
        let x = x.get("services").and_then(|s| s.get("x")).expect("x");
        assert_eq!(x.get("volumes"), Some(&Node::List(vec![s("/:/host")])));
        assert_eq!(x.get("privileged"), Some(&s("true")));
    }
}
