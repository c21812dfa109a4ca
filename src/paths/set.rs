//! A protected set: globs compiled once, each with the label a verdict reports. A glob without
//! `/` names a file anywhere by its basename, compared case-insensitively (a hostile agent on a
//! case-insensitive filesystem reads `.ENV` as `.env`; on Linux this only widens the net); a glob
//! starting with `/` or `~/` is a location, compared case-sensitively.

use std::borrow::Cow;

use rustc_hash::FxHashMap;
use thiserror::Error;

use super::glob::{escape, fold_char, matches, parse, Syntax, Token};
use super::lexical::normalise;
use super::overlap::{overlap, Overlap};
use super::Resolved;

/// Our globs (entries, exceptions): `*` takes dotfiles, as `.gitignore`-style lists do.
const FOLD: Syntax = Syntax {
    fold: true,
    hide_dots: false,
};
const EXACT: Syntax = Syntax {
    fold: false,
    hide_dots: false,
};
/// Globs up to this many tokens are walked with a 128-bit state mask (one bit per token plus
/// the accepting one); longer ones (a long home directory) take the product walk.
const MASK_TOKENS: usize = 127;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum PathSetError {
    #[error("protected path glob is empty")]
    Empty,
    #[error("protected path glob `{0}` is relative: a location starts with `/` or `~/`, a basename has no `/`")]
    Relative(String),
}

#[derive(Debug)]
struct Entry {
    /// Basename entries: the folded basename glob; locations: the whole-path glob.
    glob: Vec<Token>,
    /// The entry as a whole-path glob (`/**/` + basename for basename entries), for overlap
    /// with pattern paths.
    deep: Vec<Token>,
    /// Cheap necessary conditions checked before the NFA walk: the literal text before the
    /// first and after the last wildcard (folded for basenames).
    prefix: String,
    suffix: String,
    label: String,
    /// A location written to hold anywhere (`/**/.kube/config`): a directory and a name in
    /// it, as a basename entry is a name. Every directory could hold one below it, so a
    /// recursive reader is judged by what the disk shows (`probe`), not by this entry.
    anywhere: bool,
}

/// Protected globs and their exceptions, compiled once (see module doc for the two kinds).
#[derive(Debug, Default)]
pub struct PathSet {
    /// Basename entries without wildcards, by folded name: one hash lookup for most entries
    /// (they are in `names` too, for patterns).
    exact_names: FxHashMap<String, String>,
    names: Vec<Entry>,
    /// The positions in `names` of entries with wildcards (the only ones a literal name that
    /// `exact_names` does not hold can match), by the extension their literal end fixes
    /// (`pem` of `*.pem`, `json` of `client_secret*.json`), and those whose end fixes none.
    wild_by_ext: FxHashMap<String, Vec<usize>>,
    wild_any_ext: Vec<usize>,
    locations: Vec<Entry>,
    /// The positions in `locations` by the one or two leading directories every path they
    /// admit starts with (`/root/.ssh`, `/proc`), and those with no such directory: a literal
    /// path is compared with the few entries filed under its own leading directories instead
    /// of all of them.
    places: FxHashMap<String, Vec<usize>>,
    unplaced: Vec<usize>,
    except_names: Vec<Entry>,
    except_locations: Vec<Entry>,
}

impl PathSet {
    /// Compiles `(glob, label)` entries and exception globs. `home` expands `~/`; without it a
    /// `~/x` location stands for `x` under any directory (`/**/x`), which fails closed.
    pub fn new(
        entries: &[(&str, &str)],
        exceptions: &[&str],
        home: Option<&str>,
    ) -> Result<PathSet, PathSetError> {
        let mut set = PathSet::default();
        for &(glob, label) in entries {
            set.add(glob, label, home)?;
        }
        for &glob in exceptions {
            match location_text(glob, home)? {
                Some(text) => {
                    let tokens = parse(&text, EXACT);
                    set.except_locations.push(entry(tokens, Vec::new(), glob));
                }
                None => {
                    let tokens = parse(glob, FOLD);
                    set.except_names.push(entry(tokens, Vec::new(), glob));
                }
            }
        }
        Ok(set)
    }

