//! Commands that print a stored secret without naming a file: password stores and keyrings,
//! and the CLIs of clouds and tools that hand out the token they keep (`gh auth token`,
//! `gcloud auth print-access-token`, `kubectl config view --raw`, `terraform show -json`).

use crate::guards::argv::{args, given, has_flag, operands, option_values, plain_words, says};
use crate::shell::{Arg, Command};

/// Why the command prints a stored secret, if it does.
pub fn printed_secret(prog: &str, c: &Command) -> Option<&'static str> {
    store_read(prog, c).or_else(|| token_cli(prog, c))
}

/// A secret store's own command that prints what it holds.
fn store_read(prog: &str, c: &Command) -> Option<&'static str> {
    let a = args(c);
    let words = a.iter().map(|x| x.text.as_str());
    let hit = match prog {
        // `--export-secret-keys`, and `-d`/`--decrypt` of an encrypted file to the output.
        "gpg" | "gpg2" => {
            words.clone().any(|w| w.starts_with("--export-secret"))
                || has_flag(a, &['d'], &["decrypt", "decrypt-files"])
        }
        "getent" => words.clone().any(|w| matches!(w, "shadow" | "gshadow")),
        "git" => operands(a, &["-C", "-c"])
            .first()
            .is_some_and(|o| o.text == "credential"),
        "kubectl" | "oc" => {
            let ops = operands(
                a,
                &["-n", "--namespace", "-o", "--output", "--context", "-l"],
            );
            ops.first().is_some_and(|v| v.text == "get")
                && ops.get(1).is_some_and(|r| r.text.starts_with("secret"))
                && has_flag(a, &['o'], &["output"])
                && !option_values(a, Some("-o"), "--output")
                    .iter()
                    .all(|o| shows_no_data(o))
        }
        "security" => words
            .clone()
            .any(|w| w.starts_with("find-") && w.ends_with("-password") || w == "dump-keychain"),
        "pass" | "gopass" => password_store_shows(a),
        "op" | "vault" | "aws-vault" | "bw" | "lpass" => {
            words
                .clone()
                .any(|w| matches!(w, "show" | "get" | "read" | "item" | "exec" | "export"))
                || store_verb(prog, a)
        }
        // Secret stores' own words for "print this": chamber, teller, libsecret's
        // `secret-tool lookup`/`search`, KWallet, Python's `keyring get`.
        "chamber" => first_word(a, &["read", "export", "env"]),
        "teller" => first_word(a, &["show", "env", "export", "yaml", "json"]),
        "secret-tool" => first_word(a, &["lookup", "search"]),
        "kwallet-query" => has_flag(a, &['r'], &["read-password"]),
        "keyring" => first_word(a, &["get"]),
        // Encrypted files decrypted to the output: sops, ansible-vault, age, gpg.
        "sops" => has_flag(a, &['d'], &["decrypt"]) || first_word(a, &["decrypt"]),
        "ansible-vault" => first_word(a, &["view", "decrypt"]),
        "age" | "rage" => has_flag(a, &['d'], &["decrypt"]),
        _ => false,
    };
    hit.then_some("prints secrets from a credential store")
}

/// Whether the first word that is no option is one of `verbs`.
fn first_word(a: &[Arg], verbs: &[&str]) -> bool {
    plain_words(a).first().is_some_and(|w| verbs.contains(w))
}

/// Store verbs beyond the shared ones that print a secret: 1Password's `inject` (renders a
/// template with the secrets) and `signin` (prints the session token), Bitwarden's `list`
/// (every item with its password) and `unlock`/`login` (the session key), Vault's `login`
/// (prints the token unless `-no-print`) and `token create`.
fn store_verb(prog: &str, a: &[Arg]) -> bool {
    let plain = plain_words(a);
    match prog {
        "op" => first_word(a, &["inject", "signin"]),
        "bw" => first_word(a, &["list", "unlock", "login"]),
        "vault" => {
            (first_word(a, &["login"]) && !given(a, &["-no-print"]))
                || says(&plain, &["token", "create"])
        }
        _ => false,
    }
}

/// `pass NAME`, `pass show NAME`, `pass grep WORD` (prints the matching lines of every
/// entry), `gopass cat NAME`: everything but the store's listing and management verbs shows
/// a password. A bare `pass` lists the tree.
fn password_store_shows(a: &[Arg]) -> bool {
    const NO_SECRET: [&str; 26] = [
        "ls",
        "list",
        "find",
        "search",
        "init",
        "insert",
        "add",
        "create",
        "new",
        "edit",
        "generate",
        "rm",
        "remove",
        "delete",
        "mv",
        "rename",
        "cp",
        "copy",
        "git",
        "sync",
        "setup",
        "config",
        "mounts",
        "recipients",
        "help",
        "version",
    ];
    plain_words(a)
        .first()
        .is_some_and(|w| !NO_SECRET.contains(w))
}

