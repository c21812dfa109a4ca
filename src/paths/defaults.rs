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
    // gcloud's application default credentials, copied into projects and containers by name
    // (`GOOGLE_APPLICATION_CREDENTIALS=./application_default_credentials.json`).
    (
        "application_default_credentials.json",
        "Google Cloud credentials",
    ),
    // google-github-actions/auth writes the credentials it obtained (a service-account key or
    // a workload-identity token config) into the workspace as `gha-creds-<random>.json`;
    // Google's API quickstarts keep the user's OAuth access and refresh tokens in
    // `token.json` (`token.pickle` before). Neither name is used for anything else.
    (
        "gha-creds-*.json",
        "Google credentials from google-github-actions/auth",
    ),
    ("token.json", "OAuth token store"),
    ("token.pickle", "OAuth token store"),
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
    // Composer's per-project `auth.json` (next to composer.json: github-oauth, http-basic,
    // bearer tokens), and the same name where Codex, Vercel, Podman and others keep tokens.
    // Translation namespaces named `auth.json` are excepted below.
    ("auth.json", "auth tokens file"),
    // Applications whose config holds the database password and keys: WordPress
    // (`DB_PASSWORD`, salts), MediaWiki, Azure Functions' local app settings.
    ("wp-config.php", "WordPress config with DB password"),
    ("LocalSettings.php", "MediaWiki config with DB password"),
    ("local.settings.json", "Azure Functions local secrets"),
    // Shell and client histories: tokens and passwords typed on a command line or in a
    // REPL (`export GITHUB_TOKEN=…`, `SET PASSWORD`, `\password`, `os.environ[…] = …`).
    (".bash_history", "shell history"),
    (".zsh_history", "shell history"),
    (".zhistory", "shell history"),
    (".sh_history", "shell history"),
    (".histfile", "shell history"),
    (".mysql_history", "MySQL client history"),
    (".psql_history", "PostgreSQL client history"),
    (".sqlite_history", "SQLite client history"),
    (".python_history", "Python REPL history"),
    (".node_repl_history", "Node REPL history"),
    (".irb_history", "Ruby REPL history"),
    (".rediscli_history", "Redis client history"),
    (".dbshell", "MongoDB shell history"),
    // Mail clients' stored passwords, Emacs' auth source, Sentry's and PostgreSQL's service
    // files (a `password=` is allowed in each).
    (".msmtprc", "msmtp mail password"),
    (".fetchmailrc", "fetchmail passwords"),
    (".authinfo", "auth-source passwords"),
    (".sentryclirc", "Sentry CLI token"),
    (".pg_service.conf", "PostgreSQL service passwords"),
    // Mounts and transfers that keep a cleartext login beside them: s3fs's key pair
    // (`~/.passwd-s3fs`, `/etc/passwd-s3fs`), CIFS mount credentials, esmtp's password,
    // Sublime SFTP's and Atom's remote configs, Jenkins' credential store, OpenVPN profiles
    // with the client key inline (shhgit's and gitleaks' file-name signatures).
    (".passwd-s3fs", "s3fs access keys"),
    ("passwd-s3fs", "s3fs access keys"),
    (".smbcredentials", "CIFS mount password"),
    (".esmtprc", "esmtp mail password"),
    ("sftp-config.json", "SFTP deploy password"),
    (".ftpconfig", "FTP deploy password"),
    (".remote-sync.json", "remote sync password"),
    ("credentials.xml", "Jenkins credentials"),
    ("*.ovpn", "OpenVPN profile with its key"),
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
    // The same tools' files where a project keeps its own (`KUBECONFIG=./.kube/config`,
    // `DOCKER_CONFIG=./.docker`): a `.kube` or `.docker` directory holds them for those tools
    // wherever it sits. `.aws/credentials`, `.netrc`, `.npmrc`, `.pgpass` and
    // `.git-credentials` are names above, protected anywhere already; `.aws/config` holds
    // settings, not keys.
    ("/**/.kube/config", "Kubernetes config"),
    ("/**/.docker/config.json", "Docker registry credentials"),
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
    // Chromium-family browsers (Chrome, Chromium, Brave, Edge, Vivaldi, Opera) and Electron
    // apps (Slack, Discord) keep saved logins, session cookies and autofill under their
    // `~/.config` directory by these names; Firefox its cookies beside its logins. Snap and
    // Flatpak installs keep the same files under `~/snap` and `~/.var/app`.
    ("~/.config/**/Login Data", "browser saved passwords"),
    (
        "~/.config/**/Login Data For Account",
        "browser saved passwords",
    ),
    ("~/.config/**/Cookies", "browser session cookies"),
    ("~/.config/**/Web Data", "browser autofill and tokens"),
    ("~/.mozilla/**/cookies.sqlite", "Firefox session cookies"),
    ("~/.mozilla/**/signons.sqlite", "Firefox saved passwords"),
    ("~/.mozilla/**/key3.db", "Firefox key database"),
    ("~/snap/**/Login Data", "browser saved passwords"),
    ("~/snap/**/Cookies", "browser session cookies"),
    ("~/snap/**/logins.json", "Firefox saved passwords"),
    ("~/snap/**/key4.db", "Firefox key database"),
    ("~/snap/**/cookies.sqlite", "Firefox session cookies"),
    ("~/.var/app/**/Login Data", "browser saved passwords"),
    ("~/.var/app/**/Cookies", "browser session cookies"),
    ("~/.var/app/**/logins.json", "Firefox saved passwords"),
    ("~/.var/app/**/key4.db", "Firefox key database"),
    ("~/.var/app/**/cookies.sqlite", "Firefox session cookies"),
    // AI coding assistants' configs, where their docs put the model providers' API keys:
    // Continue, Claude Code's `~/.claude.json` (`primaryApiKey`, MCP servers' env), aider,
    // Simon Willison's `llm`, goose, Qwen Code, Cursor's MCP servers (their `env` keys).
    ("~/.continue/config.json", "Continue API keys"),
    ("~/.continue/config.yaml", "Continue API keys"),
    ("~/.claude.json", "Claude Code config (API key, MCP env)"),
    ("~/.aider.conf.yml", "aider API keys"),
    ("~/.config/io.datasette.llm/keys.json", "llm API keys"),
    ("~/.config/goose/secrets.yaml", "goose API keys"),
    ("~/.qwen/oauth_creds.json", "Qwen Code credentials"),
    ("~/.cursor/mcp.json", "Cursor MCP server keys"),
    // Storage mounts and sync tools: rclone's older config, boto's system file, davfs2 and
    // s3ql logins, FileZilla's saved servers (passwords base64-encoded).
    ("~/.rclone.conf", "rclone remotes"),
    ("/etc/boto.cfg", "AWS/GCS boto credentials"),
    ("~/.davfs2/secrets", "WebDAV passwords"),
    ("/etc/davfs2/secrets", "WebDAV passwords"),
    ("~/.s3ql/authinfo2", "s3ql credentials"),
    (
        "~/.config/filezilla/recentservers.xml",
        "FileZilla passwords",
    ),
    ("~/.config/filezilla/sitemanager.xml", "FileZilla passwords"),
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
    // OpenClaw's own: per-agent auth profiles and credentials hold model provider API keys;
    // its config holds the gateway's auth token and every channel's bot token (and the
    // backups it keeps when it rewrites the file).
    (
        "~/.openclaw/agents/**/auth-profiles.json",
        "OpenClaw auth profiles",
    ),
    ("~/.openclaw/credentials/**", "OpenClaw credentials"),
    (
        "~/.openclaw/openclaw.json*",
        "OpenClaw config (gateway and channel tokens)",
    ),
    // Hosting, database and CI CLIs, where each vendor's docs say the login is kept.
    ("~/.config/netlify/config.json", "Netlify token"),
    ("~/.netlify/config.json", "Netlify token"),
    ("~/.local/share/com.vercel.cli/auth.json", "Vercel token"),
    ("~/.vercel/auth.json", "Vercel token"),
    ("~/.now/auth.json", "Vercel token"),
    ("~/.supabase/access-token", "Supabase token"),
    ("~/.config/stripe/config.toml", "Stripe keys"),
    ("~/.dbt/profiles.yml", "dbt warehouse passwords"),
    ("~/.snowflake/connections.toml", "Snowflake connections"),
    ("~/.snowflake/config.toml", "Snowflake connections"),
    ("~/.snowsql/config", "SnowSQL connections"),
    ("~/.config/ngrok/ngrok.yml", "ngrok authtoken"),
    ("~/.ngrok2/ngrok.yml", "ngrok authtoken"),
    ("~/.circleci/cli.yml", "CircleCI token"),
    ("~/.jfrog/jfrog-cli.conf*", "JFrog tokens"),
    ("~/.config/scw/config.yaml", "Scaleway keys"),
    ("~/.config/linode-cli", "Linode token"),
    ("~/.linode-cli", "Linode token"),
    ("~/.travis/config.yml", "Travis CI token"),
    ("~/.railway/config.json", "Railway token"),
    ("~/.render/cli.yaml", "Render token"),
    ("~/.config/tea/config.yml", "Gitea CLI token"),
    ("~/.aliyun/config.json", "Alibaba Cloud keys"),
    ("~/.tccli/**", "Tencent Cloud keys"),
    ("~/.bluemix/**", "IBM Cloud tokens"),
    ("~/.vultr-cli.yaml", "Vultr token"),
    ("~/.ovh.conf", "OVH API keys"),
    ("~/.mc/config.json", "MinIO client keys"),
    ("~/.mcli/config.json", "MinIO client keys"),
    ("~/.doppler/**", "Doppler token"),
    ("~/.sfdx/**", "Salesforce tokens"),
    ("~/.sf/**", "Salesforce tokens"),
    ("~/.expo/state.json", "Expo session"),
    ("~/.twilio-cli/**", "Twilio keys"),
    ("~/.cloudflared/*.json", "Cloudflare tunnel credentials"),
    ("~/.config/cachix/cachix.dhall", "Cachix token"),
    ("~/.gemini/oauth_creds.json", "Gemini CLI credentials"),
    ("~/.cache/huggingface/stored_tokens", "Hugging Face tokens"),
    ("~/.android/adbkey", "ADB private key"),
    ("~/.influxdbv2/configs", "InfluxDB tokens"),
    ("~/.cassandra/cqlshrc", "cqlsh credentials"),
    // Package managers' credentials: Bundler's per-host source logins, pip's index URL
    // (`https://user:token@…`), Poetry's fallback store, NuGet's cleartext passwords, Helm's
    // repository logins, Podman/Buildah registry logins, Ivy and sbt, git's XDG store.
    ("~/.bundle/config", "Bundler source credentials"),
    ("~/.config/pip/pip.conf", "pip index credentials"),
    ("~/.pip/pip.conf", "pip index credentials"),
    ("/etc/pip.conf", "pip index credentials"),
    ("~/.config/pypoetry/auth.toml", "Poetry credentials"),
    ("~/.nuget/NuGet/NuGet.Config", "NuGet credentials"),
    ("~/.config/NuGet/NuGet.Config", "NuGet credentials"),
    ("~/.config/helm/repositories.yaml", "Helm repository logins"),
    (
        "~/.config/containers/auth.json",
        "container registry logins",
    ),
    (
        "/run/user/*/containers/auth.json",
        "container registry logins",
    ),
    ("~/.ivy2/.credentials", "Ivy credentials"),
    ("~/.sbt/.credentials", "sbt credentials"),
    ("~/.config/git/credentials", "git credential store"),
    ("~/.yarnrc.yml", "Yarn registry token"),
    ("~/.bunfig.toml", "Bun registry token"),
    ("~/.config/.bunfig.toml", "Bun registry token"),
    // Private keys outside ~/.ssh: age identities (no default name; these are where guides
    // keep them), Teleport's keys and certificates.
    ("~/.age/**", "age keys"),
    ("~/.config/age/**", "age keys"),
    ("~/.tsh/**", "Teleport keys"),
    // Histories kept under XDG directories.
    ("~/.local/share/fish/fish_history", "shell history"),
    ("~/.local/share/atuin/history.db", "shell history"),
    ("~/.mongodb/mongosh/*_history", "MongoDB shell history"),
    // Password managers' local vaults.
    ("~/.config/Bitwarden CLI/data.json", "Bitwarden vault"),
    // The system's network and VPN secrets.
    ("/etc/wireguard/**", "WireGuard keys"),
    (
        "/etc/NetworkManager/system-connections/**",
        "network passwords",
    ),
    ("/etc/ppp/chap-secrets", "PPP passwords"),
    ("/etc/ppp/pap-secrets", "PPP passwords"),
    ("/etc/ipsec.secrets", "IPsec secrets"),
    ("/etc/ssl/private/**", "TLS private keys"),
    ("/etc/mysql/debian.cnf", "MySQL maintenance password"),
    ("/var/lib/tailscale/tailscaled.state", "Tailscale node key"),
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
    // i18n namespaces (`locales/en/auth.json`: the sign-in page's strings).
    "/**/locales/**/auth.json",
    "/**/locale/**/auth.json",
    "/**/i18n/**/auth.json",
    "/**/lang/**/auth.json",
    "/**/translations/**/auth.json",
    "/**/messages/**/auth.json",
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
