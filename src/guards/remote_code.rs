//! Remote-code guard: something downloaded or decoded, then run — piped or substituted into an
//! interpreter (`curl … | sh`, `bash <(curl …)`, `bash -c "$(wget -qO- …)"`, `base64 -d | sh`),
//! or saved to a file that the same command line then runs.

use super::argv::{args, given, has_flag, listed, operands, option_values, program};
use super::{projects, show, Subject};
use crate::call::startup::runs_later;
use crate::shell::{Command, Script};
use once_cell::unsync::Lazy;

/// Programs whose output is content from the network: HTTP(S)/FTP clients (also axel,
/// libwww-perl's `lwp-download`, `lwp-request` and its `GET`/`HEAD`/`POST` aliases, lftp),
/// sockets, remote shells, and DNS clients (a TXT record is text anyone can publish).
const DOWNLOADERS: [&str; 35] = [
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "xh",
    "lynx",
    "links",
    "nc",
    "ncat",
    "socat",
    "tftp",
    "ftp",
    "ssh",
    "scp",
    "sftp",
    "wget2",
    "w3m",
    "elinks",
    "curlie",
    "axel",
    "lwp-download",
    "lwp-request",
    "lwp-mirror",
    "GET",
    "HEAD",
    "POST",
    "lftp",
    "wcurl",
    "dig",
    "kdig",
    "drill",
    "nslookup",
    "host",
];

/// Programs whose output is decoded from their input: a payload the text did not show.
const DECODERS: [&str; 16] = [
    "base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gunzip", "zcat", "gzip", "bzip2",
    "bzcat", "xz", "xzcat", "unxz", "rev", "tr",
];

/// Programs that run the code they read.
pub const INTERPRETERS: [&str; 31] = [
    "sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "mksh", "busybox", "python", "python2",
    "python3", "perl", "ruby", "node", "nodejs", "php", "lua", "pwsh", "deno", "bun", "tclsh",
    "source", ".", "csh", "tcsh", "at", "batch",
    // ed and ex run `!cmd` lines; sqlite3 runs `.shell`/`.system`.
    "ed", "ex", "sqlite3",
];

pub fn check(s: &Subject) -> Option<String> {
    s.view.scripts.iter().find_map(|script| {
        piped(script)
            .or_else(|| saved_then_run(s, script))
            .or_else(|| through_file(s, script))
            .or_else(|| network_shell(script))
            .or_else(|| package_from_url(script))
            .or_else(|| container_given_host(script))
            .or_else(|| evaluated(script))
    })
}

/// `x=$(curl …); echo $((x))`: bash evaluates the downloaded text as arithmetic, and a
/// subscript in it (`a[$(rm -rf ~)]`) runs.
fn evaluated(script: &Script) -> Option<String> {
    script.evaluated.iter().find_map(|&i| {
        let c = script.commands.get(i)?;
        let source = if is_source(c) {
            c
        } else {
            feeder(script, i, 0)?
        };
        Some(format!(
            "arithmetic evaluates what `{}` produced (a subscript in it runs)",
            show(source)
        ))
    })
}

/// Where a container mounted from would give it the host: its root, system directories, the
/// Docker socket (which starts any container).
const HOST_MOUNTS: [&str; 12] = [
    "/",
    "/etc",
    "/root",
    "/proc",
    "/sys",
    "/dev",
    "/boot",
    "/usr",
    "/var",
    "/run",
    "/var/run/docker.sock",
    "/run/docker.sock",
];

/// `docker run --privileged -v /:/host IMAGE`: an image's code (from a registry; the command
/// does not show it) run with the host handed to it is that code run as root on the host —
/// what `curl … | sudo sh` does. A plain container (`docker run --rm node:20 npm test`) is
/// not judged here.
fn container_given_host(script: &Script) -> Option<String> {
    script.commands.iter().find_map(|c| {
        if !matches!(program(c), "docker" | "podman" | "nerdctl") {
            return None;
        }
        let a = args(c);
        let ops = operands(a, &super::production::DOCKER_VALUED);
        let verb = ops.first().map(|v| v.text.as_str());
        let runs = match verb {
            Some("run" | "create") => true,
            Some("container") => ops.get(1).is_some_and(|v| matches!(v.text.as_str(), "run" | "create")),
            _ => false,
        };
        (runs && gives_host(a)).then(|| {
            format!(
                "`{}` runs an image with the host given to it (privileged, host namespaces or system directories)",
                show(c)
            )
        })
    })
}

fn gives_host(a: &[crate::shell::Arg]) -> bool {
    let privileged = a.iter().any(|x| {
        let t = x.text.as_str();
        t == "--privileged"
            || t.starts_with("--privileged=") && !t.ends_with("=false")
            || matches!(
                t,
                "--pid=host" | "--userns=host" | "--ipc=host" | "--uts=host"
            )
            || t.starts_with("--cap-add") && (t.contains("ALL") || t.contains("SYS_ADMIN"))
    });
    let spaced = a.windows(2).any(|w| {
        let (flag, value) = (w[0].text.as_str(), w[1].text.as_str());
        (matches!(flag, "--pid" | "--userns" | "--ipc" | "--uts") && value == "host")
            || flag == "--cap-add" && (value.contains("ALL") || value.contains("SYS_ADMIN"))
    });
    let mounts = option_values(a, Some("-v"), "--volume")
        .into_iter()
        .chain(option_values(a, None, "--mount"))
        .any(host_mount);
    privileged || spaced || mounts
}

/// `-v /:/host`, `-v /etc:/e:ro`, `--mount type=bind,source=/,target=/h`.
fn host_mount(spec: &str) -> bool {
    let source = match spec
        .split(',')
        .find_map(|p| p.strip_prefix("source=").or_else(|| p.strip_prefix("src=")))
    {
        Some(s) => s,
        None => spec.split(':').next().unwrap_or(spec),
    };
    let source = if source == "/" {
        "/"
    } else {
        source.trim_end_matches('/')
    };
    HOST_MOUNTS.contains(&source)
}

/// `/dev/tcp` in a redirect is bash's own download; an interpreter whose stdio is a socket, or
/// netcat/socat handing a program to the network, is a remote shell.
fn network_shell(script: &Script) -> Option<String> {
    let opened = script.commands.iter().any(socket);
    script.commands.iter().find_map(|c| {
        // The socket first: most commands have none, and their program is not looked up.
        let remote_stdio =
            (socket(c) || opened && !runs_own_literal(c)) && is_interpreter(program(c));
        (hands_out(c) || remote_stdio)
            .then(|| format!("`{}` gives a program's input to the network", show(c)))
    })
}

fn socket(c: &Command) -> bool {
    c.redirects.iter().any(|r| {
        let t = r.target.text.as_str();
        t.starts_with("/dev/tcp/") || t.starts_with("/dev/udp/")
    })
}

/// `nc -e /bin/sh host port`, `socat tcp:host:port exec:sh`: a program served to the network.
fn hands_out(c: &Command) -> bool {
    let a = args(c);
    match program(c) {
        "nc" | "netcat" | "ncat" => a.iter().any(|x| {
            matches!(
                x.text.as_str(),
                "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec"
            )
        }),
        "socat" => a.iter().any(|x| {
            let t = x.text.to_ascii_lowercase();
            t.starts_with("exec:") || t.starts_with("system:")
        }),
        _ => false,
    }
}

