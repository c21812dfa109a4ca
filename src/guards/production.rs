//! Production safeguard: pushes that may reach a protected branch and mutations of clusters,
//! infrastructure, services and package registries, whatever the flag order; read-only forms
//! (`kubectl get`, `terraform plan`, `helm template`) stay allowed. Also gateway changes.

use super::argv::{args, has_flag, operands, program, GIT_VALUED};
use super::{show, Subject};
use crate::shell::{Arg, Command};

mod clis;
mod containers;
mod databases;
mod firewalls;
mod frameworks;
mod http;
mod process_managers;
mod pushes;
mod remote;
mod services;

/// Branches a push to which reaches production or the public: the default branches
/// (`trunk` in trunk-based repositories), the deployed ones, and `gh-pages`, which GitHub
/// Pages serves as the live site.
const PROTECTED_BRANCHES: [&str; 8] = [
    "main",
    "master",
    "trunk",
    "prod",
    "production",
    "release",
    "live",
    "gh-pages",
];

pub fn check(s: &Subject) -> Option<String> {
    s.commands().find_map(|(_, _, c)| {
        let why = command(c)?;
        Some(format!("`{}` {why}", show(c)))
    })
}

fn command(c: &Command) -> Option<&'static str> {
    let a = args(c);
    // `bundle exec cap production deploy`, `bundle exec rails db:drop`: Bundler runs the
    // program with the project's gems, as itself.
    if program(c) == "bundle" && a.first().is_some_and(|x| x.text == "exec") && a.len() > 1 {
        let inner = Command {
            argv: a[1..].to_vec(),
            ..c.clone()
        };
        return command(&inner);
    }
    // Spellings of the same program: `git-push` (git's exec-path), `python -m twine`,
    // `cargo +nightly publish`, `docker-compose`, `/etc/init.d/nginx stop`.
    let prog = program(c);
    let module = (prog.starts_with("python") && a.first().is_some_and(|x| x.text == "-m"))
        .then(|| a.get(1).map(|m| m.text.as_str()))
        .flatten();
    let a = if module.is_some() {
        a.get(2..).unwrap_or(&[])
    } else {
        a
    };
    let a = match a.first() {
        Some(t) if prog == "cargo" && t.text.starts_with('+') => &a[1..],
        _ => a,
    };
    if c.argv
        .first()
        .is_some_and(|p| p.text.starts_with("/etc/init.d/"))
    {
        return a.first().and_then(|v| {
            SYSTEMCTL_MUTATING
                .contains(&v.text.as_str())
                .then_some("changes a running service")
        });
    }
    let known = match module.unwrap_or(unversioned(prog)) {
        "git-push" | "git-send-pack" => Some("pushes with git's own push binary"),
        "git" => git(a),
        "pulumi" => first_in(
            a,
            &["-s", "--stack", "-C", "--cwd"],
            &["up", "update", "destroy", "import", "refresh", "cancel"],
        )
        .then_some("changes infrastructure"),
        "skopeo" => {
            first_in(a, &[], &["copy", "sync", "delete"]).then_some("publishes or deletes an image")
        }
        "docker-compose" => containers::compose(a),
        "kubectl" | "oc" | "k3s" | "microk8s" | "microk8s.kubectl" | "minikube" | "kubecolor"
        | "k" => kubectl(a),
        "helm" => first_in(
            a,
            &[
                "-n",
                "--namespace",
                "--kube-context",
                "--kubeconfig",
                "--kube-token",
                "--kube-apiserver",
                "--kube-as-user",
                "--registry-config",
                "--repository-config",
            ],
            // helm's aliases: `un`, `del`, `delete` for uninstall (helm-uninstall(1)).
            &[
                "install",
                "upgrade",
                "uninstall",
                "un",
                "del",
                "delete",
                "rollback",
                "push",
            ],
        )
        .then_some("changes a Helm release")
        .filter(|_| !dry_run(a)),
        "terraform" | "tofu" | "terragrunt" => terraform(a),
        "docker" | "podman" => docker(a, remote_daemon_var(c)),
        "nerdctl" => containers::nerdctl(a),
        "jj" => pushes::jj(a),
        "sl" => pushes::sapling(a),
        "systemctl" | "service" => systemctl(prog, a),
        // `shutdown -c` cancels a pending shutdown.
        "shutdown" if has_flag(a, &['c'], &[]) => None,
        "shutdown" | "reboot" | "poweroff" | "halt" => Some("stops the machine"),
        "npm" | "pnpm" | "yarn" | "bun" | "cargo" | "gem" | "twine" | "poetry" => publish(a),
        _ => None,
    };
    // Each reader is given the program's name as read here: it is the first thing each
    // looks at, and most commands are none of theirs.
    known
        .or_else(|| clis::mutation(c, prog))
        .or_else(|| firewalls::change(c, prog))
        .or_else(|| services::change(c, prog))
        .or_else(|| process_managers::change(c, prog))
        .or_else(|| frameworks::change(c, prog))
        .or_else(|| databases::change(c, prog))
        .or_else(|| remote::change(c, prog))
        .or_else(|| http::mutation(c, prog))
}

