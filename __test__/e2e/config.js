"use strict";
// Writes and edits the host config (openclaw.json) for the e2e run.
//   node config.js base   <config-path> <run-dir> <fake-model-port> <gateway-port> <gateway-token>
//   node config.js plugin <config-path> <plugin-id> <plugin-config.json>
//   node config.js edit   <config-path> <plugin-id>   (adds policy e2e-edited while the gateway runs)
// (OCG_E2E_CONVERSATION_ACCESS=1 also sets the entry's hooks.allowConversationAccess.)
// `base` writes a fresh file with everything except the plugin; `plugin` merges the plugin's config into
// whatever the host wrote during `openclaw plugins install` (entries, install records, meta) without
// replacing the rest.
const fs = require("node:fs");
const path = require("node:path");

const [mode, configPath, ...rest] = process.argv.slice(2);

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}
function writeJson(file, value) {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + "\n");
  fs.renameSync(tmp, file);
}

if (mode === "base") {
  const [runDir, modelPort, gatewayPort, token] = rest;
  const config = {
    logging: { file: path.join(runDir, "logs", "openclaw.log") },
    gateway: { mode: "local", bind: "loopback", port: Number(gatewayPort), auth: { mode: "token", token } },
    discovery: { mdns: { mode: "off" } },
    update: { checkOnStart: false },
    // The provenance phase's page is served on 127.0.0.1, which web_fetch's SSRF guard refuses unless named here
    // (the narrowest opening; dangerouslyAllowPrivateNetwork would open every private address).
    tools: { web: { fetch: { ssrfPolicy: { allowedHostnames: ["127.0.0.1"] } } } },
    models: {
      providers: {
        fake: {
          baseUrl: `http://127.0.0.1:${modelPort}/v1`,
          apiKey: "fake-key",
          api: "openai-completions",
          models: [{
            id: "fake-model", name: "Fake model", reasoning: false, input: ["text"],
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
            contextWindow: 128000, maxTokens: 4096,
          }],
        },
      },
    },
    agents: {
      // a roster of two needs explicit ownership and an owner for ambient (system) operations
      ownership: "explicit",
      defaults: { model: "fake/fake-model", workspace: path.join(runDir, "workspace"), systemAgent: { agentId: "main" } },
      // `main` runs the tool-call and sub-agent flows; `ocg-untrusted` (trust score < 20 in the plugin config)
      // runs the output-validation turn, so that its contradicted claim is blocked rather than only flagged.
      entries: {
        main: { workspace: path.join(runDir, "workspace") },
        "ocg-untrusted": { workspace: path.join(runDir, "workspace-untrusted") },
      },
    },
  };
  fs.mkdirSync(path.dirname(configPath), { recursive: true });
  writeJson(configPath, config);
} else if (mode === "plugin") {
  const [pluginId, pluginConfigFile] = rest;
  const config = readJson(configPath);
  config.plugins ??= {};
  config.plugins.entries ??= {};
  const entry = (config.plugins.entries[pluginId] ??= {});
  entry.config = readJson(pluginConfigFile);
  // Opt-in: let the plugin's conversation hooks (before_prompt_build, llm_input, ...) register as well.
  if (process.env.OCG_E2E_CONVERSATION_ACCESS === "1") entry.hooks = { ...(entry.hooks || {}), allowConversationAccess: true };
  writeJson(configPath, config);
  console.log(JSON.stringify({ entry: { ...entry, config: "<" + path.basename(pluginConfigFile) + ">" } }));
} else if (mode === "edit") {
  // An operator's edit of the plugin config while the gateway runs: one more policy, denying a command
  // nothing else denies. The host re-registers the plugin on such an edit (HOST.md).
  const [pluginId] = rest;
  const config = readJson(configPath);
  const entry = config.plugins.entries[pluginId];
  entry.config.policies = [...(entry.config.policies || []), {
    id: "e2e-edited",
    rules: [{
      id: "edited-command",
      conditions: [{ type: "tool", name: "exec", params: { command: { contains: "OCG-E2E-EDITED" } } }],
      effect: { action: "deny", reason: "Denied by a policy added while the gateway ran" },
    }],
  }];
  writeJson(configPath, config);
  console.log(JSON.stringify({ policies: entry.config.policies.map((p) => p.id) }));
} else {
  console.error("usage: config.js base|plugin|edit ...");
  process.exit(2);
}