/// Package indexes an installer may be pointed at by address without that address being
/// anybody's: the registries themselves and PyTorch's wheel index.
const REGISTRIES: [&str; 7] = [
    "https://pypi.org/",
    "https://files.pythonhosted.org/",
    "https://download.pytorch.org/",
    "https://registry.npmjs.org",
    "https://registry.yarnpkg.com",
    "https://rubygems.org",
    "https://index.crates.io",
];

/// An address a package manager fetches from: a URL or git spec, or npm's GitHub shorthand
/// `user/repo` (a scoped `@scope/name` is the registry's, `./dir` a local one).
fn remote_spec(prog: &str, t: &str) -> bool {
    let spec = t
        .split_once('=')
        .map_or(t, |(k, v)| if k.starts_with("--") { v } else { t });
    if REGISTRIES.iter().any(|r| spec.starts_with(r)) {
        return false;
    }
    let npm = matches!(
        prog,
        "npm" | "pnpm" | "yarn" | "bun" | "npx" | "pnpx" | "bunx"
    );
    let shorthand = npm
        && spec.contains('/')
        && !spec.starts_with(['@', '.', '/', '~', '-'])
        && !spec.contains(':')
        && !spec.ends_with(".tgz");
    // npm's hosted-git shorthands (npm-install(1): `github:`, `gitlab:`, `bitbucket:`,
    // `gist:`) clone the repository and run its install scripts.
    let hosted = npm
        && ["gitlab:", "gist:", "bitbucket:", "git@", "git:"]
            .iter()
            .any(|p| spec.starts_with(p));
    spec.contains("://")
        || spec.starts_with("git+")
        || spec.starts_with("github:")
        || shorthand
        || hosted
}

/// `npx https://…/pkg.tgz`, `npm install git+https://…`: a package from an address runs its
/// own code (its bin, or its install scripts).
fn package_from_url(script: &Script) -> Option<String> {
    script
        .commands
        .iter()
        .find_map(|c| {
            let prog = program(c);
            let runner_prog = c
                .wrappers
                .last()
                .map_or("", |w| w.split(' ').next().unwrap_or(""));
            let remote = |t: &str| remote_spec(runner_prog, t) || remote_spec(prog, t);
            let runner = c.wrappers.iter().any(|w| {
                let mut words = w.split(' ');
                let first = words.next().unwrap_or("");
                matches!(first, "npx" | "bunx" | "pnpx")
                    || matches!(words.next(), Some("dlx" | "x" | "exec"))
            });
            let prog_remote = runner && c.argv.first().is_some_and(|p| remote(&p.text));
            let installer = installer_args(c);
            let installs = installer.is_some_and(|a| {
                // `uv tool install`, `pipx`'s and uv's own `tool` verb.
                let a = match a.first() {
                    Some(t) if t.text == "tool" => &a[1..],
                    _ => a,
                };
                a.first().is_some_and(|v| {
                    // `pip download`/`pip wheel` of a source package run its build code too;
                    // composer's `require`/`create-project` run the package's scripts and plugins.
                    matches!(
                        v.text.as_str(),
                        "install"
                            | "i"
                            | "add"
                            | "download"
                            | "wheel"
                            | "require"
                            | "create-project"
                    )
                }) && a.iter().skip(1).any(|x| remote(&x.text))
            });
            // As an option of the program, or kept by the runner it was peeled from.
            let package_flag = (args(c).iter().map(|x| x.text.as_str()))
                .chain(c.wrappers.iter().flat_map(|w| w.split(' ')))
                .any(|t| t.strip_prefix("--package=").is_some_and(remote));
            // A program that is itself an address (`uv run https://…/x.py`): only a runner
            // that fetches it can run it.
            let url_program = c.argv.first().is_some_and(|p| p.text.contains("://"));
            // `nix-shell -I nixpkgs=URL --run CMD`: the runner's sources, kept in its label.
            let url_program = url_program || c.wrappers.iter().any(|w| w.contains(" --source="));
            (prog_remote
                || installs
                || package_flag
                || url_program
                || installer.is_some_and(|a| custom_source(c, a))
                || system_package_from_url(c, prog)
                || runs_remote_module(c, prog))
            .then(|| format!("`{}` runs a package fetched from an address", show(c)))
        })
        .or_else(|| source_config(script))
        .or_else(|| installed_then_run(script))
}

/// `yum install URL`, `rpm -Uvh URL`: a package from an address, its scripts run as root.
/// `prog` is `program(c)`.
fn system_package_from_url(c: &Command, prog: &str) -> bool {
    let a = args(c);
    let url = || a.iter().any(|x| x.text.contains("://"));
    match prog {
        "yum" | "dnf" | "zypper" => url() && a.iter().any(|x| x.text == "install"),
        "rpm" => {
            let installs = a.iter().any(|x| {
                !x.text.starts_with("--")
                    && x.text.starts_with('-')
                    && x.text.contains(['i', 'U', 'F'])
                    && !x.text.contains('q')
            });
            url() && installs
        }
        _ => false,
    }
}

/// A package installer's words after its name: `pip install …`, and the same through
/// `python3 -m pip …` or `uv pip …`.
fn installer_args(c: &Command) -> Option<&[crate::shell::Arg]> {
    const INSTALLERS: [&str; 19] = [
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "pip",
        "pip3",
        "pipx",
        "uv",
        "cargo",
        "gem",
        "bundle",
        "composer",
        "poetry",
        "pdm",
        "rye",
        "conda",
        "mamba",
        "micromamba",
        "brew",
    ];
    let a = args(c);
    let prog = program(c);
    let pip_at = match prog {
        p if p.starts_with("python") => a
            .windows(2)
            .position(|w| w[0].text == "-m" && w[1].text.starts_with("pip"))
            .map(|k| k + 2),
        "uv" if a.first().is_some_and(|x| x.text == "pip") => Some(1),
        _ => None,
    };
    match pip_at {
        Some(k) => a.get(k..),
        None => listed(&INSTALLERS, prog).then_some(a),
    }
}

/// `deno run https://…`, `go run example.com/x@latest`, `uvx --from git+…`: a module fetched
/// and run in one step.
/// `prog` is `program(c)`.
fn runs_remote_module(c: &Command, prog: &str) -> bool {
    let a = args(c);
    let remote = |t: &str| {
        t.contains("://") || t.starts_with("git+") || t.starts_with("jsr:") || t.starts_with("npm:")
    };
    match prog {
        "deno" | "bun" => a.iter().any(|x| remote(&x.text)),
        "go" => {
            a.first().is_some_and(|v| v.text == "run")
                && a.iter()
                    .skip(1)
                    .any(|x| x.text.contains('/') && x.text.contains('@'))
        }
        "uvx" | "pipx" | "uv" => a.iter().any(|x| remote(&x.text)),
        _ => remote_plugin(prog, a),
    }
}

