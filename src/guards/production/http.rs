//! The same changes made with a raw HTTP request (`curl`, `wget`, HTTPie, `xh`) instead of
//! their CLI: the Kubernetes API (through `kubectl proxy` or the API server itself, known by
//! its path shapes `/api/v1/namespaces/…`, `/apis/GROUP/VERSION/…`), the Docker Engine API
//! (its socket, ports 2375/2376), GitHub's and GitLab's REST APIs (writes, and the POSTs that
//! merge, release, dispatch or set secrets, as `gh api` is judged), and the REST APIs of
//! hosting and cloud providers; Rancher's proxy, steve and management APIs
//! (`/k8s/clusters/ID/…`, `/v1/apps.deployments/…`, `/v3/clusters/…`), OpenShift's legacy
//! `/oapi/v1/`, Argo CD's application API, and Nomad's and Consul's HTTP APIs (their ports,
//! hosts named so, Consul's `/v1/kv/`). A write to any other address (`curl -X POST
//! localhost:3000/api/users`, a dev server) is no production change by its shape, and reads
//! (GET, HEAD) of any of these stay allowed.

use crate::guards::argv::{args, option_values};
use crate::shell::{Arg, Command};

const KUBE: &str = "changes a Kubernetes cluster through its API";
const DOCKER: &str = "changes containers through the Docker Engine API";

pub fn mutation(c: &Command, prog: &str) -> Option<&'static str> {
    let a = args(c);
    // The method first: most requests read, and their addresses need no parsing.
    let writes = |m: &str| {
        let m = m.to_ascii_uppercase();
        matches!(m.as_str(), "POST" | "PUT" | "PATCH" | "DELETE").then_some(m)
    };
    let (method, urls) = match prog {
        "curl" | "curlie" => (writes(&curl_method(a))?, urls(a, &CURL_VALUED)),
        "wget" | "wget2" => (writes(&wget_method(a))?, urls(a, &WGET_VALUED)),
        "http" | "https" | "xh" | "xhs" | "httpie" => {
            let (m, urls) = httpie(a)?;
            (writes(&m)?, urls)
        }
        _ => return None,
    };
    // The Engine API through the daemon's socket: a request's body (a privileged container,
    // a host mount, a stop) is not read the way the docker CLI's flags are, and no developer
    // drives the daemon by hand through raw requests, so any write there is judged.
    let sockets = option_values(a, None, "--unix-socket");
    if sockets.iter().any(|p| engine_socket(p)) {
        return Some(DOCKER);
    }
    // A GraphQL mutation (`mergePullRequest`, `createRef`) writes as a REST PUT would.
    let mutation = a.iter().any(|x| x.text.contains("mutation"));
    urls.iter().find_map(|u| judge(u, &method, mutation))
}

/// What a write to `u` changes, if it is one of the APIs above.
fn judge(u: &Url, method: &str, mutation: bool) -> Option<&'static str> {
    if kubernetes_path(u.path) || rancher_path(u) || u.path.contains("/oapi/v1/") {
        return Some(KUBE);
    }
    if argo_cd(u, method) || orchestrator(u) {
        return Some(super::clis::DEPLOYS);
    }
    // Another machine's Docker daemon, as `docker -H tcp://…` is judged; the local one
    // (its socket, localhost) is the agent's own, as the docker CLI's is.
    let docker_port = matches!(u.port, Some("2375" | "2376")) && !local(u.host);
    if docker_port && docker_path(u.path) {
        return Some(DOCKER);
    }
    let post_changes =
        |marks: &[&str]| method != "POST" || marks.iter().any(|m| u.path.contains(m));
    let github = u.host == "api.github.com" || u.path.starts_with("/api/v3/");
    let gitlab = u.host == "gitlab.com" || u.path.starts_with("/api/v4/");
    // GraphQL reads and writes through one POST endpoint: a mutation is the write.
    if (github || gitlab) && u.path.ends_with("/graphql") {
        return mutation.then_some(super::clis::REPO);
    }
    if github && post_changes(&GITHUB_POSTS) || gitlab && post_changes(&GITLAB_POSTS) {
        return Some(super::clis::REPO);
    }
    let cloud = CLOUD_HOSTS
        .iter()
        .any(|h| u.host == *h || u.host.ends_with(&format!(".{h}")));
    // A host that says production in one of its labels (`api.prod.example.com`,
    // `prod-api.internal`): a write there changes the production service's data.
    let production = !local(u.host) && super::names_production(u.host);
    (cloud || production).then_some(super::clis::DEPLOYS)
}

