//! OpenClaw's own administration surface, as self-protection judges it: the CLI's subcommands
//! and the gateway's methods that change what runs or what is allowed to run (plugins, config,
//! approvals and exec policy, who is paired, which agents and MCP servers exist). An agent that
//! resolves its own approval, sets the exec policy to `full`, pairs a sender of its choice or
//! adds an MCP server running a shell has stepped around every guard, so each is judged as a
//! change to governance itself. Read-only forms (list, get, show, status) stay allowed.
//!
//! The families and their verbs are those of OpenClaw 2026.9.6 (`dist/*-cli-*.mjs` commander
//! definitions; gateway methods and scopes in `method-scopes-*.mjs`).

use super::argv::operands;
use crate::shell::Arg;

/// `openclaw` subcommands that change what runs: plugins, config, the gateway's methods,
/// approvals, exec policy, pairing, agents, MCP servers.
/// `a`: the words after the CLI (`openclaw …`, `node …/openclaw.mjs …`).
pub fn cli_change(a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &["--profile", "--config", "--url", "--token"]);
    let words: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
    if let Some(why) = family_change(&ops, a) {
        return Some(why);
    }
    match words.as_slice() {
        ["plugins" | "plugin", verb, ..]
            if !matches!(
                *verb,
                "list" | "ls" | "info" | "show" | "inspect" | "doctor"
            ) =>
        {
            Some("changes OpenClaw's plugins")
        }
        ["config", verb, ..]
            if !matches!(*verb, "get" | "show" | "print" | "path" | "validate") =>
        {
            Some("changes OpenClaw's config")
        }
        ["configure" | "onboard" | "setup" | "reset" | "uninstall", ..] => {
            Some("changes OpenClaw's config")
        }
        // `openclaw update` replaces the gateway and its bundled plugins: the CLI twin of the
        // gateway's update.run. `update status` only reports.
        ["update", rest @ ..] if !matches!(rest.first(), Some(&"status")) => {
            Some("updates OpenClaw itself")
        }
        // The gateway is where governance runs: stopping, restarting or reinstalling its
        // service, or running another one in the foreground, is the agent managing its own
        // supervisor (a second gateway may load another config).
        ["gateway", "stop" | "restart" | "install" | "uninstall" | "run", ..] => {
            Some("stops, restarts or replaces the gateway governance runs in")
        }
        // `doctor --fix` rewrites the config; a plain `doctor` only reports.
        ["doctor", ..]
            if a.iter()
                .any(|x| matches!(x.text.as_str(), "--fix" | "--repair")) =>
        {
            Some("changes OpenClaw's config")
        }
        // An embedded agent turn runs in the CLI's own process, with whatever config its
        // environment names (`OPENCLAW_CONFIG_PATH`, `--profile`): outside the gateway's
        // governance. Through the gateway (`openclaw agent` without it) the turn is governed.
        ["agent", ..] if a.iter().any(|x| x.text == "--local") => {
            Some("runs an agent outside the gateway, where governance may not be loaded")
        }
        // The method is the first operand of `call`, but its options may stand before it
        // (`call --params '{}' governance.trust.set`) and take a value, so any word counts;
        // one only known when it runs may be any method.
        ["gateway", "call", ..]
            if ops[2..]
                .iter()
                .any(|m| m.unresolved || admin_method(&m.text)) =>
        {
            Some("calls a governance, config, approval or pairing method of the gateway")
        }
        _ => None,
    }
}

