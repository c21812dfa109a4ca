// Shape checks for the provenance pictures the CLI writes: each line is one of the statements the
// writer makes, labels stay inside their quotes, and every edge joins two declared nodes.
import assert from 'node:assert/strict';

const DOT_STRING = '"((?:[^"\\\\]|\\\\.)*)"';
const DOT_LINES = {
  node: new RegExp(`^ {4}${DOT_STRING} \\[label=${DOT_STRING}, shape=(box|ellipse|hexagon), fillcolor="#[0-9a-f]{6}"(, color="#[0-9a-f]{6}", penwidth=3)?\\];$`),
  edge: new RegExp(`^ {4}${DOT_STRING} -> ${DOT_STRING} \\[label="[a-z_]+"\\];$`),
  cluster: /^ {2}subgraph cluster_\d+ \{$/,
  label: new RegExp(`^ {4}label=${DOT_STRING};$`),
  close: /^ {0,2}\}$/,
  attrs: /^ {2}(rankdir=TB|node \[.*\]|edge \[.*\]);$/,
};

export function assertDot(text) {
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'digraph provenance {');
  assert.equal(lines.at(-1), '}');
  const declared = new Set();
  const edges = [];
  for (const line of lines.slice(1, -1)) {
    const kind = Object.keys(DOT_LINES).find((k) => DOT_LINES[k].test(line));
    assert.ok(kind, `not a statement the writer makes: ${JSON.stringify(line)}`);
    const m = line.match(DOT_LINES[kind]);
    if (kind === 'node') declared.add(m[1]);
    if (kind === 'edge') edges.push([m[1], m[2]]);
  }
  assert.ok(declared.size > 0 && edges.length > 0, text);
  for (const [a, b] of edges) assert.ok(declared.has(a) && declared.has(b), `edge ${a} -> ${b} joins undeclared nodes`);
  return { declared, edges };
}

const MERMAID_LINES = {
  node: /^ {4}([A-Za-z0-9_]+)(\[|\(\[|\{\{)"([^"]*)"(\]|\]\)|\}\})$/,
  edge: /^ {4}([A-Za-z0-9_]+) -- [a-z_]+ --> ([A-Za-z0-9_]+)$/,
  subgraph: /^ {2}subgraph turn_\d+\["[^"]*"\]$/,
  end: /^ {2}end$/,
  style: /^ {2}style ([A-Za-z0-9_]+) fill:#[0-9a-f]{6}(,stroke:#c00,stroke-width:3px)?$/,
};

export function assertMermaid(text) {
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'flowchart TD');
  const declared = new Set();
  const refs = [];
  for (const line of lines.slice(1)) {
    const kind = Object.keys(MERMAID_LINES).find((k) => MERMAID_LINES[k].test(line));
    assert.ok(kind, `not a statement the writer makes: ${JSON.stringify(line)}`);
    const m = line.match(MERMAID_LINES[kind]);
    if (kind === 'node') declared.add(m[1]);
    if (kind === 'edge') refs.push(m[1], m[2]);
    if (kind === 'style') refs.push(m[1]);
  }
  assert.ok(declared.size > 0 && refs.length > 0, text);
  for (const r of refs) assert.ok(declared.has(r), `${r} is not a declared node`);
}
