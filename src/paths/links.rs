//! Paths walked through the symbolic links a session made. Resolution elsewhere is lexical
//! (`lexical`), which is what a path means when no component is a link; once the agent has
//! made one (`ln -s ~/docs dl`), `dl/x` is `~/docs/x` to the kernel, and `dl/..` is the parent
//! of `~/docs`, not the workspace. Only the links the session is known to have made are
//! followed: nothing is read from the disk.

use super::glob::{has_pattern, unescape};
use super::resolve::{absolute_nfc, joined};
use super::{PathContext, Resolved};

/// Linux gives up after 40 links in one lookup (ELOOP); so does this walk.
const MAX_HOPS: usize = 40;

/// A symbolic link the session made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Link {
    /// Where the link is: absolute and lexically normal.
    pub at: String,
    /// Where it points, absolute and lexically normal; `None` when it was only known when the
    /// command ran (`ln -s "$(…)" dl`).
    pub to: Option<String>,
    /// A tree of links rather than one (`cp -rs DIR snap`): `at` is a real directory whose
    /// files are links to the files of `to`. Opening a file below it goes through; removing
    /// a name below it removes that name (a link or a directory of the copy), not the target.
    pub tree: bool,
}

/// Where a path lands once known links are followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reached {
    /// No link on the way: the lexical resolution holds.
    Lexical,
    /// Through at least one link, to this path.
    Through(Resolved),
    /// Through a link whose target is unknown.
    Unknown,
}

/// `raw` (a shell word, as `resolve` takes it) walked through `links`. A link as the last
/// component is followed only when `last` is set (a program that opens the file, not one that
/// removes the name: `rm dl` removes the link). A trailing `/`, `/.` or anything below the
/// link always goes through it, as path lookup does.
pub fn follow(raw: &str, ctx: &PathContext, links: &[Link], last: bool) -> Reached {
    if links.is_empty() {
        return Reached::Lexical;
    }
    let text = joined(raw, ctx);
    if !text.starts_with('/') {
        return Reached::Lexical;
    }
    let mut todo: Vec<String> = text.split('/').rev().map(str::to_string).collect();
    let mut kept: Vec<String> = Vec::new();
    let (mut hops, mut through) = (0, false);
    while let Some(segment) = todo.pop() {
        match segment.as_str() {
            "" | "." => continue,
            ".." => {
                kept.pop();
                continue;
            }
            _ => {}
        }
        // Last when nothing, not even an empty segment of a trailing slash, follows.
        let is_last = todo.is_empty();
        let dir = format!("/{}", kept.join("/"));
        kept.push(segment);
        if is_last && !last {
            break;
        }
        let Some(link) = link_at(links, &dir, &kept).filter(|l| last || !l.tree) else {
            continue;
        };
        hops += 1;
        let Some(to) = link.to.as_deref().filter(|_| hops <= MAX_HOPS) else {
            return Reached::Unknown;
        };
        through = true;
        kept.clear();
        // The target's own components are walked again: it may run through another link.
        todo.extend(to.split('/').rev().map(str::to_string));
    }
    if !through {
        return Reached::Lexical;
    }
    let path = absolute_nfc(&format!("/{}", kept.join("/")), None);
    Reached::Through(match has_pattern(&path) {
        true => Resolved {
            path,
            pattern: true,
        },
        false => Resolved {
            path: unescape(&path),
            pattern: false,
        },
    })
}

/// The link the last of `kept` names, in `dir`. A glob component (`d*/`) goes through any
/// link of the directory it could match: it may expand to it.
fn link_at<'l>(links: &'l [Link], dir: &str, kept: &[String]) -> Option<&'l Link> {
    let name = kept.last()?;
    let parent = |l: &Link| {
        let cut = l.at.len() - super::basename(&l.at).len();
        let p = l.at[..cut].trim_end_matches('/');
        (if p.is_empty() { "/" } else { p }) == dir
    };
    if has_pattern(name) {
        let named = |l: &&Link| super::glob_matches(name, super::basename(&l.at));
        return links.iter().filter(|l| parent(l)).find(named);
    }
    let here = unescape(&format!("/{}", kept.join("/")));
    // The newest link of that name is the one on disk.
    links.iter().rev().find(|l| l.at == here)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> Vec<Link> {
        vec![
            Link {
                at: "/w/dl".into(),
                to: Some("/home/a/docs".into()),
                ..Link::default()
            },
            Link {
                at: "/w/odd".into(),
                to: None,
                ..Link::default()
            },
            Link {
                at: "/w/bin/app".into(),
                to: Some("/w/build/app".into()),
                ..Link::default()
            },
            Link {
                at: "/w/snap".into(),
                to: Some("/home/a/docs".into()),
                tree: true,
            },
        ]
    }

    fn at(raw: &str, cwd: &str, last: bool) -> Reached {
        let ctx = PathContext {
            cwd: Some(cwd),
            home: Some("/home/a"),
        };
        follow(raw, &ctx, &links(), last)
    }

    fn through(path: &str, pattern: bool) -> Reached {
        Reached::Through(Resolved {
            path: path.into(),
            pattern,
        })
    }

    #[test]
    fn below_a_link_is_its_target() {
        assert_eq!(at("dl/", "/w", false), through("/home/a/docs", false));
        assert_eq!(at("dl/.", "/w", false), through("/home/a/docs", false));
        assert_eq!(
            at("dl/sub", "/w", false),
            through("/home/a/docs/sub", false)
        );
        assert_eq!(at("dl/*", "/w", false), through("/home/a/docs/*", true));
        assert_eq!(at("*", "/w/dl", false), through("/home/a/docs/*", true));
        // `..` after a link climbs from its target, as the kernel does.
        assert_eq!(at("dl/../x", "/w", false), through("/home/a/x", false));
        assert_eq!(at("d*/x", "/w", false), through("/home/a/docs/x", false));
    }

    #[test]
    fn the_link_itself_is_followed_only_when_asked() {
        assert_eq!(at("dl", "/w", false), Reached::Lexical);
        assert_eq!(at("dl", "/w", true), through("/home/a/docs", false));
        assert_eq!(at("odd", "/w", false), Reached::Lexical);
        assert_eq!(at("odd/x", "/w", false), Reached::Unknown);
        assert_eq!(at("src/x", "/w", true), Reached::Lexical);
        assert_eq!(
            at("bin/app/x", "/w", false),
            through("/w/build/app/x", false)
        );
    }

    #[test]
    fn a_tree_of_links_is_followed_only_to_open_a_file() {
        assert_eq!(at("snap/a/b", "/w", false), Reached::Lexical);
        assert_eq!(at("snap/", "/w", false), Reached::Lexical);
        assert_eq!(
            at("snap/a/b", "/w", true),
            through("/home/a/docs/a/b", false)
        );
    }

    #[test]
    fn a_loop_of_links_is_unknown() {
        let ring = vec![
            Link {
                at: "/w/a".into(),
                to: Some("/w/b".into()),
                ..Link::default()
            },
            Link {
                at: "/w/b".into(),
                to: Some("/w/a".into()),
                ..Link::default()
            },
        ];
        let ctx = PathContext {
            cwd: Some("/w"),
            home: None,
        };
        assert_eq!(follow("a/x", &ctx, &ring, false), Reached::Unknown);
    }
}