    fn add(&mut self, glob: &str, label: &str, home: Option<&str>) -> Result<(), PathSetError> {
        if let Some(text) = location_text(glob, home)? {
            let tokens = parse(&text, EXACT);
            let mut entry = entry(tokens.clone(), tokens, label);
            entry.anywhere = glob.starts_with("/**/");
            let at = self.locations.len();
            match place_of(&entry) {
                Some(place) => self.places.entry(place).or_default().push(at),
                None => self.unplaced.push(at),
            }
            self.locations.push(entry);
            return Ok(());
        }
        let tokens = parse(glob, FOLD);
        match literal_text(&tokens) {
            // First entry wins, as the scan over `names` would.
            Some(name) => {
                self.exact_names
                    .entry(name)
                    .or_insert_with(|| label.to_string());
            }
            None => {
                let at = self.names.len();
                let suffix = entry_suffix(&tokens);
                match ext_of(&suffix) {
                    Some(ext) => self
                        .wild_by_ext
                        .entry(ext.to_string())
                        .or_default()
                        .push(at),
                    None => self.wild_any_ext.push(at),
                }
            }
        }
        let mut deep = vec![Token::deep(), Token::lit('/')];
        deep.extend(tokens.iter().cloned());
        self.names.push(entry(tokens, deep, label));
        Ok(())
    }

    /// The label of the protected entry this path names or, for a pattern, could name.
    /// A pattern's wildcards follow the shell's default leading-dot rule: `*` does not name
    /// `.env`, `.*` and `.e*` do (see `hit_dotglob` for shells that match dotfiles).
    /// Exceptions win for literal paths only: a pattern such as `.env.ex*` also names
    /// `.env.exports`, and subtracting exceptions from a pattern would need a complement
    /// automaton, so patterns are judged against entries alone (fail closed).
    pub fn hit(&self, r: &Resolved) -> Option<&str> {
        self.hit_with(r, true)
    }

    /// `hit` for a pattern whose wildcards also take a leading dot: bash after
    /// `shopt -s dotglob` or with a non-empty `GLOBIGNORE`, zsh with `GLOB_DOTS`, or a caller
    /// that does not know the shell's options and must fail closed.
    pub fn hit_dotglob(&self, r: &Resolved) -> Option<&str> {
        self.hit_with(r, false)
    }

    /// `hit`, with a pattern expanded against the disk as the shell would expand it now, each
    /// resulting path judged as a literal (so exceptions apply and `*.json` is judged by the
    /// JSON files that exist). Falls back to `hit` where expansion is out of bounds (relative,
    /// `**`, thousands of entries). The answer is only as good as the moment: a file created
    /// earlier in the same command line (`cp .env x.json; cat *.json`) is not seen, so callers
    /// must use `hit` for patterns that follow a command which creates files.
    pub fn hit_on_disk(&self, r: &Resolved) -> Option<&str> {
        if !r.pattern {
            return self.hit(r);
        }
        let Some(paths) = super::probe::expand(&r.path) else {
            return self.hit(r);
        };
        paths.iter().find_map(|p| {
            let label = self.literal_hit(p)?;
            (!self.excepted(p)).then_some(label)
        })
    }

    fn hit_with(&self, r: &Resolved, hide_dots: bool) -> Option<&str> {
        if r.pattern {
            return self.pattern_hit(&r.path, hide_dots);
        }
        let label = self.literal_hit(&r.path)?;
        (!self.excepted(&r.path)).then_some(label)
    }

    fn literal_hit(&self, path: &str) -> Option<&str> {
        self.literal_name_hit(&folded(basename(path)))
            .or_else(|| self.literal_place_hit(path))
    }