/// GitHub endpoints whose POST merges, releases, deploys, dispatches a workflow, or sets
/// refs, secrets, hooks, keys or access (`gh_api_writes` in `clis` reads `gh api` the same).
const GITHUB_POSTS: [&str; 12] = [
    "/merge",
    "/merges",
    "/dispatches",
    "/releases",
    "/deployments",
    "/git/refs",
    "/secrets",
    "/hooks",
    "/keys",
    "/collaborators",
    "/protection",
    "/transfer",
];

const GITLAB_POSTS: [&str; 9] = [
    "/merge",
    "/pipeline",
    "/releases",
    "/variables",
    "/deploy_keys",
    "/protected_branches",
    "/repository/branches",
    "/repository/tags",
    "/hooks",
];

/// Hosting and cloud providers' REST APIs: every write there creates, changes or deletes
/// something deployed.
const CLOUD_HOSTS: [&str; 25] = [
    "api.cloudflare.com",
    "api.heroku.com",
    "api.digitalocean.com",
    "api.vercel.com",
    "api.netlify.com",
    "api.fly.io",
    "api.machines.dev",
    "management.azure.com",
    "api.linode.com",
    "api.hetzner.cloud",
    "api.render.com",
    "backboard.railway.app",
    "api.supabase.com",
    "compute.googleapis.com",
    "container.googleapis.com",
    "run.googleapis.com",
    "cloudfunctions.googleapis.com",
    "sqladmin.googleapis.com",
    "storage.googleapis.com",
    "cloudresourcemanager.googleapis.com",
    "iam.googleapis.com",
    "dns.googleapis.com",
    "secretmanager.googleapis.com",
    "firebasehosting.googleapis.com",
    "api.scaleway.com",
];

/// Kubernetes' core resources under `/api/v1/`.
const KUBE_CORE: [&str; 14] = [
    "namespaces",
    "nodes",
    "pods",
    "services",
    "secrets",
    "configmaps",
    "serviceaccounts",
    "persistentvolumes",
    "persistentvolumeclaims",
    "replicationcontrollers",
    "endpoints",
    "resourcequotas",
    "limitranges",
    "events",
];

/// `/api/v1/namespaces/prod`, `/api/v1/nodes/n1`, `/apis/apps/v1/namespaces/x/deployments/y`,
/// `/apis/networking.k8s.io/v1/…`: the Kubernetes API's own paths (a proxy may put a prefix
/// before them, which is kept out of the comparison).
fn kubernetes_path(path: &str) -> bool {
    if let Some(k) = path.find("/api/v1/") {
        let resource = path[k + 8..].split('/').next().unwrap_or("");
        return KUBE_CORE.contains(&resource);
    }
    let Some(k) = path.find("/apis/") else {
        return false;
    };
    let mut parts = path[k + 6..].split('/');
    let group = parts.next().unwrap_or("");
    let version = parts.next().unwrap_or("");
    let versioned = version.strip_prefix('v').is_some_and(|v| {
        v.starts_with(|ch: char| ch.is_ascii_digit())
            && v.chars().all(|ch| ch.is_ascii_alphanumeric())
    });
    !group.is_empty() && versioned && parts.next().is_some_and(|r| !r.is_empty())
}

