//! Deploy, cloud, release and service CLIs beyond the ones `production.rs` reads argv for:
//! their commands that deploy, publish, merge, delete or stop something others rely on
//! (`gh pr merge`, `argocd app sync`, `aws ec2 terminate-instances`, `gcloud run deploy`,
//! `cdk destroy`, `mvn deploy`, `pg_ctl stop`, `redis-cli flushall`), each from the
//! vendor's CLI reference. Their read-only forms (`gh pr view`, `aws s3 ls`, `cdk diff`,
//! `./gradlew publishToMavenLocal`, `ansible-playbook --check`) stay allowed.

use crate::guards::argv::{args, given, option_values, plain_words, says};
use crate::shell::{Arg, Command};

/// When a command of a CLI changes what others rely on.
enum When {
    /// These words, one after another among the words that are no option.
    Says(&'static [&'static str]),
    /// Any word that is no option is one of these.
    AnyWord(&'static [&'static str]),
    /// Any word that is no option begins with one of these (`aws … delete-stack`).
    AnyPrefix(&'static [&'static str]),
    /// The words, and one of the flags.
    SaysWith(&'static [&'static str], &'static [&'static str]),
    /// Always, unless one of the flags (a check mode, a local target).
    Unless(&'static [&'static str]),
    /// The words, unless one of the flags (`deno publish --dry-run`).
    SaysUnless(&'static [&'static str], &'static [&'static str]),
}

struct Mutation {
    programs: &'static [&'static str],
    when: When,
    why: &'static str,
}

pub(super) const DEPLOYS: &str = "deploys or removes infrastructure or an application";
pub(super) const PUBLISHES: &str = "publishes a package, image or release";
pub(super) const REPO: &str = "merges, releases or deletes in a hosted repository";
pub(super) const SERVICE: &str = "stops or changes a running service";
pub(super) const DATA: &str = "destroys a database's data";
const SECRETS: &str = "changes a repository's secrets or variables, which its deploys read";

use When::{AnyPrefix, AnyWord, Says, SaysUnless, SaysWith, Unless};