/// A kubectl output format that prints no secret value: `name`, or a template whose every field
/// path is one of `NO_DATA` (`jsonpath={.type}`, `custom-columns=N:.metadata.name`), also for
/// each of a list's `.items[*]`. A bare `.`, `@`, `*` or `..` reaches every field, and
/// `.metadata.annotations` holds the last applied object, data included.
fn shows_no_data(format: &str) -> bool {
    if format == "name" {
        return true;
    }
    let Some((kind, template)) = format.split_once('=') else {
        return false;
    };
    if !matches!(
        kind,
        "jsonpath" | "jsonpath-as-json" | "go-template" | "custom-columns"
    ) {
        return false;
    }
    let template = template.replace(".items[*]", "");
    if template.contains(['*', '@']) || template.contains("..") {
        return false;
    }
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_';
    let paths: Vec<&str> = (template.split(|c: char| !is_word(c)))
        .filter(|t| t.starts_with('.'))
        .collect();
    !paths.is_empty() && paths.iter().all(|p| NO_DATA.contains(p))
}

/// Fields of a Secret that hold no secret value.
const NO_DATA: [&str; 9] = [
    ".type",
    ".kind",
    ".apiVersion",
    ".immutable",
    ".metadata.name",
    ".metadata.namespace",
    ".metadata.creationTimestamp",
    ".metadata.labels",
    ".metadata.uid",
];

/// When a CLI's command prints the secret it keeps.
enum When {
    Always,
    /// With one of these flags (`--raw`, `--show-secrets`, `-json`).
    Flag(&'static [&'static str]),
    /// When a word names a secret (`aws configure get aws_secret_access_key`, not `region`).
    SecretWord,
    /// `docker inspect` without a format, or with one that shows the environment.
    FormatShowsEnv,
    /// Unless one of these flags narrows the output to something that is no secret
    /// (`docker compose config --services`).
    Unless(&'static [&'static str]),
}

/// A command that prints a token or secret its CLI keeps: the program, the command words in
/// order (options between them allowed), and when. From each vendor's CLI reference.
struct Printer {
    programs: &'static [&'static str],
    words: &'static [&'static str],
    when: When,
}

const KUBECTL: &[&str] = &["kubectl", "oc", "k3s", "microk8s", "kubecolor", "k"];
const DOCKER: &[&str] = &["docker", "podman", "nerdctl"];
const TERRAFORM: &[&str] = &["terraform", "tofu", "terragrunt"];
const NPM: &[&str] = &["npm", "pnpm", "yarn"];

