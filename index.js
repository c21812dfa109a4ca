'use strict';
// Package entry: the native GovernanceEngine with a JS-friendly surface.
// Evaluation is computed synchronously in Rust and handed back as an already-settled Promise:
// a thread hop per call would cost 30–105 µs (DESIGN.md), the sync call a few.

const native = require('./native.js');

const Native = native.GovernanceEngine;
const encoder = new TextEncoder();

const VERDICTS = ['pass', 'flag', 'block'];

/**
 * An output validation result. `verdict` is read at once; the rest (claims, fact checks,
 * violations, …) stays in Rust until first read, because the host's hook needs only the verdict
 * and serializing the detail would cost more than the validation itself.
 */
class OutputValidation {
  #engine;
  #seq;
  #detail;

  /**
   * `code` is `sequence × 4 + verdict`, as `validateOutputUtf8` returns it; `held` lets the
   * engine drop the native detail once this result is collected unread.
   */
  constructor(engine, code, held) {
    this.#engine = engine;
    this.#seq = Math.floor(code / 4);
    this.verdict = VERDICTS[code % 4];
    held.register(this, this.#seq);
  }

  #all() {
    if (this.#detail === undefined) this.#detail = JSON.parse(this.#engine.takeOutputDetail(this.#seq));
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
    const utf8 = this.#encode(text);
    const code = super.validateOutputUtf8(utf8, this.#written, agentId ?? undefined,
      sessionKey ?? undefined, hook ?? undefined);
    return new OutputValidation(this, code, this.#held);
  }

  #held = new FinalizationRegistry((seq) => this.releaseOutput(seq));

  // One buffer per engine, reused: encoding into it costs a tenth of handing the native side a
  // 2 KB string to convert. A text that could take more than 1 MB gets a buffer of its own, so
  // none that size is kept.
  #scratch = new Uint8Array(16384);
  #written = 0;

  #encode(text) {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    const need = text.length * 3;
    if (need > 1 << 20) {
      const own = encoder.encode(text);
      this.#written = own.length;
      return own;
    }
    if (need > this.#scratch.length) this.#scratch = new Uint8Array(need);
    this.#written = encoder.encodeInto(text, this.#scratch).written;
    return this.#scratch;
  }

  recordOutcome(request, outcome) {
    super.recordOutcome(JSON.stringify(request || {}), String(outcome));
  }

  observeToolResult(request, content) {
    return super.observeToolResult(JSON.stringify(request || {}), typeof content === 'string' ? content : undefined);
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
  auditConsistencyDir: native.auditConsistencyDir,
  auditNewestCheckpoint: native.auditNewestCheckpoint,
  auditQueryDir: native.auditQueryDir,
  auditExportDir: native.auditExportDir,
  auditProveDir: native.auditProveDir,
  auditPublicKey: native.auditPublicKey,
  // A witness: cosigns the checkpoints that extend what it cosigned before (C2SP tlog-cosignature).
  auditWitnessDir: native.auditWitnessDir,
  auditWitnessPublicKey: native.auditWitnessPublicKey,
};
