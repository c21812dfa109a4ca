'use strict';
// Package entry: the native GovernanceEngine with a JS-friendly surface.
// Evaluation is computed synchronously in Rust and handed back as an already-settled Promise:
// a thread hop per call would cost 30–105 µs (DESIGN.md), the sync call a few.

const native = require('./native.js');

const Native = native.GovernanceEngine;

/**
 * An output validation result. `verdict` is read at once; the rest (claims, fact checks,
 * violations, …) stays in Rust until first read, because the host's hook needs only the verdict
 * and serializing the detail would cost more than the validation itself.
 */
class OutputValidation {
  #report;
  #detail;

  constructor(report) {
    this.#report = report;
    this.verdict = report.verdict;
  }

  #all() {
    if (this.#detail === undefined) this.#detail = JSON.parse(this.#report.detailJson());
    return this.#detail;
  }

  get claims() { return this.#all().claims; }
  get factChecks() { return this.#all().factChecks; }
  get violations() { return this.#all().violations; }
  get evaluationUs() { return this.#all().evaluationUs; }
  get trust() { return this.#all().trust; }
  get skipped() { return this.#all().skipped; }
  get incomplete() { return this.#all().incomplete; }
  get error() { return this.#all().error; }
  toJSON() { return this.#all(); }
}

class GovernanceEngine extends Native {
  constructor(config = {}, options = {}) {
    try {
      super(config, options);
    } catch (err) {
      if (err && err.code === 'GOVERNANCE_CONFIG_INVALID') err.details = Native.validateConfig(config);
      throw err;
    }
  }

  /** Verdict for one request, computed on the calling thread. */
  evaluateSync(request) {
    return JSON.parse(this.evaluateJson(JSON.stringify(request)));
  }

  /** Same verdict as a settled Promise (the async shape `before_tool_call` handlers use). */
  evaluate(request) {
    try {
      return Promise.resolve(this.evaluateSync(request));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Output validation, synchronous: `{agentId?, sessionKey?, text, hook?}` → `{verdict, claims, violations, …}`. */
  validateOutput(request) {
    const { text, agentId, sessionKey, hook } = request ?? {};
    if (typeof text !== 'string' || ![agentId, sessionKey, hook].every(optionalString)) {
      // Unreadable input takes the JSON path, which audits the error and follows failMode.
      return JSON.parse(this.validateOutputJson(JSON.stringify(request ?? null)));
    }
    return new OutputValidation(this.validateOutputText(text, agentId ?? undefined, sessionKey ?? undefined, hook ?? undefined));
  }

  recordOutcome(request, outcome) {
    super.recordOutcome(JSON.stringify(request || {}), String(outcome));
  }
}

function optionalString(v) {
  return v === undefined || v === null || typeof v === 'string';
}

module.exports = {
  GovernanceEngine,
  validateConfig: Native.validateConfig,
  // Reading an audit directory without an engine (the CLI, auditors).
  auditVerifyDir: native.auditVerifyDir,
  auditQueryDir: native.auditQueryDir,
  auditExportDir: native.auditExportDir,
  auditProveDir: native.auditProveDir,
  auditPublicKey: native.auditPublicKey,
};
