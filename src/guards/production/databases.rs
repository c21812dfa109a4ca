//! Database migration and drop tools. Whatever database they are pointed at (the URL is in a
//! config file or the environment, out of sight), the verbs that destroy all of its data
//! (`prisma migrate reset`, `flyway clean`, `liquibase dropAll`, `dropdb`, `mysqladmin drop`,
//! `mix ecto.drop`, `sequelize db:drop`, …) are escalated, and so are the verbs made to apply
//! migrations to a deployed database (`prisma migrate deploy`, `supabase db push`, `flyway
//! migrate`, `liquibase update`). Rails refuses its destroying tasks on a production
//! database by itself, so its tasks count when production is named (`RAILS_ENV=production`)
//! or that check is turned off (`DISABLE_DATABASE_ENVIRONMENT_CHECK=1`); so do Ecto's
//! migrations (`MIX_ENV=prod`). Development forms (`prisma migrate dev`, `rails
//! db:migrate`, `supabase db diff`, `flyway info`) stay allowed.

use super::production_env;
use crate::guards::argv::{args, operands, option_values, plain_words, program, says};
use crate::shell::{Arg, Command};

const DATA: &str = super::clis::DATA;
const RUNS: &str = super::frameworks::RUNS;
pub(super) const SCHEMA: &str = "changes the schema or migrations of a deployed database";

/// The variables that say which environment a Rails task runs in (kept on the command by the
/// shell model, `production::target_vars`).
pub const RAILS_VARS: [(&str, &[&str]); 3] = [
    ("RAILS_ENV", &[]),
    ("RACK_ENV", &[]),
    ("DISABLE_DATABASE_ENVIRONMENT_CHECK", &[]),
];

/// Programs `change` reads: most commands are none of them, and are let go before their
/// words are looked at.
const PROGRAMS: [&str; 17] = [
    "supabase",
    "prisma",
    "rails",
    "rake",
    "mix",
    "flyway",
    "liquibase",
    "lb",
    "dropdb",
    "pg_dropcluster",
    "mysqladmin",
    "mariadb-admin",
    "sequelize",
    "sequelize-cli",
    "dbmate",
    "diesel",
    "migrate",
];

pub fn change(c: &Command, prog: &str) -> Option<&'static str> {
    if !prog.starts_with("typeorm") && !crate::guards::argv::listed(&PROGRAMS, prog) {
        return None;
    }
    let a = args(c);
    let plain = plain_words(a);
    let any = |verbs: &[&str]| plain.iter().any(|w| verbs.contains(w));
    match prog {
        "supabase" => supabase(a, &plain),
        "prisma" => prisma(a, &plain),
        "rails" | "rake" => rails(c, a),
        "mix" => mix(c, &plain),
        "flyway" => {
            let verbs: Vec<String> = plain.iter().map(|w| w.to_ascii_lowercase()).collect();
            let has = |v: &str| verbs.iter().any(|w| w == v);
            if has("clean") {
                Some(DATA)
            } else {
                ["migrate", "undo", "repair", "baseline"]
                    .iter()
                    .any(|v| has(v))
                    .then_some(SCHEMA)
            }
        }
        "liquibase" | "lb" => plain.iter().find_map(|w| liquibase(w)),
        "dropdb" | "pg_dropcluster" => (!plain.is_empty()).then_some(DATA),
        "mysqladmin" | "mariadb-admin" => {
            if any(&["drop"]) {
                Some(DATA)
            } else {
                any(&["shutdown"]).then_some(super::clis::SERVICE)
            }
        }
        "sequelize" | "sequelize-cli" => any(&["db:drop"]).then_some(DATA),
        "dbmate" => any(&["drop"]).then_some(DATA),
        "typeorm" | "typeorm-ts-node-commonjs" | "typeorm-ts-node-esm" => {
            any(&["schema:drop"]).then_some(DATA)
        }
        "diesel" => (says(&plain, &["database", "reset"]) || says(&plain, &["database", "drop"]))
            .then_some(DATA),
        // golang-migrate: `migrate -database URL -path DIR drop`; the name is common, so only
        // with its options.
        "migrate"
            if a.iter()
                .any(|x| x.text.starts_with("-database") || x.text.starts_with("-path")) =>
        {
            any(&["drop"]).then_some(DATA)
        }
        _ => None,
    }
}

/// supabase's commands that act on the linked (hosted) project: `db push`, `db reset
/// --linked`/`--db-url`, `migration repair`, `functions deploy|delete`, `secrets set|unset`,
/// `projects|branches delete`, `config push`, `storage rm|mv|cp`.
fn supabase(a: &[Arg], plain: &[&str]) -> Option<&'static str> {
    let remote = a
        .iter()
        .any(|x| x.text == "--linked" || x.text.starts_with("--db-url"));
    let s = |w: &[&str]| says(plain, w);
    if s(&["db", "reset"]) && remote || s(&["storage", "rm"]) {
        return Some(DATA);
    }
    if s(&["db", "push"]) || s(&["migration", "repair"]) || s(&["migration", "up"]) && remote {
        return Some(SCHEMA);
    }
    let deploys = s(&["functions", "deploy"])
        || s(&["functions", "delete"])
        || s(&["secrets", "set"])
        || s(&["secrets", "unset"])
        || s(&["projects", "delete"])
        || s(&["branches", "delete"])
        || s(&["config", "push"]);
    deploys.then_some(super::clis::DEPLOYS)
}

