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
}

export type Outcome = 'success' | 'error' | 'blocked' | 'approved' | 'denied' | 'timeout';

export interface TrustView {
  agentId: string;
  score: number;
  tier: TrustTier;
  signals: { successCount: number; violationCount: number; approvedEscalations: number; deniedEscalations: number };
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
  audit: { enabled: boolean; dir: string | null; written: number; failed: number; lastError: string | null };
  uptimeMs: number;
}

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
  recordOutcome(request: Partial<EvaluationRequest>, outcome: Outcome): void;
  /** Feeds `context.conversationContains` (user and assistant text). */
  observeMessage(sessionKey: string, text: string): void;
  endSession(sessionKey: string): void;
  /** Governance context for the agent's system prompt: trust, restrictions in effect. */
  promptContext(agentId: string): string;
  getStatus(): Status;
  getTrust(): { agents: TrustView[] };
  getTrust(agentId: string): TrustView | null;
  takeLogs(): Array<{ level: string; message: string }>;
  /** Returns once every queued audit record is on disk. */
  flush(): void;
  close(): void;
}

export declare function validateConfig(config: Record<string, unknown>): ConfigIssue[];