/// Rancher in front of a cluster: its proxy (`/k8s/clusters/c-m-abc/…`, with Kubernetes' own
/// paths or steve's `v1/TYPE/NS/NAME` after it), steve for the local cluster
/// (`/v1/apps.deployments/ns/x`, `/v1/namespaces/x`), and the v3 management API (`/v3/clusters/
/// c-abc`, `/v3/project/c-x:p-y/workloads/…`). The last two shapes use common words of other
/// APIs, so they count only off this machine, with Kubernetes' type names or Rancher's ids.
fn rancher_path(u: &Url) -> bool {
    const PROXY: &str = "/k8s/clusters/";
    if let Some(k) = u.path.find(PROXY) {
        let mut rest = u.path[k + PROXY.len()..].split('/');
        let cluster = rest.next().unwrap_or("");
        return !cluster.is_empty() && rest.next().is_some_and(|r| !r.is_empty());
    }
    if local(u.host) {
        return false;
    }
    if let Some(rest) = u.path.strip_prefix("/v1/") {
        return steve_type(rest.split('/').next().unwrap_or(""));
    }
    let Some(rest) = u.path.strip_prefix("/v3/") else {
        return false;
    };
    let mut parts = rest.split('/');
    let kind = parts.next().unwrap_or("");
    let id = parts.next().unwrap_or("");
    // Rancher's ids: `c-m-abc` (a cluster), `c-m-abc:p-xyz` (a project), `local`.
    let rancher_id = id.starts_with("c-") || id == "local" || id.starts_with("local:");
    let named = u.host.split('.').next() == Some("rancher");
    matches!(
        kind,
        "clusters" | "cluster" | "projects" | "project" | "nodes" | "nodePools"
    ) && (rancher_id || named)
}

/// steve's type names: Kubernetes' core kinds that are no common API words, and kinds
/// qualified by their API group (`apps.deployments`, `management.cattle.io.clusters`).
fn steve_type(kind: &str) -> bool {
    let core = [
        "namespaces",
        "pods",
        "nodes",
        "configmaps",
        "serviceaccounts",
        "persistentvolumes",
        "persistentvolumeclaims",
        "replicationcontrollers",
    ];
    let groups = ["apps.", "batch.", "autoscaling.", "policy."];
    core.contains(&kind)
        || groups.iter().any(|g| kind.starts_with(g))
        || [".k8s.io.", ".cattle.io.", ".openshift.io."]
            .iter()
            .any(|g| kind.contains(g))
}

/// Argo CD's application API: a sync, rollback, operation or resource action on
/// `/api/v1/applications/NAME/…`, a change or delete of the application itself (off this
/// machine: a local `/api/v1/applications` is as likely a dev server's), or an
/// application set.
fn argo_cd(u: &Url, method: &str) -> bool {
    if u.path.contains("/api/v1/applicationsets") {
        return true;
    }
    const APPS: &str = "/api/v1/applications/";
    let Some(k) = u.path.find(APPS) else {
        return false;
    };
    let mut rest = u.path[k + APPS.len()..]
        .split('/')
        .filter(|s| !s.is_empty());
    let name = rest.next();
    match rest.next() {
        Some(action) => matches!(action, "sync" | "rollback" | "operation" | "resource"),
        None => name.is_some() && method != "POST" && !local(u.host),
    }
}

/// Nomad's and Consul's HTTP APIs (`/v1/job/api`, `/v1/kv/config/db`), known by their ports
/// (4646; 8500, 8501) or a host named for them, and Consul's key-value paths on any other
/// machine; a local dev agent is the agent's own, as the local Docker daemon is.
fn orchestrator(u: &Url) -> bool {
    if local(u.host) || !u.path.starts_with("/v1/") {
        return false;
    }
    let port = matches!(u.port, Some("4646" | "8500" | "8501"));
    let label = u.host.split('.').next().unwrap_or("");
    port || matches!(label, "nomad" | "consul") || u.path.starts_with("/v1/kv/")
}