/// Variables that choose where a program acts, which the shell model keeps on its command
/// as wrappers `NAME=VALUE` (`shell::setup`): the Docker daemon, git's repository and config
/// (`guards::git`), the Rails or Mix environment a database task runs in, and the index a
/// package manager installs from (`guards::remote_code`).
/// Each with the variables it brings along (looked up only when it is given).
pub fn target_vars(prog: &str) -> &'static [(&'static str, &'static [&'static str])] {
    match prog {
        "npm" | "pnpm" | "yarn" | "bun" | "npx" | "pip" | "pip3" | "uv" => {
            &super::remote_code::REGISTRY_VARS
        }
        "docker" | "podman" => &[("DOCKER_HOST", &[]), ("DOCKER_CONTEXT", &[])],
        "git" => &super::git::ENV_VARS,
        "rails" | "rake" | "bundle" => &databases::RAILS_VARS,
        "mix" => &[("MIX_ENV", &[])],
        "pm2" => &[("NODE_ENV", &[])],
        _ => frameworks::target_vars(prog),
    }
}

/// The names that mean production, as a branch (`PROTECTED_BRANCHES`) or as an environment.
const PRODUCTION_NAMES: [&str; 3] = ["production", "prod", "live"];

/// Environments that are production by name (`RAILS_ENV=production`, `--env prod`).
fn production_env(name: &str) -> bool {
    PRODUCTION_NAMES
        .iter()
        .any(|p| name.eq_ignore_ascii_case(p))
}

/// A name that says production in one of its parts: a settings module
/// (`app.settings.production`), a config file (`config/prod.json`, `alembic.prod.ini`), an
/// app (`api-live`), a database address (`postgres://db.prod.internal/app`). A name glued
/// into another word (`preprod`, `reproduce`, `delivery`) is not one.
fn names_production(text: &str) -> bool {
    text.split(|ch: char| !ch.is_ascii_alphanumeric())
        .any(production_env)
}

/// terraform's, OpenTofu's and Terragrunt's commands that change what they manage: `apply`,
/// `destroy`, `import`, `taint`, …, and the `state` subcommands that rewrite the state
/// (`rm`, `mv`, `push`, `replace-provider`); `state list|show|pull` only read it.
/// Terragrunt runs a command over many modules (`run-all apply`, `run --all apply`,
/// `apply-all`).
fn terraform(a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &["-chdir", "--terragrunt-working-dir"]);
    let ops = match ops.first().map(|v| v.text.as_str()) {
        Some("run-all" | "run") => &ops[1..],
        _ => &ops[..],
    };
    let verb = ops.first()?.text.as_str();
    let changes = match verb {
        "apply" | "destroy" | "import" | "taint" | "untaint" | "force-unlock" | "apply-all"
        | "destroy-all" => true,
        "state" => ops.get(1).is_some_and(|v| {
            matches!(
                v.text.as_str(),
                "rm" | "mv" | "push" | "replace-provider" | "import"
            )
        }),
        _ => false,
    };
    changes.then_some("changes infrastructure")
}

/// The first operand (after options whose value is the next word) is one of `verbs`.
fn first_in(a: &[Arg], valued: &[&str], verbs: &[&str]) -> bool {
    operands(a, valued)
        .first()
        .is_some_and(|v| verbs.contains(&v.text.as_str()))
}

