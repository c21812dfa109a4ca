//! Framework and migration commands whose target is chosen by an environment rather than
//! named in the command: Django's management commands with production settings
//! (`--settings=app.settings.production`, `DJANGO_SETTINGS_MODULE`), Laravel's and
//! Symfony's consoles (`php artisan migrate --env=production`, `bin/console
//! doctrine:migrations:migrate -e prod`, `APP_ENV`), and the migration tools that read a named
//! environment, configuration or database address (knex, Sequelize, TypeORM, Prisma, Alembic,
//! dbmate, golang-migrate; `NODE_ENV`, `DATABASE_URL`). Rails and Mix are in `databases`;
//! Flyway's and Liquibase's migrations count whatever their environment.
//!
//! Production is a name (`production`, `prod`, `live`) standing as one part of the
//! environment, settings module, file or address (`names_production`). Only the commands
//! that change the database or run code against it count there; the same commands in
//! development or test, and the reads (`showmigrations`, `migrate:status`, `knex
//! migrate:status`) stay allowed, and so do build steps run with production settings
//! (`collectstatic`, `config:cache`, `cache:warmup`), which write only this checkout.

use super::{names_production, production_env};
use crate::guards::argv::{basename, given, operands, option_values};
use crate::shell::{Arg, Command};

const SCHEMA: &str = super::databases::SCHEMA;
const DATA: &str = super::clis::DATA;
pub(super) const RUNS: &str = "changes data or runs code against the production environment";

/// The variables that choose the environment of these programs, kept on the command by the
/// shell model as wrappers `NAME=VALUE` (`production::target_vars`).
pub(super) fn target_vars(prog: &str) -> &'static [(&'static str, &'static [&'static str])] {
    match prog {
        "manage.py" | "django-admin" | "django-admin.py" => &[("DJANGO_SETTINGS_MODULE", &[])],
        p if p.starts_with("python") => &[("DJANGO_SETTINGS_MODULE", &[])],
        "php" | "artisan" | "console" => &[("APP_ENV", &[])],
        "knex" | "sequelize" | "sequelize-cli" => &[("NODE_ENV", &[])],
        p if p.starts_with("typeorm") => &[("NODE_ENV", &[])],
        "prisma" | "dbmate" => &[("DATABASE_URL", &[])],
        _ => &[],
    }
}

pub fn change(c: &Command, prog: &str) -> Option<&'static str> {
    let a = crate::guards::argv::args(c);
    match prog {
        "manage.py" | "django-admin" | "django-admin.py" => django(c, a),
        p if p.starts_with("python") => django(c, django_args(a)?),
        "php" => php(c, a),
        "artisan" => laravel(c, a),
        "console" => symfony(c, a),
        "knex" => knex(c, a),
        "sequelize" | "sequelize-cli" => sequelize(c, a),
        p if p.starts_with("typeorm") => typeorm(c, a),
        "prisma" => prisma(c, a),
        "alembic" => alembic(a),
        "dbmate" => dbmate(c, a),
        "migrate" => golang_migrate(a),
        _ => None,
    }
}

/// The values the command is given for `var` (a wrapper `VAR=VALUE`).
fn env<'a>(c: &'a Command, var: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    (c.wrappers.iter()).filter_map(move |w| w.strip_prefix(var)?.strip_prefix('='))
}

/// `python [opts] manage.py CMD …`, `python -m django CMD …`: the words from CMD on.
fn django_args(a: &[Arg]) -> Option<&[Arg]> {
    let mut i = 0;
    while let Some(x) = a.get(i) {
        match x.text.as_str() {
            "-m" => return (a.get(i + 1)?.text == "django").then(|| a.get(i + 2..))?,
            "-W" | "-X" => i += 2,
            // Code or a script from stdin: not a management command.
            "-c" | "-" => return None,
            t if t.starts_with('-') => i += 1,
            t => {
                let script = matches!(basename(t), "manage.py" | "django-admin.py");
                return script.then(|| a.get(i + 1..))?;
            }
        }
    }
    None
}

