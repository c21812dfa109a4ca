//! Acting outward (the rule of two's third leg, see `provenance::rule_of_two`): a call that
//! sends a message or reaches the network, where what the session holds could leave with it.
//! A GET carries data in its URL as well as a POST in its body, so any network use counts.

use super::argv::{args, operands, program};
use super::show;
use crate::call::CallView;
use crate::context::Request;
use serde_json::Value;

/// Programs whose every use talks to another machine.
const NETWORK: [&str; 23] = [
    "curl", "wget", "http", "https", "xh", "aria2c", "lynx", "w3m", "scp", "sftp", "ftp", "ssh",
    "nc", "ncat", "netcat", "socat", "telnet", "mail", "mailx", "sendmail", "mutt", "swaks", "gh",
];

/// Host tools that fetch from the network (their URL or query leaves the machine). An MCP
/// server's tool (`server__tool`) counts too: the plugin cannot tell a local server from a
/// remote one, and the arguments leave this process either way.
const NETWORK_TOOLS: [&str; 4] = ["web_fetch", "web_search", "x_search", "browser"];

/// What the call sends or where it reaches, or `None` for a call that stays on the machine.
pub fn check(req: &Request, view: &CallView) -> Option<String> {
    let tool = req.tool_name.as_deref().unwrap_or("");
    let param = |k: &str| {
        let p = req.params.as_ref()?;
        p.get(k).and_then(Value::as_str)
    };
    if tool == "message" {
        let action = param("action").unwrap_or("send");
        if crate::provenance::classify::MESSAGE_READS.contains(&action) {
            return None;
        }
        let to = param("to").or(param("target"));
        return Some(format!("sends a message ({})", words(&[action], to)));
    }
    if NETWORK_TOOLS.contains(&tool) || tool.contains("__") {
        let what = param("url").or(param("query"));
        return Some(format!("reaches the network ({})", words(&[tool], what)));
    }
    view.scripts
        .iter()
        .flat_map(|s| &s.commands)
        .find(|c| reaches_network(c))
        .map(|c| format!("reaches the network (`{}`)", show(c)))
}

fn reaches_network(c: &crate::shell::Command) -> bool {
    let prog = program(c);
    if super::argv::listed(&NETWORK, prog) {
        return true;
    }
    let ops = operands(args(c), &["-C", "-c", "-e"]);
    let first = ops.first().map(|o| o.text.as_str());
    match prog {
        // Only the verbs that talk to a remote.
        "git" => matches!(
            first,
            Some("push" | "fetch" | "pull" | "clone" | "ls-remote" | "send-email")
        ),
        // `host:path` or `rsync://`: another machine; two local paths are a copy.
        "rsync" => ops.iter().any(|o| o.text.contains(':')),
        _ => false,
    }
}

/// `first…` and `last` when there is one, space-separated.
fn words(first: &[&str], last: Option<&str>) -> String {
    let mut all = first.to_vec();
    all.extend(last.filter(|l| !l.is_empty()));
    all.join(" ")
}