/// Runners and plugin managers that fetch code from an address and run it, at once or at
/// install: `nix run|shell|develop github:…` (or `-I nixpkgs=URL`), `ansible-pull -U URL`
/// (runs the playbook it clones), `helm plugin install URL` (runs the plugin's install
/// hook), `kubectl krew install --manifest-url URL`, `asdf plugin add NAME URL` and `mise
/// plugins install NAME URL` (their scripts run on every install of the tool), `brew tap
/// NAME URL` (its formulae are Ruby run at install). The same tools' own indexes
/// (`nix run nixpkgs#hello`, `asdf plugin add nodejs`, `krew install ctx`) are ordinary.
fn remote_plugin(prog: &str, a: &[crate::shell::Arg]) -> bool {
    let address = |t: &str| {
        let v = t.split_once('=').map_or(t, |(_, v)| v);
        [
            "://",
            "github:",
            "gitlab:",
            "sourcehut:",
            "git+",
            "tarball+",
            "git@",
        ]
        .iter()
        .any(|p| v.contains(p))
    };
    // Every command comes here: the words are gathered only for these programs.
    let words = || super::argv::plain_words(a);
    let any_address = || a.iter().any(|x| address(&x.text));
    match prog {
        "nix" => {
            let w = words();
            (matches!(w.first(), Some(&("run" | "shell" | "develop")))
                || w.starts_with(&["profile", "install"]))
                && any_address()
        }
        "nix-env" | "nix-build" => any_address(),
        "ansible-pull" => true,
        "helm" => words().starts_with(&["plugin", "install"]) && any_address(),
        "kubectl" | "kubectl-krew" | "krew" => {
            words().contains(&"install") && a.iter().any(|x| x.text.starts_with("--manifest-url"))
        }
        "asdf" => {
            let w = words();
            (w.starts_with(&["plugin", "add"]) || w.first() == Some(&"plugin-add")) && any_address()
        }
        "mise" | "rtx" => {
            let w = words();
            matches!(w.first(), Some(&("plugins" | "plugin" | "p")))
                && matches!(w.get(1), Some(&("install" | "i" | "add" | "link")))
                && any_address()
        }
        "brew" => words().first() == Some(&"tap") && any_address(),
        _ => installer_from_address(prog, a, any_address),
    }
}

/// Installers of other ecosystems given a package, repository or index by address; their
/// build and install code runs: `flatpak install --from URL`, `luarocks install
/// --server=URL`, `cpanm URL`, `easy_install URL`, `opam pin add NAME URL`, `mix
/// archive.install github OWNER/REPO`, `dotnet tool install --add-source URL`, `pre-commit
/// try-repo URL` (the hooks of that repository run on the files), and `git clone -c
/// core.hooksPath=DIR URL` (the cloned repository's own hooks run at checkout).
fn installer_from_address(
    prog: &str,
    a: &[crate::shell::Arg],
    any_address: impl Fn() -> bool,
) -> bool {
    let words = || super::argv::plain_words(a);
    match prog {
        "flatpak" => {
            let w = words();
            matches!(w.first(), Some(&("install" | "remote-add" | "update")))
                && (any_address() || given(a, &["--from"]))
        }
        "luarocks" => {
            let w = words();
            let verb = ["install", "build", "make", "download"];
            w.iter().any(|x| verb.contains(x))
                && (any_address() || given(a, &["--server", "--only-server", "--from"]))
        }
        "cpanm" | "cpan" | "easy_install" => any_address(),
        "opam" => {
            let w = words();
            matches!(
                w.first(),
                Some(&("pin" | "install" | "repository" | "repo" | "source"))
            ) && any_address()
        }
        "mix" => {
            let w = words();
            matches!(w.first(), Some(&("archive.install" | "escript.install")))
                && (matches!(w.get(1), Some(&("github" | "git"))) || any_address())
        }
        "dotnet" => {
            let w = words();
            let installs = w.contains(&"install") || w.starts_with(&["add", "package"]);
            let sources = option_values(a, None, "--add-source")
                .into_iter()
                .chain(option_values(a, Some("-s"), "--source"));
            installs && sources.into_iter().any(|v| v.contains("://"))
        }
        "pre-commit" => words().first() == Some(&"try-repo") && any_address(),
        "git" => words().contains(&"clone") && sets_hooks_path(a),
        _ => false,
    }
}

/// `-c core.hooksPath=DIR` / `--config core.hooksPath=DIR` (the key in any case).
fn sets_hooks_path(a: &[crate::shell::Arg]) -> bool {
    a.iter().any(|x| {
        let t = x.text.to_ascii_lowercase();
        let t = t.strip_prefix("--config=").unwrap_or(&t);
        t.starts_with("core.hookspath=")
    })
}

/// Options that name where a package comes from, by installer: a value other than the
/// ecosystem's default index (`--registry evil`, `--index-url https://…`, `--github
/// owner/repo`) is a package from elsewhere, its install code run.
/// `a` is the installer's words (`installer_args`).
fn custom_source(c: &Command, a: &[crate::shell::Arg]) -> bool {
    let prog = program(c);
    // Where a named source (`--registry evil`, `--github owner/repo`) is one too; pip's and
    // uv's index options also take a local directory of wheels (`-f ./wheels`), which is not.
    let (options, names): (&[&str], bool) = match prog {
        "cargo" => (&["--registry", "--index", "--git"], true),
        "bundle" => (&["--git", "--github", "--source"], true),
        "gem" => (&["--source", "-s"], true),
        "composer" => (&["--repository", "--repository-url"], true),
        "poetry" | "pdm" => (&["--source"], true),
        "npm" | "pnpm" | "yarn" | "bun" => (&["--registry"], true),
        _ => (
            &[
                "-i",
                "--index-url",
                "--extra-index-url",
                "-f",
                "--find-links",
                "--index",
                "--default-index",
            ],
            false,
        ),
    };
    let verb = a.iter().any(|x| {
        matches!(
            x.text.as_str(),
            "install" | "add" | "download" | "wheel" | "require" | "create-project" | "sync"
        )
    });
    let defaults = [
        "crates-io",
        "https://pypi.org/simple",
        "https://pypi.org/simple/",
    ];
    let elsewhere = |v: &&str, names: bool| {
        let default = defaults.contains(v) || REGISTRIES.iter().any(|r| v.starts_with(r));
        !default && (names || v.contains("://"))
    };
    // `npm_config_registry=URL npm install`, `PIP_INDEX_URL=URL pip install`: the shell model
    // keeps these on the command as wrappers (`production::target_vars`).
    let from_env = (c.wrappers.iter())
        .filter_map(|w| w.split_once('='))
        .filter(|(n, _)| REGISTRY_VARS.iter().any(|(v, _)| v == n))
        .any(|(_, v)| elsewhere(&v, false));
    let from_options =
        (options.iter()).any(|o| (option_values(a, None, o).iter()).any(|v| elsewhere(v, names)));
    verb && (from_options || from_env)
}

/// Environment variables that choose a package manager's index, each with the variables it
/// brings along (none), as `production::target_vars` lists what the shell model keeps.
pub const REGISTRY_VARS: [(&str, &[&str]); 11] = [
    ("npm_config_registry", &[]),
    ("NPM_CONFIG_REGISTRY", &[]),
    ("YARN_NPM_REGISTRY_SERVER", &[]),
    ("YARN_REGISTRY", &[]),
    ("PIP_INDEX_URL", &[]),
    ("PIP_EXTRA_INDEX_URL", &[]),
    ("PIP_FIND_LINKS", &[]),
    ("UV_INDEX_URL", &[]),
    ("UV_EXTRA_INDEX_URL", &[]),
    ("UV_INDEX", &[]),
    ("UV_DEFAULT_INDEX", &[]),
];