/// Django's commands that change the database or run code with the settings they are given.
const DJANGO_CHANGES: [(&str, &str); 12] = [
    ("migrate", SCHEMA),
    ("flush", DATA),
    ("reset_db", DATA),
    ("loaddata", RUNS),
    ("shell", RUNS),
    ("shell_plus", RUNS),
    ("dbshell", RUNS),
    ("runscript", RUNS),
    ("createsuperuser", RUNS),
    ("changepassword", RUNS),
    ("createcachetable", SCHEMA),
    ("remove_stale_contenttypes", DATA),
];

/// `manage.py CMD [opts]`: CMD is one of `DJANGO_CHANGES` and the settings module
/// (`--settings`, `DJANGO_SETTINGS_MODULE`) or the database alias (`--database`) names
/// production.
fn django(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &["--settings", "--pythonpath", "--database", "-v"]);
    let cmd = ops.first()?.text.as_str();
    let why = DJANGO_CHANGES.iter().find(|(n, _)| *n == cmd)?.1;
    let named = (option_values(a, None, "--settings").into_iter())
        .chain(option_values(a, None, "--database"))
        .chain(env(c, "DJANGO_SETTINGS_MODULE"))
        .any(names_production);
    named.then_some(why)
}

/// `php [opts] artisan CMD …`, `php bin/console CMD …`.
fn php(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let script = operands(a, &["-d", "-c", "-z"]).first().copied()?;
    let at = a.iter().position(|x| std::ptr::eq(x, script))?;
    let rest = a.get(at + 1..)?;
    match basename(&script.text) {
        "artisan" => laravel(c, rest),
        "console" => symfony(c, rest),
        _ => None,
    }
}

/// Whether `word` names the console command `full`, as Symfony's console (which Laravel's
/// artisan is built on) resolves it: each `:` part a prefix of the command's part
/// (`d:m:m` is `doctrine:migrations:migrate`, `mig:fr` is `migrate:fresh`).
fn abbreviates(word: &str, full: &str) -> bool {
    let mut words = word.split(':');
    let mut parts = full.split(':');
    loop {
        match (words.next(), parts.next()) {
            (None, None) => return true,
            (Some(w), Some(p)) if !w.is_empty() && p.starts_with(w) => {}
            _ => return false,
        }
    }
}

