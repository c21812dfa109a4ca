'use strict';
// openclaw-governance provenance: a session's turn graphs (seed 004), as the engine persisted
// them (persist_graph) or as a JSON file holds them (the governance.provenance gateway method's
// answer, one graph, or a list), printed for a terminal or written as a picture: Mermaid or DOT.
// Graph text (sources, previews, reasons) can come from a hostile page: it is escaped for each
// output, so it can neither forge lines on a terminal nor break out of a label.

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { UsageError, parseOptions, oneOf } = require('./usage.js');

const USAGE = `Usage:
  openclaw-governance provenance <sessionKey> [--dir D] [--turn ID | --all] [--format text|json|mermaid|dot] [--out FILE]
  openclaw-governance provenance --file graph.json [--turn ID | --all] [--format …] [--out FILE]

Prints a session's provenance turn graphs: the newest turn unless --turn or --all says otherwise.
D is the plugin's state directory or the OpenClaw state directory (default: $OPENCLAW_STATE_DIR or
~/.openclaw); graphs are there when a provenance policy with persist_graph held during the turn.
--file reads the answer of \`openclaw gateway call governance.provenance\`, one turn graph or a list.
--format mermaid and dot write a picture (render with mermaid-cli or \`dot -Tsvg\`).`;

const FORMATS = ['text', 'json', 'mermaid', 'dot'];

/** The directory name the engine gives a key (src/provenance/graph.rs `file_name`). */
function fileName(key) {
  const safe = Array.from(key).slice(0, 64).map((c) => (/^[A-Za-z0-9._-]$/.test(c) ? c : '_')).join('');
  const hash = crypto.createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);
  return `${safe.replace(/^\.+/, '')}-${hash}`;
}

function graphsDir(dir) {
  const state = dir || process.env.OPENCLAW_STATE_DIR || path.join(os.homedir(), '.openclaw');
  const tails = [
    ['plugins', 'openclaw-governance', 'governance', 'provenance', 'graphs'],
    ['governance', 'provenance', 'graphs'],
    ['provenance', 'graphs'],
  ];
  const found = tails.map((t) => path.join(state, ...t)).find((d) => fs.existsSync(d));
  return found || (dir && fs.existsSync(dir) ? dir : path.join(state, ...tails[0]));
}

const isGraph = (g) => g && typeof g === 'object' && typeof g.turnId === 'string' && Array.isArray(g.nodes);

/** Turn graphs in any of the shapes an operator may hold, the oldest first. */
function graphsOf(value, source) {
  let v = value;
  for (const k of ['payload', 'result', 'data']) if (v && typeof v === 'object' && !Array.isArray(v) && !isGraph(v) && v[k]) v = v[k];
  const list = isGraph(v) ? [v]
    : Array.isArray(v) ? v
      : v && typeof v === 'object'
        ? [...(Array.isArray(v.persisted) ? v.persisted : []), ...(Array.isArray(v.recent) ? v.recent : []), ...(v.current ? [v.current] : [])]
        : [];
  const graphs = list.filter(isGraph);
  if (!graphs.length) throw new Error(`${source}: no turn graph in it (expected a turn graph, a list, or {current, recent, persisted})`);
  return graphs.sort((a, b) => (a.timestamp || 0) - (b.timestamp || 0));
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${err.message}`);
  }
}

function persisted(session, dir) {
  const where = path.join(graphsDir(dir), fileName(session));
  if (!fs.existsSync(where)) {
    throw new Error(`no persisted graphs for ${session} in ${where} (a provenance policy with persist_graph must hold during a turn)`);
  }
  const files = fs.readdirSync(where).filter((f) => f.endsWith('.json'));
  return graphsOf(files.map((f) => readJson(path.join(where, f))), where);
}

// ---- rendering ---------------------------------------------------------------------------------

const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** One line, nothing a terminal acts on; at most `max` characters. */
function plain(text, max = 100) {
  const s = String(text ?? '').replace(UNSAFE, ' ');
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}

function label(n) {
  const head = [n.kind, n.tool, n.iteration ? `#${n.iteration}` : '', n.metadata?.action].filter(Boolean).join(' ');
  const lines = [`${head} · ${n.trust}`];
  if (n.metadata?.source) lines.push(plain(n.metadata.source, 60));
  if (n.contentPreview) lines.push(`“${plain(n.contentPreview, 60)}”`);
  if (n.blockReason) lines.push(`${n.blocked ? 'blocked: ' : ''}${plain(n.blockReason, 80)}`);
  if (n.contentHash) lines.push(`sha256 ${String(n.contentHash).slice(0, 12)}…`);
  return lines;
}

const FILL = { untrusted: '#f8d7da', external: '#ffe5cc', shared: '#fff3cd', local: '#e2e3e5', owner: '#d4edda', system: '#d1ecf1' };

/** Nodes and the edges between declared nodes, with ids unique across turns. */
function prepared(graphs) {
  return graphs.map((g, i) => {
    const id = (n) => `t${i + 1}_${String(n).replace(/[^A-Za-z0-9_]/g, '_')}`;
    const nodes = (g.nodes || []).map((n) => ({ ...n, key: id(n.id) }));
    const declared = new Set(nodes.map((n) => n.key));
    const relation = (r) => (/^[a-z_]{1,20}$/.test(String(r)) ? r : 'related');
    const edges = (g.edges || []).map((e) => ({ from: id(e.from), to: id(e.to), relation: relation(e.relation) }))
      .filter((e) => declared.has(e.from) && declared.has(e.to));
    return { g, nodes, edges };
  });
}

