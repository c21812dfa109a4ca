// The manifest's configSchema (what the host validates before the plugin runs) against the native
// config resolver (what the engine accepts): both must accept and reject the same configs.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import os from "node:os";
import path from "node:path";
import Ajv from "ajv";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(path.join(ROOT, "openclaw.plugin.json"), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(manifest.configSchema);

/** Schema verdict: `null` when valid, else ajv's errors. */
function schemaErrors(config) {
  return validate(structuredClone(config)) ? null : validate.errors;
}

/** The native module, loaded on first use so that the schema tests run before `npm run build`. */
const native = () => require("../index.js");

let stateDir;
before(() => {
  // No state dir is passed, so the engine should write nothing; should a later binding fall back to
  // $OPENCLAW_STATE_DIR, keep its files out of the real ~/.openclaw all the same.
  stateDir = mkdtempSync(path.join(os.tmpdir(), "ocg-schema-"));
  process.env.OPENCLAW_STATE_DIR = stateDir;
});
after(() => rmSync(stateDir, { recursive: true, force: true }));

/** Builds the engine strictly; returns null on success, or the thrown error. */
async function nativeError(config) {
  const { GovernanceEngine } = native();
  let engine;
  try {
    engine = new GovernanceEngine(structuredClone(config), { strict: true });
  } catch (e) {
    return e;
  }
  const closed = engine.close?.();
  if (closed && typeof closed.then === "function") await closed;
  return null;
}

// ── Configs ──

/** A witness's verifier key (C2SP tlog-cosignature, signature type 0x04). */
const WITNESS = "witness.example/w1+ee9e94af+BE5dbxIqAEZef5jqQU+C8B/ig8THVhHS5+pONd+jhPmo";
const policy = (rules, extra = {}) => ({ policies: [{ id: "p", rules, ...extra }] });
const rule = (conditions, effect = { action: "deny", reason: "no" }, extra = {}) => ({ id: "r", conditions, effect, ...extra });
const withCondition = (condition) => policy([rule([condition])]);
const withEffect = (effect) => policy([rule([], effect)]);
const withMatcher = (matcher) => withCondition({ type: "tool", name: "exec", params: { command: matcher } });

/** Seed 002 §6.1: the config an existing user of the TypeScript plugin writes. */
const SEED_CONFIG = {
  enabled: true,
  timezone: "Europe/Berlin",
  policies: [
    {
      id: "forge-no-deploy",
      name: "Forge Cannot Deploy",
      version: "1.0.0",
      scope: { agents: ["forge"] },
      rules: [
        {
          id: "block-push",
          conditions: [{ type: "tool", name: "exec", params: { command: { matches: "git push.*(main|master)" } } }],
          effect: { action: "deny", reason: "Forge cannot push to main" },
        },
      ],
    },
  ],
  trust: {
    defaults: { main: 60, forge: 45, cerberus: 50, harbor: 45, atlas: 50, leuko: 40, stella: 35, vera: 50, viola: 45, "*": 10 },
  },
  builtinPolicies: {
    nightMode: { after: "23:00", before: "08:00" },
    credentialGuard: true,
    productionSafeguard: true,
    rateLimiter: { maxPerMinute: 15 },
  },
  // The seed writes backend "both"; the NATS backend does not exist yet, so that value is
  // rejected (see BAD) instead of accepted and dropped.
  audit: { backend: "local", retentionDays: 90, level: "standard" },
  llm: { enabled: false },
};

/** Every key of every section, so a key one side knows and the other does not shows up here. */
const EVERY_KEY = {
  $schema: "./node_modules/@vainplex/openclaw-governance/openclaw.plugin.json",
  enabled: true,
  timezone: "UTC",
  failMode: "closed",
  unknownToolAction: "escalate",
  workspace: path.join(os.tmpdir(), "ocg-schema-workspace-unused"),
  timeWindows: {
    office: { name: "Office hours", start: "9:00", end: "17:30", days: [1, 2, 3, 4, 5], timezone: "Europe/Berlin" },
  },
  trust: {
    enabled: true,
    defaults: { main: 60, "*": 10, forge: 45.5 },
    persistIntervalSeconds: 30,
    decay: { enabled: false, inactivityDays: 14, rate: 0.95 },
    weights: {
      agePerDay: 0.5,
      ageMax: 20,
      successPerAction: 0.1,
      successMax: 30,
      violationPenalty: -2,
      approvedEscalationBonus: 0.5,
      deniedEscalationPenalty: -3,
      cleanStreakPerDay: 0.3,
      cleanStreakMax: 20,
    },
    maxHistoryPerAgent: 50,
  },
  // Disabled so that naming a workspace starts no audit writer in this test.
  audit: {
    enabled: false,
    backend: "local",
    retentionDays: 30,
    verifyOnStartup: false,
    redactPatterns: ["token=\\w+", "(?i)bearer\\s+\\S+"],
    level: "verbose",
    flushIntervalMs: 250,
    syncOnBlock: false,
  },
  approval: { enabled: true, timeoutSeconds: 120, defaultFallback: "deny", maxPendingPerAgent: 5 },
  llm: {
    enabled: false,
    endpoint: "http://localhost:11434/v1",
    model: "mistral:7b",
    apiKey: "sk-test",
    timeoutMs: 2000,
    escalationThreshold: 60,
    minRiskForEscalation: 25,
    maxConcurrent: 4,
    cacheResults: false,
    cacheTtlSeconds: 0,
  },
  toolRiskOverrides: { exec: 80, my_tool: 0 },
  builtinPolicies: {
    nightMode: { enabled: true, after: "22:00", before: "7:00", timezone: "Europe/Berlin" },
    credentialGuard: { enabled: true },
    productionSafeguard: { enabled: false },
    rateLimiter: { enabled: true, maxPerMinute: 30 },
  },
  performance: { maxEvalUs: 2000, maxContextMessages: 20, frequencyBufferSize: 500 },
  outputValidation: {
    enabled: true, minTextLength: 20, exempt: ["bot-*"],
    factRegistries: [{ id: "r", facts: [
      { id: "f", category: "system_state", subject: "nginx", value: { type: "state", state: "installed" } },
      { subject: "redis", predicate: "running", value: true, source: "trace" },
    ] }, { filePath: "~/facts.json" }],
    customDetectors: [{ id: "d", category: "existence", patterns: ["no (\\w+) here"] }],
    agentOverrides: [{ agent: "main", profile: "lenient" }],
    hooks: { llmOutput: true },
  },
  policies: [
    {
      id: "all-keys",
      name: "All keys",
      version: "2.0.0",
      description: "Uses every policy, scope and rule key",
      enabled: true,
      priority: 10,
      scope: { agents: ["forge", "atlas*"], excludeAgents: "main", channels: ["webchat"], hooks: ["before_tool_call", "message_sending"] },
      rules: [
        {
          id: "escalate-all",
          description: "every escalate key",
          conditions: [],
          effect: { action: "escalate", to: "human", reason: "check", timeout: 600, fallback: "deny", severity: "critical" },
          minTrust: "restricted",
          maxTrust: "trusted",
        },
        { id: "audit-all", effect: { action: "audit", level: "verbose" } },
        { id: "allow", effect: { action: "allow" } },
      ],
    },
  ],
};

const EVERY_CONDITION = policy([
  rule([
    {
      type: "tool",
      name: ["exec", "process*"],
      params: {
        command: { matches: "^rm\\s" },
        cwd: { startsWith: "/srv" },
        "options.target": { contains: "prod" },
        force: { equals: true },
        mode: { in: ["a", 1, true] },
      },
    },
    { type: "time", window: "office", after: "08:00", before: "18:00", days: [0, 6], timezone: "America/New_York" },
    { type: "agent", id: "forge", trustTier: ["standard", "trusted"], minScore: 10, maxScore: 90.5 },
    {
      type: "context",
      conversationContains: ["deploy", "release"],
      messageContains: "password",
      hasMetadata: ["threadId"],
      channel: "webchat",
      sessionKey: "agent:forge:*",
    },
    { type: "risk", minRisk: "medium", maxRisk: "critical" },
    { type: "frequency", maxCount: 0, windowSeconds: 604800, scope: "global" },
    { type: "any", conditions: [{ type: "risk", minRisk: "high" }, { type: "agent", trustTier: "untrusted" }] },
    { type: "not", condition: { type: "tool", name: "read" } },
  ]),
]);
EVERY_CONDITION.timeWindows = { office: { start: "09:00", end: "17:00" } };

const GOOD = [
  ["empty config", {}],
  ["llmValidator off", { outputValidation: { llmValidator: { enabled: false, model: "m", maxTokens: 500, timeoutMs: 5000, externalChannels: ["twitter", "email"], externalCommands: "bird tweet" } } }],
  ["llmValidator on (seed 001 §8.1)", { outputValidation: { llmValidator: { enabled: true, model: "gemini/flash", failMode: "closed" } } }],
  ["llmValidator present means on", { outputValidation: { llmValidator: { externalChannels: ["twitter"] } } }],
  ["llm on, the host's model", { llm: { enabled: true, failMode: "closed" } }],
  ["llm on, an OpenAI-compatible endpoint", { llm: { enabled: true, backend: "openai", endpoint: "http://localhost:11434/v1", model: "m" } }],
  ["an intent condition with the llm on", { llm: { enabled: true }, policies: [{ id: "p", rules: [{ id: "r", conditions: [{ type: "intent", description: "deletes data", confidence: 0.8 }], effect: { action: "deny", reason: "x" } }] }] }],
  ["seed 002 §6.1 config", SEED_CONFIG],
  ["every key of every section", EVERY_KEY],
  ["every condition type with every key", EVERY_CONDITION],
  ["nightMode with start/end aliases", { builtinPolicies: { nightMode: { start: "22:30", end: "6:00", timezone: "Europe/Berlin" } } }],
  ["nightMode, rate limiter, guards as plain booleans", { builtinPolicies: { nightMode: true, credentialGuard: false, productionSafeguard: true, rateLimiter: true } }],
  ["builtin settings with enabled: false", { builtinPolicies: { nightMode: { enabled: false }, rateLimiter: { enabled: false, maxPerMinute: 5 } } }],
  ["tier alias elevated (rule and agent condition)", policy([rule([{ type: "agent", trustTier: ["elevated", "trusted"] }], { action: "allow" }, { minTrust: "elevated" })])],
  ["tier as a single string", withCondition({ type: "agent", trustTier: "privileged" })],
  ["tool condition, name only", withCondition({ type: "tool", name: "exec" })],
  ["time condition, after/before only", withCondition({ type: "time", after: "23:00", before: "06:00" })],
  ["time condition, named window", { ...withCondition({ type: "time", window: "night" }), timeWindows: { night: { start: "22:00", end: "06:00" } } }],
  ["agent condition", withCondition({ type: "agent", id: ["forge", "atlas"], minScore: 0, maxScore: 100 })],
  ["context condition", withCondition({ type: "context", messageContains: ["rm -rf", "drop table"] })],
  ["risk condition", withCondition({ type: "risk", minRisk: "high" })],
  ["frequency condition", withCondition({ type: "frequency", maxCount: 5, windowSeconds: 60 })],
  ["any condition", withCondition({ type: "any", conditions: [{ type: "tool", name: "exec" }] })],
  ["not condition", withCondition({ type: "not", condition: { type: "risk", maxRisk: "low" } })],
  [
    "nested any/not",
    withCondition({
      type: "not",
      condition: {
        type: "any",
        conditions: [
          { type: "not", condition: { type: "tool", name: "read" } },
          { type: "any", conditions: [{ type: "not", condition: { type: "agent", id: "main" } }, { type: "time", days: [0] }] },
        ],
      },
    }),
  ],
  ["escalate with timeout and fallback", withEffect({ action: "escalate", to: "human", timeout: 300, fallback: "deny" })],
  ["escalate with fallback allow, approvals off", { ...withEffect({ action: "escalate", fallback: "allow" }), approval: { enabled: false } }],
  ["escalate with nothing but action", withEffect({ action: "escalate" })],
  ["deny without reason", withEffect({ action: "deny" })],
  ["audit effect", withEffect({ action: "audit", level: "minimal" })],
  ["rule without conditions", policy([{ id: "r", effect: { action: "allow" } }])],
  ["policy with empty rules", policy([])],
  ["scope lists as single strings, hook alias", policy([rule([])], { scope: { agents: "forge", hooks: "before_prompt_build" } })],
  ["param matchers: equals number", withMatcher({ equals: 5 })],
  ["param matchers: equals object", withMatcher({ equals: { a: 1 } })],
  ["param matchers: in", withMatcher({ in: [] })],
  ["redactPatterns as one string", { audit: { redactPatterns: "secret=\\S+" } }],
  ["a witness key", { audit: { witnesses: [WITNESS] } }],
  ["H:MM time", withCondition({ type: "time", after: "8:05" })],
  ["regex of exactly 500 characters", withMatcher({ matches: "a".repeat(500) })],
  ["outputValidation alias unverifiedClaimPolicy", { outputValidation: { unverifiedClaimPolicy: "flag" } }],
];

const BAD = [
  ["a witness key that is not one", { audit: { witnesses: ["witness.example/w1"] } }],
  ["witnesses as one string", { audit: { witnesses: WITNESS } }],
  ["typo in a top-level key (failmode)", { failmode: "open" }],
  ["typo in a rule key", policy([{ id: "r", condition: [], effect: { action: "allow" } }])],
  ["unknown condition type", withCondition({ type: "weather", is: "rainy" })],
  ["after: 25:00", withCondition({ type: "time", after: "25:00" })],
  ["score 150 in trust.defaults", { trust: { defaults: { main: 150 } } }],
  ["failMode maybe", { failMode: "maybe" }],
  ["param matcher with two keys", withMatcher({ matches: "rm", contains: "rf" })],
  ["unknown hook", policy([rule([])], { scope: { hooks: ["before_everything"] } })],
  ["unknown hook as a single string", policy([rule([])], { scope: { hooks: "after_everything" } })],
  ["empty param matcher", withMatcher({})],
  ["unknown param matcher", withMatcher({ endsWith: "x" })],
  ["condition without type", withCondition({ name: "exec" })],
  ["key of another condition type", withCondition({ type: "tool", minRisk: "high" })],
  ["policy without id", { policies: [{ rules: [] }] }],
  ["policy with empty id", { policies: [{ id: "", rules: [] }] }],
  ["policy with blank id", { policies: [{ id: "   ", rules: [] }] }],
  ["policy without rules", { policies: [{ id: "p" }] }],
  ["policies not a list", { policies: { id: "p", rules: [] } }],
  ["typo in a policy key", policy([], { priorty: 1 })],
  ["typo in a scope key", policy([], { scope: { agent: ["forge"] } })],
  ["scope agents not strings", policy([], { scope: { agents: [1] } })],
  ["rule without id", policy([{ effect: { action: "allow" } }])],
  ["rule without effect", policy([{ id: "r", conditions: [] }])],
  ["effect as a string", withEffect("deny")],
  ["unknown effect action", withEffect({ action: "block" })],
  ["effect without action", withEffect({ reason: "no" })],
  ["allow with a reason", withEffect({ action: "allow", reason: "x" })],
  ["deny with a level", withEffect({ action: "deny", level: "verbose" })],
  ["escalate with unknown key", withEffect({ action: "escalate", approver: "bob" })],
  ["escalate to a robot", withEffect({ action: "escalate", to: "robot" })],
  ["escalate timeout 0", withEffect({ action: "escalate", timeout: 0 })],
  ["escalate fractional timeout", withEffect({ action: "escalate", timeout: 1.5 })],
  ["escalate fallback maybe", withEffect({ action: "escalate", fallback: "maybe" })],
  ["escalate severity fatal", withEffect({ action: "escalate", severity: "fatal" })],
  ["audit level loud", withEffect({ action: "audit", level: "loud" })],
  ["unknown tier", policy([rule([], { action: "allow" }, { minTrust: "root" })])],
  ["unknown tier in an agent condition", withCondition({ type: "agent", trustTier: ["trusted", "admin"] })],
  ["agent minScore 101", withCondition({ type: "agent", minScore: 101 })],
  ["unknown risk level", withCondition({ type: "risk", minRisk: "extreme" })],
  ["frequency without windowSeconds", withCondition({ type: "frequency", maxCount: 5 })],
  ["frequency with fractional maxCount", withCondition({ type: "frequency", maxCount: 1.5, windowSeconds: 60 })],
  ["frequency scope user", withCondition({ type: "frequency", maxCount: 1, windowSeconds: 60, scope: "user" })],
  ["intent without description", withCondition({ type: "intent" })],
  ["intent with empty description", withCondition({ type: "intent", description: "" })],
  ["intent confidence 1.5", withCondition({ type: "intent", description: "x", confidence: 1.5 })],
  // Accepted before and then ignored (never matched, so a deny it guarded allowed): refused
  // until the LLM client exists.
  ["policy scoped to session_start (the host only reports it)", { policies: [{ id: "s", scope: { hooks: ["session_start"] }, rules: [{ id: "r", effect: { action: "deny" } }] }] }],
  ["escalation timeout past the host's 600 s", policy([rule([], { action: "escalate", timeout: 900 })])],
  ["any without conditions", withCondition({ type: "any", conditions: [] })],
  ["any with an invalid nested condition", withCondition({ type: "any", conditions: [{ type: "tool", nmae: "exec" }] })],
  ["not without condition", withCondition({ type: "not" })],
  ["not with an invalid nested condition", withCondition({ type: "not", condition: { type: "not", condition: { type: "nope" } } })],
  ["weekday 7", withCondition({ type: "time", days: [7] })],
  ["weekdays as a string", withCondition({ type: "time", days: "mon" })],
  ["time 12:60", withCondition({ type: "time", before: "12:60" })],
  ["time 7am", withCondition({ type: "time", after: "7am" })],
  ["context sessionKey as a list", withCondition({ type: "context", sessionKey: ["a"] })],
  ["tool name not a string", withCondition({ type: "tool", name: [1] })],
  ["regex over 500 characters", withMatcher({ matches: "a".repeat(501) })],
  ["time window without end", { timeWindows: { night: { start: "22:00" } } }],
  ["time window with unknown key", { timeWindows: { night: { start: "22:00", end: "06:00", weekdays: [1] } } }],
  ["time window start 7am", { timeWindows: { night: { start: "7am", end: "08:00" } } }],
  ["nightMode with after and its alias start", { builtinPolicies: { nightMode: { after: "23:00", start: "22:00" } } }],
  ["nightMode after 25:00", { builtinPolicies: { nightMode: { after: "25:00" } } }],
  ["nightMode as a string", { builtinPolicies: { nightMode: "yes" } }],
  ["nightMode unknown key", { builtinPolicies: { nightMode: { from: "23:00" } } }],
  ["rateLimiter maxPerMinute 0", { builtinPolicies: { rateLimiter: { maxPerMinute: 0 } } }],
  ["rateLimiter unknown key", { builtinPolicies: { rateLimiter: { perMinute: 10 } } }],
  ["credentialGuard unknown key", { builtinPolicies: { credentialGuard: { enabled: true, strict: true } } }],
  ["unknown builtin", { builtinPolicies: { sandbox: true } }],
  ["enabled as a string", { enabled: "yes" }],
  ["timezone as a number", { timezone: 5 }],
  ["unknownToolAction ask", { unknownToolAction: "ask" }],
  ["trust unknown key", { trust: { floor: 10 } }],
  ["trust.persistIntervalSeconds 1.5", { trust: { persistIntervalSeconds: 1.5 } }],
  ["trust.decay.rate 2", { trust: { decay: { rate: 2 } } }],
  ["trust.weights unknown key", { trust: { weights: { luck: 1 } } }],
  ["trust.weights out of range", { trust: { weights: { ageMax: 2000 } } }],
  ["audit level loud", { audit: { level: "loud" } }],
  ["audit backend s3", { audit: { backend: "s3" } }],
  ["audit retentionDays 0", { audit: { retentionDays: 0 } }],
  ["audit redactPatterns not strings", { audit: { redactPatterns: [1] } }],
  ["approval channel email", { approval: { channel: "email" } }],
  // Accepted before and then ignored: rejected until they do what they say.
  ["audit backend both (no NATS backend yet)", { audit: { backend: "both" } }],
  ["audit backend nats", { audit: { backend: "nats" } }],
  ["approval channel (the host's approval flow delivers)", { approval: { channel: "system_event" } }],
  ["approval target", { approval: { target: "@ops" } }],
  ["approval timeout past the host's 600 s", { approval: { timeoutSeconds: 3600 } }],
  ["llm backend unknown", { llm: { enabled: true, backend: "gpt" } }],
  ["llm endpoint not http", { llm: { enabled: true, endpoint: "ftp://x/v1" } }],
  ["llmValidator failMode unknown", { outputValidation: { llmValidator: { failMode: "maybe" } } }],
  ["llmValidator bogus key", { outputValidation: { llmValidator: { enabled: false, bogus: 1 } } }],
  ["approval unknown key", { approval: { timeout: 10 } }],
  ["llm timeoutMs 50", { llm: { timeoutMs: 50 } }],
  ["llm apiKey as a number", { llm: { apiKey: 123 } }],
  ["performance unknown key", { performance: { maxEvalMs: 5 } }],
  ["toolRiskOverrides -1", { toolRiskOverrides: { exec: -1 } }],
  ["toolRiskOverrides as a string", { toolRiskOverrides: { exec: "high" } }],
  ["outputValidation not an object", { outputValidation: "yes" }],
  ["outputValidation typo", { outputValidation: { whatever: 1 } }],
];

// Problems only the native resolver can see (a JSON Schema cannot check regex syntax for the Rust
// engine, time zone names, references to time windows or uniqueness of ids): the schema lets them
// through and the engine names the key.
const NATIVE_ONLY = [
  ["an intent condition with the llm off", withCondition({ type: "intent", description: "deletes data" }), "policies.p.r"],
  ["an intent condition inside any", { llm: { enabled: true }, ...withCondition({ type: "any", conditions: [{ type: "intent", description: "x" }] }) }, 'policies[0] "p".rules[0].conditions[0].conditions'],
  ["look-around regex", withMatcher({ matches: "(?=x)" }), 'policies[0] "p".rules[0].conditions[0].params.command.matches'],
  ["back-reference in a context regex", withCondition({ type: "context", messageContains: ["ok", "(a)\\1"] }), 'policies[0] "p".rules[0].conditions[0].messageContains[1]'],
  ["invalid redact pattern", { audit: { redactPatterns: ["("] } }, "audit.redactPatterns[0]"],
  ["a witness key whose hash is not its key's", { audit: { witnesses: [WITNESS.replace("+ee9e94af+", "+ee9e94ae+")] } }, "audit.witnesses[0]"],
  ["a log key given as a witness key", { audit: { witnesses: [WITNESS, WITNESS.replace("+BE5d", "+AU5d")] } }, "audit.witnesses[1]"],
  ["a witness listed twice", { audit: { witnesses: [WITNESS, WITNESS] } }, "audit.witnesses[1]"],
  ["unknown timezone", { timezone: "Mars/Base" }, "timezone"],
  ["unknown timezone in a condition", withCondition({ type: "time", timezone: "Mars/Base" }), 'policies[0] "p".rules[0].conditions[0].timezone'],
  ["unknown timezone in a time window", { timeWindows: { w: { start: "1:00", end: "2:00", timezone: "Mars/Base" } } }, "timeWindows.w.timezone"],
  ["unknown timezone in nightMode", { builtinPolicies: { nightMode: { timezone: "Mars/Base" } } }, "builtinPolicies.nightMode.timezone"],
  ["unknown time window", withCondition({ type: "time", window: "lunch" }), 'policies[0] "p".rules[0].conditions[0].window'],
  ["duplicate policy id", { policies: [{ id: "p", rules: [] }, { id: "p", rules: [] }] }, 'policies[1] "p".id'],
  ["duplicate rule id", policy([rule([]), rule([])]), 'policies[0] "p".rules[1].id'],
  ["fallback allow while the host runs approvals", { approval: { defaultFallback: "allow" } }, "approval.defaultFallback"],
  ["a rule's fallback allow while the host runs approvals", policy([rule([], { action: "escalate", fallback: "allow" })]), 'policies[0] "p".rules[0].effect.fallback'],
];

// ── 1. Manifest ──

describe("manifest", () => {
  it("names the plugin, starts it at startup and marks the API key sensitive", () => {
    assert.equal(manifest.id, "openclaw-governance");
    assert.equal(manifest.activation?.onStartup, true);
    assert.equal(manifest.uiHints?.["llm.apiKey"]?.sensitive, true);
    for (const key of ["name", "description", "version"]) assert.equal(typeof manifest[key], "string", key);
  });

  it("has the package's version", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    assert.equal(manifest.version, pkg.version);
  });

  it("compiles under ajv's default strict mode without warnings", () => {
    const warnings = [];
    const log = (...args) => warnings.push(args.join(" "));
    new Ajv({ logger: { log, warn: log, error: log } }).compile(manifest.configSchema);
    assert.deepEqual(warnings, []);
  });

  it("closes every object and describes every property", () => {
    const problems = [];
    // Unions chosen by one key (conditions by `type`, effects by `action`) are closed by their branches.
    const isDispatch = (node) => Array.isArray(node.allOf) && node.allOf.every((a) => a.anyOf?.some((b) => b.$ref));
    const walk = (node, at, inNot) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`, inNot));
      if (!node || typeof node !== "object") return;
      // Inside `not` a schema only tests a value ("is this a tool condition?"), it does not describe one.
      if (!inNot && node.type === "object" && node.properties && node.additionalProperties !== false && !isDispatch(node)) {
        problems.push(`${at}: object with properties but without additionalProperties: false`);
      }
      for (const [k, v] of Object.entries(node.properties ?? {})) {
        if (!inNot && typeof v?.description !== "string") problems.push(`${at}/properties/${k}: no description`);
      }
      for (const [k, v] of Object.entries(node)) {
        if (k !== "enum" && k !== "const" && k !== "default") walk(v, `${at}/${k}`, inNot || k === "not");
      }
    };
    walk(manifest.configSchema, "#", false);
    assert.deepEqual(problems, []);
  });

  it("closes outputValidation", () => {
    const ov = manifest.configSchema.properties.outputValidation;
    assert.equal(ov.additionalProperties, false);
    assert.match(ov.description, /scaled by the agent's trust/);
  });
});

// ── 2. Example config ──

describe("examples/governance.json", () => {
  it("validates against the schema", () => {
    const example = JSON.parse(readFileSync(path.join(ROOT, "examples", "governance.json"), "utf8"));
    assert.equal(schemaErrors(example), null, JSON.stringify(validate.errors, null, 2));
  });
});

// ── 3. Good and bad configs ──

describe("schema accepts good configs", () => {
  for (const [name, config] of GOOD) {
    it(name, () => assert.equal(schemaErrors(config), null, JSON.stringify(validate.errors, null, 2)));
  }
});

describe("schema rejects bad configs", () => {
  for (const [name, config] of BAD) {
    it(name, () => assert.notEqual(schemaErrors(config), null, "schema accepted it"));
  }
});

describe("schema lets through what only the native resolver can check", () => {
  for (const [name, config] of NATIVE_ONLY) {
    it(name, () => assert.equal(schemaErrors(config), null, JSON.stringify(validate.errors, null, 2)));
  }
});

// ── 4. Agreement with the native engine ──

function assertConfigError(error) {
  assert.ok(error instanceof Error, `expected an Error, got ${error}`);
  assert.equal(error.code, "GOVERNANCE_CONFIG_INVALID", error.message);
  assert.ok(Array.isArray(error.details) && error.details.length > 0, `details: ${JSON.stringify(error.details)}`);
  for (const d of error.details) {
    assert.equal(typeof d.path, "string", JSON.stringify(d));
    assert.equal(typeof d.message, "string", JSON.stringify(d));
    assert.ok(d.message.length > 0, JSON.stringify(d));
  }
}

describe("native engine (strict) agrees with the schema", () => {
  for (const [name, config] of [...GOOD, ...BAD]) {
    it(name, async () => {
      const schemaOk = schemaErrors(config) === null;
      const error = await nativeError(config);
      if (error) assertConfigError(error);
      const detail = error ? JSON.stringify(error.details) : "accepted";
      assert.equal(error === null, schemaOk, `schema ${schemaOk ? "accepts" : "rejects"}, native: ${detail}`);
    });
  }
});

// The host fills in the schema's `default`s before it hands the config to the plugin (OpenClaw
// validates plugin config with defaults applied), so the filled-in config must be accepted too.
describe("native engine accepts good configs with the schema's defaults filled in", () => {
  const hydrate = new Ajv({ strict: false, useDefaults: true }).compile(manifest.configSchema);
  for (const [name, config] of GOOD) {
    it(name, async () => {
      const filled = structuredClone(config);
      assert.ok(hydrate(filled), JSON.stringify(hydrate.errors));
      const error = await nativeError(filled);
      assert.equal(error, null, error && JSON.stringify(error.details ?? error.message));
    });
  }
});

// ... and the filled-in config must still mean what the operator wrote. The LLM backend follows
// whether `llm.endpoint` or `llm.apiKey` is present, so the schema must not fill them in: in the
// real host (e2e phase L) a default endpoint turned `{llm: {enabled: true}}` into the OpenAI
// backend aimed at localhost:11434 instead of the host's own model.
describe("the schema's defaults, as the host fills them in, keep the config's meaning", () => {
  const hydrate = new Ajv({ strict: false, useDefaults: true }).compile(manifest.configSchema);
  const backendOf = (config) => {
    const filled = structuredClone(config);
    assert.ok(hydrate(filled), JSON.stringify(hydrate.errors));
    const engine = new (native().GovernanceEngine)(filled, { strict: true });
    try {
      return engine.getStatus().llm?.backend;
    } finally {
      engine.close?.();
    }
  };
  it("llm without an endpoint or key is the host's model", () => {
    assert.equal(backendOf({ llm: { enabled: true } }), "host");
  });
  it("llm with an endpoint or a key is the OpenAI-compatible backend", () => {
    assert.equal(backendOf({ llm: { enabled: true, endpoint: "http://127.0.0.1:9/v1" } }), "openai");
    assert.equal(backendOf({ llm: { enabled: true, apiKey: "k" } }), "openai");
  });
});

describe("native engine rejects what the schema cannot see, naming the key", () => {
  for (const [name, config, key] of NATIVE_ONLY) {
    it(name, async () => {
      const error = await nativeError(config);
      assert.ok(error, "native engine accepted it");
      assertConfigError(error);
      const paths = error.details.map((d) => d.path);
      assert.ok(paths.includes(key), `expected a problem at ${key}, got ${JSON.stringify(error.details)}`);
    });
  }
});

// ── 5. README ──

describe("README", () => {
  it("contains the current configuration reference", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts", "config-reference.mjs"), "--check", "README.md"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr || r.stdout);
  });
});