/// A command family of the CLI that changes approvals, exec policy, pairing, devices, agents
/// or MCP servers, with the verb sequences that only read (`grants list` for
/// `approvals grants list`).
struct Family {
    name: &'static str,
    reads: &'static [&'static [&'static str]],
    why: &'static str,
}

const FAMILIES: [Family; 12] = [
    Family {
        name: "approvals",
        // `approvals set`, `resolve <id> <decision>`, `allowlist add|remove`, `grants revoke`.
        reads: &[&["get"], &["pending"], &["grants", "list"], &["grants"]],
        why: "resolves or changes OpenClaw's exec approvals",
    },
    Family {
        name: "exec-policy",
        reads: &[&["show"]],
        why: "changes OpenClaw's exec policy",
    },
    Family {
        name: "pairing",
        reads: &[&["list"]],
        why: "approves a sender, who may then command the agent",
    },
    Family {
        name: "devices",
        // `join-code` mints an onboarding URL: a credential for a new node.
        reads: &[&["list"]],
        why: "approves, removes or mints credentials for paired devices",
    },
    Family {
        name: "nodes",
        // Pairing verbs, and `invoke`, which runs a command on a paired node, out of this
        // gateway's tool hooks. Media and status verbs are the node's own business.
        reads: &[
            &["list"],
            &["pending"],
            &["status"],
            &["describe"],
            &["camera"],
            &["location"],
            &["notify"],
            &["push"],
            &["screen"],
        ],
        why: "pairs nodes or runs a command on one outside this gateway's guards",
    },
    Family {
        name: "agents",
        reads: &[&["list"], &["bindings"]],
        why: "adds, changes or deletes agents (their workspace, tools and routing)",
    },
    Family {
        name: "mcp",
        // `reload` only drops cached runtimes; the config it then reads is guarded.
        reads: &[
            &["list"],
            &["show"],
            &["status"],
            &["probe"],
            &["doctor"],
            &["reload"],
        ],
        why: "adds or changes an MCP server, whose tools and command the agent then gets",
    },
    // Scheduled jobs run later, outside any tool call this gateway judges; skills and hooks
    // are code and instructions the agent then runs with; secrets and model credentials are
    // the host's own.
    Family {
        name: "cron",
        reads: &[&["list"], &["show"], &["status"], &["runs"]],
        why: "schedules or runs a job outside the tool calls governance judges",
    },
    Family {
        name: "skills",
        reads: &[
            &["list"],
            &["search"],
            &["show"],
            &["info"],
            &["check"],
            &["status"],
        ],
        why: "installs or changes a skill the agent then follows",
    },
    Family {
        name: "hooks",
        reads: &[&["list"], &["info"], &["check"], &["status"]],
        why: "installs, enables or disables a gateway hook",
    },
    Family {
        name: "secrets",
        reads: &[&["list"], &["status"]],
        why: "changes the host's secrets store",
    },
    Family {
        name: "models",
        reads: &[&["list"], &["status"], &["probe"], &["scan"]],
        why: "changes the host's models or their credentials",
    },
];

/// The family's verdict on `openclaw FAMILY VERB…`: a change unless the verbs are a read-only
/// form. A verb only known when it runs may be any. `file-transfer approvals migrate` rewrites
/// standing approvals unless it is a dry run.
fn family_change(ops: &[&Arg], all: &[Arg]) -> Option<&'static str> {
    let (first, rest) = ops.split_first()?;
    if first.text == "file-transfer" {
        let words: Vec<&str> = rest.iter().map(|o| o.text.as_str()).collect();
        let dry = all.iter().any(|x| x.text == "--dry-run");
        return (words.starts_with(&["approvals", "migrate"]) && !dry)
            .then_some("rewrites OpenClaw's file-transfer approvals");
    }
    let family = FAMILIES.iter().find(|f| f.name == first.text)?;
    // `openclaw agents` alone lists; `openclaw approvals` alone prints help.
    if rest.is_empty() {
        return None;
    }
    if rest.iter().any(|w| w.unresolved) {
        return Some(family.why);
    }
    let read = family.reads.iter().any(|verbs| {
        verbs.len() <= rest.len()
            && verbs.iter().zip(rest).all(|(v, w)| *v == w.text)
            // `approvals grants` alone is help; `grants revoke X` is not a read.
            && (verbs.len() == rest.len() || verbs.len() > 1 || verbs[0] != "grants")
    });
    (!read).then_some(family.why)
}

