//! The container CLIs' own grammar (docker-run(1), podman-run(1), nerdctl's docker-compatible
//! `run`): which words are options and their values, which is the image, and what follows it
//! (the command the container runs). Only what decides where a container reaches the host is
//! kept: bind mounts, `--volumes-from`, the working directory, the entrypoint, the name, and
//! the variables passed through from the host.

use crate::guards::argv::listed;
use crate::shell::Arg;

/// A launch of a container the guards follow into.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    /// `-v SRC:DST`, `--mount type=bind,source=SRC,target=DST`: host source as written, and
    /// the path it has inside the container.
    pub mounts: Vec<(Arg, String)>,
    /// `--volumes-from NAME[:ro]`: every mount of that container.
    pub volumes_from: Vec<String>,
    pub workdir: Option<String>,
    pub name: Option<String>,
    /// `docker exec NAME …`: the container already running.
    pub exec_into: Option<String>,
    /// The entrypoint and command, as the container runs them (the image's own entrypoint is
    /// not known and stands aside).
    pub command: Vec<Arg>,
    /// `-e NAME` without a value: the host's variable handed in.
    pub passed_env: Vec<String>,
}

/// The container CLI's verb and where it stands.
pub enum Verb {
    /// `run`, `create` (also `container run|create`): options, image, command.
    Run(usize),
    /// `exec` (also `container exec`): options, container, command.
    Exec(usize),
    /// `compose …` (the words after `compose`), or `docker-compose …` (all of them).
    Compose(usize),
}

/// Options of docker, podman and nerdctl themselves (before the verb) that take a value.
const GLOBAL_VALUED: [&str; 30] = [
    "-H",
    "--host",
    "-c",
    "--context",
    "--config",
    "-l",
    "--log-level",
    "--tlscacert",
    "--tlscert",
    "--tlskey",
    "--connection",
    "--url",
    "--root",
    "--runroot",
    "--storage-driver",
    "--storage-opt",
    "--cgroup-manager",
    "--events-backend",
    "--hooks-dir",
    "--identity",
    "--imagestore",
    "--runtime",
    "--tmpdir",
    "--volumepath",
    "-n",
    "--namespace",
    "-a",
    "--address",
    "--snapshotter",
    "--data-root",
];

/// Options of `run`/`create` (docker's, podman's and nerdctl's) that take the next word.
const RUN_VALUED: [&str; 117] = [
    "-a",
    "-c",
    "-e",
    "-h",
    "-l",
    "-m",
    "-p",
    "-u",
    "-v",
    "-w",
    "--add-host",
    "--annotation",
    "--arch",
    "--attach",
    "--authfile",
    "--blkio-weight",
    "--blkio-weight-device",
    "--cap-add",
    "--cap-drop",
    "--cgroup-conf",
    "--cgroup-parent",
    "--cgroupns",
    "--cgroups",
    "--chrootdirs",
    "--cidfile",
    "--conmon-pidfile",
    "--cpu-count",
    "--cpu-percent",
    "--cpu-period",
    "--cpu-quota",
    "--cpu-rt-period",
    "--cpu-rt-runtime",
    "--cpu-shares",
    "--cpus",
    "--cpuset-cpus",
    "--cpuset-mems",
    "--decryption-key",
    "--detach-keys",
    "--device",
    "--device-cgroup-rule",
    "--device-read-bps",
    "--device-read-iops",
    "--device-write-bps",
    "--device-write-iops",
    "--dns",
    "--dns-opt",
    "--dns-option",
    "--dns-search",
    "--domainname",
    "--entrypoint",
    "--env",
    "--env-file",
    "--expose",
    "--gidmap",
    "--gpus",
    "--group-add",
    "--health-cmd",
    "--health-interval",
    "--health-retries",
    "--health-start-interval",
    "--health-start-period",
    "--health-timeout",
    "--hostname",
    "--hostuser",
    "--init-path",
    "--ip",
    "--ip6",
    "--ipc",
    "--isolation",
    "--kernel-memory",
    "--label",
    "--label-file",
    "--link",
    "--link-local-ip",
    "--log-driver",
    "--log-opt",
    "--mac-address",
    "--memory",
    "--memory-reservation",
    "--memory-swap",
    "--memory-swappiness",
    "--mount",
    "--name",
    "--net",
    "--network",
    "--network-alias",
    "--oom-score-adj",
    "--os",
    "--pid",
    "--pidfile",
    "--pids-limit",
    "--platform",
    "--pod",
    "--pod-id-file",
    "--publish",
    "--pull",
    "--restart",
    "--runtime",
    "--secret",
    "--security-opt",
    "--shm-size",
    "--stop-signal",
    "--stop-timeout",
    "--storage-opt",
    "--sysctl",
    "--tmpfs",
    "--tz",
    "--uidmap",
    "--ulimit",
    "--umask",
    "--unsetenv",
    "--user",
    "--userns",
    "--uts",
    "--volume",
    "--volumes-from",
    "--workdir",
];

/// Options of `exec` that take the next word.
const EXEC_VALUED: [&str; 12] = [
    "-e",
    "-u",
    "-w",
    "--env",
    "--env-file",
    "--user",
    "--workdir",
    "--detach-keys",
    "--preserve-fd",
    "--preserve-fds",
    "--index",
    "--cidfile",
];