/// The Docker Engine API's objects (`/v1.43/containers/x/kill`, `/containers/prune`).
fn docker_path(path: &str) -> bool {
    [
        "/containers/",
        "/images/",
        "/services/",
        "/swarm/",
        "/volumes/",
        "/networks/",
        "/secrets/",
        "/plugins/",
        "/exec/",
    ]
    .iter()
    .any(|p| path.contains(p))
}

/// The control sockets of Docker, Podman and containerd (`/var/run/docker.sock`,
/// `/run/podman/podman.sock`, `/run/containerd/containerd.sock`).
fn engine_socket(path: &str) -> bool {
    let name = crate::paths::basename(path);
    matches!(
        name,
        "docker.sock" | "podman.sock" | "containerd.sock" | "dockershim.sock"
    )
}

/// The loopback and unspecified addresses: this machine.
pub(in crate::guards) fn local(host: &str) -> bool {
    matches!(host, "localhost" | "::1" | "0.0.0.0" | "::") || host.starts_with("127.")
}

/// An address's host, port and path.
struct Url<'a> {
    host: &'a str,
    port: Option<&'a str>,
    path: &'a str,
}

/// A word read as an address: `https://host:port/path?q`, or without a scheme when it begins
/// with a host that cannot be a file name (`localhost:8001/…`, `10.0.0.5/…`, `api.x.com/…`).
fn url(text: &str) -> Option<Url<'_>> {
    let lower = text.get(..8).unwrap_or(text).to_ascii_lowercase();
    let scheme = ["http://", "https://", "ws://", "wss://"]
        .iter()
        .find(|s| lower.starts_with(*s));
    let rest = match scheme {
        Some(s) => &text[s.len()..],
        None => text,
    };
    let (authority, path) = match rest.find(['/', '?', '#']) {
        Some(k) => (&rest[..k], &rest[k..]),
        None => (rest, "/"),
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((h, p)) => (h, p.strip_prefix(':')),
            None => (v6, None),
        },
        None => match authority.rsplit_once(':') {
            Some((h, p)) if p.chars().all(|ch| ch.is_ascii_digit()) => (h, Some(p)),
            _ => (authority, None),
        },
    };
    let hostlike = !host.is_empty()
        && host
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '-' | ':'));
    let bare_ok = host == "localhost" || port.is_some() || host.contains('.') && path != "/";
    (hostlike && (scheme.is_some() || bare_ok && !text.starts_with(['.', '/', '-', '@'])))
        .then_some(Url { host, port, path })
}

/// The words of a client's argv that are addresses, leaving out the values of `valued`
/// options (headers, data, files), and taking `--url X`.
fn urls<'a>(a: &'a [Arg], valued: &[&str]) -> Vec<Url<'a>> {
    let mut out = Vec::new();
    let mut skip = false;
    for (i, x) in a.iter().enumerate() {
        let t = x.text.as_str();
        if skip {
            skip = false;
            continue;
        }
        if t == "--url" {
            out.extend(a.get(i + 1).and_then(|v| url(&v.text)));
            skip = true;
        } else if let Some(v) = t.strip_prefix("--url=") {
            out.extend(url(v));
        } else if valued.contains(&t) {
            skip = true;
        } else if !t.starts_with('-') {
            out.extend(url(t));
        }
    }
    out
}

/// curl's options whose value is the next word.
const CURL_VALUED: [&str; 40] = [
    "-H",
    "--header",
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-urlencode",
    "--data-ascii",
    "--json",
    "-F",
    "--form",
    "--form-string",
    "-X",
    "--request",
    "-u",
    "--user",
    "-o",
    "--output",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-b",
    "--cookie",
    "-c",
    "--cookie-jar",
    "-T",
    "--upload-file",
    "-w",
    "--write-out",
    "-x",
    "--proxy",
    "--unix-socket",
    "-K",
    "--config",
    "--resolve",
    "--connect-to",
    "--cacert",
    "--cert",
    "--key",
];