fn git(a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &GIT_VALUED);
    if ops.first().is_some_and(|v| v.text == "send-pack") {
        return Some("pushes refs with git send-pack");
    }
    // `git config remote.origin.push feat:main`, and `-c remote.origin.push=feat:main` on
    // any git command, map a plain push as the stored setting does.
    if config_maps_push(a) {
        return Some(MAPS_PUSH);
    }
    if ops.first()?.text != "push" {
        return None;
    }
    let start = a.iter().position(|x| x.text == "push")? + 1;
    let push = &a[start..];
    // --force and --delete matter through the branch they reach (below); these reach all.
    if has_flag(push, &[], &["all", "mirror", "prune", "branches"]) {
        return Some("pushes every branch");
    }
    let refs = operands(
        push,
        &["-o", "--push-option", "--repo", "--receive-pack", "--exec"],
    );
    // `git push` and `git push origin` push the current branch to its upstream: maybe main.
    let Some(specs) = refs.get(1..).filter(|r| !r.is_empty()) else {
        return Some("pushes to the upstream of the current branch, which may be protected");
    };
    specs
        .iter()
        .any(|r| reaches_protected(r))
        .then_some("pushes to a protected branch or a release tag")
}

const MAPS_PUSH: &str =
    "maps later pushes to a protected branch or a release tag (remote.<name>.push)";

/// `remote.<name>.push` set to a refspec whose destination is protected, as `git config KEY
/// VALUE` (kept for every later push: `git push origin feat` then updates main) or as
/// `-c KEY=VALUE`. Only the destination decides: `feat:feat` maps nothing protected.
fn config_maps_push(a: &[Arg]) -> bool {
    // Compared in place: this runs for every git command's every word.
    let is_key = |k: &str| {
        let b = k.as_bytes();
        b.len() > 12
            && b[..7].eq_ignore_ascii_case(b"remote.")
            && b[b.len() - 5..].eq_ignore_ascii_case(b".push")
    };
    a.iter().enumerate().any(|(i, x)| {
        let t = x.text.as_str();
        if let Some((k, v)) = t.split_once('=') {
            return is_key(k) && reaches_protected(&Arg::literal(v));
        }
        is_key(t) && a.get(i + 1).is_some_and(reaches_protected)
    })
}

/// A tag a release pipeline publishes: `v9.9.9`, `1.2.0`, `refs/tags/…`.
fn release_tag(dst: &str) -> bool {
    if dst.starts_with("refs/tags/") {
        return true;
    }
    let v = dst.strip_prefix('v').unwrap_or(dst);
    v.starts_with(|ch: char| ch.is_ascii_digit())
        && v.contains('.')
        && v.chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '-' | '+'))
}

/// `kubectl-1.29`, `kubectl1.28`, `helm-3.14`, `terraform_1.6`: a versioned copy kept next to
/// others is the same program. Plugins (`kubectl-neat`) have a name, not a number, after it.
fn unversioned(prog: &str) -> &str {
    for base in ["kubectl", "helm", "terraform"] {
        let Some(rest) = prog.strip_prefix(base) else {
            continue;
        };
        let rest = rest
            .trim_start_matches(['-', '_', '.'])
            .trim_start_matches('v');
        if rest.starts_with(|ch: char| ch.is_ascii_digit())
            && rest.chars().all(|ch| ch.is_ascii_digit() || ch == '.')
        {
            return base;
        }
    }
    prog
}

/// `src:dst` pushes to dst, a bare name to the branch of that name, `:dst` deletes dst; `HEAD`
/// is the current branch, which may be a protected one.
pub(super) fn reaches_protected(spec: &Arg) -> bool {
    if spec.unresolved || spec.pattern {
        return true;
    }
    let dst = spec
        .text
        .rsplit(':')
        .next()
        .unwrap_or("")
        .trim_start_matches('+');
    let dst = dst.strip_prefix("refs/heads/").unwrap_or(dst);
    // A wildcard refspec (`refs/heads/*:refs/heads/*`) pushes every branch it matches.
    dst.is_empty()
        || dst.contains('*')
        || dst == "HEAD"
        || dst.starts_with('@')
        || PROTECTED_BRANCHES.contains(&dst)
        || dst.starts_with("release/")
        || release_tag(dst)
}

