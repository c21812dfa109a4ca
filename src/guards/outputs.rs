//! Files programs truncate and write through their own options or operands rather than a
//! redirect: `sort -o F`, `shuf -o F`, `uniq IN F`, `iconv -o F`, `openssl rand -out F`,
//! `curl -o F`, `wget -O F`, `xxd IN F`, `git diff --output=F`, `tar -cf F`, `gcc -o F`, `cp
//! SRC F`. Whatever F held is gone once the program starts, as it is under `dd of=F` or `mv
//! SRC F`. One table, from the programs' manuals (GNU coreutils sort/shuf/uniq/cp, iconv(1),
//! openssl(1), curl(1), wget(1), xxd(1), git-diff(1)/git-archive(1), GNU tar, gcc(1), cpp(1),
//! pandoc, gpg(1), patch(1)); `tee` and `dd` are judged as redirects are (`destructive`).

use super::argv::{args, has_flag, operands};
use crate::shell::{Arg, Command};

/// The files `c` truncates and writes by its own options or operands. Every program outside
/// the table takes the first arm and allocates nothing.
pub fn written(c: &Command) -> Vec<Arg> {
    let a = args(c);
    match super::argv::program(c) {
        "sort" | "shuf" | "iconv" | "pandoc" | "gpg" | "gpg2" | "uudecode" => {
            values(a, Some("-o"), &["--output"], true)
        }
        "uniq" => second_operand(a, &["-f", "-s", "-w", "--skip-fields", "--skip-chars"]),
        "xxd" => second_operand(a, &XXD_VALUED),
        "cpp" => {
            let mut out = values(a, Some("-o"), &[], false);
            out.extend(second_operand(a, &super::argv::CC_VALUED));
            out
        }
        "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "rustc" => {
            values(a, Some("-o"), &[], false)
        }
        "go" if a.first().is_some_and(|v| v.text == "build") => values(a, Some("-o"), &[], false),
        "openssl" => values(a, None, &["-out", "--out", "-keyout", "--keyout"], false),
        "curl" => {
            let mut out = values(a, Some("-o"), &["--output"], true);
            out.extend(values(a, Some("-D"), &["--dump-header"], true));
            out.extend(values(a, Some("-c"), &["--cookie-jar"], true));
            out.extend(values(a, None, &CURL_FILES, true));
            out
        }
        "wget" | "wget2" => {
            let mut out = values(a, Some("-O"), &["--output-document"], true);
            out.extend(values(
                a,
                Some("-o"),
                &["--output-file", "--save-cookies"],
                true,
            ));
            out
        }
        "git" => git(a),
        "tar" | "bsdtar" if creates_archive(a) => archive(a),
        "patch" => values(a, Some("-o"), &["--output"], true),
        "cp" => copy_destination(a),
        "gawk" | "awk" if awk_in_place(a) => awk_files(a),
        "script" => typescript(a),
        "perl" if perl_in_place(a) => perl_files(a),
        // ed and ex edit the file they are given with commands from stdin (`,d`, `w`), vim in
        // Ex mode (`-es`, `-c '%d|x'`) too.
        "ed" | "red" | "ex" => operands(a, &["-p", "--prompt"])
            .into_iter()
            .cloned()
            .collect(),
        "vim" | "vi" | "nvim" if ex_mode(a) => {
            operands(a, &EX_VALUED).into_iter().cloned().collect()
        }
        p if COMPRESSORS.contains(&p) && replaces(p, a) => {
            operands(a, &["-S", "--suffix", "-b", "-T", "--threads"])
                .into_iter()
                .cloned()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Compressors that replace each file with its compressed (or expanded) copy, the original
/// removed (gzip(1), bzip2(1), xz(1); zstd only with `--rm`).
const COMPRESSORS: [&str; 15] = [
    "gzip",
    "gunzip",
    "bzip2",
    "bunzip2",
    "xz",
    "unxz",
    "lzma",
    "unlzma",
    "lzip",
    "pigz",
    "unpigz",
    "pbzip2",
    "compress",
    "uncompress",
    "zstd",
];

/// Whether the compressor replaces its operands: not to stdout (`-c`), keeping them (`-k`),
/// listing or testing them; zstd only when told to remove them.
fn replaces(prog: &str, a: &[Arg]) -> bool {
    if prog == "zstd" {
        return a.iter().any(|x| x.text == "--rm");
    }
    !has_flag(
        a,
        &['c', 'k', 'l', 't'],
        &["stdout", "to-stdout", "keep", "list", "test"],
    )
}

/// `perl -i`, `-i.bak`, `-pi`, `-pi -e`: every input file is replaced by what the program
/// prints (perlrun, -i).
fn perl_in_place(a: &[Arg]) -> bool {
    a.iter().take_while(|x| x.text != "--").any(|x| {
        let t = x.text.as_str();
        t == "-i"
            || t.starts_with("-i")
            || (t.starts_with('-') && !t.starts_with("--") && {
                // `-pi`, `-ni.bak`: a bundle of switches holding `i` before any value.
                let flags = t[1..].split('.').next().unwrap_or_default();
                flags.contains('i') && flags.chars().all(|c| "pnlaisw0".contains(c))
            })
    })
}

/// The files of `perl [switches] -e CODE FILE…` or `perl [switches] SCRIPT FILE…`.
fn perl_files(a: &[Arg]) -> Vec<Arg> {
    // `-e CODE`, or a bundle ending in it (`-ne CODE`, `-lpe CODE`).
    let code = a.iter().any(|x| {
        let t = x.text.as_str();
        t.starts_with('-') && !t.starts_with("--") && (t.ends_with('e') || t.ends_with('E'))
    });
    let ops = operands(a, &["-e", "-E", "-M", "-m", "-I", "-x"]);
    let skip = usize::from(!code);
    ops.into_iter().skip(skip).cloned().collect()
}

/// vim's options that take a value, before its file operands.
const EX_VALUED: [&str; 8] = ["-c", "-S", "-u", "-U", "-i", "-T", "--cmd", "-w"];

/// vim run in Ex mode without a terminal (`-es`, `-e -s`, `-Es`), as scripts edit files.
fn ex_mode(a: &[Arg]) -> bool {
    a.iter()
        .any(|x| matches!(x.text.as_str(), "-es" | "-Es" | "-e" | "-E"))
}

/// gawk's `-i inplace` (also `-iinplace`, `--include=inplace`) loads the extension that
/// replaces each input file with the program's output (gawk manual, 16.7.9 Enabling In-Place
/// File Editing).
fn awk_in_place(a: &[Arg]) -> bool {
    a.windows(2)
        .any(|w| matches!(w[0].text.as_str(), "-i" | "--include") && w[1].text == "inplace")
        || a.iter()
            .any(|x| matches!(x.text.as_str(), "-iinplace" | "--include=inplace"))
}

/// The input files of `awk [opts] PROGRAM FILE…`, or of `awk -f PROG FILE…`.
fn awk_files(a: &[Arg]) -> Vec<Arg> {
    const VALUED: [&str; 10] = [
        "-i",
        "--include",
        "-f",
        "--file",
        "-v",
        "--assign",
        "-F",
        "--field-separator",
        "-E",
        "--exec",
    ];
    let from_file = has_flag(a, &[], &["file", "exec"]) || a.iter().any(|x| x.text == "-f");
    let ops = operands(a, &VALUED);
    let skip = usize::from(!from_file);
    (ops.into_iter().skip(skip))
        // `var=value` operands are assignments, not files.
        .filter(|o| !o.text.contains('='))
        .cloned()
        .collect()
}

/// `script [opts] [FILE]` writes the session's typescript to FILE (default `typescript`),
/// truncating it unless `-a`; `-O`/`-B`/`-I` name log files written the same way.
fn typescript(a: &[Arg]) -> Vec<Arg> {
    if has_flag(a, &['a'], &["append"]) {
        return Vec::new();
    }
    const VALUED: [&str; 16] = [
        "-c",
        "--command",
        "-E",
        "--echo",
        "-O",
        "--log-out",
        "-I",
        "--log-in",
        "-B",
        "--log-io",
        "-T",
        "--log-timing",
        "-m",
        "--logging-format",
        "-s",
        "--size",
    ];
    let mut out: Vec<Arg> = operands(a, &VALUED)
        .first()
        .map(|o| (*o).clone())
        .into_iter()
        .collect();
    for (short, long) in [("-O", "--log-out"), ("-B", "--log-io"), ("-I", "--log-in")] {
        out.extend(values(a, Some(short), &[long], false));
    }
    out
}

/// xxd's options that take a value (`-c cols`, `-s seek`, …), so that the second operand is
/// found after them.
const XXD_VALUED: [&str; 12] = [
    "-c",
    "-g",
    "-l",
    "-o",
    "-s",
    "-n",
    "-cols",
    "-groupsize",
    "-len",
    "-offset",
    "-seek",
    "-name",
];

/// curl's other files it writes: traces, its own error output, the C code of `--libcurl`,
/// the ETag it saw.
const CURL_FILES: [&str; 5] = [
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--libcurl",
    "--etag-save",
];

/// `git log|diff|show … --output=F` (any command taking diff options), `git archive -o F`.
fn git(a: &[Arg]) -> Vec<Arg> {
    let mut out = values(a, None, &["--output"], false);
    let sub = operands(a, &super::argv::GIT_VALUED);
    if sub.first().is_some_and(|s| s.text == "archive") {
        out.extend(values(a, Some("-o"), &[], true));
    }
    out
}

/// `tar -c`, `tar czf`, `--create`: `-f` names the archive written, not one read.
fn creates_archive(a: &[Arg]) -> bool {
    let old_style = a
        .first()
        .is_some_and(|x| !x.text.starts_with('-') && x.text.contains('c'));
    old_style || has_flag(a, &['c'], &["create"])
}

/// The archive `tar -cf F` / `tar czf F` (old style: the letters' values follow the first
/// word, `f`'s as the only one taken here) writes.
fn archive(a: &[Arg]) -> Vec<Arg> {
    let mut out = values(a, Some("-f"), &["--file"], true);
    let old = a
        .first()
        .filter(|x| !x.text.starts_with('-') && x.text.contains('f'));
    out.extend(old.and_then(|_| a.get(1)).cloned());
    out
}

/// `uniq IN OUT`, `xxd IN OUT`, `cpp IN OUT`: the second operand is the output file.
fn second_operand(a: &[Arg], valued: &[&str]) -> Vec<Arg> {
    operands(a, valued)
        .get(1)
        .map(|o| (*o).clone())
        .into_iter()
        .collect()
}

/// `cp SRC FILE`: FILE replaced (not a directory given as such, nor with `-t`, `-n`, a backup
/// or `-r`, which copies into one).
fn copy_destination(a: &[Arg]) -> Vec<Arg> {
    let keeps = has_flag(
        a,
        &['n', 'b', 't', 'r', 'R', 'a'],
        &[
            "no-clobber",
            "backup",
            "target-directory",
            "recursive",
            "archive",
        ],
    ) || a.iter().any(|x| x.text.starts_with("--update=none"));
    let ops = operands(a, &["-S", "--suffix"]);
    match ops.split_last() {
        Some((dest, sources)) if !keeps && !sources.is_empty() && !dest.text.ends_with('/') => {
            vec![(*dest).clone()]
        }
        _ => Vec::new(),
    }
}

/// An option's values wherever it stands, each with how its word was expanded: `-o F`, `-oF`,
/// a cluster ending in the letter (`-so F`, for `clusters`: getopt's programs, not gcc's),
/// `--output F`, `--output=F`. `-` (standard output) is left out.
fn values(a: &[Arg], short: Option<&str>, long: &[&str], clusters: bool) -> Vec<Arg> {
    let letter = short.and_then(|s| s.strip_prefix('-'));
    let part = |x: &Arg, text: &str| Arg {
        text: text.to_string(),
        ..x.clone()
    };
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        let t = x.text.as_str();
        if t == "--" {
            break;
        }
        // Only an option names an output (its value is taken by index): the rest of an 80 KB
        // command line is passed over at one byte's cost.
        if !t.starts_with('-') {
            continue;
        }
        let single = !t.starts_with("--");
        let cluster_ends =
            clusters && letter.is_some_and(|l| single && t.len() > 2 && t.ends_with(l));
        if long.contains(&t) || short == Some(t) || cluster_ends {
            out.extend(a.get(i + 1).cloned());
        } else if let Some(v) = (long.iter()).find_map(|l| t.strip_prefix(l)?.strip_prefix('=')) {
            out.push(part(x, v));
        } else if let Some(v) =
            (short.and_then(|s| t.strip_prefix(s))).filter(|v| single && !v.is_empty())
        {
            // `-oFILE`.
            out.push(part(x, v));
        }
    }
    out.retain(|v| v.text != "-");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Command {
        Command {
            argv: line.split_whitespace().map(Arg::literal).collect(),
            ..Command::default()
        }
    }

    fn outs(line: &str) -> Vec<String> {
        written(&words(line)).into_iter().map(|a| a.text).collect()
    }

    #[test]
    fn output_files_by_option_and_operand() {
        assert_eq!(outs("sort -o out.txt in.txt"), ["out.txt"]);
        assert_eq!(outs("shuf -o/x/r.txt"), ["/x/r.txt"]);
        assert_eq!(outs("uniq -f 2 in out"), ["out"]);
        assert_eq!(outs("xxd -c 16 in out"), ["out"]);
        assert_eq!(outs("openssl rand -out r.bin 8"), ["r.bin"]);
        assert_eq!(outs("curl -sSfLo x.tgz URL"), ["x.tgz"]);
        assert_eq!(outs("curl -o - URL"), Vec::<String>::new());
        assert_eq!(outs("wget -q -O f URL"), ["f"]);
        assert_eq!(outs("git diff --output=p.diff"), ["p.diff"]);
        assert_eq!(
            outs("git format-patch --output-directory d"),
            Vec::<String>::new()
        );
        assert_eq!(outs("tar czf a.tgz src"), ["a.tgz"]);
        assert_eq!(outs("tar -xf a.tgz"), Vec::<String>::new());
        assert_eq!(outs("cp a b"), ["b"]);
        assert_eq!(outs("cp -r a b"), Vec::<String>::new());
        assert_eq!(outs("cp a b/"), Vec::<String>::new());
        assert_eq!(outs("ls -o x"), Vec::<String>::new());
    }
}