const WGET_VALUED: [&str; 12] = [
    "-O",
    "--output-document",
    "-o",
    "--output-file",
    "--header",
    "--method",
    "--body-data",
    "--body-file",
    "--post-data",
    "--post-file",
    "-U",
    "--user-agent",
];

/// curl's method: `-X M`/`--request M` (also attached), else POST with data or a form, PUT
/// with an upload, GET with `-G`.
fn curl_method(a: &[Arg]) -> String {
    let explicit = option_values(a, Some("-X"), "--request");
    if let Some(m) = explicit.last() {
        return m.to_string();
    }
    let has = |names: &[&str]| {
        a.iter().any(|x| {
            names
                .iter()
                .any(|n| x.text == *n || x.text.strip_prefix(n).is_some_and(|r| r.starts_with('=')))
        })
    };
    if has(&["-G", "--get"]) {
        return "GET".into();
    }
    if has(&["-T", "--upload-file"]) {
        return "PUT".into();
    }
    let data = has(&[
        "-d",
        "--data",
        "--data-raw",
        "--data-binary",
        "--data-urlencode",
        "--data-ascii",
        "--json",
        "-F",
        "--form",
        "--form-string",
    ]) || a.iter().any(|x| {
        x.text.len() > 2
            && (x.text.starts_with("-d") || x.text.starts_with("-F"))
            && !x.text.starts_with("--")
    });
    if data {
        "POST".into()
    } else {
        "GET".into()
    }
}

/// wget's method: `--method M`, else POST with `--post-data`/`--post-file`.
fn wget_method(a: &[Arg]) -> String {
    if let Some(m) = option_values(a, None, "--method").last() {
        return m.to_string();
    }
    let post = a
        .iter()
        .any(|x| x.text.starts_with("--post-data") || x.text.starts_with("--post-file"));
    if post { "POST" } else { "GET" }.into()
}

/// HTTPie and xh: `http [opts] [METHOD] URL [ITEM…]`; without a method, request items that
/// carry data (`name=value`, `name:=json`, `@file`, `name@file`) make a POST.
fn httpie(a: &[Arg]) -> Option<(String, Vec<Url<'_>>)> {
    let ops: Vec<&Arg> = a.iter().filter(|x| !x.text.starts_with('-')).collect();
    let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
    let first = ops.first()?;
    let (method, rest) = match methods.iter().find(|m| first.text.eq_ignore_ascii_case(m)) {
        Some(m) => (Some(m.to_string()), &ops[1..]),
        None => (None, &ops[..]),
    };
    let target = rest.first()?;
    // `:3000/api` is HTTPie's shorthand for localhost.
    let address = match target.text.strip_prefix(':') {
        Some(_) => None,
        None => url(&target.text),
    };
    let data = rest[1..].iter().any(|x| {
        let t = x.text.as_str();
        t.starts_with('@')
            || t.contains(":=")
            || t.contains('@')
            || t.contains('=') && !t.contains("==")
    });
    let method = method.unwrap_or_else(|| if data { "POST" } else { "GET" }.into());
    Some((method, address.into_iter().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let u = url("http://127.0.0.1:8001/api/v1/namespaces/prod").expect("url");
        assert_eq!(
            (u.host, u.port, u.path),
            ("127.0.0.1", Some("8001"), "/api/v1/namespaces/prod")
        );
        let u = url("localhost:8001/apis/apps/v1/namespaces/x/deployments/y").expect("bare");
        assert!(kubernetes_path(u.path));
        assert!(url("src/app.ts").is_none());
        assert!(url("./x.json").is_none());
        assert!(!kubernetes_path("/api/v1/users"));
        assert!(!kubernetes_path("/apis/"));
        let u = url("https://api.github.com/repos/o/r/pulls/1/merge").expect("gh");
        assert_eq!(u.host, "api.github.com");
    }
}