const MUTATIONS: &[Mutation] = &[
    m(&["gh"], Says(&["pr", "merge"]), REPO),
    m(&["gh"], Says(&["workflow", "run"]), REPO),
    m(&["gh"], Says(&["release", "create"]), REPO),
    m(&["gh"], Says(&["release", "delete"]), REPO),
    m(&["gh"], Says(&["repo", "delete"]), REPO),
    m(&["gh"], Says(&["repo", "archive"]), REPO),
    // A repository's Actions secrets and variables reach its deploys.
    m(&["gh"], Says(&["secret", "set"]), SECRETS),
    m(&["gh"], Says(&["secret", "delete"]), SECRETS),
    m(&["gh"], Says(&["secret", "remove"]), SECRETS),
    m(&["gh"], Says(&["variable", "set"]), SECRETS),
    m(&["gh"], Says(&["variable", "delete"]), SECRETS),
    m(&["glab"], Says(&["variable", "set"]), SECRETS),
    m(&["glab"], Says(&["variable", "delete"]), SECRETS),
    m(&["glab"], Says(&["mr", "merge"]), REPO),
    m(&["glab"], Says(&["release", "create"]), REPO),
    m(&["glab"], Says(&["repo", "delete"]), REPO),
    m(&["git"], Says(&["subtree", "push"]), "pushes a subtree"),
    // Other ways of landing commits on the shared trunk: git-town's `ship` merges the branch
    // into the main branch and pushes it; `git svn dcommit` and `git p4 submit` commit to the
    // Subversion or Perforce server, which has no branch of the agent's own.
    m(&["git"], Says(&["town", "ship"]), REPO),
    m(&["git-town"], AnyWord(&["ship"]), REPO),
    m(&["git"], Says(&["svn", "dcommit"]), REPO),
    m(&["git"], Says(&["p4", "submit"]), REPO),
    // Gitea's CLI: `tea pulls merge` (aliases `pull`, `pr`) merges on the server.
    m(&["tea"], AnyWord(&["merge"]), REPO),
    m(&["tea"], Says(&["releases", "create"]), REPO),
    m(&["tea"], Says(&["releases", "delete"]), REPO),
    m(&["tea"], Says(&["repos", "delete"]), REPO),
    // `gh repo sync --force` hard-resets the destination branch to the source's.
    m(&["gh"], SaysWith(&["repo", "sync"], &["--force"]), REPO),
    m(
        &["argocd"],
        AnyWord(&["sync", "rollback", "terminate-op"]),
        DEPLOYS,
    ),
    m(&["argocd"], SaysWith(&["app", "delete"], &[]), DEPLOYS),
    m(
        &["flux"],
        AnyWord(&["reconcile", "suspend", "resume", "delete", "bootstrap"]),
        DEPLOYS,
    ),
    m(
        &["helmfile"],
        AnyWord(&["apply", "sync", "destroy", "delete"]),
        DEPLOYS,
    ),
    m(
        &["skaffold"],
        AnyWord(&["run", "deploy", "delete", "apply"]),
        DEPLOYS,
    ),
    m(&["kapp"], AnyWord(&["deploy", "delete"]), DEPLOYS),
    // `tilt up` applies the Tiltfile's resources to the current cluster.
    m(&["tilt"], AnyWord(&["up", "down", "ci"]), DEPLOYS),
    m(&["velero"], Says(&["restore", "create"]), DEPLOYS),
    m(&["velero"], AnyWord(&["delete", "uninstall"]), DEPLOYS),
    m(
        &["railway"],
        AnyWord(&["up", "deploy", "down", "redeploy", "delete"]),
        DEPLOYS,
    ),
    m(
        &["railway"],
        SaysWith(&["variables"], &["--set", "-s"]),
        DEPLOYS,
    ),
    m(&["copilot"], AnyWord(&["deploy", "delete"]), DEPLOYS),
    m(&["copilot"], SaysWith(&["init"], &["--deploy"]), DEPLOYS),
    m(&["doctl"], AnyWord(&DOCTL_MUTATING), DEPLOYS),
    m(&["gsutil"], AnyWord(&["rm", "rb", "mv"]), DEPLOYS),
    m(&["gsutil"], SaysWith(&["rsync"], &["-d"]), DEPLOYS),
    m(&["cdk", "cdktf"], AnyWord(&["deploy", "destroy"]), DEPLOYS),
    m(&["sam"], AnyWord(&["deploy", "delete", "sync"]), DEPLOYS),
    m(
        &["serverless", "sls"],
        AnyWord(&["deploy", "remove", "rollback"]),
        DEPLOYS,
    ),
    m(
        &["terraform", "tofu"],
        Says(&["workspace", "delete"]),
        DEPLOYS,
    ),
    m(&["aws"], AnyPrefix(&AWS_MUTATING), DEPLOYS),
    m(&["aws"], Says(&["s3", "rb"]), DEPLOYS),
    m(&["aws"], Says(&["s3", "rm"]), DEPLOYS),
    m(&["aws"], Says(&["s3", "mv"]), DEPLOYS),
    m(&["aws"], SaysWith(&["s3", "sync"], &["--delete"]), DEPLOYS),
    m(&["aws"], Says(&["cloudformation", "deploy"]), DEPLOYS),
    m(&["gcloud"], AnyWord(&GCLOUD_MUTATING), DEPLOYS),
    m(&["az"], AnyWord(&AZ_MUTATING), DEPLOYS),
    m(&["fly", "flyctl"], AnyWord(&FLY_MUTATING), DEPLOYS),
    m(&["netlify"], AnyWord(&["sites:delete"]), DEPLOYS),
    m(
        &["netlify"],
        SaysWith(&["deploy"], &["--prod", "--prodIfUnlocked"]),
        DEPLOYS,
    ),
    m(&["firebase"], AnyWord(&FIREBASE_MUTATING), DEPLOYS),
    m(
        &["wrangler"],
        AnyWord(&["deploy", "publish", "delete", "rollback", "put"]),
        DEPLOYS,
    ),
    m(&["heroku"], AnyWord(&HEROKU_MUTATING), DEPLOYS),
    m(
        &["eb"],
        AnyWord(&["deploy", "terminate", "swap", "scale", "restore", "setenv"]),
        DEPLOYS,
    ),
    m(
        &["ansible-playbook"],
        Unless(&[
            "--check",
            "-C",
            "--syntax-check",
            "--list-hosts",
            "--list-tasks",
        ]),
        DEPLOYS,
    ),
    m(
        &["nomad"],
        AnyWord(&[
            "run", "stop", "revert", "dispatch", "drain", "purge", "scale", "promote",
        ]),
        DEPLOYS,
    ),
    m(
        &["kamal"],
        AnyWord(&[
            "deploy", "redeploy", "rollback", "remove", "setup", "stop", "restart",
        ]),
        DEPLOYS,
    ),
    m(&["buildah"], AnyWord(&["push"]), PUBLISHES),
    m(
        &["crane", "gcrane"],
        AnyWord(&[
            "push", "copy", "cp", "delete", "tag", "mutate", "append", "rebase",
        ]),
        PUBLISHES,
    ),
    m(&["skopeo"], AnyWord(&["copy", "delete", "sync"]), PUBLISHES),
    m(&["mvn", "mvnw"], AnyWord(&MAVEN_PUBLISHING), PUBLISHES),
    m(
        &["uv", "hatch", "flit", "pdm"],
        AnyWord(&["publish"]),
        PUBLISHES,
    ),
    m(&["dotnet"], AnyWord(&["push"]), PUBLISHES),
    m(&["lein"], AnyWord(&["deploy", "release"]), PUBLISHES),
    m(
        &["pod"],
        AnyWord(&["push", "delete", "deprecate", "add-owner", "remove-owner"]),
        PUBLISHES,
    ),
    m(&["conan"], AnyWord(&["upload"]), PUBLISHES),
    m(
        &["conan"],
        SaysWith(&["remove"], &["-r", "--remote"]),
        PUBLISHES,
    ),
    // JFrog CLI: `jf rt upload|u`, `delete|del`, `move|mv`, `build-publish|bp`, …
    m(&["jf", "jfrog"], AnyWord(&JFROG_MUTATING), PUBLISHES),
    m(
        &["release-it"],
        Unless(&[
            "--dry-run",
            "-d",
            "--help",
            "-h",
            "--version",
            "-v",
            "--release-version",
            "--changelog",
        ]),
        PUBLISHES,
    ),
    m(
        &["np"],
        Unless(&["--preview", "--help", "--version"]),
        PUBLISHES,
    ),
    m(
        &["lerna", "changeset", "vsce", "ovsx"],
        AnyWord(&["publish"]),
        PUBLISHES,
    ),
    m(
        &["semantic-release"],
        Unless(&["--dry-run", "-d"]),
        PUBLISHES,
    ),
    m(
        &["pg_ctl"],
        AnyWord(&["stop", "restart", "kill", "promote"]),
        SERVICE,
    ),
    m(
        &["invoke-rc.d", "rc-service", "update-rc.d"],
        AnyWord(&["stop", "restart", "reload", "disable", "remove", "zap"]),
        SERVICE,
    ),
    // Key-value and secret stores others' services read their data and settings from; their
    // reads (`etcdctl get`, `consul kv get`, `vault secrets list`) stay allowed.
    m(&["etcdctl"], AnyWord(&["del", "rm", "rmdir"]), DATA),
    m(&["etcdctl"], Says(&["member", "remove"]), SERVICE),
    m(&["consul"], Says(&["kv", "delete"]), DATA),
    m(&["consul"], Says(&["snapshot", "restore"]), DATA),
    m(&["consul"], Says(&["services", "deregister"]), SERVICE),
    m(
        &["consul"],
        Says(&["operator", "raft", "remove-peer"]),
        SERVICE,
    ),
    m(&["vault"], Says(&["secrets", "disable"]), DATA),
    m(&["vault"], Says(&["secrets", "move"]), DATA),
    m(&["vault"], Says(&["auth", "disable"]), DATA),
    m(&["vault"], Says(&["kv", "delete"]), DATA),
    m(&["vault"], Says(&["kv", "destroy"]), DATA),
    m(&["vault"], Says(&["metadata", "delete"]), DATA),
    m(&["vault"], Says(&["policy", "delete"]), DATA),
    m(&["vault"], Says(&["lease", "revoke"]), DATA),
    m(&["vault"], Says(&["operator", "seal"]), SERVICE),
    m(&["hcloud"], AnyWord(&HCLOUD_MUTATING), DEPLOYS),
    // Kubernetes' own container runtime: every container crictl sees is a pod's, so removing
    // or stopping one is a change to the cluster behind kubelet's back.
    m(
        &["crictl"],
        AnyWord(&["rm", "rmp", "stop", "stopp", "rmi", "exec", "update"]),
        SERVICE,
    ),
    // containerd's admin CLI: tasks are running containers, whoever started them (Kubernetes
    // in `-n k8s.io`, Docker in `moby`).
    m(&["ctr"], Says(&["tasks", "kill"]), SERVICE),
    m(&["ctr"], Says(&["t", "kill"]), SERVICE),
    m(&["ctr"], Says(&["tasks", "rm"]), SERVICE),
    m(&["ctr"], Says(&["tasks", "delete"]), SERVICE),
    m(&["ctr"], Says(&["containers", "rm"]), SERVICE),
    m(&["ctr"], Says(&["containers", "delete"]), SERVICE),
    m(&["ctr"], Says(&["c", "rm"]), SERVICE),
    m(&["ctr"], Says(&["snapshots", "rm"]), SERVICE),
    // Virtual machines and system containers, which run services rather than a build:
    // LXD/Incus, libvirt, Vagrant, Multipass.
    m(&["lxc", "incus"], AnyWord(&["delete", "rebuild"]), SERVICE),
    m(&["virsh"], AnyWord(&VIRSH_MUTATING), SERVICE),
    m(&["vagrant"], AnyWord(&["destroy"]), SERVICE),
    m(&["multipass"], AnyWord(&["delete", "purge"]), SERVICE),
    // Registries of other ecosystems; each one's dry run stays allowed.
    m(
        &["deno"],
        SaysUnless(&["publish"], &["--dry-run"]),
        PUBLISHES,
    ),
    m(
        &["dart", "flutter"],
        SaysUnless(&["pub", "publish"], &["--dry-run", "-n"]),
        PUBLISHES,
    ),
    m(
        &["anaconda"],
        AnyWord(&["upload", "remove", "copy", "move"]),
        PUBLISHES,
    ),
    m(&["maturin"], AnyWord(&["publish", "upload"]), PUBLISHES),
];