/// Gateway methods that change governance, the config, plugins, approvals, exec policy,
/// pairing, agents or MCP servers, or run a command outside the gateway's tool hooks.
pub fn admin_method(method: &str) -> bool {
    const ALWAYS: [&str; 4] = ["governance.", "config.", "plugins.", "update."];
    if ALWAYS.iter().any(|p| method.starts_with(p)) {
        return true;
    }
    // Families as in `method-scopes-*.mjs`: the approvals and pairing scopes, agents.*,
    // mcp.*, and the methods that run commands on a node or in a terminal.
    const FAMILIES: [&str; 23] = [
        "exec.approval.",
        "exec.approvals.",
        "plugin.approval.",
        "approval.",
        "openclaw.approval.",
        "system.execApprovals.",
        "node.pair.",
        "device.pair.",
        "device.token.",
        "channels.pairing.",
        "agents.",
        "mcp.",
        "node.invoke",
        "terminal.",
        "environments.session.",
        // Jobs, skills, secrets and model credentials (`method-scopes-*.mjs` of 2026.9.6):
        // a cron job or an injected chat turn runs outside this gateway's tool hooks.
        "cron.",
        "skills.",
        "secrets.",
        "models.auth",
        "tools.invoke",
        "tools.github.",
        "chat.inject",
        "wizard.",
    ];
    FAMILIES.iter().any(|p| method.starts_with(p)) && !reads_only(method)
}

/// A method whose last name only reads (`exec.approvals.get`, `device.pair.list`,
/// `mcp.app.listTools`, `plugin.approval.waitDecision`).
fn reads_only(method: &str) -> bool {
    let last = method.rsplit('.').next().unwrap_or(method);
    const READS: [&str; 14] = [
        "list",
        "get",
        "read",
        "view",
        "describe",
        "search",
        "status",
        "history",
        "wait",
        "runs",
        "detail",
        "inspect",
        "catalog",
        "effective",
    ];
    READS.iter().any(|r| last.starts_with(r)) || last.ends_with("Status")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Arg> {
        line.split_whitespace().map(Arg::literal).collect()
    }

    #[test]
    fn approval_and_policy_changes_but_not_reads() {
        for change in [
            "approvals resolve plugin:x allow-always",
            "approvals set --stdin",
            "approvals allowlist add /**",
            "approvals grants revoke g1",
            "exec-policy preset yolo",
            "exec-policy set --security full",
            "pairing approve telegram 7Q4M2K",
            "devices approve r1",
            "devices join-code",
            "nodes approve n1",
            "nodes invoke n1 system.run",
            "agents add ops --workspace /",
            "mcp set helper {}",
            "mcp serve",
            "file-transfer approvals migrate",
            "gateway call exec.approval.resolve",
            "gateway call cron.add",
            "gateway call skills.install",
            "gateway call secrets.store.set",
            "gateway call models.authSetApiKey",
            "gateway call chat.inject",
            "cron add --every 1m --message x",
            "skills install evil",
            "hooks enable h",
            "secrets set K",
            "models auth login",
            "gateway call --params {} plugin.approval.resolve",
            "gateway call exec.approvals.set",
            "gateway call device.pair.approve",
            "gateway call terminal.input",
        ] {
            assert!(cli_change(&words(change)).is_some(), "{change}");
        }
        for read in [
            "approvals pending",
            "approvals get --json",
            "approvals grants list",
            "approvals",
            "exec-policy show",
            "pairing list",
            "devices list",
            "nodes status",
            "agents",
            "agents list",
            "mcp list",
            "mcp status",
            "file-transfer approvals migrate --dry-run",
            "gateway call exec.approvals.get",
            "gateway call device.pair.list",
            "gateway call mcp.app.listTools",
            "gateway call health",
            "gateway call cron.list",
            "gateway call skills.status",
            "cron list",
            "skills list",
            "models list",
            "status",
        ] {
            assert_eq!(cli_change(&words(read)), None, "{read}");
        }
    }
}
