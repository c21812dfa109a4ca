//! Process managers that keep an application's processes running: pm2, forever and
//! supervisord's `supervisorctl` (`systemctl`/`service` are read in `production.rs`, the other
//! service managers in `services`).
//!
//! What counts: stopping, deleting or killing a process takes down what others rely on, and
//! so does restarting every process (`pm2 restart all`, `forever restartall`): the daemon runs
//! whatever was started on this machine, not only the agent's app. Restarting the one app a
//! developer works on (`pm2 restart api`) is the everyday loop and stays allowed unless the app,
//! its ecosystem file or its environment names production (`pm2 reload api-prod`, `--env
//! production`, `NODE_ENV=production pm2 restart web --update-env`). On a host reached by ssh
//! (`ssh deploy@web 'pm2 restart api'`), or through supervisord's HTTP server on another
//! machine, every process is a deployed service: any start, restart or reload counts there.
//! Listing, logs, status and `pm2 save` stay allowed.

use super::http::local;
use super::production_env;
use crate::guards::argv::{args, listed, operands, option_values, plain_words};
use crate::shell::{Arg, Command};

const SERVICE: &str = super::clis::SERVICE;
const EVERY: &str = "restarts or stops every process of a process manager";
const REMOTE: &str = "restarts processes on another host";
const PRODUCTION: &str = "restarts a production application";

/// Programs `change` reads: most commands are none of them.
const PROGRAMS: [&str; 4] = ["pm2", "pm2-runtime", "forever", "supervisorctl"];

/// What a process manager's command does to the processes it runs.
enum Action<'a> {
    /// Stops, deletes, kills or removes: counted wherever it runs.
    Stops,
    /// Restarts or stops every process, or the daemon that runs them.
    Every,
    /// Starts, restarts or reloads the named processes (ids, names, ecosystem files);
    /// `production` when the command's environment names production.
    Restarts {
        targets: Vec<&'a str>,
        production: bool,
    },
    /// `pm2 deploy`: runs the deploy on the hosts of the ecosystem file's environment.
    Deploys,
}

pub fn change(c: &Command, prog: &str) -> Option<&'static str> {
    if !listed(&PROGRAMS, prog) {
        return None;
    }
    let a = args(c);
    let (action, remote_server) = match prog {
        "forever" => (forever(a)?, false),
        "supervisorctl" => supervisorctl(a)?,
        _ => (pm2(c, a)?, false),
    };
    match action {
        Action::Stops => Some(SERVICE),
        Action::Every => Some(EVERY),
        Action::Deploys => Some(super::clis::DEPLOYS),
        Action::Restarts { .. } if remote_server || over_ssh(c) => Some(REMOTE),
        Action::Restarts { targets, .. } if targets.contains(&"all") => Some(EVERY),
        Action::Restarts {
            targets,
            production,
        } => {
            let named = targets.iter().any(|t| app_names_production(t));
            (production || named).then_some(PRODUCTION)
        }
    }
}

/// An app or ecosystem file named for production (`api-prod`, `ecosystem.production.js`).
/// Unlike an environment's name (`production::names_production`), `live` is left out: dev
/// servers are named for it (`live-server`, `live-reload`).
fn app_names_production(name: &str) -> bool {
    (name.split(|ch: char| !ch.is_ascii_alphanumeric()))
        .any(|p| p.eq_ignore_ascii_case("prod") || p.eq_ignore_ascii_case("production"))
}

/// The command runs in a remote script of `ssh HOST` (the shell model's wrapper label),
/// unless HOST is this machine.
fn over_ssh(c: &Command) -> bool {
    (c.wrappers.iter())
        .filter_map(|w| w.strip_prefix("ssh "))
        .any(|host| !local(host))
}

/// pm2's options that take the next word (`pm2 start app.js --name api -i 4`).
const PM2_VALUED: [&str; 20] = [
    "--env",
    "--name",
    "-n",
    "-i",
    "--instances",
    "--lines",
    "--namespace",
    "--only",
    "--cwd",
    "-l",
    "--log",
    "-o",
    "--output",
    "-e",
    "--error",
    "--interpreter",
    "--node-args",
    "--max-memory-restart",
    "--cron",
    "--kill-timeout",
];

