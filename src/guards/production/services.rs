//! Service managers besides `systemctl`/`service`: systemd and logind called over D-Bus
//! (`busctl`, `dbus-send`, `gdbus`, `qdbus`), runit's `sv`, daemontools' `svc`, s6, upstart's
//! `initctl`, OpenRC's `rc-update`, launchd, monit, circus, god, `apachectl -k`,
//! `pg_ctlcluster`, `loginctl`, runlevels (`telinit 6`). Their status and listing commands
//! stay allowed. Application process managers (pm2, forever, supervisorctl) are
//! `process_managers`'.

use crate::guards::argv::{args, listed, operands, option_values, plain_words};
use crate::shell::{Arg, Command};

const SERVICE: &str = "stops or changes a running service";
const MACHINE: &str = "stops or restarts the machine";

/// Programs `change` reads (see `databases::PROGRAMS`).
const PROGRAMS: [&str; 29] = [
    "busctl",
    "dbus-send",
    "gdbus",
    "qdbus",
    "qdbus6",
    "sv",
    "svc",
    "s6-svc",
    "s6-svscanctl",
    "runsvctrl",
    "s6-rc",
    "initctl",
    "stop",
    "restart",
    "reload",
    "rc-update",
    "rc-service",
    "openrc",
    "launchctl",
    "monit",
    "circusctl",
    "god",
    "apachectl",
    "apache2ctl",
    "httpd",
    "pg_ctlcluster",
    "loginctl",
    "telinit",
    "init",
];

pub fn change(c: &Command, prog: &str) -> Option<&'static str> {
    if !listed(&PROGRAMS, prog) {
        return None;
    }
    let a = args(c);
    let plain = plain_words(a);
    let first = plain.first().copied().unwrap_or("");
    let verb_in = |verbs: &[&str]| plain.iter().any(|w| verbs.contains(w));
    match prog {
        "busctl" | "dbus-send" | "gdbus" | "qdbus" | "qdbus6" => dbus(prog, a),
        "sv" => {
            let ops = operands(a, &["-w"]);
            let verb = ops.first().map_or("", |v| v.text.as_str());
            (!verb.is_empty() && !runit_reads(verb)).then_some(SERVICE)
        }
        // daemontools: every flag of `svc` sends a signal or changes the supervised state.
        "svc" | "s6-svc" | "s6-svscanctl" | "runsvctrl" => {
            a.iter().any(|x| x.text.starts_with('-')).then_some(SERVICE)
        }
        "s6-rc" => verb_in(&["change"]).then_some(SERVICE),
        "initctl" => verb_in(&[
            "start",
            "stop",
            "restart",
            "reload",
            "emit",
            "reload-configuration",
        ])
        .then_some(SERVICE),
        // upstart's own `stop JOB`, `restart JOB`, `reload JOB`.
        "stop" | "restart" | "reload" => (!plain.is_empty()).then_some(SERVICE),
        "rc-update" => verb_in(&["del", "delete", "add"]).then_some(SERVICE),
        "rc-service" | "openrc" => verb_in(&["start"]).then_some(SERVICE),
        "launchctl" => verb_in(&[
            "load",
            "unload",
            "bootstrap",
            "bootout",
            "start",
            "stop",
            "kickstart",
            "kill",
            "enable",
            "disable",
            "remove",
            "submit",
            "reboot",
        ])
        .then_some(SERVICE),
        "monit" | "circusctl" | "god" => verb_in(&[
            "start",
            "stop",
            "restart",
            "monitor",
            "unmonitor",
            "reload",
            "quit",
            "rm",
            "terminate",
            "remove",
            "decr",
            "signal",
        ])
        .then_some(SERVICE),
        "apachectl" | "apache2ctl" | "httpd" => apache(a, &plain),
        // `pg_ctlcluster VERSION CLUSTER ACTION`.
        "pg_ctlcluster" => plain
            .get(2)
            .is_some_and(|v| matches!(*v, "start" | "stop" | "restart" | "reload" | "promote"))
            .then_some(SERVICE),
        "loginctl" => verb_in(&[
            "poweroff",
            "reboot",
            "halt",
            "suspend",
            "hibernate",
            "kill-session",
            "kill-user",
            "terminate-session",
            "terminate-user",
            "terminate-seat",
        ])
        .then_some(MACHINE),
        // `telinit 6`, `init 0`: a runlevel; `q`/`u` only reread the config or re-exec.
        "telinit" | "init" => match first {
            "" | "q" | "Q" | "u" | "U" => None,
            level if level.len() == 1 => Some(MACHINE),
            _ => None,
        },
        _ => None,
    }
}

/// runit's `sv` reads with `status` and `check`; it acts on the first letter of the others
/// (`sv d api` is `down`), and any word beginning with `s` but `start`, `stop` and
/// `shutdown` is a status.
fn runit_reads(verb: &str) -> bool {
    verb == "check" || verb.starts_with('s') && !matches!(verb, "start" | "stop" | "shutdown")
}

/// `apachectl -k stop|restart|graceful|graceful-stop`, or the same verbs given bare
/// (`apachectl graceful`); `configtest`, `status`, `-t`, `-V` read.
fn apache(a: &[Arg], plain: &[&str]) -> Option<&'static str> {
    let signal = option_values(a, Some("-k"), "-k");
    let verbs = signal.iter().chain(plain.iter());
    verbs
        .into_iter()
        .any(|v| {
            matches!(
                *v,
                "start" | "stop" | "restart" | "graceful" | "graceful-stop"
            )
        })
        .then_some(SERVICE)
}

/// D-Bus services that start, stop and power off: systemd's manager and units, logind.
const DBUS_SERVICES: [&str; 2] = ["org.freedesktop.systemd1", "org.freedesktop.login1"];

/// A method called on systemd or logind over D-Bus (`busctl call … StopUnit`, `dbus-send …
/// org.freedesktop.systemd1.Manager.RestartUnit`, `gdbus call … -m ….PowerOff`): anything but
/// a read (`Get…`, `List…`, `Lookup…`, `Introspect`, `Can…`) changes a unit or the machine,
/// as `systemctl` would; `busctl set-property` too.
fn dbus(prog: &str, a: &[Arg]) -> Option<&'static str> {
    let named = a.iter().any(|x| {
        (DBUS_SERVICES.iter()).any(|d| x.text.contains(d) || x.text.contains(&d.replace('.', "/")))
    });
    if !named {
        return None;
    }
    let words = plain_words(a);
    let method: Option<&str> = match prog {
        // `busctl [opts] call SERVICE OBJECT INTERFACE METHOD [SIGNATURE [ARGS…]]`.
        "busctl" => match words
            .iter()
            .position(|w| matches!(*w, "call" | "set-property"))
        {
            Some(k) if words[k] == "set-property" => return Some(SERVICE),
            Some(k) => words.get(k + 4).copied(),
            None => None,
        },
        // `gdbus call … --method IFACE.METHOD`.
        "gdbus" => option_values(a, Some("-m"), "--method").first().copied(),
        // `dbus-send [opts] OBJECT IFACE.METHOD [ARGS…]`, `qdbus SERVICE PATH [IFACE.]METHOD`.
        "dbus-send" => words.get(1).copied(),
        _ => words.get(2).copied(),
    };
    let name = method?.rsplit('.').next().unwrap_or("");
    let reads = ["Get", "List", "Lookup", "Introspect", "Can", "Ping", "Dump"];
    (!name.is_empty() && !reads.iter().any(|r| name.starts_with(r))).then_some(SERVICE)
}
