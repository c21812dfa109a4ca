// The package as users get it: entry points, platform package, typings, and the check CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const cli = path.join(root, 'bin', 'openclaw-governance.js');

test('package.json points the host at the shim and names the platform packages in npm/', () => {
  assert.equal(pkg.name, '@vainplex/openclaw-governance');
  assert.deepEqual(pkg.openclaw.extensions, ['./plugin.js']);
  const platforms = fs.readdirSync(path.join(root, 'npm')).map((d) => JSON.parse(fs.readFileSync(path.join(root, 'npm', d, 'package.json'), 'utf8')));
  assert.deepEqual(pkg.openclaw.install.requiredPlatformPackages, platforms.map((p) => p.name));
  for (const p of platforms) assert.ok(fs.existsSync(path.join(root, p.main)), `${p.main} is what napi build produced`);
  assert.equal(require(path.join(root, pkg.main)).GovernanceEngine.name, 'GovernanceEngine');
  assert.equal(pkg.bin['openclaw-governance'], 'bin/openclaw-governance.js');
});

test('index.d.ts declares only methods the engine has', () => {
  const dts = fs.readFileSync(path.join(root, 'index.d.ts'), 'utf8');
  const body = dts.slice(dts.indexOf('export declare class GovernanceEngine'));
  const declared = [...body.matchAll(/^ {2}(?:static )?(\w+)\(/gm)].map((m) => m[1]).filter((n) => n !== 'constructor');
  const { GovernanceEngine } = require(path.join(root, 'index.js'));
  assert.ok(declared.length >= 12);
  for (const name of declared) {
    const has = typeof GovernanceEngine.prototype[name] === 'function' || typeof GovernanceEngine[name] === 'function';
    assert.ok(has, `${name} is declared but missing`);
  }
});

test('check replays the example session with the expected verdicts', () => {
  const out = execFileSync(process.execPath, [cli, 'check', '--json', '--state-dir', tempDir()], { encoding: 'utf8' });
  const rows = JSON.parse(out);
  const got = rows.map((r) => [r.action, r.ruleId ?? null]);
  assert.deepEqual(got, [
    ['allow', null],
    ['allow', null],
    ['deny', 'credential'],
    ['deny', 'destructive'],
    ['deny', 'untrusted-push'],
    ['escalate', 'production'],
    ['escalate', 'unknown-tool'],
    ['allow', null],
    ['allow', null],
    ['deny', 'night-restrict'],
  ]);
});

test('check prints a table and names the audit directory', () => {
  const dir = tempDir();
  const out = execFileSync(process.execPath, [cli, 'check', '--state-dir', dir], { encoding: 'utf8' });
  assert.match(out, /^#\s+time\s+agent\s+action\s+verdict\s+rule\s+reason\s+risk\s+µs$/m);
  assert.match(out, /10 actions: 4 allowed, 4 denied, 2 need approval/);
  assert.ok(out.includes(path.join(dir, 'governance', 'audit')));
  assert.ok(fs.readdirSync(path.join(dir, 'governance', 'audit')).some((f) => f.endsWith('.jsonl')));
});

test('check rejects a bad config naming the key, exit 1', () => {
  const dir = tempDir();
  const cfg = path.join(dir, 'bad.json');
  fs.writeFileSync(cfg, JSON.stringify({ failMode: 'closed', policies: [{ id: 'p', rules: [{ id: 'r', conditions: [{ type: 'tool', params: { command: { matches: '(?=x)' } } }], effect: { action: 'deny' } }] }] }));
  const r = spawnSync(process.execPath, [cli, 'check', '--config', cfg, '--state-dir', dir], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /policies\[0\] "p"\.rules\[0\]\.conditions\[0\]\.params\.command\.matches: invalid regex/);
});

test('the npm tarball holds what runs and nothing else, and everything it requires', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files.filter((f) => f.startsWith('examples/')), ['examples/governance.json', 'examples/session.jsonl'],
    'only what `check` replays by default; the Rust benchmarks are not for users');
  assert.deepEqual(files.filter((f) => !/^(bin\/|examples\/)/.test(f) && !f.endsWith('.node')),
    ['README.md', 'commands.js', 'index.d.ts', 'index.js', 'native.d.ts', 'native.js', 'openclaw.plugin.json', 'package.json', 'plugin.js']);
  // every relative require of a packed script resolves inside the tarball (native.js, napi-rs's
  // loader, tries one .node per platform and falls back to the platform packages)
  for (const file of files.filter((f) => f.endsWith('.js') && f !== 'native.js')) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const [, spec] of text.matchAll(/require\('(\.{1,2}\/[^']+)'\)/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      assert.ok(files.includes(target) || files.includes(`${target}.js`), `${file} requires ${spec}, which is not packed`);
    }
  }
});

test('the platform package is an optional dependency of the same version, as the host and napi-rs expect', () => {
  const platforms = fs.readdirSync(path.join(root, 'npm')).map((d) => JSON.parse(fs.readFileSync(path.join(root, 'npm', d, 'package.json'), 'utf8')));
  assert.deepEqual(Object.keys(pkg.optionalDependencies ?? {}), pkg.openclaw.install.requiredPlatformPackages);
  for (const p of platforms) {
    assert.equal(pkg.optionalDependencies[p.name], pkg.version, `${p.name} is pinned to the main package's version`);
    assert.equal(p.version, pkg.version);
    // The host checks a required platform package only where its lock entry carries os/cpu/libc
    // (listMissingRequiredPlatformPackages): without them a missing addon would go unnoticed.
    assert.ok(p.os?.length && p.cpu?.length && p.libc?.length, `${p.name} declares os, cpu and libc`);
    assert.deepEqual(p.files, [p.main]);
    assert.ok(fs.readFileSync(path.join(root, 'native.js'), 'utf8').includes(`require('${p.name}')`), 'the loader falls back to it');
  }
});
