//! The default protected set: files whose content is a credential or grants one. Compiled from
//! what secret scanners and file-read escalation references (GTFOBins "file read" targets,
//! gitleaks/trufflehog path rules, cloud CLIs' documented credential locations) agree on; the
//! list and the reasons are ours.

use super::set::PathSet;

/// Basename entries: the file is a secret wherever it lives (a project checkout, a home, /tmp).
const NAMES: &[(&str, &str)] = &[
    // dotenv files hold API keys and DSNs by convention; `.env*` also covers `.env.local`,
    // `.env.production` and direnv's `.envrc`, which exports secrets into the shell just the same.
    (".env*", "dotenv file"),
    // docker compose `env_file:` and systemd `EnvironmentFile=` files (`prod.env`).
    ("*.env", "environment file"),
    // OpenSSH private keys under their default names (RSA, DSA, ECDSA, Ed25519, FIDO). Names
    // are listed rather than globbed (`id_rsa*`): a trailing wildcard would make every
    // `*.ts` pattern a possible `id_rsa.ts`. Other key names are covered under `~/.ssh`.
    ("id_rsa", "SSH private key"),
    ("id_dsa", "SSH private key"),
    ("id_ecdsa", "SSH private key"),
    ("id_ed25519", "SSH private key"),
    ("id_ecdsa_sk", "SSH private key"),
    ("id_ed25519_sk", "SSH private key"),
    ("*.ppk", "PuTTY private key"),
    // PEM bundles and bare keys (TLS keys, Rails `master.key`), PKCS#12 and Java keystores.
    ("*.pem", "private key or certificate bundle"),
    ("*.key", "private key"),
    ("*.p12", "PKCS#12 keystore"),
    ("*.pfx", "PKCS#12 keystore"),
    ("*.jks", "Java keystore"),
    ("*.keystore", "keystore"),
    ("*.keytab", "Kerberos keytab"),
    ("*.kdbx", "KeePass database"),
    // Per-tool credential files: machine passwords (curl, git, ftp), PostgreSQL and MySQL
    // passwords, package registry tokens, git's credential store, Vault's token.
    (".netrc", "netrc credentials"),
    ("_netrc", "netrc credentials"),
    (".pgpass", "PostgreSQL password file"),
    (".my.cnf", "MySQL client credentials"),
    (".npmrc", "npm registry token"),
    (".pypirc", "PyPI token"),
    (".gem", "RubyGems credentials"),
    (".git-credentials", "git credential store"),
    (".vault-token", "Vault token"),
    (".dockercfg", "Docker registry credentials"),
    (".htpasswd", "HTTP password file"),
    (".s3cfg", "S3 credentials"),
    (".boto", "AWS/GCS boto credentials"),
    // AWS (`~/.aws/credentials`), RubyGems, Cargo and many tools use these names; the AWS
    // console downloads access keys as `credentials.csv`. Extensions are listed for the same
    // reason as key names above.
    ("credentials", "credentials file"),
    ("credentials.json", "credentials file"),
    ("credentials.yml", "credentials file"),
    ("credentials.yaml", "credentials file"),
    ("credentials.toml", "credentials file"),
    ("credentials.csv", "credentials file"),
    ("*_accessKeys.csv", "AWS access keys"),
    // Google OAuth client secrets and service-account keys as downloaded from the console.
    ("client_secret*.json", "OAuth client secret"),
    ("service-account*.json", "service account key"),
    // Rails `secrets.yml`, generic `secrets.json`/`secrets.toml`, sops inputs.
    ("secrets.yml", "secrets file"),
    ("secrets.yaml", "secrets file"),
    ("secrets.json", "secrets file"),
    ("secrets.toml", "secrets file"),
    ("secrets.ini", "secrets file"),
    // Cloudflare wrangler's local secrets, act's secrets file, Firebase Admin and Google keys
    // as their docs name them, kubeconfig files handed around by name, deploy keys, Ansible
    // vault passwords, MySQL's obfuscated login file, Terraform CLI tokens.
    (".dev.vars", "wrangler local secrets"),
    (".secrets", "secrets file"),
    ("serviceAccountKey.json", "service account key"),
    ("*-credentials.json", "credentials file"),
    ("*_credentials.json", "credentials file"),
    ("kubeconfig", "Kubernetes config"),
    ("*.kubeconfig", "Kubernetes config"),
    ("deploy_key", "deploy key"),
    ("vault_pass.txt", "Ansible vault password"),
    (".vault_pass", "Ansible vault password"),
    (".vault_pass.txt", "Ansible vault password"),
    ("vault_password.txt", "Ansible vault password"),
    (".vault-password", "Ansible vault password"),
    (".mylogin.cnf", "MySQL login path"),
    (".terraformrc", "Terraform CLI token"),
    ("terraform.rc", "Terraform CLI token"),
    // Terraform state and variables store provider credentials in clear text.
    ("*.tfstate", "Terraform state"),
    ("*.tfstate.backup", "Terraform state"),
    ("*.tfvars", "Terraform variables"),
];

