//! Container engines beside the docker CLI's own verbs: Compose projects named elsewhere and
//! containerd namespaces that belong to Kubernetes or Docker.

use super::{docker, names_production, DOCKER_READS};
use crate::guards::argv::{operands, option_values};
use crate::shell::Arg;

/// `nerdctl -n k8s.io rm -f api`: the containerd namespaces of Kubernetes (`k8s.io`) and
/// Docker (`moby`) hold the cluster's and the daemon's containers, not ones nerdctl started;
/// anything but a read there changes them. In its own namespace nerdctl is docker.
pub(super) fn nerdctl(a: &[Arg]) -> Option<&'static str> {
    let namespaces = option_values(a, Some("-n"), "--namespace");
    let others = namespaces.iter().any(|n| matches!(*n, "k8s.io" | "moby"));
    let ops = operands(a, &["-n", "--namespace", "-H", "--host", "-a", "--address"]);
    let verb = ops.first()?.text.as_str();
    if others && !DOCKER_READS.contains(&verb) {
        return Some("changes Kubernetes' or Docker's containers through containerd");
    }
    docker(a, false)
}

/// Compose's words after `docker compose` (or `docker-compose`'s own): `push` publishes;
/// `down`, `rm`, `stop`, `kill`, `pause` stop or remove a project's containers, which is the
/// workspace's own when compose finds its file here, and another project's when one is named
/// (`-p prod`, `--project-name`) or a file says production (`-f docker-compose.prod.yml`).
pub(super) fn compose(a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &crate::guards::argv::COMPOSE_VALUED);
    let verb = ops.first()?.text.as_str();
    if verb == "push" {
        return Some("publishes images");
    }
    if !matches!(verb, "down" | "rm" | "stop" | "kill" | "pause") {
        return None;
    }
    let named = !option_values(a, Some("-p"), "--project-name").is_empty();
    let production_file =
        (option_values(a, Some("-f"), "--file").iter()).any(|f| names_production(f));
    (named || production_file).then_some("stops or removes another compose project's containers")
}