/// libvirt's verbs that stop, delete or change a domain, volume, pool or network.
const VIRSH_MUTATING: [&str; 14] = [
    "destroy",
    "undefine",
    "shutdown",
    "reboot",
    "reset",
    "suspend",
    "managedsave",
    "vol-delete",
    "vol-wipe",
    "pool-destroy",
    "pool-delete",
    "pool-undefine",
    "net-destroy",
    "net-undefine",
];

/// Hetzner Cloud: `server delete|poweroff|rebuild`, `volume detach`, … (`list`, `describe`
/// read).
const HCLOUD_MUTATING: [&str; 12] = [
    "create",
    "delete",
    "update",
    "poweroff",
    "shutdown",
    "reset",
    "reboot",
    "rebuild",
    "change-type",
    "detach",
    "disable-protection",
    "apply",
];

/// aws operations that create, change or delete (`describe-`, `list-`, `get-` read).
/// `send-command` (SSM) and `execute-command` (ECS) run commands on the instances or
/// containers they name.
const AWS_MUTATING: [&str; 20] = [
    "send-command",
    "execute-command",
    "delete-",
    "terminate-",
    "remove-",
    "update-",
    "put-",
    "create-",
    "modify-",
    "reboot-",
    "stop-",
    "start-",
    "deregister-",
    "detach-",
    "revoke-",
    "disable-",
    "reset-",
    "restore-",
    "replace-",
    "purge-",
];

