//! Programs that run another program: `sudo rm` runs `rm`. Each one's options are skipped by
//! its own grammar (which options take a value), so `sudo -u root rm` is `rm` and `sudo -l` is
//! `sudo`. A wrapper with nothing after its options is the program itself (`env` prints the
//! environment).

use super::Arg;

/// What to do with argv whose `argv[0]` is a known wrapper.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Peel {
    /// Not a wrapper, or one with no command: `argv[0]` is the program.
    Program,
    /// Drop the first `skip` words; `env` holds `NAME=value` the wrapper sets, `clear_env` an
    /// `env -i`.
    Wrap {
        label: String,
        skip: usize,
        env: Vec<(String, String)>,
        clear_env: bool,
    },
    /// The wrapper hands the words `from..` to `sh -c` joined by spaces (`watch`, `su -c`,
    /// `flock -c`, `npx -c`).
    Script {
        label: String,
        from: usize,
        single: bool,
    },
    /// `env -S STRING …`: the words `at..end` (the option and STRING) are replaced by `keep`
    /// (other flags of the same word, as `-i` of `-iS STRING`) and STRING split as env splits
    /// it; env then reads the result again.
    Split {
        label: String,
        at: usize,
        end: usize,
        keep: Option<String>,
        value: Arg,
    },
    /// `npx PKG …`: the program is the package's binary, `PKG` minus scope and version.
    Package { label: String, index: usize },
    /// Each word from `from` on is a whole command line for `sh -c` (moreutils' `pee CMD…`,
    /// `mispipe CMD1 CMD2`): they run as one script, joined by `sep` (a newline, or `|` where
    /// the program pipes one into the next).
    Commands {
        label: String,
        from: usize,
        sep: &'static str,
    },
}

/// Index of the first word at or after `start` that is not an option. `short` lists the short
/// options that take a value (in the same word or the next), `long` the long ones.
fn after_options(args: &[Arg], start: usize, short: &str, long: &[&str]) -> usize {
    let mut i = start;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" {
            return i + 1;
        }
        if let Some(name) = t.strip_prefix("--") {
            let takes = long.contains(&name);
            i += if takes { 2 } else { 1 };
            continue;
        }
        let Some(flags) = t.strip_prefix('-').filter(|f| !f.is_empty()) else {
            return i;
        };
        i += 1;
        for (pos, c) in flags.char_indices() {
            if short.contains(c) {
                if pos + c.len_utf8() == flags.len() {
                    i += 1;
                }
                break;
            }
        }
    }
    i
}

/// True when one of the options before `end` is `-X` (alone or combined) for X in `letters`,
/// or one of the long names.
fn has_flag(args: &[Arg], end: usize, letters: &str, long: &[&str]) -> bool {
    args[1..end.min(args.len())].iter().any(|a| {
        let t = a.text.as_str();
        match t.strip_prefix("--") {
            Some(name) => long
                .iter()
                .any(|l| name == *l || name.starts_with(&format!("{l}="))),
            None => t.starts_with('-') && t[1..].chars().any(|c| letters.contains(c)),
        }
    })
}

fn wrap(label: &str, skip: usize, args: &[Arg]) -> Peel {
    if skip >= args.len() {
        return Peel::Program;
    }
    Peel::Wrap {
        label: label.to_owned(),
        skip,
        env: Vec::new(),
        clear_env: false,
    }
}

/// The base name of a program word: `/usr/bin/sudo` is `sudo`.
pub(super) use crate::paths::basename;

/// `NAME=value` words from `start`: their end, and the pairs.
fn assignments(args: &[Arg], start: usize) -> (usize, Vec<(String, String)>) {
    let mut env = Vec::new();
    let mut i = start;
    while let Some((name, value)) = args.get(i).and_then(|a| environment_entry(&a.text)) {
        env.push((name.to_owned(), value.to_owned()));
        i += 1;
    }
    (i, env)
}

/// `NAME=VALUE` as `env` and `sudo` take it: any name without `=` goes into the environment
/// (`BASH_FUNC_ls%%=() { …; }`, which no shell assignment could set), not only identifiers.
fn environment_entry(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once('=')?;
    let ok = !name.is_empty() && !name.starts_with('-') && !name.contains('/');
    ok.then_some((name, value))
}

pub(super) fn split_assignment(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    let ok = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some((name, value))
}