/// `pm2 VERB [TARGET…]`: `stop`, `delete`, `kill` always (the daemon and every process with
/// `kill`, `update`); `start`, `restart`, `reload`, `scale`, `sendSignal` by their targets
/// and environment (`--env NAME`, `NODE_ENV` given to pm2, kept as its wrapper); `deploy`
/// unless it only lists or shows revisions.
fn pm2<'a>(c: &Command, a: &'a [Arg]) -> Option<Action<'a>> {
    let ops = operands(a, &PM2_VALUED);
    let (verb, rest) = ops.split_first()?;
    let targets = || rest.iter().map(|t| t.text.as_str()).collect();
    Some(match verb.text.as_str() {
        "stop" | "delete" | "del" => Action::Stops,
        "kill" | "update" | "updatePM2" => Action::Every,
        "deploy" => {
            let reads = ["list", "curr", "current", "prev", "previous"];
            let plain = plain_words(a);
            if plain.iter().any(|w| reads.contains(w)) {
                return None;
            }
            Action::Deploys
        }
        "start"
        | "restart"
        | "reload"
        | "gracefulReload"
        | "startOrRestart"
        | "startOrReload"
        | "startOrGracefulReload"
        | "scale"
        | "sendSignal" => {
            let env = option_values(a, None, "--env");
            let node_env = (c.wrappers.iter()).filter_map(|w| w.strip_prefix("NODE_ENV="));
            Action::Restarts {
                targets: targets(),
                production: env.into_iter().chain(node_env).any(production_env),
            }
        }
        _ => return None,
    })
}

/// forever's options that take the next word.
const FOREVER_VALUED: [&str; 16] = [
    "-m",
    "-l",
    "-o",
    "-e",
    "-p",
    "-c",
    "-k",
    "--uid",
    "-u",
    "--sourceDir",
    "--workingDir",
    "--minUptime",
    "--spinSleepTime",
    "--pidFile",
    "--killSignal",
    "--id",
];

/// `forever stop|stopall|restart|restartall|start …`: `forever SCRIPT` alone runs it in the
/// foreground, a process of the agent's own.
fn forever(a: &[Arg]) -> Option<Action<'_>> {
    let ops = operands(a, &FOREVER_VALUED);
    let (verb, rest) = ops.split_first()?;
    Some(match verb.text.as_str() {
        "stop" => Action::Stops,
        "stopall" | "restartall" => Action::Every,
        "start" | "restart" => Action::Restarts {
            targets: rest.iter().map(|t| t.text.as_str()).collect(),
            production: false,
        },
        _ => return None,
    })
}

/// supervisorctl's options that take the next word.
const SUPERVISOR_VALUED: [&str; 10] = [
    "-c",
    "--configuration",
    "-s",
    "--serverurl",
    "-u",
    "--username",
    "-p",
    "--password",
    "-r",
    "--history-file",
];

/// `supervisorctl [-s URL] ACTION [NAME…]`: `stop`, `restart`, `remove`, `signal`,
/// `update` (restarts the programs whose configuration changed) always; `shutdown` and
/// `reload` stop or restart supervisord and every program; `start` by its targets. A server
/// URL on another machine (`-s http://web1:9001`) makes every start remote.
fn supervisorctl(a: &[Arg]) -> Option<(Action<'_>, bool)> {
    let ops = operands(a, &SUPERVISOR_VALUED);
    let (verb, rest) = ops.split_first()?;
    let server = option_values(a, Some("-s"), "--serverurl");
    let remote = server.iter().any(|url| {
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"));
        rest.is_some_and(|r| {
            let authority = r.split('/').next().unwrap_or(r);
            let host = authority.rsplit('@').next().unwrap_or(authority);
            !local(host.split(':').next().unwrap_or(host))
        })
    });
    let action = match verb.text.as_str() {
        "stop" | "restart" | "remove" | "signal" | "update" => Action::Stops,
        "shutdown" | "reload" => Action::Every,
        "start" => Action::Restarts {
            targets: rest.iter().map(|t| t.text.as_str()).collect(),
            production: false,
        },
        _ => return None,
    };
    Some((action, remote))
}
