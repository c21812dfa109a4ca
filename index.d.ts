// Types of the package entry (index.js): the native GovernanceEngine with a JS-friendly surface.

export type Action = 'allow' | 'deny' | 'escalate';
export type TrustTier = 'untrusted' | 'restricted' | 'standard' | 'trusted' | 'privileged';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

/** One action to judge, as the shim builds it from a host hook. */
export interface EvaluationRequest {
  hook: 'before_tool_call' | 'message_sending' | 'before_agent_start' | 'before_prompt_build' | 'session_start';
  agentId?: string;
  /** `agent:<id>:…`; the agent is derived from it when `agentId` is absent. */
  sessionKey?: string;
  channel?: string;
  toolName?: string;
  params?: Record<string, unknown>;
  messageContent?: string;
  messageTo?: string;
  metadata?: Record<string, unknown>;
  /** Epoch milliseconds; the engine's clock when absent (replays pass recorded times). */
  timestamp?: number;
  /** The host's run and tool call ids: where the call sits in the provenance turn graph. */
  runId?: string;
  toolCallId?: string;
}

export interface ApprovalRequest {
  title: string;
  description: string;
  severity: 'info' | 'warning' | 'critical';
  timeoutMs: number;
  fallback: 'allow' | 'deny';
}

export interface Verdict {
  action: Action;
  reason: string;
  policyId?: string;
  ruleId?: string;
  risk: { level: RiskLevel; score: number };
  trust: { score: number; tier: TrustTier };
  matched: Array<{ policyId: string; ruleId: string; effect: 'allow' | 'deny' | 'escalate' | 'audit' }>;
  evaluationUs: number;
  llmEscalated: boolean;
  /** Present for escalations: maps onto the host's `requireApproval`. */
  approval?: ApprovalRequest;
  /** Present when the verdict is a failMode fallback (bad config, internal error). */
  error?: string;
  /** One-time warnings and errors for the host logger. */
  logs?: Array<{ level: 'debug' | 'info' | 'warn' | 'error'; message: string }>;
}

export interface ConfigIssue {
  /** JSON path of the offending key, e.g. `policies[0].rules[1].conditions[0].params.command.matches`. */
  path: string;
  message: string;
}

/** Thrown by the strict constructor: `code === "GOVERNANCE_CONFIG_INVALID"`. */
export interface GovernanceConfigError extends Error {
  code: 'GOVERNANCE_CONFIG_INVALID';
  details: ConfigIssue[];
}

export interface EngineOptions {
  /** Base directory for `governance/` (audit, trust) unless the config sets `workspace`. */
  stateDir?: string;
  /** Throw on a bad config (default true). With false the engine follows `failMode` on every call. */
  strict?: boolean;
  /** Where the host's agents work and keep their config: what guards resolve paths against. */
  host?: HostPaths;
}

export interface HostPaths {
  /** `~` (default: the engine process's HOME). */
  home?: string;
  /** OpenClaw's state dir (`~/.openclaw`): its config and plugins, which self-protection guards. */
  openclawDir?: string;
  /** Agent id → workspace (`agents.list[].workspace`): relative paths start there. */
  workspaces?: Record<string, string>;
  /** `agents.defaults.workspace`, else the host's default workspace. */
  defaultWorkspace?: string;
}

export type Outcome = 'success' | 'error' | 'blocked' | 'approved' | 'denied' | 'timeout';

export interface TrustView {
  agentId: string;
  score: number;
  tier: TrustTier;
  signals: {
    successCount: number; violationCount: number; approvedEscalations: number; deniedEscalations: number;
    ageDays: number; cleanStreak: number; manualAdjustment: number;
  };
  history?: Array<{ timestamp: string; type: string; delta: number; reason?: string }>;
  locked?: TrustTier;
  floor?: number;
  effective: { score: number; tier: TrustTier };
  ceiling?: { score: number; from: string; ancestors: string[] };
}