pub(super) fn peel(args: &[Arg]) -> Peel {
    let Some(first) = args.first() else {
        return Peel::Program;
    };
    let name = basename(&first.text);
    match name {
        "sudo" => {
            let long = &[
                "user",
                "group",
                "chdir",
                "chroot",
                "prompt",
                "role",
                "type",
                "other-user",
                "close-from",
                "command-timeout",
                "host",
            ];
            let start = after_options(args, 1, "ugCDpRrtTU", long);
            let (end, env) = assignments(args, start);
            with_env("sudo", end, env, false, args)
        }
        "doas" => wrap("doas", after_options(args, 1, "uC", &[]), args),
        // `unshare -r CMD` runs CMD in new namespaces (as mapped root with -r).
        "unshare" => {
            let long = &["setgroups", "setuid", "setgid", "root", "wd", "propagation"];
            wrap("unshare", after_options(args, 1, "SGRw", long), args)
        }
        "env" => env(args),
        "nice" => wrap("nice", after_options(args, 1, "n", &["adjustment"]), args),
        // Programs that only change how their command runs (output held back, a catch-all
        // signal handler, fsync disabled, the page cache bypassed, a condition on stdin).
        "nohup" | "builtin" | "setsid" | "unbuffer" | "chronic" | "ifne" | "eatmydata"
        | "nocache" | "catchsegv" | "firejail" | "valgrind" => {
            wrap(name, after_options(args, 1, "", &[]), args)
        }
        // GNU parallel's `sem [--fg] [-j N] [--id ID] CMD…` and `parallel CMD ::: ARGS`
        // hand the command line to a shell.
        "sem" | "parallel" => {
            let long = &[
                "id",
                "jobs",
                "semaphorename",
                "semaphoretimeout",
                "st",
                "timeout",
                "sshlogin",
                "arg-file",
                "colsep",
                "delimiter",
                "joblog",
                "results",
                "tmpdir",
                "workdir",
                "wd",
                "retries",
                "halt",
                "delay",
                "env",
                "basefile",
                "tag-string",
            ];
            script(
                name,
                after_options(args, 1, "jSaIdECnNPs", long),
                false,
                args,
            )
        }
        // Debuggers and tracers run their command: `gdb -batch -ex run --args CMD…`,
        // `lldb -o run -- CMD…`, `strace -f CMD…`, `ltrace CMD…`, `rr record CMD…`. Attached
        // to a pid (`-p`) they run nothing.
        "gdb" | "cgdb" => match args.iter().position(|a| a.text == "--args") {
            Some(i) if plain_debugger(&args[..i], &["-ex", "--eval-command"]) => {
                wrap("gdb --args", i + 1, args)
            }
            _ => Peel::Program,
        },
        "lldb" => match args.iter().position(|a| a.text == "--") {
            Some(i) if plain_debugger(&args[..i], &["-o", "--one-line"]) => {
                wrap("lldb", i + 1, args)
            }
            _ => Peel::Program,
        },
        "strace" | "ltrace" => {
            let valued = if name == "strace" {
                "abeIoOpPsSuUXE"
            } else {
                "aADeFlnopsuxw"
            };
            let start = after_options(args, 1, valued, &["output", "attach"]);
            if has_flag(args, start, "p", &["attach"]) {
                return Peel::Program;
            }
            // `strace -v` prints every execve's environment (guards::credential).
            let verbose = name == "strace" && has_flag(args, start, "v", &["no-abbrev"]);
            wrap(if verbose { "strace -v" } else { name }, start, args)
        }
        "rr" if sub_is(args, "record") => wrap("rr record", after_options(args, 2, "", &[]), args),
        "dbus-launch" => {
            let long = &["config-file", "autolaunch"];
            wrap(name, after_options(args, 1, "", long), args)
        }
        // `chrt [policy] PRIO CMD…`, `taskset [-c] MASK CMD…`: the priority or mask is an
        // operand before the command; with `-p` they change a running process instead.
        "chrt" | "taskset" => {
            let long = &["sched-runtime", "sched-period", "sched-deadline"];
            let start = after_options(args, 1, "TPD", long);
            if has_flag(args, start, "pm", &["pid", "max"]) {
                return Peel::Program;
            }
            wrap(name, start + 1, args)
        }
        "systemd-run" => {
            let long = &[
                "unit",
                "property",
                "description",
                "slice",
                "uid",
                "gid",
                "nice",
                "working-directory",
                "setenv",
                "host",
                "machine",
                "on-active",
                "on-boot",
                "on-startup",
                "on-unit-active",
                "on-unit-inactive",
                "on-calendar",
                "timer-property",
                "path-property",
                "socket-property",
                "service-type",
                "json",
            ];
            wrap(name, after_options(args, 1, "upEHM", long), args)
        }
        "systemd-inhibit" => {
            let long = &["what", "who", "why", "mode"];
            wrap(name, after_options(args, 1, "", long), args)
        }
        "pkexec" => wrap("pkexec", after_options(args, 1, "", &["user"]), args),
        "proxychains" | "proxychains4" => wrap(name, after_options(args, 1, "f", &[]), args),
        "torsocks" | "torify" => {
            let long = &["user", "pass", "address", "port"];
            wrap(name, after_options(args, 1, "upaP", long), args)
        }
        "fakeroot" | "fakechroot" => {
            let long = &["lib", "faked", "config-dir", "environment"];
            wrap(name, after_options(args, 1, "lsibcde", long), args)
        }
        "nsenter" => {
            let long = &["target", "setuid", "setgid"];
            wrap(name, after_options(args, 1, "tSG", long), args)
        }
        "setpriv" => {
            let long = &[
                "reuid",
                "regid",
                "ruid",
                "rgid",
                "euid",
                "egid",
                "groups",
                "inh-caps",
                "ambient-caps",
                "bounding-set",
                "securebits",
                "pdeathsig",
                "selinux-label",
                "apparmor-profile",
            ];
            wrap(name, after_options(args, 1, "", long), args)
        }
        "chpst" => wrap(name, after_options(args, 1, "uUbe/CnlLmdopfcrt", &[]), args),
        // daemontools: `envdir DIR CMD…`, `setuidgid USER CMD…`.
        "envdir" | "setuidgid" | "s6-setuidgid" => wrap(name, 2, args),
        "sshpass" => wrap(name, after_options(args, 1, "pfdP", &[]), args),
        // `ip netns exec NAME CMD…`
        "ip" if sub_is(args, "netns") && args.get(2).is_some_and(|a| a.text == "exec") => {
            wrap("ip netns exec", 4, args)
        }
        // `screen -dmS NAME CMD…` runs CMD in a detached session; `-X` sends a command to one.
        "screen" => {
            let start = after_options(args, 1, "SceHpTt", &[]);
            if has_flag(args, start, "XQrRx", &["list", "ls"]) {
                return Peel::Program;
            }
            wrap("screen", start, args)
        }
        "tmux" => tmux(args),
        // `ssh-agent [-c|-s] [-Dd] [-a SOCK] [-E HASH] [-O OPT] [-P PROVIDERS] [-t LIFE] CMD…`
        // runs CMD as its child (`-k` kills an agent instead).
        "ssh-agent" => {
            let start = after_options(args, 1, "aEOPt", &[]);
            if has_flag(args, start, "k", &[]) {
                return Peel::Program;
            }
            wrap(name, start, args)
        }
        // `gpg-agent --daemon CMD…` runs CMD as its child (GnuPG manual, `--daemon`).
        "gpg-agent" if has_flag(args, args.len(), "", &["daemon"]) => {
            let long = &[
                "homedir",
                "options",
                "log-file",
                "debug",
                "debug-level",
                "pinentry-program",
                "scdaemon-program",
                "default-cache-ttl",
                "max-cache-ttl",
                "extra-socket",
                "browser-socket",
            ];
            wrap(name, after_options(args, 1, "", long), args)
        }
        // `systemd-cat [-t ID] [-p PRIO] CMD…` runs CMD with its output sent to the journal.
        "systemd-cat" => {
            let long = &[
                "identifier",
                "priority",
                "stderr-priority",
                "level-prefix",
                "namespace",
            ];
            wrap(name, after_options(args, 1, "tp", long), args)
        }
        // `run-one CMD…` and its kin (Ubuntu's run-one) run CMD unless a copy already runs.
        "run-one"
        | "run-this-one"
        | "keep-one-running"
        | "run-one-constantly"
        | "run-one-until-success"
        | "run-one-until-failure" => wrap(name, 1, args),
        // `trickle [-d RATE] [-u RATE] … CMD…` runs CMD with its bandwidth shaped.
        "trickle" => wrap(name, after_options(args, 1, "duwtlnLP", &[]), args),
        "ssh" | "autossh" => ssh(args),
        // Parallel shells: `pssh -h hosts CMD…`, `pdsh -w hosts CMD…` run CMD through each
        // host's shell.
        "pssh" | "parallel-ssh" | "pdsh" => {
            let long = &[
                "hosts",
                "host",
                "user",
                "par",
                "outdir",
                "errdir",
                "timeout",
                "option",
                "extra-args",
                "extra-arg",
            ];
            let start = after_options(args, 1, "hHlpoetOxXwgRuf", long);
            script(&format!("ssh {name}"), start, false, args)
        }
        // Environment managers running a command in an environment: `bundle exec CMD`,
        // `conda run -n ENV CMD`, `asdf exec CMD`, `toolbox run CMD`, `flatpak-spawn --host
        // CMD`, `cross-env A=1 CMD`, `env-cmd -f F CMD`.
        "bundle" | "asdf" | "rbenv" | "pyenv" | "nodenv" | "goenv" if sub_is(args, "exec") => wrap(
            &format!("{name} exec"),
            after_options(args, 2, "", &[]),
            args,
        ),
        "conda" | "mamba" | "micromamba" if sub_is(args, "run") => {
            let long = &["name", "prefix", "cwd"];
            wrap(
                &format!("{name} run"),
                after_options(args, 2, "np", long),
                args,
            )
        }
        "toolbox" if sub_is(args, "run") => {
            let long = &["container", "distro", "release"];
            wrap("toolbox run", after_options(args, 2, "cdr", long), args)
        }
        "flatpak-spawn" => wrap(name, after_options(args, 1, "", &[]), args),
        "cross-env" | "cross-env-shell" => {
            let (end, env) = assignments(args, 1);
            with_env(name, end, env, false, args)
        }
        "env-cmd" => {
            let long = &["file", "environments", "rc-file"];
            wrap(name, after_options(args, 1, "fer", long), args)
        }
        "nix" => nix(args),
        "timeout" => {
            let start = after_options(args, 1, "sk", &["signal", "kill-after"]);
            wrap("timeout", start + 1, args)
        }
        "stdbuf" => wrap(
            "stdbuf",
            after_options(args, 1, "ioe", &["input", "output", "error"]),
            args,
        ),
        "ionice" => wrap(
            "ionice",
            after_options(args, 1, "cnpPu", &["class", "classdata"]),
            args,
        ),
        "time" => wrap(
            "time",
            after_options(args, 1, "fo", &["format", "output"]),
            args,
        ),
        "command" => {
            let start = after_options(args, 1, "", &[]);
            if has_flag(args, start, "vV", &[]) {
                return Peel::Program;
            }
            wrap("command", start, args)
        }
        "exec" => wrap("exec", after_options(args, 1, "a", &[]), args),
        "busybox" | "toybox" => match args.get(1) {
            Some(a) if !a.text.starts_with('-') => wrap(name, 1, args),
            _ => Peel::Program,
        },
        // Programs that set something up (a log, a bus, a personality, limits, an init, a fake
        // clock, a display, a sandbox, a NUMA policy) and then run the rest as a command.
        "logsave" => wrap("logsave", after_options(args, 1, "", &[]) + 1, args),
        "dbus-run-session" => {
            let long = &["config-file", "dbus-daemon"];
            wrap(name, after_options(args, 1, "", long), args)
        }
        "setarch" => wrap("setarch", after_options(args, 2, "", &[]), args),
        "linux32" | "linux64" => wrap(name, after_options(args, 1, "", &[]), args),
        "prlimit" => wrap(
            "prlimit",
            after_options(args, 1, "po", &["pid", "output"]),
            args,
        ),
        "perf" => match args.get(1).map(|a| a.text.as_str()) {
            Some(sub @ ("stat" | "record" | "trace")) => {
                let long = &[
                    "event",
                    "output",
                    "field-separator",
                    "cpu",
                    "cgroup",
                    "pid",
                    "tid",
                ];
                let start = after_options(args, 2, "eoxCGptuIrDFc", long);
                wrap(&format!("perf {sub}"), start, args)
            }
            _ => Peel::Program,
        },
        "tini" => wrap("tini", after_options(args, 1, "pe", &[]), args),
        "dumb-init" => wrap(name, after_options(args, 1, "r", &["rewrite"]), args),
        // `faketime [opts] TIMESTAMP CMD…`
        "faketime" => wrap(
            "faketime",
            after_options(args, 1, "p", &["date-prog"]) + 1,
            args,
        ),
        "xvfb-run" => {
            let long = &[
                "error-file",
                "auth-file",
                "server-num",
                "xauth-protocol",
                "server-args",
            ];
            wrap(name, after_options(args, 1, "efnpsw", long), args)
        }
        "numactl" => {
            let long = &[
                "interleave",
                "preferred",
                "membind",
                "cpunodebind",
                "physcpubind",
            ];
            wrap(name, after_options(args, 1, "iPpmNC", long), args)
        }
        "bwrap" => wrap("bwrap", bwrap_command(args), args),
        "gtimeout" => {
            let start = after_options(args, 1, "sk", &["signal", "kill-after"]);
            wrap("gtimeout", start + 1, args)
        }
        "entr" => wrap("entr", after_options(args, 1, "", &[]), args),
        // Project runners: `uv run CMD`, `poetry run CMD`, … run CMD in the project's
        // environment.
        "uv" | "poetry" | "pipenv" | "pdm" | "rye" | "hatch" if sub_is(args, "run") => {
            let long = &[
                "with",
                "python",
                "project",
                "directory",
                "env-file",
                "extra",
                "group",
                "package",
                "index",
                "env",
            ];
            wrap(
                &format!("{name} run"),
                after_options(args, 2, "pe", long),
                args,
            )
        }
        // Secret and tool-version injectors run what follows their `--` (`op run -- CMD`,
        // `doppler run -- CMD`, `mise exec node@20 -- CMD`, `aws-vault exec prof -- CMD`).
        "op" | "doppler" | "infisical" | "aws-vault" | "chamber" | "mise" | "rtx" | "dotenv"
        | "teller" | "sops" | "dotenvx" | "distrobox" | "distrobox-enter" => {
            match args.iter().position(|a| a.text == "--") {
                Some(i) => wrap(name, i + 1, args),
                None => Peel::Program,
            }
        }
        // `direnv exec DIR CMD…`
        "direnv" if sub_is(args, "exec") => wrap("direnv exec", 3, args),
        // `nix-shell … --run CMD` hands CMD to bash.
        "nix-shell" => match args.iter().position(|a| a.text == "--run") {
            Some(i) if i + 1 < args.len() => {
                let own: Vec<Arg> = (args[1..i].iter().chain(&args[i + 2..])).cloned().collect();
                script(&with_sources("nix-shell", &own), i + 1, true, args)
            }
            _ => Peel::Program,
        },
        // `corepack pnpm publish` runs pnpm; corepack's own verbs (`enable`, `use`) run nothing.
        "corepack" => match args.get(1).map(|a| a.text.as_str()) {
            Some("npm" | "pnpm" | "yarn" | "npx" | "pnpx") => wrap("corepack", 1, args),
            _ => Peel::Program,
        },
        // `capsh … -- -c STRING` hands STRING to bash.
        "capsh" => match args.iter().position(|a| a.text == "--") {
            Some(i) if args.get(i + 1).is_some_and(|a| a.text == "-c") => {
                script("capsh", i + 2, true, args)
            }
            _ => Peel::Program,
        },
        // `sg [-] GROUP [-c] COMMAND`: COMMAND goes to `sh -c`.
        "sg" => {
            let group = if args.get(1).is_some_and(|a| a.text == "-") {
                2
            } else {
                1
            };
            match args.get(group + 1).map(|a| a.text.as_str()) {
                Some("-c") => script("sg", group + 2, true, args),
                Some(_) => script("sg", group + 1, false, args),
                None => Peel::Program,
            }
        }
        "xargs" => {
            let long = &[
                "arg-file",
                "delimiter",
                "max-lines",
                "max-args",
                "max-procs",
                "max-chars",
                "process-slot-var",
            ];
            wrap("xargs", after_options(args, 1, "aEdILnPs", long), args)
        }
        "chroot" => {
            let start = after_options(args, 1, "", &["userspec", "groups"]);
            wrap("chroot", start + 1, args)
        }
        "watch" => {
            let start = after_options(args, 1, "n", &["interval"]);
            if has_flag(args, start, "x", &["exec"]) {
                return wrap("watch", start, args);
            }
            script("watch", start, false, args)
        }
        "flock" => flock(args),
        // `su -c STRING`: STRING goes to the target user's shell; without -c, su is a login.
        "su" | "runuser" => match option_value(args, 'c', "command") {
            Some(i) => script(name, i, true, args),
            // `runuser -u USER [--] CMD…` runs CMD itself.
            None if name == "runuser" && has_flag(args, args.len(), "u", &["user"]) => {
                let long = &[
                    "user",
                    "group",
                    "supp-group",
                    "shell",
                    "whitelist-environment",
                ];
                wrap(name, after_options(args, 1, "ugGsw", long), args)
            }
            None => Peel::Program,
        },
        "script" => match option_value(args, 'c', "command") {
            Some(i) => script("script", i, true, args),
            None => Peel::Program,
        },
        "npx" | "bunx" => package(name, args, 1),
        // shx (the shelljs CLI) runs a coreutils verb of its own: `shx rm -rf DIR` is `rm`.
        "shx" => wrap("shx", after_options(args, 1, "", &[]), args),
        // moreutils: `pee CMD…` feeds its stdin to each command; `mispipe CMD1 CMD2` pipes
        // the first into the second. Each word is a line for `sh -c`.
        "pee" => commands(name, after_options(args, 1, "", &[]), "\n", args),
        "mispipe" => commands(name, 1, " | ", args),
        // `compgen -C CMD WORD` runs CMD (through the shell) to list completions.
        "compgen" => match args.iter().position(|a| a.text == "-C") {
            Some(i) => script("compgen -C", i + 1, true, args),
            None => Peel::Program,
        },
        "pnpm" | "yarn" | "bun" | "npm" => {
            let sub = args.get(1).map(|a| a.text.as_str());
            match (name, sub) {
                ("pnpm" | "yarn", Some("dlx"))
                | ("bun", Some("x"))
                | ("npm", Some("exec" | "x")) => {
                    package(&format!("{name} {}", sub.unwrap_or("")), args, 2)
                }
                ("pnpm" | "yarn", Some("exec")) => wrap(
                    &format!("{name} exec"),
                    after_options(args, 2, "", &[]),
                    args,
                ),
                _ => Peel::Program,
            }
        }
        _ => Peel::Program,
    }
}