    /// A folded literal basename against the basename entries.
    fn literal_name_hit(&self, name: &str) -> Option<&str> {
        if let Some(label) = self.exact_names.get(name) {
            return Some(label);
        }
        let filed = ext_of(name).and_then(|ext| self.wild_by_ext.get(ext));
        first_admitted(&self.names, [Some(&self.wild_any_ext), filed], name, FOLD)
    }

    /// A literal path against the location entries filed under its leading directories (and
    /// those filed under none), the first entry in config order winning as a scan would.
    fn literal_place_hit(&self, path: &str) -> Option<&str> {
        let (one, two) = leading_dirs(path);
        let filed = |key: Option<&str>| key.and_then(|k| self.places.get(k));
        let lists = [Some(&self.unplaced), filed(one), filed(two)];
        first_admitted(&self.locations, lists, path, EXACT)
    }

    fn excepted(&self, path: &str) -> bool {
        let name = folded(basename(path));
        self.except_names.iter().any(|e| e.admits(&name, FOLD))
            || self.except_locations.iter().any(|e| e.admits(path, EXACT))
    }

    /// Overlap of the pattern with every entry; an undecidably large pair counts as a hit.
    fn pattern_hit(&self, path: &str, hide_dots: bool) -> Option<&str> {
        // Locations first: their labels are the more specific (`~/.ssh/id_*` is in the SSH
        // directory before it is a possible `id_x.env`).
        self.pattern_place_hit(path, hide_dots)
            .or_else(|| self.pattern_name_hit(path, hide_dots))
    }

    /// Location entries, skipping those whose literal start already parts from the pattern's
    /// (most entries live under `~/.` or `/etc`, most patterns under a project).
    fn pattern_place_hit(&self, path: &str, hide_dots: bool) -> Option<&str> {
        let exact = parse(path, Syntax { hide_dots, ..EXACT });
        let start: String = exact.iter().map_while(Token::as_lit).collect();
        self.locations
            .iter()
            .filter(|e| start.starts_with(&e.prefix) || e.prefix.starts_with(&start))
            .find(|e| overlap(&exact, &e.deep) != Overlap::No)
            .map(|e| e.label.as_str())
    }

    /// Basename entries against the pattern's last segment: the directories before it do not
    /// matter to a name that is protected anywhere. A last segment holding `**` may span
    /// several segments, so it takes the whole-path product instead.
    fn pattern_name_hit(&self, path: &str, hide_dots: bool) -> Option<&str> {
        let fold = Syntax { hide_dots, ..FOLD };
        let tail = &path[path.rfind('/').map_or(0, |i| i + 1)..];
        let whole = tail.contains("**");
        let pattern = if whole {
            parse(&format!("/{}", path.trim_start_matches('/')), fold)
        } else {
            parse(tail, fold)
        };
        // Two globs that both begin (end) with literal text can only share a string if one
        // literal begins (ends) the other: `*.json` is never `*.pem`, at the cost of a compare.
        let start: String = pattern.iter().map_while(Token::as_lit).collect();
        let mut end: Vec<char> = pattern.iter().rev().map_while(Token::as_lit).collect();
        end.reverse();
        let end: String = end.into_iter().collect();
        let agree = |e: &Entry| {
            whole
                || ((start.starts_with(&e.prefix) || e.prefix.starts_with(&start))
                    && (end.ends_with(&e.suffix) || e.suffix.ends_with(&end)))
        };
        self.names
            .iter()
            .filter(|e| agree(e))
            .find(|e| {
                let entry = if whole { &e.deep } else { &e.glob };
                overlap(&pattern, entry) != Overlap::No
            })
            .map(|e| e.label.as_str())
    }

    /// Whether a recursive reader of `dir` (`cp -r`, `tar`, `grep -r`, `rsync`) could reach a
    /// protected file: `dir` itself, a location under it (lexically), or a protected basename
    /// among its children and grandchildren (a bounded directory listing, see `probe`). Only
    /// recursive readers should call this: it is the one place that touches the disk.
    pub fn contains_protected(&self, dir: &Resolved) -> Option<&str> {
        if let Some(label) = self.hit(dir) {
            return Some(label);
        }
        if let Some(label) = self.location_below(dir) {
            return Some(label);
        }
        let root = literal_root(dir)?;
        super::probe::first_protected(self, &root)
    }