export interface TrustChange {
  agentId: string;
  change: string;
  from: { score: number; tier: TrustTier };
  to: { score: number; tier: TrustTier };
}

export interface Status {
  version: string;
  enabled: boolean;
  configValid: boolean;
  configErrors: ConfigIssue[];
  failMode: 'open' | 'closed';
  unknownToolAction: string;
  timezone: string;
  policies: Array<{ id: string; name: string; builtin: boolean; priority: number; rules: number; hooks: string[] }>;
  evaluations: number;
  allowed: number;
  denied: number;
  escalated: number;
  errorFallbacks: number;
  audit: {
    enabled: boolean; dir: string | null; written: number; failed: number; lastError: string | null;
    /** `audit.witnesses`, each with the newest checkpoint of this log it cosigned (null: none). */
    witnesses: Array<{ name: string; key: string; cosigned: { size: number; time: number } | null }>;
  };
  uptimeMs: number;
}

export type ProvenanceLevel = 'system' | 'owner' | 'local' | 'shared' | 'external' | 'untrusted';

export declare class GovernanceEngine {
  /** @throws {GovernanceConfigError} when `strict` (the default) and the config is invalid. */
  constructor(config?: Record<string, unknown>, options?: EngineOptions);
  /** Every problem in a config; empty when valid. */
  static validateConfig(config: Record<string, unknown>): ConfigIssue[];
  /** The verdict as an already-settled Promise (computed synchronously, no thread hop). */
  evaluate(request: EvaluationRequest): Promise<Verdict>;
  evaluateSync(request: EvaluationRequest): Verdict;
  /** JSON in, JSON out: the cheapest crossing. Never throws; bad input follows failMode. */
  evaluateJson(request: string): string;
  /** `evaluateJson` for a `before_tool_call` hook: `null` when the verdict is an allow with nothing pending and no log lines (it is audited all the same). */
  evaluateToolCallJson(request: string): string | null;
  /** The host's model (`api.runtime.llm.complete` wrapped to take one JSON request and return the text, or `{text, model}` so records name the host's model) for `llm.backend` "host". */
  setHostLlm(complete: (request: string) => Promise<string | { text: string; model?: string }> | string | { text: string; model?: string }): void;
  /** One completion through the host's model: `{system?, user?, maxTokens?, model?, timeoutMs?}`; resolves with its text. */
  probeHostLlm(request: string): Promise<string>;
  /** Asks the model the questions of a verdict that came back with `pending`; resolves when the answers are in. */
  askPending(pending: number): Promise<void>;
  /** The verdict of a pending call once `askPending` resolved, as `evaluateJson` returns it (and recorded). */
  finishPending(pending: number): string;
  recordOutcome(request: Partial<EvaluationRequest>, outcome: Outcome): void;
  /** Output validation (seed 000), synchronous; audited as output_pass | output_flag | output_block. */
  /**
   * `verdict` is an own property, read at once; `claims`, `factChecks`, `violations` and the rest
   * are getters that read the native result on first access (the host's hook needs only the
   * verdict), so `Object.keys` and `{...result}` show only `verdict`: use `result.toJSON()` (or
   * `JSON.stringify`) for a plain copy. A failure comes back with `error`: `pass` by default,
   * `block` with `failMode: "closed"`. The native detail is let go on first read (JS keeps the
   * parsed copy) or when the result is garbage-collected unread.
   */
  validateOutput(request: { agentId?: string; sessionKey?: string; text: string; hook?: string }): OutputResult;
  /** How many validations' detail is held natively (neither read nor collected yet). */
  heldOutputs(): number;
  /** The whole result as one JSON string. */
  validateOutputJson(request: string): string;
  /** Adds or replaces (by id) one fact, typed or flat, in registry `registryId`; returns the fact id. */
  updateFact(registryId: string, fact: Record<string, unknown>): string;
  /** One Trace-to-Facts bridge pass now (also runs every traceBridge.intervalSeconds); null when not configured. */
  runTraceBridge(): { filesRead: number; corrections: number; added: number; updated: number; problems: string[] } | null;
  /**
   * Provenance (seed 004), when `provenance` is on; each returns the trust level recorded
   * (`system | owner | local | shared | external | untrusted`) or null when provenance is off.
   * A tool's result entered its session (after_tool_call); only the SHA-256 of `content` is kept.
   */
  observeToolResult(request: Partial<EvaluationRequest>, content?: string): ProvenanceLevel | null;
  /** A run began (before_agent_run): the owner's words taint nothing, a stranger's are external, a sub-agent's result brings its taint. */
  observeInbound(inbound: { sessionKey: string; senderIsOwner?: boolean; channel?: string; senderId?: string; provenanceKind?: string; sourceSessionKey?: string; sourceTool?: string; runId?: string; agentId?: string; prompt?: string }): ProvenanceLevel | null;
  /** A model call began (model_call_started); its number in the run, for `iteration_gte`. */
  observeModelCall(sessionKey: string, runId: string): number | null;
  /** A run ended (agent_end): its turn graph is finished, and persisted when a `persist_graph` policy held. */
  observeRunEnd(sessionKey: string, runId?: string, durationMs?: number): void;
  /** The session's turn graphs (seed 004): the open turn, the recent finished ones and the newest persisted; null when provenance is off. */
  provenanceGraph(sessionKey: string): ProvenanceGraphs | null;
  /** The session's context was replaced (a reset, not a compaction); true when it held taint. */
  resetProvenance(sessionKey: string): boolean;
  /**
   * The tools of `offered` to give the model when a run of the session starts (before_prompt_build
   * → toolsAllow), or null when no `remove_tools` policy holds for it.
   */
  provenanceToolsAllowed(sessionKey: string, offered: string[]): string[] | null;
  /** What the session's context holds: the first source of each level, or null. */
  sessionTaint(sessionKey: string): { sources: Array<{ level: ProvenanceLevel; via: string; what?: string; atMs: number; sha256?: string }>; more: number } | null;
  /** Feeds `context.conversationContains` (user and assistant text). */
  observeMessage(sessionKey: string, text: string): void;
  endSession(sessionKey: string): void;
  /** Governance context for the agent's system prompt: trust, restrictions in effect. */
  promptContext(agentId: string): string;
  getStatus(): Status;
  getTrust(): { agents: TrustView[] };
  /** With a sub-agent `sessionKey`, `effective` and `ceiling` show what its ancestors allow. */
  getTrust(agentId: string, sessionKey?: string): TrustView | null;
  /** Operator change (`/trust`, `governance.trust.set`); `by` is recorded in the audit trail. */
  setTrust(agentId: string, op: 'set' | 'lock' | 'unlock' | 'floor' | 'reset', value: string | undefined, by: string): TrustChange;
  /** From `subagent_spawned`: the child session is bound by the requester's policies and trust. */
  registerSubagent(childSessionKey: string, requesterSessionKey: string, childAgentId?: string): void;
  /** From `subagent_ended` / `session_end`. */
  endSubagent(childSessionKey: string): void;
  /** Effective policies (own, inherited from whom, global), trust and ceiling; with `tool`, a dry run. */
  explain(who: string, tool?: string, params?: Record<string, unknown>): Record<string, unknown>;
  agentGraph(): { relationships: Array<{ parentAgentId: string; parentSessionKey: string; childAgentId: string; childSessionKey: string; createdAt: number }> };
  takeLogs(): Array<{ level: string; message: string }>;
  /** Records of this engine's audit trail matching the filter (newest `limit`). */
  auditQuery(filter?: AuditFilter): AuditRecord[];
  /** Verifies this engine's trail and checkpoints against its own signing key. */
  auditVerify(): VerifyReport;
  /** Returns once every queued audit record is on disk. */
  flush(): void;
  /** Flushes and signs a checkpoint covering every record so far. */
  checkpoint(): void;
  close(): void;
}