const PRINTERS: [Printer; 65] = [
    p(&["gh"], &["auth", "token"], When::Always),
    p(
        &["gh", "glab"],
        &["auth", "status"],
        When::Flag(&["-t", "--show-token"]),
    ),
    p(&["fly", "flyctl"], &["auth", "token"], When::Always),
    p(&["vault"], &["print", "token"], When::Always),
    p(&["aws"], &["configure", "get"], When::SecretWord),
    p(&["aws"], &["configure", "export-credentials"], When::Always),
    p(
        &["aws"],
        &["secretsmanager", "get-secret-value"],
        When::Always,
    ),
    p(&["aws"], &["ssm", "get-parameter"], DECRYPTED),
    p(&["aws"], &["ssm", "get-parameters"], DECRYPTED),
    p(&["aws"], &["ssm", "get-parameters-by-path"], DECRYPTED),
    p(&["gcloud"], &["auth", "print-access-token"], When::Always),
    p(&["gcloud"], &["auth", "print-identity-token"], When::Always),
    p(&["gcloud"], &["print-access-token"], When::Always),
    p(
        &["gcloud"],
        &["secrets", "versions", "access"],
        When::Always,
    ),
    p(&["gcloud"], &["config", "config-helper"], When::Always),
    p(&["az"], &["account", "get-access-token"], When::Always),
    p(&["az"], &["keyvault", "secret", "show"], When::Always),
    p(KUBECTL, &["config", "view"], When::Flag(&["--raw"])),
    p(TERRAFORM, &["output"], When::SecretWord),
    p(TERRAFORM, &["show"], When::Flag(&["-json", "--json"])),
    p(TERRAFORM, &["state", "pull"], When::Always),
    p(&["pulumi"], &[], When::Flag(&["--show-secrets"])),
    p(DOCKER, &["inspect"], When::FormatShowsEnv),
    p(&["helm"], &["get", "values"], When::Always),
    p(&["helm"], &["get", "all"], When::Always),
    p(&["helm"], &["get", "manifest"], When::Always),
    p(&["doppler", "infisical"], &["secrets"], When::Always),
    p(NPM, &["config", "get"], When::SecretWord),
    // Yarn Berry masks secrets in `yarn config` output unless told not to; a scope's token
    // sits under a key with no secret word (`yarn config get npmScopes --no-redacted`).
    p(&["yarn"], &["config"], When::Flag(&["--no-redacted"])),
    // Gradle's `properties` task prints every project property with its value, those of
    // `~/.gradle/gradle.properties` (signing and repository passwords) included.
    p(&["gradle", "gradlew"], &["properties"], When::Always),
    // maven-help-plugin hides settings.xml passwords unless `-DshowPasswords=true`.
    p(
        &["mvn", "mvnw"],
        &["help:effective-settings"],
        When::Flag(&["-DshowPasswords"]),
    ),
    // `npm token create` prints the new token.
    p(&["npm"], &["token", "create"], When::Always),
    // AWS: registry logins, temporary keys, new access keys, tokens for EKS and RDS IAM
    // auth, a Windows instance's admin password, a Lambda's environment.
    p(&["aws"], &["ecr", "get-login-password"], When::Always),
    p(&["aws"], &["ecr", "get-login"], When::Always),
    p(
        &["aws"],
        &["ecr-public", "get-login-password"],
        When::Always,
    ),
    p(
        &["aws"],
        &["codeartifact", "get-authorization-token"],
        When::Always,
    ),
    p(&["aws"], &["eks", "get-token"], When::Always),
    p(&["aws"], &["rds", "generate-db-auth-token"], When::Always),
    p(&["aws"], &["sts", "assume-role"], When::Always),
    p(&["aws"], &["sts", "assume-role-with-saml"], When::Always),
    p(&["aws"], &["sts", "get-session-token"], When::Always),
    p(&["aws"], &["sts", "get-federation-token"], When::Always),
    p(&["aws"], &["sso", "get-role-credentials"], When::Always),
    p(&["aws"], &["iam", "create-access-key"], When::Always),
    p(&["aws"], &["ec2", "get-password-data"], When::Always),
    p(
        &["aws"],
        &["lambda", "get-function-configuration"],
        When::Always,
    ),
    p(
        &["gcloud"],
        &["auth", "application-default", "print-access-token"],
        When::Always,
    ),
    // Azure: storage and Cosmos DB account keys, connection strings, registry passwords and
    // tokens, a service principal's new secret.
    p(
        &["az"],
        &["storage", "account", "keys", "list"],
        When::Always,
    ),
    p(
        &["az"],
        &["storage", "account", "show-connection-string"],
        When::Always,
    ),
    p(&["az"], &["cosmosdb", "keys", "list"], When::Always),
    p(&["az"], &["acr", "credential", "show"], When::Always),
    p(&["az"], &["acr", "login"], When::Flag(&["--expose-token"])),
    p(&["az"], &["ad", "sp", "create-for-rbac"], When::Always),
    p(&["az"], &["ad", "app", "credential", "reset"], When::Always),
    p(&["az"], &["ad", "sp", "credential", "reset"], When::Always),
    // `kubectl create token SA` prints a new service-account token; `set env --list`
    // prints a workload's variables (`--resolve` fills in Secrets); krew's view-secret.
    p(KUBECTL, &["create", "token"], When::Always),
    p(KUBECTL, &["set", "env"], When::Flag(&["--list"])),
    p(KUBECTL, &["view-secret"], When::Always),
    p(&["argocd"], &["account", "generate-token"], When::Always),
    p(&["argocd"], &["admin", "initial-password"], When::Always),
    p(&["pulumi"], &["config", "get"], When::SecretWord),
    // Hosting platforms that print an app's variables.
    p(&["railway"], &["variables"], When::Unless(&["--set", "-s"])),
    p(&["firebase"], &["functions:config:get"], When::Always),
    p(&["stripe"], &["config"], When::Flag(&["--list"])),
    p(&["infisical"], &["export"], When::Always),
];