/// Commands that point a package manager at another index for every later install:
/// `npm config set registry URL`, `pip config set global.index-url URL`, `gem sources --add
/// URL`, `bundle config set mirror.… URL`, `composer config repositories.x vcs URL`, `go env -w
/// GOPROXY=URL` (or the checksum database off), `poetry source add`, `conda config --add
/// channels URL`, a system package repository added (`add-apt-repository`, `dnf
/// config-manager --add-repo`, `zypper addrepo`, `flatpak remote-add`), a krew index.
fn source_config(script: &Script) -> Option<String> {
    script.commands.iter().find_map(|c| {
        let a = args(c);
        // Every command comes here, most of them none of the programs below: the words are
        // gathered on first use.
        let words = Lazy::new(|| super::argv::plain_words(a));
        let texts: Lazy<Vec<&str>, _> = Lazy::new(|| a.iter().map(|x| x.text.as_str()).collect());
        let elsewhere = || {
            texts.iter().any(|t| {
                let v = t.split_once('=').map_or(*t, |(_, v)| v);
                v.contains("://") && !REGISTRIES.iter().any(|r| v.starts_with(r))
            })
        };
        let key = |names: &[&str]| {
            texts.iter().any(|t| {
                let t = t.to_ascii_lowercase();
                names.iter().any(|n| t.contains(n))
            })
        };
        let prog = program(c);
        let pip = prog.starts_with("pip")
            || prog.starts_with("python") && texts.windows(2).any(|w| w == ["-m", "pip"]);
        let hit = match prog {
            "npm" | "pnpm" | "yarn" => {
                (words.starts_with(&["config", "set"]) || words.first() == Some(&"set"))
                    && key(&["registry"])
                    && elsewhere()
            }
            _ if pip => {
                words.contains(&"config")
                    && words.contains(&"set")
                    && (key(&["index-url", "find-links"]) && elsewhere() || key(&["trusted-host"]))
            }
            "gem" => words.first() == Some(&"sources") && given(a, &["-a", "--add"]) && elsewhere(),
            "bundle" => words.first() == Some(&"config") && key(&["mirror."]) && elsewhere(),
            "composer" => words.first() == Some(&"config") && key(&["repositories", "repo."]) && elsewhere(),
            "go" => words.first() == Some(&"env") && texts.contains(&"-w") && go_source(&texts),
            "poetry" => words.starts_with(&["source", "add"]),
            "conda" | "mamba" | "micromamba" => words.first() == Some(&"config") && key(&["channels"]) && elsewhere(),
            "add-apt-repository" | "apt-add-repository" => true,
            "dnf" | "yum" | "yum-config-manager" => texts.iter().any(|t| t.starts_with("--add-repo")),
            "zypper" => matches!(words.first(), Some(&("ar" | "addrepo"))),
            "flatpak" => words.first() == Some(&"remote-add"),
            "kubectl" | "krew" | "kubectl-krew" => words.windows(2).any(|w| w == ["index", "add"]),
            _ => false,
        };
        hit.then(|| {
            format!(
                "`{}` points a package manager at another source: what it installs from there runs its code",
                show(c)
            )
        })
    })
}

/// `go env -w` of a module proxy other than Go's own (`direct` and `off` fetch nothing
/// new), or of the checksum database turned off or bypassed.
fn go_source(texts: &[&str]) -> bool {
    texts.iter().any(|t| {
        let Some((name, value)) = t.split_once('=') else {
            return false;
        };
        match name {
            "GOPROXY" => value
                .split([',', '|'])
                .any(|p| !matches!(p, "" | "direct" | "off" | "https://proxy.golang.org")),
            "GOSUMDB" => value == "off",
            "GONOSUMDB" | "GONOSUMCHECK" | "GOINSECURE" => !value.is_empty(),
            "GOFLAGS" => value.contains("-insecure"),
            _ => false,
        }
    })
}

/// `go install host/path/cmd/x@v && x`: the module is fetched from its address and its
/// binary run in the same command line, as `go run host/path@v` does. Installing alone runs
/// none of its code (Go has no install scripts), so it stays an ordinary install.
fn installed_then_run(script: &Script) -> Option<String> {
    let mut installed: Vec<(String, &Command)> = Vec::new();
    for c in &script.commands {
        let name = crate::paths::basename(c.argv.first().map_or("", |p| p.text.as_str()));
        if let Some((_, by)) = installed.iter().find(|(n, _)| n == name) {
            return Some(format!(
                "`{}` runs what `{}` fetched from an address",
                show(c),
                show(by)
            ));
        }
        let a = args(c);
        if name == "gh" {
            if let Some(by) = gh_extension_run(c, &installed) {
                return Some(format!(
                    "`{}` runs a gh extension `{}` fetched from a repository",
                    show(c),
                    show(by)
                ));
            }
            installed.extend(gh_extensions(c).into_iter().map(|n| (format!("gh {n}"), c)));
        }
        if name == "go" && a.first().is_some_and(|v| v.text == "install") {
            let modules = a
                .iter()
                .skip(1)
                .filter(|x| x.text.contains('/') && x.text.contains('@'));
            installed.extend(modules.filter_map(|m| go_binary(&m.text)).map(|n| (n, c)));
        }
    }
    None
}

/// `gh extension install OWNER/gh-NAME` (also `gh ext install`, a URL): the extension's
/// command name, NAME; gh runs the repository's executable as `gh NAME`.
fn gh_extensions(c: &Command) -> Vec<String> {
    if program(c) != "gh" {
        return Vec::new();
    }
    let words: Vec<&str> = args(c).iter().map(|x| x.text.as_str()).collect();
    if !matches!(words.as_slice(), ["extension" | "ext", "install", ..]) {
        return Vec::new();
    }
    (words[2..].iter())
        .filter(|w| !w.starts_with('-'))
        .map(|w| {
            let repo = w.trim_end_matches('/').rsplit('/').next().unwrap_or(w);
            repo.strip_prefix("gh-").unwrap_or(repo).to_string()
        })
        .collect()
}

/// `gh NAME …` or `gh extension exec NAME` of an extension installed earlier in the line.
fn gh_extension_run<'c>(c: &Command, installed: &[(String, &'c Command)]) -> Option<&'c Command> {
    if program(c) != "gh" || installed.is_empty() {
        return None;
    }
    let words: Vec<&str> = args(c).iter().map(|x| x.text.as_str()).collect();
    let name = match words.as_slice() {
        ["extension" | "ext", "exec", name, ..] => *name,
        [name, ..] => *name,
        [] => return None,
    };
    let key = format!("gh {name}");
    installed.iter().find(|(n, _)| *n == key).map(|(_, by)| *by)
}

/// The binary `go install` makes of `host/path/x@v` (`x`; a `/vN` major-version suffix is
/// skipped: `…/x/v2@latest` is `x`).
fn go_binary(module: &str) -> Option<String> {
    let path = module.split('@').next()?;
    let mut parts = path.rsplit('/');
    let last = parts.next()?;
    let versioned =
        last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit());
    let name = if versioned { parts.next()? } else { last };
    (!name.is_empty()).then(|| name.to_string())
}