export declare function validateConfig(config: Record<string, unknown>): ConfigIssue[];

export type ClaimCategory = 'system_state' | 'entity_name' | 'existence' | 'operational_status' | 'capability' | 'self_referential';

export interface DetectedClaim {
  category: ClaimCategory;
  detectorId: string;
  matchedText: string;
  offset: number;
  subject: string;
  assertion: string;
  negative: boolean;
  confidence: number;
  name?: string;
}

export interface OutputResult {
  verdict: 'pass' | 'flag' | 'block';
  claims: DetectedClaim[];
  factChecks: Array<{ status: 'no_fact_found' | 'confirmed' | 'contradicted' | 'expired_fact'; factId?: string; expected?: string; claimed?: string }>;
  violations: Array<{ claim: DetectedClaim; reason: string; severity: 'low' | 'medium' | 'high'; contradictedFactId?: string; expected?: string }>;
  evaluationUs: number;
  trust: { score: number; tier: TrustTier };
  /** Why validation did not run (disabled, short text, exempt agent, trust above the threshold). */
  skipped?: string;
  /** Set when validation failed open. */
  error?: string;
}

export interface AuditFilter {
  agent?: string;
  session?: string;
  /** Epoch ms, ISO 8601 or YYYY-MM-DD (inclusive). */
  from?: number | string;
  to?: number | string;
  verdict?: string;
  policy?: string;
  rule?: string;
  risk?: RiskLevel;
  hook?: string;
  category?: string;
  limit?: number;
}

