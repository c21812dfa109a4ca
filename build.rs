fn main() {
    // napi-build only emits linker settings the Node addon needs; harmless for the pure core.
    if std::env::var_os("CARGO_FEATURE_NODE").is_some() {
        napi_build::setup();
    }
}