    /// A location entry that some path strictly under `dir` matches.
    fn location_below(&self, dir: &Resolved) -> Option<&str> {
        // The directory as the shell expands it (leading-dot rule), then everything the
        // recursive reader walks under it, dotfiles included.
        let shell = Syntax {
            hide_dots: true,
            ..EXACT
        };
        let mut below = if dir.pattern {
            parse(&dir.path, shell)
        } else {
            parse(&escape(&dir.path), shell)
        };
        if dir.path != "/" {
            below.push(Token::lit('/'));
        }
        below.push(Token::deep());
        self.locations
            .iter()
            .filter(|e| !e.anywhere)
            .find(|e| overlap(&below, &e.deep) != Overlap::No)
            .map(|e| e.label.as_str())
    }

    /// The label of an entry protected wherever it sits (`/**/.kube/config`) that the file at
    /// `path`, found by the probe, is.
    pub(crate) fn anywhere_hit(&self, path: &str) -> Option<&str> {
        (self.locations.iter())
            .filter(|e| e.anywhere)
            .find(|e| e.admits(path, EXACT))
            .map(|e| e.label.as_str())
    }

    /// The label for a directory entry named `name` found by the probe: basename entries only
    /// (locations were decided lexically), exceptions honoured (it is a real file name).
    pub(crate) fn name_hit(&self, name: &str) -> Option<&str> {
        let folded = folded(name);
        let label = self.literal_name_hit(&folded)?;
        let excepted = self.except_names.iter().any(|e| e.admits(&folded, FOLD));
        (!excepted).then_some(label)
    }
}

impl Entry {
    fn admits(&self, text: &str, syntax: Syntax) -> bool {
        text.starts_with(self.prefix.as_str())
            && text.ends_with(self.suffix.as_str())
            && glob_admits(&self.glob, text, syntax)
    }
}

fn entry(glob: Vec<Token>, deep: Vec<Token>, label: &str) -> Entry {
    Entry {
        prefix: glob.iter().map_while(Token::as_lit).collect(),
        suffix: entry_suffix(&glob),
        glob,
        deep,
        label: label.to_string(),
        anywhere: false,
    }
}

/// The literal text a glob ends with.
fn entry_suffix(glob: &[Token]) -> String {
    let mut suffix: Vec<char> = glob.iter().rev().map_while(Token::as_lit).collect();
    suffix.reverse();
    suffix.into_iter().collect()
}

/// The text after the last `.` of a name, or of a glob's literal end: a name ending in a
/// literal end that holds a `.` has that end's extension.
fn ext_of(text: &str) -> Option<&str> {
    text.rfind('.').map(|i| &text[i + 1..])
}

/// The label of the entry that admits `text` and comes first in config order, among the
/// entries at the positions `lists` hold (each list in order, so its first hit is its best).
fn first_admitted<'e, const N: usize>(
    entries: &'e [Entry],
    lists: [Option<&Vec<usize>>; N],
    text: &str,
    syntax: Syntax,
) -> Option<&'e str> {
    lists
        .into_iter()
        .flatten()
        .filter_map(|list| {
            list.iter()
                .copied()
                .find(|&i| entries[i].admits(text, syntax))
        })
        .min()
        .map(|i| entries[i].label.as_str())
}

/// The leading directories every path a location entry admits starts with: its first two
/// segments when its literal start holds both whole (`/root/.ssh/` of `/root/.ssh/**`, or the
/// whole of a literal entry such as `/etc/shadow`), else its first (`/proc` of
/// `/proc/*/environ`); `None` when even that is a pattern.
fn place_of(e: &Entry) -> Option<String> {
    let whole = e.glob.len() == e.prefix.chars().count();
    let prefix = e.prefix.as_str();
    let (one, two) = leading_dirs(prefix);
    // A segment is whole when a `/` follows it in the literal start, or the entry ends there.
    let whole_seg = |seg: &str| whole && seg.len() == prefix.len() || prefix.len() > seg.len();
    match (one, two) {
        (_, Some(two)) if whole_seg(two) => Some(two.to_string()),
        (Some(one), _) if whole_seg(one) => Some(one.to_string()),
        _ => None,
    }
}