/// kubectl's global options that take the next word (`kubectl options`): any of them may
/// stand before the verb, and its value (`--as-uid get delete …`) is no verb.
const KUBECTL_VALUED: [&str; 30] = [
    "-v",
    "--v",
    "-n",
    "--namespace",
    "--context",
    "--cluster",
    "--kubeconfig",
    "--user",
    "-s",
    "--server",
    "--token",
    "-l",
    "--selector",
    "--as",
    "--as-uid",
    "--as-group",
    "--tls-server-name",
    "--profile",
    "--profile-output",
    "--certificate-authority",
    "--client-certificate",
    "--client-key",
    "--cache-dir",
    "--request-timeout",
    "--username",
    "--password",
    "--log-dir",
    "--log-file",
    "--vmodule",
    "--kuberc",
];
const KUBECTL_MUTATING: [&str; 23] = [
    "certificate",
    "apply",
    "create",
    "delete",
    "patch",
    "replace",
    "edit",
    "scale",
    "rollout",
    "set",
    "label",
    "annotate",
    "drain",
    "cordon",
    "uncordon",
    "taint",
    "expose",
    "run",
    "autoscale",
    "exec",
    "cp",
    // A debug container or an attached terminal runs commands in the workload.
    "debug",
    "attach",
];

/// `kubectl …`, and the same through a distribution's copy (`k3s kubectl`, `microk8s kubectl`,
/// `minikube kubectl -- …`) or a wrapper (`kubecolor`, a `k` link).
fn kubectl(a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &KUBECTL_VALUED);
    let ops = match ops.first() {
        Some(k) if k.text == "kubectl" => &ops[1..],
        _ => &ops[..],
    };
    let verb = ops.first()?.text.as_str();
    let reconciles = verb == "auth" && ops.get(1).is_some_and(|v| v.text == "reconcile");
    // `rollout status` and `rollout history` only read; `undo`, `restart`, `pause`, `resume`
    // change the workload.
    let reads_rollout = verb == "rollout"
        && ops
            .get(1)
            .is_some_and(|v| matches!(v.text.as_str(), "status" | "history"));
    let mutates = (KUBECTL_MUTATING.contains(&verb) || reconciles) && !reads_rollout;
    (mutates && !dry_run(a)).then_some("changes a Kubernetes cluster")
}

/// `--dry-run`, `--dry-run=client|server` (kubectl, helm): nothing is changed. `=none` is a
/// real run.
fn dry_run(a: &[Arg]) -> bool {
    a.iter().take_while(|x| x.text != "--").any(|x| {
        let t = x.text.as_str();
        t == "--dry-run" || t.strip_prefix("--dry-run=").is_some_and(|v| v != "none")
    })
}

/// Docker's global options that take the next word.
pub(super) const DOCKER_VALUED: [&str; 7] = [
    "-H",
    "--host",
    "--context",
    "-c",
    "--config",
    "-l",
    "--log-level",
];

/// Verbs that only read a Docker daemon's state.
pub(super) const DOCKER_READS: [&str; 12] = [
    "ps", "ls", "images", "image", "inspect", "logs", "version", "info", "stats", "top", "events",
    "history",
];

/// `DOCKER_HOST=…`/`DOCKER_CONTEXT=…` given to the command (kept as a wrapper by the shell
/// model), unless it names the local socket or the default context.
fn remote_daemon_var(c: &Command) -> bool {
    c.wrappers.iter().any(|w| {
        let value = (w.strip_prefix("DOCKER_HOST=")).or_else(|| w.strip_prefix("DOCKER_CONTEXT="));
        value.is_some_and(|v| {
            !matches!(
                v,
                "" | "default" | "unix:///var/run/docker.sock" | "unix:///run/docker.sock"
            )
        })
    })
}