const GCLOUD_MUTATING: [&str; 16] = [
    "rm",
    "deploy",
    "delete",
    "create",
    "update",
    "patch",
    "stop",
    "reset",
    "resize",
    "rollback",
    "restart",
    "set-iam-policy",
    "add-iam-policy-binding",
    "remove-iam-policy-binding",
    "undelete",
    "import",
];

const AZ_MUTATING: [&str; 13] = [
    "delete",
    "delete-batch",
    "create",
    "update",
    "deploy",
    "stop",
    "restart",
    "purge",
    "remove",
    "start",
    "swap",
    "scale",
    "up",
];

/// DigitalOcean: `apps create-deployment`, `compute droplet delete`, `droplet-action
/// power-off`, … (`list`, `get` read).
const DOCTL_MUTATING: [&str; 13] = [
    "create",
    "create-deployment",
    "delete",
    "rm",
    "update",
    "deploy",
    "power-off",
    "shutdown",
    "reboot",
    "rebuild",
    "restore",
    "resize",
    "power-cycle",
];

const JFROG_MUTATING: [&str; 16] = [
    "upload",
    "u",
    "delete",
    "del",
    "move",
    "mv",
    "copy",
    "cp",
    "build-publish",
    "bp",
    "build-promote",
    "bpr",
    "docker-push",
    "dp",
    "publish",
    "set-props",
];

