//! Remote execution across a fleet: Salt (`salt '*' cmd.run …`, `salt-call state.apply`),
//! parallel shells (`pssh`, `parallel-ssh`, `pdsh`, `clush`, and their copy and kill
//! companions), and deploy tools that run a project's tasks on its servers (Fabric's `fab`,
//! Capistrano's `cap`, `mina`, Deployer's `dep`, Laravel Envoy). `ssh HOST CMD` is one host and
//! judged by its command; `ansible` ad-hoc is in `clis`. Salt's read-only functions
//! (`test.ping`, `grains.items`, `*.list_*`, `state.apply test=True`) and the tools' listing
//! options (`fab --list`, `cap -T`) stay allowed.

use crate::guards::argv::{args, given, operands};
use crate::shell::{Arg, Command};

pub(super) const FLEET: &str = "runs commands or changes on remote hosts";

pub fn change(c: &Command, prog: &str) -> Option<&'static str> {
    // The shell model reads a parallel shell's command as a script run on every host
    // (`shell::wrappers`): what runs there carries the parallel shell as its wrapper.
    let fleet_wrapper = ["ssh pssh", "ssh parallel-ssh", "ssh pdsh"];
    if c.wrappers
        .iter()
        .any(|w| fleet_wrapper.contains(&w.as_str()))
    {
        return Some(FLEET);
    }
    let a = args(c);
    match prog {
        "salt" | "salt-ssh" => salt(a, 1),
        "salt-call" | "salt-run" => salt(a, 0),
        // One command run on every host of a list, or files pushed to all of them, or their
        // processes killed (`pnuke`).
        "pssh" | "parallel-ssh" | "pscp" | "pscp.pssh" | "parallel-scp" | "prsync"
        | "parallel-rsync" | "pnuke" | "parallel-nuke" | "pdsh" | "pdcp" | "clush" | "dsh"
        | "mussh" => (!operands(a, PARALLEL_VALUED).is_empty()).then_some(FLEET),
        "fab" | "fab2" => (!given(
            a,
            &[
                "-l",
                "--list",
                "-h",
                "--help",
                "-V",
                "--version",
                "--complete",
                "-d",
            ],
        ))
        .then_some(FLEET),
        "cap" => {
            let lists = given(
                a,
                &[
                    "-T",
                    "--tasks",
                    "-h",
                    "--help",
                    "-V",
                    "--version",
                    "-n",
                    "--dry-run",
                    "-D",
                    "--describe",
                ],
            );
            let ops = operands(a, &[]);
            let local = ops.first().is_some_and(|o| o.text == "install");
            (!lists && !local && !ops.is_empty()).then_some(FLEET)
        }
        "mina" | "dep" | "envoy" => {
            let ops = operands(a, &[]);
            let words = ["deploy", "rollback", "run", "setup", "ssh"];
            (ops.iter().any(|o| words.contains(&o.text.as_str()))).then_some(FLEET)
        }
        _ => None,
    }
}

/// Options of the parallel shells that take the next word (host files, users, options).
const PARALLEL_VALUED: &[&str] = &[
    "-h", "--hosts", "-H", "--host", "-l", "--user", "-p", "--par", "-o", "--outdir", "-e",
    "--errdir", "-t", "-O", "-w", "-x", "-g",
];

/// Salt's options that take the next word.
const SALT_VALUED: [&str; 16] = [
    "-t",
    "--timeout",
    "-b",
    "--batch",
    "--batch-size",
    "-c",
    "--config-dir",
    "--out",
    "--output",
    "--out-file",
    "--return",
    "-a",
    "--auth",
    "-l",
    "--log-level",
    "--log-file",
];

/// `salt TARGET MODULE.FUNCTION ARGS…` (`fun_at` 1), `salt-call MODULE.FUNCTION …` (0): a
/// function that changes the minions, unless it reads (`test.*`, `grains.*`, `sys.*`,
/// `status.*`, a name beginning `get`, `list`, `show`, …) or runs in test mode.
fn salt(a: &[Arg], fun_at: usize) -> Option<&'static str> {
    let ops = operands(a, &SALT_VALUED);
    let fun = ops.get(fun_at)?.text.as_str();
    let (module, name) = fun.split_once('.').unwrap_or(("", fun));
    let reads_module = matches!(module, "test" | "grains" | "sys" | "status" | "jobs");
    let reads_name = [
        "get", "list", "ls", "show", "info", "version", "ping", "items", "stats",
    ]
    .iter()
    .any(|p| name.starts_with(p));
    let test_mode = (ops.iter()).any(|o| o.text.eq_ignore_ascii_case("test=true"));
    (!(reads_module || reads_name || test_mode)).then_some(FLEET)
}