/// A runner's label with the sources among its own words that are addresses (`-I
/// nixpkgs=https://…`, `github:owner/repo`), as `--source=ADDRESS`: the remote-code guard
/// reads them, as it reads `npx --package=URL`.
fn with_sources(label: &str, words: &[Arg]) -> String {
    let mut out = label.to_owned();
    for w in words {
        let value = w.text.split_once('=').map_or(w.text.as_str(), |(_, v)| v);
        let remote = [
            "://",
            "github:",
            "gitlab:",
            "sourcehut:",
            "git+",
            "tarball+",
        ]
        .iter()
        .any(|p| value.contains(p));
        if remote {
            out.push_str(" --source=");
            out.push_str(value);
        }
    }
    out
}

/// `nix shell REF… -c CMD…`, `nix develop [REF] --command CMD…`: CMD runs with the flake's
/// packages (whose sources the label keeps). `nix run REF` runs the flake's own program.
fn nix(args: &[Arg]) -> Peel {
    let Some(sub) = args.get(1).map(|a| a.text.as_str()) else {
        return Peel::Program;
    };
    if !matches!(sub, "shell" | "develop") {
        return Peel::Program;
    }
    match args
        .iter()
        .position(|a| a.text == "-c" || a.text == "--command")
    {
        Some(i) => wrap(
            &with_sources(&format!("nix {sub}"), &args[2..i]),
            i + 1,
            args,
        ),
        None => Peel::Program,
    }
}