const FLY_MUTATING: [&str; 10] = [
    "deploy", "destroy", "scale", "restart", "stop", "suspend", "set", "unset", "import",
    "rollback",
];

const FIREBASE_MUTATING: [&str; 8] = [
    "deploy",
    "hosting:disable",
    "functions:delete",
    "firestore:delete",
    "database:remove",
    "database:set",
    "database:update",
    "database:push",
];

const HEROKU_MUTATING: [&str; 16] = [
    "apps:destroy",
    "destroy",
    "releases:rollback",
    "rollback",
    "ps:scale",
    "ps:stop",
    "ps:restart",
    "ps:kill",
    "config:set",
    "config:unset",
    "addons:destroy",
    "pg:reset",
    "pg:push",
    "pg:promote",
    "maintenance:on",
    "run",
];

const MAVEN_PUBLISHING: [&str; 4] = [
    "deploy",
    "release:perform",
    "release:prepare",
    "deploy:deploy-file",
];

const fn m(programs: &'static [&'static str], when: When, why: &'static str) -> Mutation {
    Mutation {
        programs,
        when,
        why,
    }
}

/// Programs `special` reads.
const SPECIAL: [&str; 17] = [
    "gh",
    "gradle",
    "gradlew",
    "vercel",
    "nginx",
    "ansible",
    "ko",
    "psql",
    "mysql",
    "mariadb",
    "mongosh",
    "sqlcmd",
    "sbt",
    "mix",
    "redis-cli",
    "goreleaser",
    "gcloud",
];

/// The table's rows by program, and the programs `special` reads (with no rows of their
/// own, if any): most commands are none of these, and are let go before their words are
/// looked at; `git`, which has a row, is judged by its one row instead of a scan of the table.
fn rows(prog: &str) -> Option<&'static [usize]> {
    static ROWS: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<usize>>> =
        std::sync::OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        let mut rows: rustc_hash::FxHashMap<&'static str, Vec<usize>> = Default::default();
        for (i, m) in MUTATIONS.iter().enumerate() {
            for &p in m.programs {
                rows.entry(p).or_default().push(i);
            }
        }
        for p in SPECIAL.into_iter().chain(["mongo"]) {
            rows.entry(p).or_default();
        }
        rows
    });
    rows.get(prog).map(Vec::as_slice)
}

/// Why the command changes production, if it does.
pub fn mutation(c: &Command, prog: &str) -> Option<&'static str> {
    let rows = rows(prog)?;
    let a = args(c);
    let plain = plain_words(a);
    if let Some(why) = special(prog, a, &plain) {
        return Some(why);
    }
    if local_gcloud_or_az(prog, &plain) {
        return None;
    }
    (rows.iter().map(|&i| &MUTATIONS[i]))
        .find(|m| holds(&m.when, a, &plain))
        .map(|m| m.why)
}

fn holds(when: &When, a: &[Arg], plain: &[&str]) -> bool {
    match when {
        Says(words) => says(plain, words),
        AnyWord(words) => plain.iter().any(|w| words.contains(w)),
        AnyPrefix(prefixes) => plain
            .iter()
            .any(|w| prefixes.iter().any(|p| w.starts_with(p))),
        SaysWith(words, flags) => says(plain, words) && (flags.is_empty() || given(a, flags)),
        Unless(flags) => !given(a, flags),
        SaysUnless(words, flags) => says(plain, words) && !given(a, flags),
    }
}