/// Whether a command runs on another machine (`ssh host CMD`, the shell model's label
/// `ssh HOST`): what it prints comes from there.
pub fn on_another_host(c: &Command) -> bool {
    c.wrappers.iter().any(|w| w.starts_with("ssh "))
}

/// The files fetchers whose output is not `-o` name write: `lwp-download URL [FILE]`, `tftp
/// HOST -c get REMOTE [LOCAL]`, `axel [-o F] URL` (named from the URL without one).
fn fetched_files(prog: &str, a: &[crate::shell::Arg]) -> Option<(Vec<String>, bool)> {
    match prog {
        "lwp-download" => {
            let ops = operands(a, &["-s"]);
            Some(match ops.get(1) {
                Some(f) => (vec![f.text.clone()], false),
                None => (Vec::new(), true),
            })
        }
        "tftp" => {
            let at = a.iter().position(|x| x.text == "-c")?;
            let verb = a.get(at + 1)?;
            if verb.text != "get" {
                return Some((Vec::new(), false));
            }
            let remote = a.get(at + 2)?;
            let local = match a.get(at + 3) {
                Some(l) => l.text.clone(),
                None => crate::paths::basename(&remote.text).to_string(),
            };
            Some((vec![local], false))
        }
        "axel" => {
            let named = option_values(a, Some("-o"), "--output");
            Some((
                named.iter().map(|f| f.to_string()).collect(),
                named.is_empty(),
            ))
        }
        _ => None,
    }
}

/// `split --filter=sh`: each piece of the input is piped into `sh -c 'sh'`, which runs it.
pub fn filter_runs_input(c: &Command) -> bool {
    program(c) == "split"
        && option_values(args(c), None, "--filter")
            .iter()
            .any(|f| f.split_whitespace().next().is_some_and(is_interpreter))
}

pub fn is_interpreter(prog: &str) -> bool {
    listed(&INTERPRETERS, prog) || prog.starts_with("python3.") || prog == "eval"
}

/// An interpreter whose input chain holds a download or a decode, and which runs that input
/// (no literal program of its own: `curl … | python3 -c 'import json…'` reads data).
fn piped(script: &Script) -> Option<String> {
    script.commands.iter().enumerate().find_map(|(i, c)| {
        // A command fed by none (most are) has no input to run: its program is not read.
        if c.inputs.is_empty() {
            return None;
        }
        if !runs_input(c) {
            return None;
        }
        let source = feeder(script, i, 0)?;
        Some(format!(
            "`{}` runs what `{}` produced",
            show(c),
            show(source)
        ))
    })
}

/// A command that runs what reaches its stdin.
fn runs_input(c: &Command) -> bool {
    // `make -f -` reads its makefile, recipes and all, from stdin.
    let make_stdin =
        program(c) == "make" && option_values(args(c), Some("-f"), "--file").contains(&"-");
    make_stdin
        || to_command_runs_input(c)
        || filter_runs_input(c)
        || takes_commands_on_stdin(c)
        || is_interpreter(program(c)) && !runs_own_literal(c)
}

/// `mkfifo f; sh < f & curl URL > f`: an interpreter reading its stdin from a file that a
/// download or decode of the same line writes (a FIFO passes the bytes as a pipe would; a
/// plain file holds them by the time a later reader opens it).
fn through_file(s: &Subject, script: &Script) -> Option<String> {
    let written: Vec<(String, &Command)> = (script.commands.iter())
        .filter(|d| is_source(d))
        .flat_map(|d| {
            let redirected = (d.redirects.iter())
                .filter(|r| r.kind != crate::shell::RedirectKind::Read)
                .map(|r| r.target.text.clone());
            let named = outputs(d).0;
            redirected
                .chain(named)
                .map(|f| (resolved(s, d, &f), d))
                .collect::<Vec<_>>()
        })
        .collect();
    if written.is_empty() {
        return None;
    }
    script.commands.iter().find_map(|c| {
        let read = (c.redirects.iter())
            .filter(|r| r.kind == crate::shell::RedirectKind::Read)
            .map(|r| resolved(s, c, &r.target.text));
        let fed = read
            .into_iter()
            .find_map(|f| written.iter().find(|(w, _)| same_file(w, &f)));
        let (_, source) = fed.filter(|_| runs_input(c))?;
        Some(format!(
            "`{}` runs what `{}` wrote to the file it reads",
            show(c),
            show(source)
        ))
    })
}

/// Programs beyond the interpreters that take commands from their stdin: vim in Ex mode (`:!`
/// runs shell), `script` (the shell it starts reads the input), `crontab -` (installed: it runs
/// every time a line fires), the sqlite3 shell given only a database (`.shell`), psql (`\!`) and
/// mysql (`system`) with no query of their own.
fn takes_commands_on_stdin(c: &Command) -> bool {
    let a = args(c);
    match program(c) {
        "vim" | "vi" | "nvim" | "gvim" | "view" => a.iter().any(|x| {
            let t = x.text.as_str();
            t.starts_with('-') && !t.starts_with("--") && t.contains(['e', 'E'])
        }),
        // `script -c CMD` was already read as CMD by the shell model.
        "script" => true,
        "crontab" => {
            !has_flag(a, &['l', 'r', 'e'], &[])
                && operands(a, &["-u"]).first().is_none_or(|f| f.text == "-")
        }
        "sqlite3" | "duckdb" => operands(a, &["-cmd", "-separator", "-nullvalue"]).len() <= 1,
        "psql" => !has_flag(a, &['c', 'f'], &["command", "file"]),
        "mysql" | "mariadb" => !has_flag(a, &['e'], &["execute"]),
        // `deno run -`, `bun run -`: the script operand after the subcommand is stdin.
        "deno" | "bun" => {
            let ops = operands(a, &[]);
            ops.first().is_some_and(|o| o.text == "run")
                && ops.get(1).is_some_and(|o| is_stdin(&o.text))
        }
        // A program or command file named as stdin: `awk -f /dev/stdin`, `gdb -x -`,
        // `sed -f -`, `lldb -s /dev/stdin`.
        "awk" | "gawk" | "mawk" | "nawk" | "sed" | "gsed" => {
            (option_values(a, Some("-f"), "--file").iter()).any(|f| is_stdin(f))
        }
        // ssh runs the `Match exec`/`ProxyCommand` lines of a config read from stdin; groff
        // in unsafe mode the `.sy` requests of a document read from it.
        "ssh" | "scp" | "sftp" => {
            let files = option_values(a, Some("-F"), "-F");
            files.iter().any(|f| is_stdin(f))
        }
        "groff" | "nroff" | "troff" => {
            let unsafe_mode = a.iter().any(|x| x.text == "-U" || x.text.starts_with("-U"));
            unsafe_mode && roff_files(a).iter().all(|f| is_stdin(f))
        }
        // m4 input may `syscmd`/`esyscmd` shell text; GNU parallel with no command runs each
        // input line as a command.
        "m4" | "gm4" => m4_files(a).iter().all(|f| is_stdin(f)),
        "parallel" => parallel_runs_lines(a) && !has_flag(a, &['a'], &["arg-file"]),
        "gdb" | "lldb" => {
            let files = option_values(a, Some("-x"), "--command");
            let lldb = option_values(a, Some("-s"), "--source");
            (files.iter().chain(lldb.iter())).any(|f| is_stdin(f))
        }
        _ => false,
    }
}