/// `/a` and `/a/b` of an absolute path `/a/b/…`, where they exist.
fn leading_dirs(path: &str) -> (Option<&str>, Option<&str>) {
    let Some(body) = path.strip_prefix('/') else {
        return (None, None);
    };
    // A byte scan: every literal path a guard judges asks, and `match_indices` sets up a
    // searcher per call that costs more than the two short segments it finds.
    let mut slashes = (body.bytes().enumerate())
        .filter(|&(_, b)| b == b'/')
        .map(|(i, _)| i + 1);
    let one_end = slashes.next().unwrap_or(path.len());
    let two_end = slashes.next().unwrap_or(path.len());
    let one = (one_end > 1).then(|| &path[..one_end]);
    let two = (one_end < path.len() && two_end > one_end + 1).then(|| &path[..two_end]);
    (one, two)
}

/// A location glob's text with `~/` expanded, or `None` for a basename glob.
fn location_text(glob: &str, home: Option<&str>) -> Result<Option<String>, PathSetError> {
    if glob.is_empty() {
        return Err(PathSetError::Empty);
    }
    if let Some(rest) = glob.strip_prefix("~/") {
        // A relative or empty home names no place: treat it as unknown.
        return Ok(Some(match home.filter(|h| h.starts_with('/')) {
            Some(home) => format!("{}/{rest}", escape(&normalise(home)).trim_end_matches('/')),
            None => format!("/**/{rest}"),
        }));
    }
    match (glob.starts_with('/'), glob.contains('/')) {
        (true, _) => Ok(Some(glob.to_string())),
        (false, true) => Err(PathSetError::Relative(glob.to_string())),
        (false, false) => Ok(None),
    }
}

/// Whether `text` matches: the mask walk when the glob fits it, else the product walk against
/// the text as a literal, where an undecidably large pair counts as a match (fail closed).
fn glob_admits(glob: &[Token], text: &str, syntax: Syntax) -> bool {
    if glob.len() <= MASK_TOKENS {
        return matches(glob, text, syntax);
    }
    let literal = parse(&escape(text), syntax);
    overlap(glob, &literal) != Overlap::No
}

/// The name a glob made only of literal characters stands for.
fn literal_text(tokens: &[Token]) -> Option<String> {
    tokens.iter().map(Token::as_lit).collect()
}

/// The case-folded name; most names are lowercase ASCII already and are borrowed as they are.
fn folded(name: &str) -> Cow<'_, str> {
    if name
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        return Cow::Borrowed(name);
    }
    Cow::Owned(name.chars().map(fold_char).collect())
}

/// The last component of a path (`/usr/bin/rm` → `rm`). Asked many times per call of short
/// names: a byte scan from the end beats setting up `rfind`'s memrchr.
pub fn basename(path: &str) -> &str {
    path.bytes()
        .rposition(|b| b == b'/')
        .map_or(path, |i| &path[i + 1..])
}

/// The directory to list for a (possibly pattern) absolute path: the segments before the
/// first one holding a pattern. Relative paths (no working directory known) are not probed:
/// listing the governance process's own directory would answer for the wrong place.
fn literal_root(dir: &Resolved) -> Option<String> {
    if !dir.path.starts_with('/') {
        return None;
    }
    if !dir.pattern {
        return Some(dir.path.clone());
    }
    let fixed: Vec<&str> = dir
        .path
        .split('/')
        .take_while(|s| !super::glob::has_pattern(s))
        .collect();
    let joined = fixed.join("/");
    Some(super::glob::unescape(if joined.is_empty() {
        "/"
    } else {
        &joined
    }))
}
