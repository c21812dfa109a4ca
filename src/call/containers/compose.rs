//! `docker compose up|run|create|start|restart|exec` (and `docker-compose`, `podman compose`,
//! `podman-compose`) of a compose file the session wrote: each service it starts is the
//! `docker run` its keys amount to (compose-file(5): `image`, `command`, `entrypoint`,
//! `working_dir`, `volumes` short and long syntax, `volumes_from`, `privileged`, `pid`,
//! `cap_add`), so the container guards and the host-access check judge it as they judge the
//! command line. A compose file no call of the session wrote is not read (the guards read no
//! files); one written with text only known when it runs is unknown.

use super::yaml::{self, Node};
use crate::guards::argv::listed;
use crate::shell::{Arg, Command, Written};

/// The files compose reads without `-f`, in its order; the override files add to them.
const DEFAULT_FILES: [&str; 6] = [
    "compose.yaml",
    "compose.yml",
    "docker-compose.yaml",
    "docker-compose.yml",
    "compose.override.yaml",
    "docker-compose.override.yml",
];

/// compose's own options (before the verb) that take the next word.
const GLOBAL_VALUED: [&str; 9] = [
    "-f",
    "--file",
    "-p",
    "--project-name",
    "--project-directory",
    "--profile",
    "--env-file",
    "--ansi",
    "--progress",
];

/// Options of `compose run` and `compose exec` that take the next word.
const RUN_VALUED: [&str; 20] = [
    "-e",
    "--env",
    "-l",
    "--label",
    "--name",
    "-p",
    "--publish",
    "-u",
    "--user",
    "-v",
    "--volume",
    "-w",
    "--workdir",
    "--entrypoint",
    "--cap-add",
    "--cap-drop",
    "--pull",
    "--index",
    "--env-from-file",
    "--detach-keys",
];

/// What a compose call asks for: its files, and for `run`/`exec` the service, the command that
/// replaces the service's, and the options that add to it.
#[derive(Debug, Default)]
struct Call<'a> {
    files: Vec<&'a str>,
    services: Vec<&'a str>,
    command: Vec<Arg>,
    extra: Vec<Arg>,
}

/// What the compose call `c` (words `a`, compose's own from `from`) starts, as `docker run`
/// command lines; `Err(file)` when a file it reads was written with text only known when it
/// runs. Nothing when no file it reads is one the session wrote.
pub fn runs(
    c: &Command,
    a: &[Arg],
    from: usize,
    written: &[Written],
) -> Result<Vec<Command>, String> {
    let Some(call) = call(a, from) else {
        return Ok(Vec::new());
    };
    let names: Vec<&str> = match call.files.is_empty() {
        true => DEFAULT_FILES.to_vec(),
        false => call.files.clone(),
    };
    let mut out = Vec::new();
    for name in names {
        let text = match name {
            "-" | "/dev/stdin" => c.stdin_text.clone(),
            _ => match written_text(name, written) {
                Some(Some(t)) => Some(t),
                Some(None) => return Err(name.to_string()),
                None => None,
            },
        };
        let Some(text) = text else { continue };
        let root = yaml::parse(&text);
        let Some(Node::Map(services)) = root.get("services") else {
            continue;
        };
        for (service, keys) in services {
            let wanted = call.services.is_empty() || call.services.contains(&service.as_str());
            if wanted {
                out.push(docker_run(c, service, keys, &call));
            }
        }
    }
    Ok(out)
}

fn written_text(name: &str, written: &[Written]) -> Option<Option<String>> {
    let base = crate::paths::basename(name);
    (written.iter().rev())
        .find(|(k, _)| k == base)
        .map(|(_, t)| t.clone())
}