/// groff's input files (none: standard input).
fn roff_files(a: &[crate::shell::Arg]) -> Vec<&str> {
    const VALUED: [&str; 15] = [
        "-T", "-P", "-d", "-f", "-F", "-I", "-K", "-L", "-M", "-n", "-o", "-r", "-w", "-W", "-m",
    ];
    operands(a, &VALUED)
        .iter()
        .map(|o| o.text.as_str())
        .collect()
}

/// `tar -x --to-command=sh`: each member of the archive is piped into the command, which runs
/// it when it is a shell or interpreter reading its input (or `make -f -`).
fn to_command_runs_input(c: &Command) -> bool {
    if !matches!(program(c), "tar" | "gtar") {
        return false;
    }
    let commands = option_values(args(c), None, "--to-command");
    commands.iter().any(|text| {
        let script = crate::shell::analyze(&crate::shell::ShellInput {
            script: text,
            ..Default::default()
        });
        script.commands.first().is_some_and(|inner| {
            let make = program(inner) == "make"
                && option_values(args(inner), Some("-f"), "--file").contains(&"-");
            make || is_interpreter(program(inner)) && !runs_own_literal(inner)
        })
    })
}

/// Files a program reads instructions from that run commands: ssh's `-F` config (`Match
/// exec`), a groff document in unsafe mode (`.sy`), the archive whose members tar pipes into
/// a shell (`--to-command=sh`).
fn instruction_files(c: &Command) -> Vec<&str> {
    let a = args(c);
    match program(c) {
        "ssh" | "scp" | "sftp" => option_values(a, Some("-F"), "-F"),
        "groff" | "nroff" | "troff" if a.iter().any(|x| x.text.starts_with("-U")) => roff_files(a),
        "tar" | "gtar" if to_command_runs_input(c) => option_values(a, Some("-f"), "--file"),
        "m4" | "gm4" => m4_files(a),
        "parallel" if parallel_runs_lines(a) => option_values(a, Some("-a"), "--arg-file"),
        _ => Vec::new(),
    }
}

/// m4's input files (none: standard input).
fn m4_files(a: &[crate::shell::Arg]) -> Vec<&str> {
    const VALUED: [&str; 9] = ["-D", "-U", "-I", "-o", "-F", "-R", "-L", "-l", "-t"];
    let files: Vec<&str> = (operands(a, &VALUED).iter())
        .map(|o| o.text.as_str())
        .collect();
    match files.is_empty() {
        true => vec!["-"],
        false => files,
    }
}

/// GNU parallel given no command (nothing but options before any `:::` source): each input
/// line is a command line.
fn parallel_runs_lines(a: &[crate::shell::Arg]) -> bool {
    const VALUED: [&str; 8] = ["-j", "-S", "-a", "--arg-file", "-d", "-E", "-I", "--jobs"];
    (operands(a, &VALUED).first()).is_none_or(|o| o.text.starts_with(":::"))
}

/// Names a program reads as its standard input.
fn is_stdin(name: &str) -> bool {
    matches!(name, "-" | "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0")
}

/// The first download or decode among the commands feeding command `i`, transitively.
fn feeder(script: &Script, i: usize, depth: u32) -> Option<&Command> {
    if depth > 64 {
        return None;
    }
    script.commands.get(i)?.inputs.iter().find_map(|&j| {
        let c = script.commands.get(j)?;
        if is_source(c) {
            Some(c)
        } else {
            feeder(script, j, depth + 1)
        }
    })
}

/// CLIs that print remote content: `gh gist view`, `gh api`, `aws s3 cp s3://… -`,
/// `gsutil cat`, `az storage blob download … -f /dev/stdout`.
fn fetches(prog: &str, a: &[crate::shell::Arg]) -> bool {
    // Every command comes here: the words are gathered only for the programs that need them.
    let words = || -> Vec<&str> { a.iter().map(|x| x.text.as_str()).collect() };
    let any = |f: fn(&str) -> bool| a.iter().any(|x| f(&x.text));
    match prog {
        "gh" => matches!(
            words().as_slice(),
            ["gist", "view", ..] | ["api", ..] | ["release", "download", ..]
        ),
        "aws" => {
            let words = words();
            matches!(words.as_slice(), ["s3", "cp", ..]) && words.contains(&"-")
        }
        "gsutil" | "gcloud" => any(|w| w == "cat"),
        // `git archive --remote=URL`, `svn export URL`, `rsync rsync://…`: files from elsewhere.
        "git" => any(|w| w.starts_with("--remote")) && any(|w| w == "archive"),
        "svn" => {
            let first = a.first().map(|x| x.text.as_str());
            matches!(first, Some("export" | "checkout" | "co" | "cat"))
                && any(|w| w.contains("://"))
        }
        "rsync" => any(|w| w.starts_with("rsync://") || w.contains("::")),
        _ => false,
    }
}

/// A decoder (not a download): its output is a payload the text did not show.
pub fn decodes(c: &Command) -> bool {
    !listed(&DOWNLOADERS, program(c)) && is_source(c)
}

fn is_source(c: &Command) -> bool {
    let prog = program(c);
    if listed(&DOWNLOADERS, prog) || fetches(prog, args(c)) || on_another_host(c) {
        return true;
    }
    // `perl -e 'print pack("H*", …)' | sh`: a program computing a script is a decoder.
    if crate::guards::inline::code(c).is_some() {
        return true;
    }
    if !listed(&DECODERS, prog) {
        return false;
    }
    let a = args(c);
    match prog {
        "base64" | "base32" | "basenc" => has_flag(a, &['d', 'D'], &["decode"]),
        "xxd" => has_flag(a, &['r'], &["revert"]),
        "openssl" => a
            .iter()
            .any(|x| matches!(x.text.as_str(), "enc" | "base64" | "-d" | "s_client")),
        "gzip" | "bzip2" | "xz" => has_flag(a, &['d'], &["decompress", "stdout"]),
        _ => true,
    }
}

/// `python3 -c CODE`, `perl -e CODE`, `node -e CODE`, `bash script.sh`: the interpreter runs a
/// program of its own, and what it reads from stdin is data.
fn runs_own_literal(c: &Command) -> bool {
    let a = args(c);
    if a.iter().any(|x| x.text == "-s") {
        // `bash -s -- args`: the script is stdin, the words are its arguments.
        return false;
    }
    let inline = a
        .iter()
        .position(|x| matches!(x.text.as_str(), "-c" | "-e" | "-E" | "-r" | "--eval" | "-p"));
    if let Some(k) = inline {
        return a.get(k + 1).is_some_and(|code| !code.unresolved);
    }
    let prog = program(c);
    if matches!(prog, "source" | "." | "eval") {
        return false;
    }
    // `at now`, `batch`: the job is stdin unless `-f FILE` names it; the operands are times.
    if matches!(prog, "at" | "batch") {
        return has_flag(a, &['f'], &[]);
    }
    // A script file operand (not `-`, not /dev/stdin, not a substitution) runs that file.
    operands(a, &["-O", "-o", "-W", "-X", "-m"])
        .first()
        .is_some_and(|f| {
            !f.unresolved
                && !matches!(f.text.as_str(), "-" | "/dev/stdin" | "/proc/self/fd/0")
                && !f.text.starts_with("/dev/fd/")
        })
}