/// `prisma migrate deploy` (for production, Prisma's docs say), `migrate resolve`, `migrate
/// reset` (drops the database), `db push --force-reset`/`--accept-data-loss`.
fn prisma(a: &[Arg], plain: &[&str]) -> Option<&'static str> {
    let s = |w: &[&str]| says(plain, w);
    let loses = a
        .iter()
        .any(|x| x.text == "--force-reset" || x.text == "--accept-data-loss");
    if s(&["migrate", "reset"]) || s(&["db", "push"]) && loses {
        return Some(DATA);
    }
    (s(&["migrate", "deploy"]) || s(&["migrate", "resolve"])).then_some(SCHEMA)
}

/// Rails' database tasks (`rails db:drop`, `rake db:migrate`) and its consoles and runner
/// (`rails console`, `rails runner CODE`, `rails dbconsole`) in production: named as an
/// argument (`RAILS_ENV=production`, `-e production`, the environment after `console`) or in
/// the environment, or, for the tasks, with the environment check turned off.
fn rails(c: &Command, a: &[Arg]) -> Option<&'static str> {
    const DESTROYS: [&str; 10] = [
        "db:drop",
        "db:drop:all",
        "db:purge",
        "db:purge:all",
        "db:reset",
        "db:truncate_all",
        "db:schema:load",
        "db:structure:load",
        "db:seed:replant",
        "db:migrate:reset",
    ];
    let tasks: Vec<&str> = (a.iter().map(|x| x.text.as_str()))
        .filter(|t| t.starts_with("db:"))
        .collect();
    let ops = operands(a, &["-e", "--environment"]);
    let console = program(c) == "rails"
        && (ops.first()).is_some_and(|o| {
            matches!(
                o.text.as_str(),
                "console" | "c" | "runner" | "r" | "dbconsole" | "db"
            )
        });
    if tasks.is_empty() && !console {
        return None;
    }
    let setting = |name: &str| -> Vec<&str> {
        let arg = (a.iter()).filter_map(|x| x.text.strip_prefix(name)?.strip_prefix('='));
        let env = (c.wrappers.iter()).filter_map(|w| w.strip_prefix(name)?.strip_prefix('='));
        arg.chain(env).collect()
    };
    let flagged = option_values(a, Some("-e"), "--environment");
    let production = (setting("RAILS_ENV").into_iter())
        .chain(setting("RACK_ENV"))
        .chain(flagged)
        .any(production_env);
    if console {
        // `rails console production`: the environment as the console's operand.
        let named = ops.get(1).is_some_and(|o| production_env(&o.text));
        return (production || named).then_some(RUNS);
    }
    let unchecked = setting("DISABLE_DATABASE_ENVIRONMENT_CHECK")
        .iter()
        .any(|v| !matches!(*v, "" | "0" | "false"));
    let destroys = tasks.iter().any(|t| DESTROYS.contains(t));
    match (production || unchecked, destroys) {
        (true, true) => Some(DATA),
        (true, false) => Some(SCHEMA),
        _ => None,
    }
}

/// Ecto: `mix ecto.drop`/`ecto.reset` drop the repository's database; migrations, structure
/// loads and `mix run` count with `MIX_ENV=prod`.
fn mix(c: &Command, plain: &[&str]) -> Option<&'static str> {
    if plain
        .iter()
        .any(|w| matches!(*w, "ecto.drop" | "ecto.reset"))
    {
        return Some(DATA);
    }
    let migrates = plain
        .iter()
        .any(|w| matches!(*w, "ecto.migrate" | "ecto.rollback" | "ecto.load"));
    // `mix run` starts the application with the environment's config and runs a script
    // (`priv/repo/seeds.exs`) against its database.
    let runs = plain.first() == Some(&"run");
    let prod = (c.wrappers.iter())
        .filter_map(|w| w.strip_prefix("MIX_ENV="))
        .any(production_env);
    match (prod, migrates, runs) {
        (true, true, _) => Some(SCHEMA),
        (true, _, true) => Some(RUNS),
        _ => None,
    }
}

/// Liquibase's commands, in either spelling (`dropAll`, `drop-all`): `dropAll` empties the
/// database; `update…`, `rollback…`, `changelogSync…`, `executeSql` change it; the `…Sql`
/// forms only print the SQL.
fn liquibase(word: &str) -> Option<&'static str> {
    let w: String = (word.chars())
        .filter(|ch| *ch != '-')
        .map(|ch| ch.to_ascii_lowercase())
        .collect();
    if w == "dropall" {
        return Some(DATA);
    }
    if w.ends_with("sql") && w != "executesql" {
        return None;
    }
    let changes = w.starts_with("update")
        || w.starts_with("rollback")
        || w.starts_with("changelogsync")
        || matches!(w.as_str(), "executesql" | "marknextchangesetran");
    changes.then_some(SCHEMA)
}