/// compose's files, verb and (for `run`/`exec`) service and command.
fn call(a: &[Arg], from: usize) -> Option<Call<'_>> {
    let mut out = Call::default();
    let mut i = from;
    while let Some(w) = a.get(i) {
        let t = w.text.as_str();
        if !t.starts_with('-') {
            break;
        }
        let value = match t.split_once('=') {
            Some((name, v)) if name.starts_with("--") => Some((name, v)),
            _ if listed(&GLOBAL_VALUED, t) => {
                i += 1;
                a.get(i).map(|v| (t, v.text.as_str()))
            }
            _ => None,
        };
        if let Some(("-f" | "--file", f)) = value {
            out.files.push(f);
        }
        i += 1;
    }
    let verb = a.get(i)?.text.as_str();
    let rest = a.get(i + 1..).unwrap_or_default();
    match verb {
        "up" | "create" | "start" | "restart" => {
            out.services = (rest.iter())
                .map(|w| w.text.as_str())
                .filter(|t| !t.starts_with('-'))
                .collect();
        }
        "run" | "exec" => {
            let mut k = 0;
            while let Some(w) = rest.get(k) {
                let t = w.text.as_str();
                if !t.starts_with('-') {
                    break;
                }
                let takes = listed(&RUN_VALUED, t);
                if matches!(t, "-v" | "--volume" | "-w" | "--workdir" | "--entrypoint") {
                    out.extra.push(w.clone());
                    out.extra.extend(rest.get(k + 1).cloned());
                } else if t.starts_with("--volume=")
                    || t.starts_with("--workdir=")
                    || t.starts_with("--entrypoint=")
                {
                    out.extra.push(w.clone());
                }
                k += if takes { 2 } else { 1 };
            }
            let service = rest.get(k)?;
            out.services = vec![service.text.as_str()];
            out.command = rest.get(k + 1..).unwrap_or_default().to_vec();
        }
        _ => return None,
    }
    Some(out)
}

/// The `docker run` a service amounts to, run where the compose call runs (relative sources
/// are the project directory's, which is where compose is run from).
fn docker_run(c: &Command, service: &str, keys: &Node, call: &Call) -> Command {
    let lit = |t: &str| Arg::literal(t);
    let mut argv = vec![lit("docker"), lit("run"), lit("--name"), lit(service)];
    if keys.get("privileged").and_then(Node::text) == Some("true") {
        argv.push(lit("--privileged"));
    }
    for (key, flag) in [
        ("pid", "--pid"),
        ("userns_mode", "--userns"),
        ("ipc", "--ipc"),
    ] {
        if let Some(v) = keys.get(key).and_then(Node::text) {
            argv.push(lit(&format!("{flag}={v}")));
        }
    }
    for cap in scalars(keys.get("cap_add")) {
        argv.push(lit(&format!("--cap-add={cap}")));
    }
    for v in items(keys.get("volumes")) {
        match v {
            Node::Scalar(short) => argv.extend([lit("-v"), interpolate(short)]),
            long => {
                let field = |k: &str| long.get(k).and_then(Node::text).unwrap_or("");
                let spec = format!(
                    "type={},source={},target={}",
                    field("type"),
                    field("source"),
                    field("target")
                );
                argv.extend([lit("--mount"), interpolate(&spec)]);
            }
        }
    }
    for from in scalars(keys.get("volumes_from")) {
        let name = from.strip_prefix("container:").unwrap_or(from);
        argv.extend([lit("--volumes-from"), lit(name)]);
    }
    if let Some(dir) = keys.get("working_dir").and_then(Node::text) {
        argv.extend([lit("-w"), interpolate(dir)]);
    }
    argv.extend(call.extra.iter().cloned());
    let image = keys.get("image").and_then(Node::text).unwrap_or("build");
    argv.push(lit(image));
    let overridden = call
        .extra
        .iter()
        .any(|w| w.text.starts_with("--entrypoint"));
    if !overridden {
        argv.extend(words(keys.get("entrypoint")));
    }
    match call.command.is_empty() {
        true => argv.extend(words(keys.get("command"))),
        false => argv.extend(call.command.iter().cloned()),
    }
    Command {
        argv,
        wrappers: vec!["compose".to_string()],
        depth: c.depth + 1,
        cwd: c.cwd.clone(),
        ..Command::default()
    }
}

fn items(n: Option<&Node>) -> &[Node] {
    match n {
        Some(Node::List(items)) => items,
        _ => &[],
    }
}

fn scalars(n: Option<&Node>) -> impl Iterator<Item = &str> {
    items(n).iter().filter_map(Node::text)
}