/// `docker compose [-f F] config` prints the compose model with the values of `.env` and
/// every `env_file` filled in; the lists of names (`--services`, `--volumes`…) and the
/// unfilled form (`--no-interpolate`) show none, `-q` only validates.
fn compose_config(prog: &str, a: &[Arg]) -> bool {
    const NAMES_ONLY: [&str; 9] = [
        "--services",
        "--volumes",
        "--profiles",
        "--images",
        "--networks",
        "--hash",
        "--no-interpolate",
        "-q",
        "--quiet",
    ];
    let ops = operands(a, &crate::guards::argv::COMPOSE_VALUED);
    let words: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
    let config = match prog {
        "docker" | "podman" | "nerdctl" => words.starts_with(&["compose", "config"]),
        "docker-compose" | "podman-compose" => words.first() == Some(&"config"),
        _ => false,
    };
    config && !given(a, &NAMES_ONLY)
}

const DECRYPTED: When = When::Flag(&["--with-decryption"]);

const fn p(
    programs: &'static [&'static str],
    words: &'static [&'static str],
    when: When,
) -> Printer {
    Printer {
        programs,
        words,
        when,
    }
}

/// Whether a printer is listed for the program: most commands are let go at once.
fn listed(prog: &str) -> bool {
    static NAMES: std::sync::OnceLock<rustc_hash::FxHashSet<&'static str>> =
        std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        (PRINTERS.iter().flat_map(|p| p.programs.iter().copied()))
            .chain(["heroku", "dokku", "docker-compose", "podman-compose"])
            .collect()
    });
    names.contains(prog)
}

fn token_cli(prog: &str, c: &Command) -> Option<&'static str> {
    if !listed(prog) && !prog.starts_with("docker-credential-") {
        return None;
    }
    let a = args(c);
    if prog.starts_with("docker-credential-") {
        // A credential helper's `get` prints the stored secret for the server on stdin.
        return a
            .first()
            .is_some_and(|w| w.text == "get")
            .then_some("prints a registry password from Docker's credential helper");
    }
    if compose_config(prog, a) {
        return Some("prints the compose model with the values of .env and env_file filled in");
    }
    // Heroku and Dokku name their verbs `topic:command`: `config`, `config:get`,
    // `config:show`, `config:export` print an app's variables, `auth:token` the login.
    if matches!(prog, "heroku" | "dokku") {
        let shows = (plain_words(a).first()).is_some_and(|w| {
            matches!(
                *w,
                "config" | "config:get" | "config:show" | "config:export" | "auth:token"
            )
        });
        return shows.then_some("prints a token or secret its CLI keeps");
    }
    PRINTERS
        .iter()
        .filter(|p| p.programs.contains(&prog))
        .find(|p| says(&plain_words(a), p.words) && holds(&p.when, a))
        .map(|_| "prints a token or secret its CLI keeps")
}

fn holds(when: &When, a: &[Arg]) -> bool {
    match when {
        When::Always => true,
        When::Flag(flags) => given(a, flags),
        When::SecretWord => a
            .iter()
            .any(|x| !x.text.starts_with('-') && names_secret(&x.text)),
        When::FormatShowsEnv => format_shows_env(a),
        When::Unless(flags) => !given(a, flags),
    }
}

/// A key or output name for a secret (`aws_secret_access_key`, `db_password`,
/// `//registry.npmjs.org/:_authToken`), not for an address (`api_url`, `region`).
fn names_secret(word: &str) -> bool {
    const SECRET: [&str; 9] = [
        "secret",
        "token",
        "password",
        "passwd",
        "credential",
        "private_key",
        "api_key",
        "access_key",
        "_auth",
    ];
    let w = word.to_ascii_lowercase();
    SECRET.iter().any(|s| w.contains(s))
}

/// `docker inspect` prints each container's environment unless a format picks something else
/// (`-f '{{.State.Status}}'`).
fn format_shows_env(a: &[Arg]) -> bool {
    let format = a.iter().enumerate().find_map(|(i, x)| {
        let t = x.text.as_str();
        match t {
            "-f" | "--format" => Some(a.get(i + 1).map_or("", |v| v.text.as_str())),
            _ => t.strip_prefix("--format="),
        }
    });
    let Some(format) = format else {
        return true;
    };
    let tight: String = format.chars().filter(|c| !c.is_whitespace()).collect();
    tight.contains("Env")
        || tight.contains(".Config}}")
        || tight.contains("{{json.}}")
        || tight.contains("{{.}}")
}