pub(super) fn docker(a: &[Arg], remote_var: bool) -> Option<&'static str> {
    let ops = operands(a, &DOCKER_VALUED);
    // A daemon named on the command line is somebody else's machine: anything but a read.
    // Only docker's own options before the verb name one: after it, `-c`, `-H` belong to the
    // verb or to the command run in a container (`docker exec db psql -c …`).
    let verb_at = (ops.first())
        .and_then(|v| a.iter().position(|x| std::ptr::eq(x, *v)))
        .unwrap_or(a.len());
    // podman's `--remote`/`-r`, `--url`, `--connection`/`-c` talk to another machine's
    // service as docker's `-H` does.
    let remote = remote_var
        || a[..verb_at].iter().any(|x| {
            matches!(
                x.text.as_str(),
                "-H" | "--host" | "--context" | "-c" | "--remote" | "-r" | "--url" | "--connection"
            ) || x.text.starts_with("--host=")
                || x.text.starts_with("--context=")
                || x.text.starts_with("--url=")
                || x.text.starts_with("--connection=")
                || x.text.starts_with("--remote=")
        });
    if remote
        && ops
            .first()
            .is_some_and(|v| !DOCKER_READS.contains(&v.text.as_str()))
    {
        return Some("changes containers on a remote Docker daemon");
    }
    let words: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
    // The current context is kept in the docker config: every later docker command, in this
    // line or the next call, goes to that daemon while looking local.
    if let ["context", "use", name, ..] = words.as_slice() {
        return (*name != "default")
            .then_some("points every later docker command at another daemon");
    }
    // `docker update --cpus 0.01 --restart=no api` changes a running container's limits and
    // restart policy: a service's configuration, never part of a build.
    if matches!(
        words.as_slice(),
        ["update", ..] | ["container", "update", ..]
    ) {
        return Some("changes a running container's limits or restart policy");
    }
    let pushes = match words.as_slice() {
        ["push", ..] => true,
        ["image" | "manifest" | "trust", "push", ..] => true,
        ["buildx" | "build", ..] => a.iter().any(|x| {
            x.text == "--push" || x.text.contains("push=true") || x.text.contains("type=registry")
        }),
        ["compose", ..] => {
            return containers::compose(&a[a.iter().position(|x| x.text == "compose")? + 1..])
        }

        ["stack" | "service" | "swarm" | "secret" | "config", verb, ..] => {
            !matches!(*verb, "ls" | "ps" | "inspect" | "logs")
        }
        _ => false,
    };
    pushes.then_some("publishes an image or changes a swarm")
}

/// `freeze` stops every process of a unit (cgroup freezer) until `thaw`; `set-property`
/// and `revert` change a unit's limits (`CPUQuota=1%`) while it runs.
const SYSTEMCTL_MUTATING: [&str; 21] = [
    "freeze",
    "thaw",
    "set-property",
    "revert",
    "kexec",
    "soft-reboot",
    "force-reload",
    "start",
    "stop",
    "restart",
    "reload",
    "try-restart",
    "reload-or-restart",
    "kill",
    "disable",
    "enable",
    "mask",
    "isolate",
    "poweroff",
    "reboot",
    "halt",
];

fn systemctl(prog: &str, a: &[Arg]) -> Option<&'static str> {
    let ops = operands(
        a,
        &[
            "-H",
            "--host",
            "-M",
            "--machine",
            "-s",
            "--signal",
            "--kill-whom",
            "-n",
            "--lines",
            "-o",
            "--output",
        ],
    );
    let verb = if prog == "service" {
        ops.get(1)
    } else {
        ops.first()
    }?;
    SYSTEMCTL_MUTATING
        .contains(&verb.text.as_str())
        .then_some("changes a running service")
}

/// npm runs any unambiguous prefix of a command (`npm pub`, `npm publ`): the ones of its
/// registry verbs, from three letters, name the verb. Other package managers take whole words,
/// and no other command of theirs begins with these prefixes.
fn abbreviation_of(verb: &str) -> &str {
    let full = ["publish", "unpublish", "deprecate"];
    match full.iter().find(|f| verb.len() >= 3 && f.starts_with(verb)) {
        Some(f) => f,
        None => verb,
    }
}

fn publish(a: &[Arg]) -> Option<&'static str> {
    let valued = [
        "--registry",
        "--otp",
        "--tag",
        "--access",
        "--repository",
        "--filter",
        "-w",
        "--workspace",
    ];
    let ops = operands(a, &valued);
    // `yarn npm publish` (berry) names the registry family first.
    let verb = match ops.first().map(|o| o.text.as_str()) {
        Some("npm") => ops.get(1),
        _ => ops.first(),
    }?;
    // `npm access set status=public|grant|revoke`: who may publish, and whether a private
    // package becomes public; `access list|get` only read.
    let access = verb.text == "access"
        && ops.iter().any(|o| {
            matches!(
                o.text.as_str(),
                "set"
                    | "grant"
                    | "revoke"
                    | "public"
                    | "restricted"
                    | "2fa-required"
                    | "2fa-not-required"
            )
        });
    let publishing = access
        || matches!(
            abbreviation_of(&verb.text),
            "publish"
                | "unpublish"
                | "deprecate"
                | "push"
                | "upload"
                | "yank"
                | "dist-tag"
                | "owner"
        );
    let dry = a
        .iter()
        .any(|x| x.text == "--dry-run" || x.text == "-n" && verb.text == "publish");
    (publishing && !dry).then_some("publishes to a package registry")
}