const title = (g) => `turn ${plain(g.turnId, 40)} · ${plain(g.sessionKey, 60)} · max taint ${g.summary?.maxTaint ?? '?'}`;

function mermaid(graphs) {
  // Inside a quoted label Mermaid reads entity codes; everything that could end the label or
  // start markup is written as one.
  const esc = (s) => s.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;')
    .replace(/`/g, '#96;').replace(/&/g, '#38;');
  const out = ['flowchart TD'];
  prepared(graphs).forEach(({ g, nodes, edges }, i) => {
    out.push(`  subgraph turn_${i + 1}["${esc(title(g))}"]`);
    for (const n of nodes) {
      const text = label(n).map(esc).join('<br/>');
      const [open, close] = n.kind === 'policy_decision' ? ['{{', '}}'] : n.kind === 'llm_call' ? ['([', '])'] : ['[', ']'];
      out.push(`    ${n.key}${open}"${text}"${close}`);
    }
    for (const e of edges) out.push(`    ${e.from} -- ${e.relation} --> ${e.to}`);
    out.push('  end');
    for (const n of nodes) {
      out.push(`  style ${n.key} fill:${FILL[n.trust] || '#ffffff'}${n.blocked ? ',stroke:#c00,stroke-width:3px' : ''}`);
    }
  });
  return `${out.join('\n')}\n`;
}

function dot(graphs) {
  // DOT strings: a backslash starts an escape (\N, \l), a quote ends the string.
  const esc = (s) => String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const out = ['digraph provenance {', '  rankdir=TB;', '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];'];
  prepared(graphs).forEach(({ g, nodes, edges }, i) => {
    out.push(`  subgraph cluster_${i + 1} {`, `    label="${esc(title(g))}";`);
    for (const n of nodes) {
      const shape = n.kind === 'policy_decision' ? 'hexagon' : n.kind === 'llm_call' ? 'ellipse' : 'box';
      const border = n.blocked ? ', color="#cc0000", penwidth=3' : '';
      out.push(`    "${n.key}" [label="${label(n).map(esc).join('\\n')}", shape=${shape}, fillcolor="${FILL[n.trust] || '#ffffff'}"${border}];`);
    }
    for (const e of edges) out.push(`    "${e.from}" -> "${e.to}" [label="${esc(e.relation)}"];`);
    out.push('  }');
  });
  out.push('}');
  return `${out.join('\n')}\n`;
}

function text(graphs) {
  return graphs.map((g) => {
    const s = g.summary || {};
    const t = g.truncated || {};
    const lines = [
      `turn ${plain(g.turnId)}  session ${plain(g.sessionKey)}${g.agentId ? `  agent ${plain(g.agentId)}` : ''}`,
      `  began ${new Date(g.timestamp).toISOString()}, ${g.durationMs} ms${g.finished ? '' : ' (still running)'}, ${s.iterationCount} model call(s), max taint ${s.maxTaint}`,
      `  sources: ${(s.externalSources || []).map((x) => plain(x)).join('; ') || 'none foreign'}`,
      `  blocked: ${(s.toolsBlocked || []).map((x) => plain(x)).join(', ') || 'nothing'}`,
    ];
    if (t.nodes || t.edges || t.listed) lines.push(`  truncated: ${t.nodes} nodes, ${t.edges} edges, ${t.listed} summary entries dropped`);
    for (const n of g.nodes || []) lines.push(`  ${plain(n.id, 8).padEnd(5)} ${label(n).join(' | ')}`);
    for (const e of g.edges || []) lines.push(`  ${plain(e.from, 8)} ${plain(e.relation, 20)} ${plain(e.to, 8)}`);
    return lines.join('\n');
  }).join('\n\n') + '\n';
}

const RENDER = { text, mermaid, dot, json: (graphs) => `${JSON.stringify(graphs.length === 1 ? graphs[0] : graphs, null, 2)}\n` };

function provenanceCommand(argv) {
  const { args, options, help } = parseOptions(argv, {
    command: 'provenance', values: ['dir', 'file', 'turn', 'format', 'out'], flags: ['all'],
  });
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const format = oneOf('format', options.format || 'text', FORMATS);
  if (args.length > 1) throw new UsageError(`provenance takes one session key, got ${args.length}: ${args.join(' ')}`);
  if (!options.file && !args[0]) throw new UsageError('provenance needs a session key or --file (openclaw-governance provenance --help)');
  if (options.turn && options.all) throw new UsageError('--turn and --all exclude each other');
  let graphs = options.file ? graphsOf(readJson(options.file), options.file) : persisted(args[0], options.dir);
  if (options.file && args[0]) graphs = graphs.filter((g) => g.sessionKey === args[0]);
  if (options.turn) graphs = graphs.filter((g) => g.turnId === options.turn);
  else if (!options.all) graphs = graphs.slice(-1);
  if (!graphs.length) throw new Error(`no turn ${options.turn || ''} for ${args[0] || options.file}`.replace('  ', ' '));
  const out = RENDER[format](graphs);
  if (options.out) fs.writeFileSync(options.out, out);
  else process.stdout.write(out);
  return 0;
}

module.exports = { provenanceCommand, fileName, graphsOf, mermaid, dot };