/// `curl -o x.sh URL && sh x.sh`, `wget URL -O x; chmod +x x; ./x`, `curl … | tee x; sh x`:
/// files are compared as the paths they resolve to (`-o i.sh` then `bash /srv/app/i.sh`).
fn saved_then_run(s: &Subject, script: &Script) -> Option<String> {
    let mut saved: Vec<String> = Vec::new();
    let mut unnamed = false;
    for (i, c) in script.commands.iter().enumerate() {
        if let Some(hit) = runs_saved(s, c, &saved, unnamed) {
            return Some(hit);
        }
        if builds_earlier_clone(s, script, c) {
            return Some(format!(
                "`{}` builds or installs a repository an earlier call cloned: its scripts come from that address",
                show(c)
            ));
        }
        // What a download or decode writes, or a command it feeds (`| tee x`, `| dd of=x`).
        let carries = is_source(c) || writes_file(c) && feeder(script, i, 0).is_some();
        if carries || extracts_download(script, c) {
            let (names, anon) = outputs(c);
            let names: Vec<String> = names.iter().map(|n| resolved(s, c, n)).collect();
            if let Some(f) = names.iter().find(|n| runs_later(n).is_some()) {
                return Some(format!(
                    "`{}` saves downloaded or decoded code to {f}, which runs later (a startup file, git hook or config, crontab or unit)",
                    show(c)
                ));
            }
            saved.extend(names);
            unnamed |= anon;
        }
        if let Some(dir) = cloned(c) {
            saved.push(resolved(s, c, &dir));
        }
        // `git apply p.diff`, `patch -p1 < p.diff` of a download: the files it creates or
        // changes (a Makefile, package.json) are the download's, by names not known here.
        unnamed |= applies_saved(s, c, &saved);
    }
    None
}

/// `openssl req -engine x.so`, `LD_PRELOAD=./x.so ls`, `enable -f x.so`, `.load x.so`: a
/// downloaded shared library named anywhere in a later command is loaded into it, and its
/// constructors run. Programs that only look at a file (`sha256sum`, `file`, `rm`) load
/// nothing.
fn loads_library(s: &Subject, c: &Command, saved: &[String]) -> bool {
    const LOOKS: [&str; 16] = [
        "rm",
        "ls",
        "file",
        "stat",
        "sha256sum",
        "sha1sum",
        "sha512sum",
        "md5sum",
        "b2sum",
        "nm",
        "objdump",
        "readelf",
        "strings",
        "du",
        "chmod",
        "test",
    ];
    let libraries: Vec<&String> = (saved.iter())
        .filter(|f| {
            let name = crate::paths::basename(f);
            [".so", ".dylib", ".dll", ".node"]
                .iter()
                .any(|e| name.ends_with(e))
                || name.contains(".so.")
        })
        .collect();
    if libraries.is_empty() || listed(&LOOKS, program(c)) || is_source(c) {
        return false;
    }
    let words =
        (c.argv.iter().map(|x| x.text.as_str())).chain(c.wrappers.iter().map(String::as_str));
    words.into_iter().any(|w| {
        let value = w.rsplit_once('=').map_or(w, |(_, v)| v);
        libraries
            .iter()
            .any(|f| w.contains(f.as_str()) || same_file(f, &resolved(s, c, value)))
    })
}

/// A patch from a file saved by a download applied to the working tree.
fn applies_saved(s: &Subject, c: &Command, saved: &[String]) -> bool {
    let a = args(c);
    let patches: Vec<&str> = match program(c) {
        "git" if matches!(a.first().map(|v| v.text.as_str()), Some("apply" | "am")) => operands(
            &a[1..],
            &["-p", "-C", "--directory", "--exclude", "--include"],
        )
        .iter()
        .map(|o| o.text.as_str())
        .collect(),
        "patch" => option_values(a, Some("-i"), "--input"),
        _ => return false,
    };
    let redirected = c
        .redirects
        .iter()
        .filter(|r| r.kind == crate::shell::RedirectKind::Read);
    let from: Vec<&str> = patches
        .into_iter()
        .chain(redirected.map(|r| r.target.text.as_str()))
        .collect();
    from.iter()
        .any(|f| saved.iter().any(|d| same_file(d, &resolved(s, c, f))))
}

/// The names of the files a call's downloads save (`curl -o i.sh URL`, `wget URL`, `curl -O
/// URL/x.sh`): what a later call of the session runs from them is remote code, judged as a
/// file written with text only known when it runs (`crate::written`). Redirects are the
/// shell model's (`Script::written`).
pub fn downloaded_names(s: &Subject) -> Vec<String> {
    let mut out = Vec::new();
    for c in s.view.scripts.iter().flat_map(|script| &script.commands) {
        let prog = program(c);
        // A cloned repository is kept by its directory's name (`builds_earlier_clone`).
        out.extend(cloned(c).map(|dir| crate::paths::basename(&dir).to_string()));
        if !(listed(&DOWNLOADERS, prog) || fetches(prog, args(c))) {
            continue;
        }
        let (names, anonymous) = outputs(c);
        // A package's file keeps its package (`node_modules/x/index.js`): what loads it by
        // that name is found (`crate::code::imports`).
        let kept = |n: &str| {
            let name = crate::code::imports::qualified(n).unwrap_or(crate::paths::basename(n));
            name.to_string()
        };
        out.extend(names.iter().map(|n| kept(n)));
        if anonymous {
            out.extend(url_names(c));
        }
    }
    out
}

/// The names `curl -O` and `wget` give what they fetch: the URL's last path segment (wget's
/// `index.html` for none).
fn url_names(c: &Command) -> Vec<String> {
    let urls = args(c).iter().filter(|a| a.text.contains("://"));
    urls.map(|u| {
        let path = u.text.split(['?', '#']).next().unwrap_or("");
        let last = path
            .split("://")
            .nth(1)
            .and_then(|p| p.split_once('/'))
            .map(|(_, p)| p);
        let name = last
            .and_then(|p| p.rsplit('/').next())
            .filter(|n| !n.is_empty());
        name.unwrap_or("index.html").to_string()
    })
    .collect()
}

/// A command that can save what flows into it: a redirect to a file, `tee`, `dd`.
fn writes_file(c: &Command) -> bool {
    matches!(program(c), "tee" | "dd")
        || c.redirects.iter().any(|r| {
            matches!(
                r.kind,
                crate::shell::RedirectKind::Write | crate::shell::RedirectKind::Append
            )
        })
}

fn resolved(s: &Subject, c: &Command, text: &str) -> String {
    s.path_of(c, text).path.clone()
}