/// The console command among `table` that `word` names.
fn console_command(word: &str, table: &[(&str, &'static str)]) -> Option<&'static str> {
    (table.iter())
        .find(|(full, _)| abbreviates(word, full))
        .map(|(_, why)| *why)
}

/// Laravel's commands that ask before they run in production (`ConfirmableTrait`): `--force`
/// answers that question before it is asked.
const LARAVEL_CONFIRMABLE: [(&str, &str); 9] = [
    ("migrate", SCHEMA),
    ("migrate:fresh", DATA),
    ("migrate:refresh", DATA),
    ("migrate:reset", DATA),
    ("migrate:rollback", SCHEMA),
    ("migrate:install", SCHEMA),
    ("db:wipe", DATA),
    ("db:seed", RUNS),
    ("key:generate", RUNS),
];

/// Laravel's other commands that act on the environment's database, cache, queue or site.
const LARAVEL_CHANGES: [(&str, &str); 7] = [
    ("tinker", RUNS),
    ("db", RUNS),
    ("down", super::clis::SERVICE),
    ("queue:clear", DATA),
    ("queue:flush", DATA),
    ("queue:restart", super::clis::SERVICE),
    ("cache:clear", DATA),
];

/// `php artisan CMD [--env=production] [--force]`, or `APP_ENV=production`; `--pretend`
/// only prints the queries.
fn laravel(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let cmd = operands(a, &["--env", "--database", "--path", "--class"])
        .first()?
        .text
        .as_str();
    if given(a, &["--pretend"]) {
        return None;
    }
    let production = (option_values(a, None, "--env").into_iter())
        .chain(env(c, "APP_ENV"))
        .any(production_env);
    let confirmable = console_command(cmd, &LARAVEL_CONFIRMABLE);
    if let Some(why) = confirmable.filter(|_| production || given(a, &["--force"])) {
        return Some(why);
    }
    production
        .then(|| console_command(cmd, &LARAVEL_CHANGES))
        .flatten()
}

/// Symfony's and Doctrine's commands that change the environment's database.
const SYMFONY_CHANGES: [(&str, &str); 14] = [
    ("doctrine:migrations:migrate", SCHEMA),
    ("doctrine:migrations:execute", SCHEMA),
    ("doctrine:migrations:rollup", SCHEMA),
    ("doctrine:migrations:version", SCHEMA),
    ("doctrine:schema:update", SCHEMA),
    ("doctrine:schema:create", SCHEMA),
    ("doctrine:schema:drop", DATA),
    ("doctrine:database:drop", DATA),
    ("doctrine:database:create", SCHEMA),
    // Purges every table before loading, unless `--append`.
    ("doctrine:fixtures:load", DATA),
    ("doctrine:query:sql", RUNS),
    ("dbal:run-sql", RUNS),
    ("cache:pool:clear", DATA),
    ("messenger:failed:remove", DATA),
];

/// `bin/console CMD --env=prod` (or `-e prod`, `APP_ENV=prod`); `--dry-run` and
/// `--dump-sql` only print.
fn symfony(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let cmd = operands(a, &["--env", "-e", "--em", "--connection", "--conn"])
        .first()?
        .text
        .as_str();
    if given(a, &["--dry-run", "--dump-sql", "--write-sql"]) {
        return None;
    }
    let production = (option_values(a, Some("-e"), "--env").into_iter())
        .chain(env(c, "APP_ENV"))
        .any(production_env);
    production
        .then(|| console_command(cmd, &SYMFONY_CHANGES))
        .flatten()
}

/// Whether the environment named by `--env` (or `NODE_ENV`), or one of the files or
/// addresses given with `files`, is production.
fn node_production(c: &Command, a: &[Arg], files: &[(Option<&str>, &str)]) -> bool {
    let named = (option_values(a, None, "--env").into_iter())
        .chain(env(c, "NODE_ENV"))
        .any(production_env);
    named
        || (files.iter())
            .flat_map(|(short, long)| option_values(a, *short, long))
            .any(names_production)
}

/// `knex migrate:latest|up|down|rollback|unlock`, `seed:run` with `--env production`,
/// `NODE_ENV=production` or a production knexfile; `migrate:status`, `migrate:list` and
/// `migrate:make` only read or write a file.
fn knex(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let valued = ["--env", "--knexfile", "--cwd", "--client", "--connection"];
    let cmd = operands(a, &valued).first()?.text.as_str();
    let why = match cmd {
        "migrate:latest"
        | "migrate:up"
        | "migrate:down"
        | "migrate:rollback"
        | "migrate:unlock"
        | "migrate:forceFreeMigrationsLock" => SCHEMA,
        "seed:run" => RUNS,
        _ => return None,
    };
    let files = [(None, "--knexfile"), (None, "--connection")];
    node_production(c, a, &files).then_some(why)
}

/// `sequelize db:migrate[:undo[:all]]`, `db:seed…`, `db:create` with `--env production`, a
/// production `--url` or `--config`, or `NODE_ENV=production` (`db:drop` is `databases`').
fn sequelize(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let valued = [
        "--env",
        "--url",
        "--config",
        "--options-path",
        "--to",
        "--seed",
    ];
    let cmd = operands(a, &valued).first()?.text.as_str();
    let why = match cmd {
        "db:migrate" | "db:migrate:undo" | "db:create" => SCHEMA,
        "db:migrate:undo:all" | "db:seed:undo" | "db:seed:undo:all" => DATA,
        "db:seed" | "db:seed:all" => RUNS,
        _ => return None,
    };
    let files = [(None, "--url"), (None, "--config")];
    node_production(c, a, &files).then_some(why)
}

/// `typeorm migration:run|revert`, `schema:sync`, `query` with a production data source
/// (`-d src/data-source.prod.ts`) or `NODE_ENV=production`.
fn typeorm(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let cmd = operands(a, &["-d", "--dataSource", "-t", "--transaction"])
        .first()?
        .text
        .as_str();
    let why = match cmd {
        "migration:run" | "migration:revert" | "schema:sync" => SCHEMA,
        "query" | "cache:clear" => RUNS,
        _ => return None,
    };
    let files = [(Some("-d"), "--dataSource")];
    node_production(c, a, &files).then_some(why)
}

/// `prisma db push|execute|seed` against a production schema file or database address
/// (`--schema`, `--url`, `DATABASE_URL`); `migrate deploy` and `migrate reset` are
/// `databases`' whatever the database.
fn prisma(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &["--schema", "--url", "--file"]);
    let words: Vec<&str> = ops.iter().take(2).map(|o| o.text.as_str()).collect();
    let why = match words.as_slice() {
        ["db", "push"] => SCHEMA,
        ["db", "execute" | "seed"] => RUNS,
        _ => return None,
    };
    let named = (option_values(a, None, "--schema").into_iter())
        .chain(option_values(a, None, "--url"))
        .chain(env(c, "DATABASE_URL"))
        .any(names_production);
    named.then_some(why)
}

/// `alembic [-c alembic.prod.ini] [-n production] [-x env=prod] upgrade|downgrade|stamp`;
/// `--sql` only prints the SQL.
fn alembic(a: &[Arg]) -> Option<&'static str> {
    let valued = ["-c", "--config", "-n", "--name", "-x"];
    let cmd = operands(a, &valued).first()?.text.as_str();
    if !matches!(cmd, "upgrade" | "downgrade" | "stamp") || given(a, &["--sql"]) {
        return None;
    }
    let named = (option_values(a, Some("-c"), "--config").into_iter())
        .chain(option_values(a, Some("-n"), "--name"))
        .chain(option_values(a, Some("-x"), "-x"))
        .any(names_production);
    named.then_some(SCHEMA)
}

/// `dbmate up|migrate|rollback|down|load` with a production `--url`, `--env` (the variable
/// holding the address), `--env-file` or `DATABASE_URL` (`drop` is `databases`').
fn dbmate(c: &Command, a: &[Arg]) -> Option<&'static str> {
    let valued = [
        "-u",
        "--url",
        "-e",
        "--env",
        "--env-file",
        "-d",
        "--migrations-dir",
    ];
    let cmd = operands(a, &valued).first()?.text.as_str();
    let why = match cmd {
        "up" | "migrate" | "rollback" | "down" => SCHEMA,
        "load" => DATA,
        _ => return None,
    };
    let named = (option_values(a, Some("-u"), "--url").into_iter())
        .chain(option_values(a, Some("-e"), "--env"))
        .chain(option_values(a, None, "--env-file"))
        .chain(env(c, "DATABASE_URL"))
        .any(names_production);
    named.then_some(why)
}