/// `tmux [-c CMD]`, `tmux new-session|new-window|split-window|respawn-pane|run-shell|
/// display-popup [opts] [CMD…]`: CMD goes to the default shell (`sh -c`). Without one, tmux
/// starts an interactive shell and runs nothing named here.
fn tmux(args: &[Arg]) -> Peel {
    if args.get(1).is_some_and(|a| a.text == "-c") {
        return script("tmux -c", 2, true, args);
    }
    let at = after_options(args, 1, "LSfT", &[]);
    let Some(sub) = args.get(at).map(|a| a.text.as_str()) else {
        return Peel::Program;
    };
    let label = format!("tmux {sub}");
    match sub {
        // `if-shell [-b] [-t T] CMD …`, `pipe-pane [-IOo] [-t T] CMD`: CMD goes to the shell
        // (`if-shell -F` tests a format instead).
        "if-shell" | "if" if !has_flag(args, args.len(), "F", &[]) => {
            return script(&label, after_options(args, at + 1, "t", &[]), true, args);
        }
        "pipe-pane" | "pipep" => {
            return script(&label, after_options(args, at + 1, "t", &[]), true, args);
        }
        // `set -g default-command CMD`: every new window starts CMD.
        "set" | "set-option" | "setw" | "set-window-option" => {
            let name = after_options(args, at + 1, "t", &[]);
            return match args.get(name).map(|a| a.text.as_str()) {
                Some("default-command") => script(&label, name + 1, true, args),
                _ => Peel::Program,
            };
        }
        _ => {}
    }
    let runs = matches!(
        sub,
        "new-session"
            | "new"
            | "new-window"
            | "neww"
            | "split-window"
            | "splitw"
            | "respawn-pane"
            | "respawnp"
            | "respawn-window"
            | "respawnw"
            | "run-shell"
            | "run"
            | "display-popup"
            | "popup"
    );
    if !runs {
        return Peel::Program;
    }
    let valued = match sub {
        "run-shell" | "run" => "cdt",
        "display-popup" | "popup" => "bcdehsStTwxy",
        _ => "cefFlnpstxy",
    };
    let start = after_options(args, at + 1, valued, &[]);
    script(&label, start, false, args)
}