/// `gcloud config set`, `gcloud auth login`, `az account set`, `az login`: the CLI's own
/// settings on this machine.
fn local_gcloud_or_az(prog: &str, plain: &[&str]) -> bool {
    let first = plain.first().copied().unwrap_or("");
    match prog {
        "gcloud" => matches!(first, "config" | "auth" | "components" | "init" | "info"),
        "az" => matches!(
            first,
            "account" | "login" | "logout" | "config" | "extension"
        ),
        _ => false,
    }
}

/// Commands whose condition is more than words: `gh api` with a writing method, Gradle's
/// publish tasks, Vercel's production deploys, `nginx -s`, ansible ad-hoc modules, SQL that
/// drops data.
fn special(prog: &str, a: &[Arg], plain: &[&str]) -> Option<&'static str> {
    match prog {
        "gh" if plain.first() == Some(&"api") => gh_api_writes(a).then_some(REPO),
        "gradle" | "gradlew" => plain
            .iter()
            .map(|w| w.rsplit(':').next().unwrap_or(w))
            .any(|t| t.starts_with("publish") && !t.ends_with("MavenLocal"))
            .then_some(PUBLISHES),
        "vercel" => {
            let prod = a
                .iter()
                .any(|x| matches!(x.text.as_str(), "--prod" | "--production"));
            let removes = matches!(
                plain.first(),
                Some(&("remove" | "rm" | "rollback" | "promote"))
            );
            (prod || removes).then_some(DEPLOYS)
        }
        "nginx" => option_values(a, Some("-s"), "--signal")
            .iter()
            .any(|s| matches!(*s, "stop" | "quit"))
            .then_some(SERVICE),
        "ansible" => ansible_changes(a).then_some(DEPLOYS),
        // ko pushes what it builds unless told to keep it local.
        "ko" => {
            let local = a.iter().any(|x| {
                matches!(x.text.as_str(), "--push=false" | "-L" | "--local")
                    || x.text.starts_with("--local=true")
            });
            let builds = matches!(
                plain.first(),
                Some(&("build" | "publish" | "apply" | "create" | "resolve"))
            );
            (builds && !local).then_some(PUBLISHES)
        }
        "psql" | "mysql" | "mariadb" | "mongosh" | "mongo" | "sqlcmd" => {
            drops_data(prog, a).then_some(DATA)
        }
        "sbt" => sbt_publishes(plain).then_some(PUBLISHES),
        "redis-cli" => redis_destroys(plain).then_some(DATA),
        "goreleaser" => goreleaser_publishes(a, plain).then_some(PUBLISHES),
        // `gcloud compute ssh prod-1 --command …`: a shell on a production VM, as `ssh`.
        "gcloud" => (says(plain, &["compute", "ssh"])
            && plain.iter().skip(2).any(|w| super::names_production(w)))
        .then_some(super::remote::FLEET),
        // `mix hex.publish`, `hex.retire`, `hex.owner add`; `--dry-run` builds only.
        "mix" => {
            let hex = plain.iter().any(|w| {
                matches!(
                    *w,
                    "hex.publish" | "hex.retire" | "hex.owner" | "hex.revert"
                )
            });
            (hex && !given(a, &["--dry-run"])).then_some(PUBLISHES)
        }
        _ => None,
    }
}

/// sbt's commands, each word a command or several (`sbt "clean; +publishSigned"`): the
/// publishing ones (`publish`, `publishSigned`, `+publish`, `sonatypeBundleRelease`,
/// `release`, `ci-release`), not `publishLocal`/`publishM2`.
fn sbt_publishes(plain: &[&str]) -> bool {
    (plain.iter().flat_map(|w| w.split([';', ' '])))
        .map(|c| c.trim().trim_start_matches('+'))
        .map(|c| c.rsplit('/').next().unwrap_or(c))
        .any(|c| {
            c.starts_with("publish") && !matches!(c, "publishLocal" | "publishM2")
                || c.starts_with("sonatype") && c.contains("Release")
                || matches!(c, "release" | "ci-release")
        })
}