/// golang-migrate: `migrate -database URL -path DIR up|down|goto V|force V` against a
/// production address (`drop` is `databases`' whatever the address).
fn golang_migrate(a: &[Arg]) -> Option<&'static str> {
    let mut urls = option_values(a, None, "-database");
    urls.extend(option_values(a, None, "--database"));
    if urls.is_empty() {
        return None;
    }
    let valued = [
        "-database",
        "--database",
        "-path",
        "--path",
        "-source",
        "--source",
        "-lock-timeout",
        "-prefetch",
    ];
    let cmd = operands(a, &valued).first()?.text.as_str();
    let changes = matches!(cmd, "up" | "down" | "goto" | "force");
    (changes && urls.into_iter().any(names_production)).then_some(SCHEMA)
}

#[cfg(test)]
mod tests {
    use super::abbreviates;

    #[test]
    fn console_abbreviations() {
        assert!(abbreviates("d:m:m", "doctrine:migrations:migrate"));
        assert!(abbreviates("migrate", "migrate"));
        assert!(abbreviates("mig:fr", "migrate:fresh"));
        assert!(!abbreviates("migrate:status", "migrate"));
        assert!(!abbreviates("migrate", "migrate:fresh"));
        assert!(!abbreviates("d::m", "doctrine:migrations:migrate"));
        assert!(!abbreviates("m:s", "migrate:fresh"));
    }
}