/// `command`/`entrypoint`: a list of words, or a string compose splits as a shell would
/// (without running one).
fn words(n: Option<&Node>) -> Vec<Arg> {
    match n {
        Some(Node::List(items)) => (items.iter())
            .filter_map(Node::text)
            .map(interpolate)
            .collect(),
        Some(Node::Scalar(s)) => split(s).iter().map(|w| interpolate(w)).collect(),
        _ => Vec::new(),
    }
}

/// Words of a command string: blanks separate them, quotes group, a backslash escapes.
fn split(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(ch) = chars.next() {
        match (ch, quote) {
            (q, Some(open)) if q == open => quote = None,
            ('\\', q) if q != Some('\'') => {
                cur.get_or_insert_with(String::new).extend(chars.next())
            }
            ('"' | '\'', None) => {
                quote = Some(ch);
                cur.get_or_insert_with(String::new);
            }
            (c, None) if c.is_whitespace() => out.extend(cur.take()),
            (c, _) => cur.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(cur);
    out
}

/// compose's interpolation (`$VAR`, `${VAR}`, `${VAR:-default}`, `$$`): `HOME` is the home
/// (`~`, which the path resolver knows), `PWD` where compose runs; any other variable is only
/// known when it runs, and stands as `*` of a pattern, as the shell model writes one.
fn interpolate(s: &str) -> Arg {
    let mut text = String::new();
    let mut unresolved = false;
    let mut rest = s;
    while let Some(at) = rest.find('$') {
        text.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(more) = after.strip_prefix('$') {
            text.push('$');
            rest = more;
            continue;
        }
        let (name, next) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(end) => (&inner[..end], &inner[end + 1..]),
                None => (inner, ""),
            },
            None => {
                let end = after
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        let var = name.split([':', '-', '?', '+']).next().unwrap_or(name);
        match var {
            "" => text.push('$'),
            "HOME" => text.push('~'),
            "PWD" => text.push('.'),
            _ => {
                text.push('*');
                unresolved = true;
            }
        }
        rest = next;
    }
    text.push_str(rest);
    Arg {
        text,
        pattern: unresolved,
        unresolved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(c: &Command) -> Vec<&str> {
        c.argv.iter().map(|a| a.text.as_str()).collect()
    }

    #[test]
    fn a_service_is_the_docker_run_it_amounts_to() {
        let file = "services:\n  x:\n    image: alpine\n    volumes: ['${HOME}:/h']\n    working_dir: /h\n    command: sh -c \"rm -rf /h/docs\"\n";
        let written = vec![("compose.yaml".to_string(), Some(file.to_string()))];
        let a: Vec<Arg> = ["compose", "up", "-d"]
            .iter()
            .map(|w| Arg::literal(w))
            .collect();
        let c = Command::default();
        let runs = runs(&c, &a, 1, &written).expect("known");
        assert_eq!(
            texts(&runs[0]),
            [
                "docker",
                "run",
                "--name",
                "x",
                "-v",
                "~:/h",
                "-w",
                "/h",
                "alpine",
                "sh",
                "-c",
                "rm -rf /h/docs"
            ]
        );
        let unknown = vec![("compose.yaml".to_string(), None)];
        assert!(super::runs(&c, &a, 1, &unknown).is_err());
    }

    #[test]
    fn run_replaces_the_command_and_adds_mounts() {
        let file = "services:\n  app:\n    image: node\n  db:\n    image: postgres\n";
        let written = vec![("dc.yml".to_string(), Some(file.to_string()))];
        let a: Vec<Arg> = [
            "-f", "dc.yml", "run", "--rm", "-v", "/:/host", "app", "ls", "/host",
        ]
        .iter()
        .map(|w| Arg::literal(w))
        .collect();
        let runs = runs(&Command::default(), &a, 0, &written).expect("known");
        assert_eq!(runs.len(), 1);
        assert_eq!(
            texts(&runs[0]),
            ["docker", "run", "--name", "app", "-v", "/:/host", "node", "ls", "/host"]
        );
    }

    #[test]
    fn command_strings_split_as_compose_does() {
        assert_eq!(
            split(r#"sh -c "a b" 'c d' e\ f"#),
            ["sh", "-c", "a b", "c d", "e f"]
        );
        assert_eq!(interpolate("${PWD}/x:/w").text, "./x:/w");
        assert!(interpolate("$DATA:/d").unresolved);
        assert_eq!(interpolate("a$$b").text, "a$b");
    }
}
