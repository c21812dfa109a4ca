//! Host firewalls: flushing, disabling or rewriting the rules that keep a machine's services
//! from the network (`iptables -F`, `nft flush ruleset`, `ufw disable`, `firewall-cmd
//! --remove-service`) opens or closes them for everyone at once, a change to the running
//! machine as `systemctl stop` is. Listing the rules (`iptables -L`, `nft list ruleset`,
//! `ufw status`, `firewall-cmd --list-all`) stays allowed.

use crate::guards::argv::{args, has_flag, plain_words};
use crate::shell::Command;

const FIREWALL: &str = "changes the host firewall";

pub fn change(c: &Command, prog: &str) -> Option<&'static str> {
    let changes = match prog {
        "iptables" | "ip6tables" | "iptables-legacy" | "iptables-nft" | "ip6tables-legacy"
        | "ip6tables-nft" | "ebtables" | "arptables" => iptables(c),
        "iptables-restore"
        | "ip6tables-restore"
        | "iptables-legacy-restore"
        | "iptables-nft-restore" => !has_flag(args(c), &['t'], &["test"]),
        "nft" => nft(c),
        "ufw" => ufw(c),
        "firewall-cmd" => firewall_cmd(c),
        _ => return None,
    };
    changes.then_some(FIREWALL)
}

/// The commands that append, delete, insert, replace, flush, zero or set a policy, make,
/// remove or rename a chain; `-L`/`-S` list.
fn iptables(c: &Command) -> bool {
    has_flag(
        args(c),
        &['A', 'D', 'I', 'R', 'F', 'Z', 'N', 'X', 'P', 'E'],
        &[
            "append",
            "delete",
            "insert",
            "replace",
            "flush",
            "zero",
            "new-chain",
            "delete-chain",
            "policy",
            "rename-chain",
        ],
    )
}

/// nft's command is its first plain word, or the first word of a quoted one (`nft 'flush
/// ruleset'`); `-f FILE` loads a whole ruleset.
fn nft(c: &Command) -> bool {
    let a = args(c);
    let loads = has_flag(a, &['f'], &["file"]) && !has_flag(a, &['c'], &["check"]);
    let plain = plain_words(a);
    let verb = plain
        .first()
        .and_then(|w| w.split_whitespace().next())
        .unwrap_or("");
    loads
        || matches!(
            verb,
            "flush"
                | "delete"
                | "destroy"
                | "add"
                | "insert"
                | "replace"
                | "create"
                | "reset"
                | "rename"
        )
}

fn ufw(c: &Command) -> bool {
    plain_words(args(c)).first().is_some_and(|v| {
        matches!(
            *v,
            "disable"
                | "enable"
                | "reset"
                | "delete"
                | "allow"
                | "deny"
                | "reject"
                | "limit"
                | "default"
                | "insert"
                | "prepend"
                | "route"
                | "reload"
        )
    })
}

/// firewall-cmd changes with `--add-…`, `--remove-…`, `--set-…`, `--new-…`, `--delete-…`,
/// `--panic-on`, reloads; `--list-…`, `--get-…`, `--query-…`, `--state` read.
fn firewall_cmd(c: &Command) -> bool {
    args(c).iter().any(|x| {
        let t = x.text.as_str();
        ["--add-", "--remove-", "--set-", "--new-", "--delete-"]
            .iter()
            .any(|p| t.starts_with(p))
            || matches!(
                t,
                "--panic-on" | "--reload" | "--complete-reload" | "--runtime-to-permanent"
            )
    })
}