/// Files a download or decode writes: `-o F`, `-O F` (wget), `> F`, `tee F`, `dd of=F`,
/// `--output-dir D` for curl's names; `curl -O`/`wget URL` use a name from the URL, which is
/// not known here.
fn outputs(c: &Command) -> (Vec<String>, bool) {
    let a = args(c);
    let mut names: Vec<String> = c
        .redirects
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                crate::shell::RedirectKind::Write | crate::shell::RedirectKind::Append
            )
        })
        .map(|r| r.target.text.clone())
        .collect();
    let prog = program(c);
    if let Some((more, anonymous)) = fetched_files(prog, a) {
        names.extend(more);
        return (names, anonymous);
    }
    let flagged = match prog {
        "curl" => option_values(a, Some("-o"), "--output"),
        "wget" | "wget2" => option_values(a, Some("-O"), "--output-document"),
        // `scp host:x /tmp/x`: the last operand is where the copy lands.
        "scp" | "sftp" => operands(a, &["-P", "-i", "-o", "-F", "-J", "-l", "-S"])
            .last()
            .map(|d| vec![d.text.as_str()])
            .unwrap_or_default(),
        "tee" => operands(a, &[]).iter().map(|f| f.text.as_str()).collect(),
        "dd" => a
            .iter()
            .filter_map(|x| x.text.strip_prefix("of="))
            .collect(),
        _ => option_values(a, Some("-o"), "--output"),
    };
    let dir = (prog == "curl")
        .then(|| option_values(a, None, "--output-dir").last().copied())
        .flatten();
    names.extend(flagged.iter().filter(|f| **f != "-").map(|f| match dir {
        Some(d) if !f.starts_with('/') => format!("{}/{f}", d.trim_end_matches('/')),
        _ => f.to_string(),
    }));
    let anonymous = match prog {
        "curl" => has_flag(a, &['O'], &["remote-name", "remote-name-all"]),
        "wget" | "wget2" => flagged.is_empty() && names.is_empty(),
        // Named from the URL unless `-o`/`--out` says otherwise; svn and rsync write trees.
        "aria2c" => option_values(a, Some("-o"), "--out").is_empty(),
        "svn" | "rsync" | "git" => true,
        "tar" | "unzip" | "bsdtar" | "cpio" | "7z" => true,
        _ => false,
    };
    (names, anonymous)
}

fn runs_saved(s: &Subject, c: &Command, saved: &[String], unnamed: bool) -> Option<String> {
    // Nothing downloaded or decoded so far in the line: nothing of it can run (most commands).
    if saved.is_empty() && !unnamed {
        return None;
    }
    let prog_path = c.argv.first().map(|a| a.text.as_str()).unwrap_or("");
    let named = |t: &str| {
        let t = resolved(s, c, t);
        saved.iter().any(|f| same_file(f, &t))
    };
    let executes_path = prog_path.contains('/') && (named(prog_path) || unnamed);
    let interpreted = is_interpreter(program(c))
        && operands(args(c), &[])
            .first()
            .is_some_and(|f| named(&f.text) || unnamed && !f.text.starts_with('-'));
    // A package installed from the file runs its maintainer scripts, a jar its code, a crontab
    // its lines every time they fire.
    let installed = matches!(
        program(c),
        "dpkg"
            | "apt"
            | "apt-get"
            | "rpm"
            | "yum"
            | "dnf"
            | "zypper"
            | "java"
            | "gdebi"
            | "crontab"
    ) && operands(args(c), &["-u"]).iter().any(|f| {
        named(&f.text) || unnamed && [".deb", ".rpm", ".jar"].iter().any(|e| f.text.ends_with(e))
    });
    // A build or test tool runs files of its directory: `curl -o Makefile URL && make`.
    let built = projects::project(c).is_some_and(|p| {
        let dir = resolved(s, c, p.dir);
        unnamed
            || p.named.iter().any(|f| named(f))
            || saved.iter().any(|f| projects::runs(&p, &dir, f))
    });
    let instructed = instruction_files(c).iter().any(|f| named(f) || unnamed);
    let made_executable = program(c) == "chmod"
        && args(c).iter().any(|x| x.text.contains('x'))
        && operands(args(c), &[])
            .iter()
            .skip(1)
            .any(|f| named(&f.text));
    let loaded = loads_library(s, c, saved);
    (executes_path || interpreted || installed || built || instructed || made_executable || loaded)
        .then(|| {
            format!(
                "`{}` runs a file the same command line downloaded or decoded",
                show(c)
            )
        })
}

/// `make -C /tmp/r`, `npm install /tmp/r`, after an earlier call of the session ran `git clone
/// URL /tmp/r`: the session keeps the clone as a file of unknown text named as its directory
/// (`downloaded_names`), and a build tool run there, or an installer given it, runs that
/// repository's code as the same line would (`runs_saved`).
fn builds_earlier_clone(s: &Subject, script: &Script, c: &Command) -> bool {
    // Most lines keep no file of unknown text: then no project or installer is looked at.
    if !script.written.iter().any(|(_, text)| text.is_none()) {
        return false;
    }
    let unknown = |dir: &str| {
        let dir = resolved(s, c, dir);
        let name = crate::paths::basename(dir.trim_end_matches('/'));
        (script.written.iter()).any(|(k, text)| text.is_none() && k == name)
    };
    let local = |t: &str| t.starts_with(['/', '.']) && !t.starts_with("--");
    let project_dir = projects::project(c).is_some_and(|p| p.dir != "." && unknown(p.dir));
    let installed = installer_args(c).is_some_and(|a| {
        let verb = a.first().map(|v| v.text.as_str());
        matches!(verb, Some("install" | "i" | "add"))
            && a.iter().skip(1).any(|x| local(&x.text) && unknown(&x.text))
    });
    project_dir || installed
}

/// The file or something under the directory saved there.
fn same_file(saved: &str, run: &str) -> bool {
    let (saved, run) = (saved.trim_end_matches('/'), run.trim_end_matches('/'));
    run == saved
        || run
            .strip_prefix(saved)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `git clone URL [DIR]` saves a remote repository: its DIR, or the name the URL ends with.
fn cloned(c: &Command) -> Option<String> {
    // Every git command comes here: the operands are gathered only for a clone.
    if program(c) != "git" || !args(c).iter().any(|x| x.text == "clone") {
        return None;
    }
    let ops = operands(
        args(c),
        &[
            "-C",
            "-c",
            "-b",
            "--branch",
            "--depth",
            "-o",
            "--origin",
            "--reference",
            "-j",
            "--jobs",
        ],
    );
    if ops.first()?.text != "clone" {
        return None;
    }
    let url = ops.get(1)?.text.as_str();
    let named = ops.get(2).map(|d| d.text.clone());
    let dir = named.or_else(|| {
        let last = url.trim_end_matches('/').rsplit(['/', ':']).next()?;
        Some(last.trim_end_matches(".git").to_string())
    })?;
    // `git -C /tmp clone URL` clones into /tmp.
    let base = option_values(args(c), Some("-C"), "-C").first().copied();
    Some(match base {
        Some(b) if !dir.starts_with('/') => format!("{}/{dir}", b.trim_end_matches('/')),
        _ => dir,
    })
}

/// `curl … | tar xz -C /tmp`: an archive unpacked from a download; what it writes is unnamed.
fn extracts_download(script: &Script, c: &Command) -> bool {
    let unpacker = matches!(program(c), "tar" | "unzip" | "bsdtar" | "cpio" | "7z");
    unpacker
        && c.inputs
            .iter()
            .any(|&j| script.commands.get(j).is_some_and(is_source))
}