/** A stored record (see README "The audit trail"); `hash` is its RFC 6962 leaf hash. */
export type AuditRecord = Record<string, unknown> & { seq: number; hash: string; prevHash: string; verdict: string };

export interface VerifyReport {
  valid: boolean;
  records: number;
  firstSeq: number;
  files: number;
  headHash: string;
  checkpoints: number;
  lastCheckpoint: {
    origin: string; size: number; rootHash: string; timestamp: number;
    /** The consistency proof from the earlier checkpoint of size `from` (RFC 9162), hex hashes. */
    link?: { from: number; proof: string[] };
    /** Written at start: records the previous run left without a checkpoint (a crash). */
    recovered?: number;
  } | null;
  signaturesChecked: boolean;
  /** Records after the newest checkpoint (a failure unless `allowTail`). */
  uncovered: number;
  /** With `since`: how the log was shown to extend the saved checkpoint. */
  since?: { size: number; timestamp?: number; provenBy: 'records' | 'proofs' | 'none' };
  /** The `governance.retention` record that announced the removal of the records before `firstSeq`. */
  retention?: { seq: number; timestamp: number; details: Record<string, unknown> };
  /** With `witnesses`: what each cosigned, and the records after what they all cosigned. */
  witnessed?: {
    witnesses: Array<{ name: string; key: string; cosigned: { size: number; time: number } | null }>;
    /** The log size every named witness has cosigned (the smallest of their newest). */
    covered: number;
    /** Records after that (a failure unless `allowTail`). */
    uncovered: number;
  };
  recordedBreaks: unknown[];
  tornLinesRecovered: number;
  problems: Array<{ seq?: number; file?: string; line?: number; reason: string }>;
}

export interface VerifyOptions {
  /** Records after the newest checkpoint are counted and reported, not a failure (a live log). */
  allowTail?: boolean;
  /** The text of a signed checkpoint note saved earlier: the log must extend it. */
  since?: string;
  /** Witness keys (`<name>+<hash>+<base64>`): each must have cosigned a checkpoint of this log. */
  witnesses?: string[];
}

