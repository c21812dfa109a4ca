//! Path judgement without Node: `cargo run --release --example bench_paths`. p50 of resolving a
//! path and of `hit` against the default credential set, for a literal path (the common case)
//! and for patterns (the product walk), plus compiling the set.

use openclaw_governance::paths::{credential_files, resolve, resolve_literal, PathContext};
use std::hint::black_box;
#[path = "common/timing.rs"]
mod timing;

fn main() {
    let ctx = PathContext {
        cwd: Some("/home/dev/projects/webapp"),
        home: Some("/home/dev"),
    };
    let set = credential_files(ctx.home);
    let cases = [
        (
            "resolve_literal src/components/Button.tsx",
            "src/components/Button.tsx",
            false,
        ),
        (
            "resolve_literal file:///srv/app/%2Eenv",
            "file:///srv/app/%2Eenv",
            false,
        ),
        ("resolve (shell) ./src/../.e*", "./src/../.e*", true),
    ];
    for (name, raw, shell) in cases {
        let us = timing::p50_us(2_000, 20_000, || {
            let r = if shell {
                resolve(black_box(raw), &ctx)
            } else {
                resolve_literal(black_box(raw), &ctx)
            };
            black_box(r);
        });
        println!("{name:<48} p50 {us:>7.3} µs");
    }
    let hits = [
        (
            "hit literal, ordinary (src/components/Button.tsx)",
            "src/components/Button.tsx",
        ),
        ("hit literal, protected (.env.local)", ".env.local"),
        (
            "hit literal, location (~/.aws/credentials)",
            "~/.aws/credentials",
        ),
        ("hit pattern, protected (.e*)", ".e*"),
        (
            "hit pattern, ordinary (src/**/*.test.ts)",
            "src/**/*.test.ts",
        ),
        ("hit pattern, ordinary (*.json)", "*.json"),
        ("hit pattern, long (40 segments of */)", &"*/".repeat(40)),
    ];
    for (name, raw) in hits {
        let raw: &str = raw;
        let r = resolve(raw, &ctx);
        let label = set.hit(&r);
        let us = timing::p50_us(2_000, 20_000, || {
            black_box(set.hit(black_box(&r)));
        });
        println!("{name:<48} p50 {us:>7.3} µs  -> {label:?}");
    }
    let us = timing::p50_us(2_000, 20_000, || {
        black_box(credential_files(black_box(ctx.home)));
    });
    println!("{:<48} p50 {us:>7.3} µs", "compile credential_files");
}
