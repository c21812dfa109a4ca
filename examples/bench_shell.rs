//! Cost of the shell model on the shapes the issue budgets: an ordinary 60-character command
//! (p50 over 10 000 runs), an 80 KB script, and a 100-deep `bash -c` nesting.
//! `cargo run --release --example bench_shell`

use openclaw_governance::shell::{analyze, ShellInput};
use std::time::{Duration, Instant};

fn p50(script: &str, runs: usize) -> Duration {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(analyze(&ShellInput {
            script: std::hint::black_box(script),
            env: &[],
            depth: 0,
            ..Default::default()
        }));
        times.push(t.elapsed());
    }
    times.sort_unstable();
    times[runs / 2]
}

/// `bash -c` nesting by quoting triples in size per level (100 levels cannot be written); a
/// here-doc nesting grows by a line per level, so it is the 100-deep case.
fn nested_heredocs(levels: usize) -> String {
    let mut s = "rm -rf /x".to_string();
    for i in 0..levels {
        s = format!("bash <<'E{i}'\n{s}\nE{i}");
    }
    s
}

fn nested_dash_c(levels: usize) -> String {
    let mut s = "rm -rf /x".to_string();
    for _ in 0..levels {
        s = format!("bash -c '{}'", s.replace('\'', "'\\''"));
    }
    s
}

fn main() {
    let ordinary = "ls -la src && git status --short | head -20 > /tmp/out.txt";
    println!(
        "ordinary ({} chars): p50 {:?}",
        ordinary.len(),
        p50(ordinary, 10_000)
    );
    let quoted = "git commit -m \"fix: handle $HOME in paths\" && cat ~/.env | grep -v '^#'";
    println!(
        "quoted ({} chars): p50 {:?}",
        quoted.len(),
        p50(quoted, 10_000)
    );
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 80 * 1024 {
        big.push_str(&format!(
            "cp \"src/file{i}.rs\" /tmp/out/$NAME{i} && echo done{i} | tee -a log\n"
        ));
        i += 1;
    }
    println!(
        "80 KB script ({} bytes): p50 {:?}",
        big.len(),
        p50(&big, 20)
    );
    let deep = nested_heredocs(100);
    println!(
        "100-deep bash here-docs ({} bytes): p50 {:?}",
        deep.len(),
        p50(&deep, 20)
    );
    let deep = nested_dash_c(10);
    println!(
        "10-deep bash -c quoting ({} bytes): p50 {:?}",
        deep.len(),
        p50(&deep, 20)
    );
    let evals = format!("{}rm -rf /x", "eval ".repeat(100));
    println!(
        "100 evals ({} bytes): p50 {:?}",
        evals.len(),
        p50(&evals, 20)
    );
    let mut subst = "id".to_string();
    for _ in 0..100 {
        subst = format!("echo $({subst})");
    }
    println!(
        "100-deep $(…) ({} bytes): p50 {:?}",
        subst.len(),
        p50(&subst, 20)
    );
}