/** Verifies an audit directory; pass the pinned public key to check checkpoint signatures. */
export declare function auditVerifyDir(dir: string, publicKey?: string, options?: VerifyOptions): VerifyReport;
export declare function auditQueryDir(dir: string, filter?: AuditFilter): AuditRecord[];
export declare function auditExportDir(dir: string, filter: AuditFilter | undefined, format: 'json' | 'csv'): string;
/** The RFC 9162 consistency proof between two signed checkpoint notes, built from the log and checked. */
export declare function auditConsistencyDir(dir: string, oldNote: string, newNote: string, publicKey?: string): Record<string, unknown>;
/** The newest signed checkpoint note, as written (an auditor keeps it for `since`); null before the first. */
export declare function auditNewestCheckpoint(dir: string): string | null;
/** A record, its Merkle inclusion proof and the signed checkpoint it is proven against. */
export declare function auditProveDir(dir: string, seq: number): Record<string, unknown>;
/** The verifier key (`<name>+<hash>+<base64>`) of an existing signing key file. */
export declare function auditPublicKey(keyFile: string): string;

/** What one witness run did (`auditWitnessDir`). */
export interface WitnessReport {
  /** The witness's key, for `audit verify --witness-pubkey`. */
  witness: string;
  origin: string | null;
  /** Notes in the checkpoints file. */
  checkpoints: number;
  /** Sizes of the checkpoints this run cosigned. */
  cosigned: number[];
  /** The newest tree this witness has cosigned for the log (0: none yet). */
  size: number;
  /** Checkpoints with no proof from the newest tree accepted before them: not cosigned. */
  skipped: number[];
  firstRun: boolean;
  /** The cosignature time, seconds. */
  time: number;
}
export interface WitnessOptions {
  /** The log's public key: needed on the first run (then pinned), checked on later ones. */
  publicKey?: string;
  /** The witness's name when its key is created. */
  name?: string;
}
/**
 * Cosigns the checkpoints in `dir` that extend what this witness (its key file, created on first
 * use) cosigned before. Throws with code `GOVERNANCE_WITNESS_REFUSED` when the log does not
 * extend it (nothing is written), `GOVERNANCE_WITNESS_FAILED` when the witness cannot run.
 */
export declare function auditWitnessDir(dir: string, keyFile: string, options?: WitnessOptions): WitnessReport;
/** The verifier key of an existing witness key file. */
export declare function auditWitnessPublicKey(keyFile: string): string;

/** One run's provenance graph (seed 004 "Graph Schema"): hashes and redacted previews, never content. */
export interface TurnGraph {
  turnId: string;
  sessionKey: string;
  agentId?: string;
  timestamp: number;
  durationMs: number;
  /** False while the run goes on. */
  finished: boolean;
  nodes: Array<{
    id: string;
    kind: 'input' | 'history' | 'llm_call' | 'tool_call' | 'tool_result' | 'policy_decision';
    trust: ProvenanceLevel;
    tool?: string;
    iteration?: number;
    /** SHA-256 (hex) of the content. */
    contentHash?: string;
    /** At most 100 characters of foreign content, secrets redacted. */
    contentPreview?: string;
    blocked?: boolean;
    blockReason?: string;
    metadata: { atMs: number; source?: string; toolCallId?: string; policy?: string; rule?: string; action?: string };
  }>;
  /** `from <relation> to`. */
  edges: Array<{ from: string; to: string; relation: 'triggers' | 'produces' | 'consumes' | 'derives_from' | 'blocked_by' }>;
  summary: { maxTaint: ProvenanceLevel; externalSources: string[]; toolsBlocked: string[]; iterationCount: number };
  /** What the bounds dropped (nodes past 128 per turn, edges, summary entries past 32). */
  truncated: { nodes: number; edges: number; listed: number };
}

export interface ProvenanceGraphs {
  sessionKey: string;
  taint: { sources: Array<{ level: ProvenanceLevel; via: string; what?: string; atMs: number; sha256?: string }>; more: number } | null;
  current: TurnGraph | null;
  /** Finished turns kept in memory (up to 4), the oldest first. */
  recent: TurnGraph[];
  /** Up to 4 newest graphs persisted by any process (persist_graph) that are not in `recent`, the oldest first. */
  persisted: TurnGraph[];
}