/// `ssh [opts] DEST [opts] CMD…`: CMD's words, joined by spaces, are a script the remote
/// user's shell runs (`ssh prod 'sudo systemctl restart nginx'`). Options may follow the
/// destination (OpenSSH parses them again). `-N` (no command), `-s` (a subsystem), `-G`, `-V`,
/// `-O` (a control request) and `-W` (a forwarded port) run no shell. The label `ssh DEST`
/// says the commands run on another machine.
fn ssh(args: &[Arg]) -> Peel {
    const VALUED: &str = "BbcDEeFIiJLlmOopQRSWwM";
    let dest = after_options(args, 1, VALUED, &[]);
    let start = after_options(args, dest + 1, VALUED, &[]);
    if dest >= args.len() || ssh_flag(&args[..start.min(args.len())], "NsGVOW", VALUED) {
        return Peel::Program;
    }
    let host = args[dest].text.rsplit('@').next().unwrap_or("");
    script(&format!("ssh {host}"), start, false, args)
}

/// Whether one of ssh's flags in `letters` is given, reading each cluster up to a letter that
/// takes a value (`-oStrictHostKeyChecking=no` is `-o` and its value, not `-s`).
fn ssh_flag(words: &[Arg], letters: &str, valued: &str) -> bool {
    words.iter().skip(1).any(|a| {
        let Some(cluster) = a.text.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
            return false;
        };
        for c in cluster.chars() {
            if letters.contains(c) {
                return true;
            }
            if valued.contains(c) {
                return false;
            }
        }
        false
    })
}

