'use strict';
// Package entry: the native GovernanceEngine with a JS-friendly surface.
// Evaluation is computed synchronously in Rust and handed back as an already-settled Promise:
// a thread hop per call would cost 30–105 µs (DESIGN.md), the sync call a few.

const native = require('./native.js');

const Native = native.GovernanceEngine;

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
    return JSON.parse(this.validateOutputJson(JSON.stringify(request)));
  }

  recordOutcome(request, outcome) {
    super.recordOutcome(JSON.stringify(request || {}), String(outcome));
  }
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