/// Redis takes its commands in any case (`FLUSHDB`, `flushall`), and a Lua script run by
/// `EVAL`/`EVALSHA`/`FCALL` calls them as `redis.call('flushall')`.
fn redis_destroys(plain: &[&str]) -> bool {
    let destroys = |w: &str| {
        ["flushall", "flushdb", "shutdown"]
            .iter()
            .any(|d| w.eq_ignore_ascii_case(d))
    };
    let scripted = plain.iter().any(|w| {
        ["eval", "eval_ro", "evalsha", "fcall", "function"]
            .iter()
            .any(|e| w.eq_ignore_ascii_case(e))
    });
    plain.iter().any(|w| destroys(w))
        || scripted
            && plain.iter().any(|w| {
                let l = w.to_ascii_lowercase();
                l.contains("flushall") || l.contains("flushdb")
            })
}

/// `goreleaser` and `goreleaser release` publish the release and its artifacts, unless
/// `--snapshot` or a skipped publish keeps them local; `check`, `build`, `init` do not.
fn goreleaser_publishes(a: &[Arg], plain: &[&str]) -> bool {
    let releases = matches!(plain.first(), None | Some(&"release"));
    let local = given(
        a,
        &["--snapshot", "--skip-publish", "--help", "-h", "--version"],
    ) || option_values(a, None, "--skip")
        .iter()
        .any(|v| v.split(',').any(|s| s == "publish"));
    releases && !local
}

/// `gh api -X PUT|PATCH|DELETE …`, or a POST to an endpoint that merges, releases, deploys or
/// starts a workflow.
fn gh_api_writes(a: &[Arg]) -> bool {
    let method = a.iter().enumerate().find_map(|(i, x)| {
        let t = x.text.as_str();
        match t {
            "-X" | "--method" => a.get(i + 1).map(|v| v.text.to_ascii_uppercase()),
            _ => (t.strip_prefix("--method=").or_else(|| t.strip_prefix("-X")))
                .filter(|m| !m.is_empty())
                .map(str::to_ascii_uppercase),
        }
    });
    // Fields make the request a POST unless a method is named (gh-api(1)).
    let method = method.or_else(|| {
        given(a, &["-f", "-F", "--field", "--raw-field", "--input"]).then(|| "POST".to_string())
    });
    let endpoint = ["merge", "dispatches", "releases", "deployments", "git/refs"];
    let touches = a
        .iter()
        .any(|x| endpoint.iter().any(|e| x.text.contains(e)));
    // `gh api graphql -f query='mutation { mergePullRequest(…) }'` writes whatever its method.
    let graphql_mutation =
        a.iter().any(|x| x.text == "graphql") && a.iter().any(|x| x.text.contains("mutation"));
    match method.as_deref() {
        Some("PUT" | "PATCH" | "DELETE") => true,
        Some("POST") => touches || graphql_mutation,
        _ => graphql_mutation,
    }
}

/// `ansible HOSTS -m shell -a '…'`: an ad-hoc module that changes the hosts (the default
/// module, `command`, runs what `-a` says). `-m ping`, `-m setup` and `--check` do not.
fn ansible_changes(a: &[Arg]) -> bool {
    let check = a
        .iter()
        .any(|x| matches!(x.text.as_str(), "--check" | "-C"));
    let module = option_values(a, Some("-m"), "--module-name");
    let reads = ["ping", "setup", "gather_facts", "debug", "stat", "slurp"];
    let runs_args = a
        .iter()
        .any(|x| x.text == "-a" || x.text.starts_with("--args"));
    let changes = match module.first() {
        Some(m) => !reads.contains(m),
        None => runs_args,
    };
    changes && !check
}

/// SQL given on the command line that drops or empties a database, table or schema.
fn drops_data(prog: &str, a: &[Arg]) -> bool {
    let (short, long) = match prog {
        "psql" => (Some("-c"), "--command"),
        "mysql" | "mariadb" => (Some("-e"), "--execute"),
        "sqlcmd" => (Some("-Q"), "--query"),
        _ => (None, "--eval"),
    };
    option_values(a, short, long).iter().any(|sql| {
        let s = sql.to_ascii_lowercase();
        let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
        [
            "drop database",
            "drop table",
            "drop schema",
            "truncate ",
            "dropdatabase",
            // MongoDB: `db.users.drop()`, `db.users.deleteMany({})`.
            ".drop(",
            "deletemany(",
        ]
        .iter()
        .any(|d| s.contains(d))
    })
}