/// A debugger told only to run, continue, print a backtrace or quit (`-ex run`, `-o run`),
/// with no command file: it runs its program and nothing else. Any other command of its own
/// (`-ex '!…'`, `-o 'platform shell …'`) stays the debugger's, judged as its script.
fn plain_debugger(words: &[Arg], command_flags: &[&str]) -> bool {
    const PLAIN: [&str; 12] = [
        "run",
        "r",
        "start",
        "starti",
        "continue",
        "c",
        "bt",
        "backtrace",
        "quit",
        "q",
        "kill",
        "process launch",
    ];
    let files = [
        "-x",
        "--command",
        "-ix",
        "-iex",
        "-s",
        "-S",
        "-O",
        "-k",
        "-K",
        "--source",
    ];
    let mut i = 1;
    while let Some(a) = words.get(i) {
        let t = a.text.as_str();
        if files.contains(&t) || t.starts_with("--command=") || t.starts_with("--eval-command=") {
            return false;
        }
        if command_flags.contains(&t) {
            let value = words.get(i + 1).map_or("", |v| v.text.as_str());
            if !PLAIN.contains(&value.trim()) {
                return false;
            }
            i += 1;
        }
        i += 1;
    }
    true
}

fn sub_is(args: &[Arg], sub: &str) -> bool {
    args.get(1).is_some_and(|a| a.text == sub)
}