/// Location entries: the path, not the name, makes the file a secret.
const LOCATIONS: &[(&str, &str)] = &[
    // Everything under ~/.ssh but the public parts excepted below (keys under any name).
    ("~/.ssh/**", "SSH directory"),
    // Cloud and cluster CLIs keep tokens and keys under these directories.
    ("~/.aws/**", "AWS credentials"),
    ("~/.config/gcloud/**", "Google Cloud credentials"),
    ("~/.azure/**", "Azure credentials"),
    ("~/.kube/config", "Kubernetes config"),
    ("~/.kube/*.yaml", "Kubernetes config"),
    ("~/.docker/config.json", "Docker registry credentials"),
    ("~/.config/gh/hosts.yml", "GitHub CLI token"),
    ("~/.config/hub", "GitHub hub token"),
    (
        "~/.terraform.d/credentials.tfrc.json",
        "Terraform Cloud token",
    ),
    ("~/.cargo/credentials.toml", "Cargo registry token"),
    ("~/.config/op/**", "1Password CLI session"),
    ("~/.gnupg/**", "GnuPG keyring"),
    ("~/.password-store/**", "pass password store"),
    ("~/.local/share/keyrings/**", "GNOME keyring"),
    // Tokens of developer CLIs and build tools, where their docs say they keep them.
    ("~/.config/rclone/rclone.conf", "rclone remotes"),
    ("~/.m2/settings.xml", "Maven server credentials"),
    ("~/.m2/settings-security.xml", "Maven master password"),
    ("~/.gradle/gradle.properties", "Gradle credentials"),
    ("~/.composer/auth.json", "Composer tokens"),
    ("~/.config/composer/auth.json", "Composer tokens"),
    ("~/.config/sops/age/keys.txt", "age keys for sops"),
    ("~/.cache/huggingface/token", "Hugging Face token"),
    ("~/.huggingface/token", "Hugging Face token"),
    ("~/.kaggle/kaggle.json", "Kaggle token"),
    ("~/.claude/.credentials.json", "Claude Code credentials"),
    ("~/.codex/auth.json", "Codex credentials"),
    ("~/.config/github-copilot/**", "GitHub Copilot token"),
    ("~/.databrickscfg", "Databricks token"),
    ("~/.config/doctl/config.yaml", "DigitalOcean token"),
    ("~/.fly/config.yml", "Fly.io token"),
    (
        "~/.config/configstore/firebase-tools.json",
        "Firebase token",
    ),
    ("~/.wrangler/config/**", "Cloudflare token"),
    ("~/.config/.wrangler/config/**", "Cloudflare token"),
    ("~/.config/glab-cli/config.yml", "GitLab CLI token"),
    ("~/.config/hcloud/cli.toml", "Hetzner Cloud token"),
    ("~/.oci/**", "Oracle Cloud keys"),
    // Browser password stores.
    ("~/.mozilla/**/logins.json", "Firefox saved passwords"),
    ("~/.mozilla/**/key4.db", "Firefox key database"),
    (
        "~/.config/google-chrome/**/Login Data",
        "Chrome saved passwords",
    ),
    (
        "~/.config/chromium/**/Login Data",
        "Chromium saved passwords",
    ),
    // A process's environment (API keys passed as variables), for any pid, `self` and threads.
    ("/proc/*/environ", "process environment"),
    ("/proc/*/task/*/environ", "process environment"),
    // Password hashes and their backups; sudo policy (writing it is root).
    ("/etc/shadow", "password hashes"),
    ("/etc/shadow-", "password hashes"),
    ("/etc/gshadow", "group password hashes"),
    ("/etc/gshadow-", "group password hashes"),
    ("/etc/security/opasswd", "old password hashes"),
    ("/etc/sudoers", "sudo policy"),
    ("/etc/sudoers.d/**", "sudo policy"),
    // Host keys: whoever holds them can impersonate the machine.
    ("/etc/ssh/ssh_host_*_key", "SSH host key"),
    // Kubernetes service-account tokens and Docker/compose secrets mounted into containers.
    ("/var/run/secrets/**", "mounted secrets"),
    ("/run/secrets/**", "mounted secrets"),
    // OpenClaw's own: per-agent auth profiles and credentials hold model provider API keys.
    (
        "~/.openclaw/agents/**/auth-profiles.json",
        "OpenClaw auth profiles",
    ),
    ("~/.openclaw/credentials/**", "OpenClaw credentials"),
    // Cluster admin configs on the node itself.
    ("/etc/kubernetes/*.conf", "Kubernetes admin config"),
    ("/etc/kubernetes/pki/**", "Kubernetes PKI"),
    ("/etc/rancher/k3s/k3s.yaml", "k3s admin config"),
    ("/etc/rancher/rke2/rke2.yaml", "RKE2 admin config"),
    (
        "/var/snap/microk8s/current/credentials/**",
        "MicroK8s credentials",
    ),
];

/// Ordinary files that a broad entry above would otherwise catch.
const EXCEPTIONS: &[&str] = &[
    // dotenv templates are committed on purpose and hold placeholders.
    ".env.example",
    ".env.sample",
    ".env.template",
    ".env.dist",
    ".env*.example",
    ".env*.sample",
    ".env*.template",
    ".env*.dist",
    // Public halves of SSH keys, and the non-secret files of ~/.ssh.
    "~/.ssh/*.pub",
    "~/.ssh/known_hosts",
    "~/.ssh/known_hosts.old",
    "~/.ssh/authorized_keys",
    "~/.ssh/config",
];

/// The default protected set, with `~/` entries under `home` (any home when unknown).
pub fn credential_files(home: Option<&str>) -> PathSet {
    let entries: Vec<(&str, &str)> = NAMES.iter().chain(LOCATIONS).copied().collect();
    match PathSet::new(&entries, EXCEPTIONS, home) {
        Ok(set) => set,
        // Only an empty or relative glob fails, and the lists above are constants with
        // neither (whatever `home` is): an error here is a bug in them, caught by every test.
        Err(e) => panic!("default protected set does not compile: {e}"),
    }
}