/// Where the verb is in `a` (the words after the program), for the verbs that run a command.
pub fn verb(program: &str, a: &[Arg]) -> Option<Verb> {
    if matches!(program, "docker-compose" | "podman-compose") {
        return Some(Verb::Compose(0));
    }
    let mut i = 0;
    while let Some(w) = a.get(i) {
        let t = w.text.as_str();
        if !t.starts_with('-') {
            break;
        }
        i += if listed(&GLOBAL_VALUED, t) { 2 } else { 1 };
    }
    let first = a.get(i)?.text.as_str();
    let (word, at) = match first {
        "container" => (a.get(i + 1)?.text.as_str(), i + 1),
        _ => (first, i),
    };
    match word {
        "run" | "create" => Some(Verb::Run(at + 1)),
        "exec" => Some(Verb::Exec(at + 1)),
        "compose" if at == i => Some(Verb::Compose(at + 1)),
        _ => None,
    }
}

/// `run`/`create` options from `from`, the image, and the command after it.
pub fn run(a: &[Arg], from: usize) -> Run {
    let mut out = Run::default();
    let end = options(a, from, &RUN_VALUED, &mut out);
    // The entrypoint (`--entrypoint`), then the command after the image.
    let mut command = std::mem::take(&mut out.command);
    command.extend(a.get(end + 1..).unwrap_or_default().iter().cloned());
    out.command = command;
    out
}

/// `exec` options from `from`, the container, and the command after it.
pub fn exec(a: &[Arg], from: usize) -> Run {
    let mut out = Run::default();
    let end = options(a, from, &EXEC_VALUED, &mut out);
    out.exec_into = a.get(end).map(|c| c.text.clone());
    out.command = a.get(end + 1..).unwrap_or_default().to_vec();
    out
}

/// Reads options from `from` into `out` (an entrypoint goes into `out.command`); returns the
/// index of the first operand.
fn options(a: &[Arg], from: usize, valued: &[&'static str], out: &mut Run) -> usize {
    let mut i = from;
    while let Some(w) = a.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            return i + 1;
        }
        if !t.starts_with('-') || t == "-" {
            return i;
        }
        let (name, inline) = split_option(t, valued);
        let value = match inline {
            Some(v) => Some(Arg {
                text: v.to_string(),
                ..w.clone()
            }),
            None if listed(valued, name) => {
                i += 1;
                a.get(i).cloned()
            }
            None => None,
        };
        if let Some(v) = value {
            take(name, v, out);
        }
        i += 1;
    }
    i
}

/// `--name=value`, `-vSRC:DST` (a short option with its value attached), `-itv` (a cluster
/// whose last letter takes the next word): the option's name and the value in the word.
fn split_option<'t>(t: &'t str, valued: &[&'static str]) -> (&'t str, Option<&'t str>) {
    if t.starts_with("--") {
        return match t.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (t, None),
        };
    }
    // The first letter of a cluster that takes a value takes the rest of the word, or the
    // next word when it is the last letter.
    for (k, ch) in t.char_indices().skip(1) {
        if let Some(&short) = valued.iter().find(|v| v.len() == 2 && v.ends_with(ch)) {
            let rest = &t[k + ch.len_utf8()..];
            return (short, (!rest.is_empty()).then_some(rest));
        }
    }
    (t, None)
}

/// Keeps what an option says about where the container reaches the host.
fn take(name: &str, value: Arg, out: &mut Run) {
    match name {
        "-v" | "--volume" => out.mounts.extend(volume(&value)),
        "--mount" => out.mounts.extend(mount(&value)),
        "--volumes-from" => {
            let from = value.text.split(':').next().unwrap_or_default();
            out.volumes_from.push(from.to_string());
        }
        "-w" | "--workdir" => out.workdir = Some(value.text),
        "--name" => out.name = Some(value.text),
        "--entrypoint" => out.command = entrypoint(value),
        "-e" | "--env" if !value.text.contains('=') => out.passed_env.push(value.text),
        _ => {}
    }
}

/// `-v SRC:DST[:OPTS]`: a bind mount when SRC is a host path (absolute, relative with `.`,
/// `~`, or computed), a named volume otherwise (kept by the daemon, not the host's files).
pub fn volume(spec: &Arg) -> Option<(Arg, String)> {
    let (source, rest) = spec.text.split_once(':')?;
    let target = rest.split(':').next().unwrap_or_default();
    let host = source.starts_with(['/', '.', '~', '*']) || source.is_empty() && spec.unresolved;
    (host && target.starts_with('/')).then(|| {
        let source = Arg {
            text: source.to_string(),
            ..spec.clone()
        };
        (source, target.to_string())
    })
}

/// `--mount type=bind,source=SRC,target=DST[,readonly]` (`src`, `dst`, `destination` too):
/// only `type=bind` is the host's files (the default type is a volume).
pub fn mount(spec: &Arg) -> Option<(Arg, String)> {
    let (mut bind, mut source, mut target) = (false, None, None);
    for field in spec.text.split(',') {
        let (k, v) = field.split_once('=').unwrap_or((field, ""));
        match k {
            "type" => bind = v == "bind",
            "source" | "src" => source = Some(v),
            "target" | "destination" | "dst" => target = Some(v),
            _ => {}
        }
    }
    let (source, target) = (source?, target?);
    bind.then(|| {
        let source = Arg {
            text: source.to_string(),
            ..spec.clone()
        };
        (source, target.to_string())
    })
}

/// `--entrypoint sh`, or podman's JSON form `--entrypoint '["sh","-c"]'`.
fn entrypoint(value: Arg) -> Vec<Arg> {
    let listed = value
        .text
        .starts_with('[')
        .then(|| serde_json::from_str::<Vec<String>>(&value.text).ok())
        .flatten();
    match listed {
        Some(words) => words.iter().map(|w| Arg::literal(w)).collect(),
        None => vec![value],
    }
}