fn with_env(
    label: &str,
    skip: usize,
    env: Vec<(String, String)>,
    clear: bool,
    args: &[Arg],
) -> Peel {
    if skip >= args.len() {
        return Peel::Program;
    }
    Peel::Wrap {
        label: label.to_owned(),
        skip,
        env,
        clear_env: clear,
    }
}

fn script(label: &str, from: usize, single: bool, args: &[Arg]) -> Peel {
    if from >= args.len() {
        return Peel::Program;
    }
    Peel::Script {
        label: label.to_owned(),
        from,
        single,
    }
}

fn commands(label: &str, from: usize, sep: &'static str, args: &[Arg]) -> Peel {
    if from >= args.len() {
        return Peel::Program;
    }
    Peel::Commands {
        label: label.to_owned(),
        from,
        sep,
    }
}

/// Where the value of `-c VALUE` / `-cVALUE`… / `--command VALUE` sits: the index of the word
/// holding it (a combined `-cVALUE` is not followed; rare and then the program stays).
fn option_value(args: &[Arg], short: char, long: &str) -> Option<usize> {
    let flag = format!("-{short}");
    let long_flag = format!("--{long}");
    args.iter()
        .position(|a| a.text == flag || a.text == long_flag)
        .map(|i| i + 1)
        .filter(|&i| i < args.len())
}

/// `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=value…] [COMMAND…]`.
fn env(args: &[Arg]) -> Peel {
    let long = &["unset", "chdir", "split-string"];
    let start = after_options(args, 1, "uCSP", long);
    if let Some(split) = split_string(args, start.min(args.len())) {
        return split;
    }
    let clear = has_flag(args, start, "i", &["ignore-environment"])
        || args[1..start.min(args.len())].iter().any(|a| a.text == "-");
    let (end, env) = assignments(args, start);
    with_env("env", end, env, clear, args)
}

/// env's `-S STRING` among its options `args[1..end]`: `-S STR`, `-SSTR`, `-iS STR`,
/// `--split-string STR`, `--split-string=STR`.
fn split_string(args: &[Arg], end: usize) -> Option<Peel> {
    let split = |at: usize, end: usize, keep: Option<String>, value: Arg| Peel::Split {
        label: "env -S".to_owned(),
        at,
        end,
        keep,
        value,
    };
    for (i, a) in args.iter().enumerate().take(end).skip(1) {
        let t = a.text.as_str();
        if let Some(v) = t.strip_prefix("--split-string=") {
            let value = Arg {
                text: v.to_owned(),
                ..a.clone()
            };
            return Some(split(i, i + 1, None, value));
        }
        if t == "--split-string" {
            return Some(split(i, i + 2, None, args.get(i + 1)?.clone()));
        }
        let Some(cluster) = t.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
            continue;
        };
        // The first letter that takes a value ends the cluster: `-uS` unsets `S`.
        let Some((pos, c)) = cluster.char_indices().find(|(_, c)| "uCSP".contains(*c)) else {
            continue;
        };
        if c != 'S' {
            continue;
        }
        let keep = (pos > 0).then(|| format!("-{}", &cluster[..pos]));
        let joined = &cluster[pos + 1..];
        if joined.is_empty() {
            return Some(split(i, i + 2, keep, args.get(i + 1)?.clone()));
        }
        let value = Arg {
            text: joined.to_owned(),
            ..a.clone()
        };
        return Some(split(i, i + 1, keep, value));
    }
    None
}

/// Where bubblewrap's command starts: its options are all long, and take none, one or more
/// values (`--bind SRC DEST`, `--overlay RWSRC WORKDIR DEST`).
fn bwrap_command(args: &[Arg]) -> usize {
    const TWO: &[&str] = &[
        "bind",
        "bind-try",
        "dev-bind",
        "dev-bind-try",
        "ro-bind",
        "ro-bind-try",
        "symlink",
        "setenv",
        "file",
        "bind-data",
        "ro-bind-data",
        "chmod",
    ];
    const ONE: &[&str] = &[
        "args",
        "argv0",
        "uid",
        "gid",
        "hostname",
        "chdir",
        "unsetenv",
        "lock-file",
        "sync-fd",
        "userns",
        "userns2",
        "pidns",
        "exec-label",
        "file-label",
        "proc",
        "dev",
        "tmpfs",
        "mqueue",
        "dir",
        "remount-ro",
        "seccomp",
        "add-seccomp-fd",
        "block-fd",
        "userns-block-fd",
        "info-fd",
        "json-status-fd",
        "cap-add",
        "cap-drop",
        "perms",
        "size",
        "overlay-src",
        "tmp-overlay",
        "ro-overlay",
    ];
    let mut i = 1;
    while let Some(name) = args.get(i).and_then(|a| a.text.strip_prefix("--")) {
        if name.is_empty() {
            return i + 1;
        }
        i += 1 + match name {
            "overlay" => 3,
            n if TWO.contains(&n) => 2,
            n if ONE.contains(&n) => 1,
            _ => 0,
        };
    }
    i
}

/// `flock [opts] FILE COMMAND…` or `flock [opts] FILE -c STRING`; `flock FD` is no wrapper.
fn flock(args: &[Arg]) -> Peel {
    let file = after_options(args, 1, "wE", &["timeout", "conflict-exit-code"]);
    let next = file + 1;
    match args.get(next).map(|a| a.text.as_str()) {
        Some("-c" | "--command") => script("flock", next + 1, true, args),
        _ => wrap("flock", next, args),
    }
}

/// `npx [opts] PKG ARGS…`, `pnpm dlx …`: `-c STRING` runs a script instead.
fn package(label: &str, args: &[Arg], start: usize) -> Peel {
    if let Some(i) = option_value(args, 'c', "call") {
        return script(label, i, true, args);
    }
    let index = after_options(args, start, "p", &["package"]);
    if index >= args.len() {
        return Peel::Program;
    }
    // `npm exec --package=URL -- x` runs x from the package at URL: the label keeps the specs,
    // which the remote-code guard reads.
    let mut label = label.to_owned();
    for spec in package_specs(&args[start..index]) {
        label.push_str(" --package=");
        label.push_str(spec);
    }
    Peel::Package { label, index }
}

/// `-p SPEC`, `--package SPEC`, `--package=SPEC` among a runner's options.
fn package_specs(options: &[Arg]) -> Vec<&str> {
    let mut out = Vec::new();
    for (i, a) in options.iter().enumerate() {
        let t = a.text.as_str();
        if let Some(v) = t.strip_prefix("--package=") {
            out.push(v);
        } else if t == "-p" || t == "--package" {
            out.extend(options.get(i + 1).map(|n| n.text.as_str()));
        }
    }
    out
}

/// The binary a package runs by default: `@scope/tool@1.2` runs `tool`.
pub(super) fn package_binary(spec: &str) -> &str {
    let unscoped = match spec.strip_prefix('@') {
        Some(rest) => rest.split_once('/').map_or(rest, |(_, name)| name),
        None => spec,
    };
    unscoped.split('@').next().unwrap_or(unscoped)
}

/// The directory a wrapper runs its command in (`env -C DIR`, `env --chdir=DIR`, `sudo -D DIR`,
/// `unshare -w DIR`), among the wrapper's own words `words` (program first).
pub(super) fn chdir(words: &[Arg]) -> Option<Arg> {
    let (short, long) = match basename(&words.first()?.text) {
        "env" => ("-C", "--chdir"),
        "sudo" => ("-D", "--chdir"),
        "unshare" => ("-w", "--wd"),
        "systemd-run" => return unit_dir(words),
        _ => return None,
    };
    let mut found = None;
    for (i, a) in words.iter().enumerate().skip(1) {
        let t = a.text.as_str();
        let joined = t
            .strip_prefix(long)
            .and_then(|v| v.strip_prefix('='))
            .or_else(|| t.strip_prefix(short).filter(|v| !v.is_empty()));
        if t == short || t == long {
            found = words.get(i + 1).cloned();
        } else if let Some(dir) = joined {
            found = Some(Arg {
                text: dir.to_owned(),
                ..a.clone()
            });
        }
    }
    found
}

/// Where `systemd-run CMD` runs: a service starts in `/` (a user service in the home), unless
/// `--working-directory=DIR`, `--same-dir` (`-d`) or `--scope` (run from the caller) says
/// otherwise.
fn unit_dir(words: &[Arg]) -> Option<Arg> {
    let mut dir = None;
    for (i, a) in words.iter().enumerate().skip(1) {
        let t = a.text.as_str();
        if t == "-d" || t == "--same-dir" || t == "--scope" {
            return None;
        }
        if let Some(d) = t.strip_prefix("--working-directory=") {
            dir = Some(Arg::literal(d));
        } else if t == "--working-directory" {
            dir = words.get(i + 1).cloned();
        }
    }
    let user = words.iter().any(|a| a.text == "--user");
    dir.or_else(|| Some(Arg::literal(if user { "~" } else { "/" })))
}
